// pass: fuse_mad -O3
// Precise vectors: the whole vector computation and a precise dot product
// are marked; the same vector expression written to a buffer is fused.
RWStructuredBuffer<float4> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float4 a = buf[0];
    float4 b = buf[1];
    float4 c = buf[2];
    precise float4 p = a * b + c;
    buf[3] = p;
    buf[4] = a * b + c;
    precise float s = dot(a, b) * c.x;
    buf[5] = s;
}
// check: fn main() {
// check: %_:float4 = precise mul %_, %_
// nextln: %_:float4 = precise add %_, %_
// not: fma
// check: %_:float4 = fma %_, %_, %_
// check: %_:float = precise dot %_, %_
// check: %_:float = precise mul %_, %_
// not: precise
// check: return
