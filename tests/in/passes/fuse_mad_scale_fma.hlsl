// pass: dce -O1
// A vector times a scalar plus a vector still fuses: the fma takes the
// scalar splat, and nothing else is left of the multiply.
RWStructuredBuffer<float4> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float4 v = buf[0];
    float s = buf[1].x;
    buf[3] = v * s + buf[4];
}
// check: fn src.main() {
// check: %_:float4 = splat %_
// not: mul
// check: %_:float4 = fma %_, %_, %_
// check: return
