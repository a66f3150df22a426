// args: -T cs_6_0 -E main
namespace n {
    namespace m {
        uint f() { return 1; }
        struct P { uint v; };
    }
}
using n::m::g;
using n::m;
uint h() {
    using n::m::P;
    using n::m::f;
    P p;
    p.v = 2;
    return p.v;
}
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() { o[0] = h(); }
