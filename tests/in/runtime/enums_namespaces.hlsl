// Enums, scoped enums, namespaces, typedefs and using.
namespace geo {
    static const float PI_ISH = 3.0;
    namespace detail {
        typedef float2 Vec;
        float dot2(Vec a, Vec b) { return a.x * b.x + a.y * b.y; }
    }
    float circle(float r) { return PI_ISH * r * r; }
}

enum Kind { Zero, One, Five = 5, Six };
enum class Op : uint { Add = 1, Mul = 2 };

using namespace geo;
using V2 = geo::detail::Vec;

RWStructuredBuffer<float> output;

float apply(Op op, float a, float b) {
    return op == Op::Add ? a + b : a * b;
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    V2 v = V2(id.x, 2);
    Kind k = Six;
    output[id.x * 4 + 0] = geo::detail::dot2(v, v);
    output[id.x * 4 + 1] = circle((float)id.x);
    output[id.x * 4 + 2] = (float)k + (float)Five;
    output[id.x * 4 + 3] = apply(id.x % 2 == 0 ? Op::Add : Op::Mul, 3, (float)id.x);
}
