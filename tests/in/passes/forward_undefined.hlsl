// pass: dce -O1
// A local read before anything is stored into it is undefined there, and
// zero is one of its values: computations on such locals that reach no
// output disappear with the locals.
RWStructuredBuffer<float4> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    int a, b;
    float4 x, y;
    b += a;
    y *= x;
    b /= a;
    float u;
    if (buf[0].x > 0)
        u = 2;
    buf[1] = u;
}
// check: fn src.main() {
// not: local
// not: load $
// not: div
// check: merge 2.0f32, 0.0f32
// check: return
