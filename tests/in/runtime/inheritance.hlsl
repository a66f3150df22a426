// Struct inheritance: base fields, base methods, overriding by name.
struct Shape {
    float x;
    float y;
    float area() { return 0; }
    float cx() { return x; }
};

struct Rect : Shape {
    float w;
    float h;
    float area() { return w * h; }
};

struct Square : Rect {
    float side() { return w; }
};

RWStructuredBuffer<float4> output;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Square s;
    s.x = (float)id.x;
    s.y = 2;
    s.w = 3 + (float)id.x;
    s.h = s.w;
    Shape base = (Shape)s;
    output[id.x] = float4(s.area(), s.cx(), s.side() + s.y, base.area());
}
