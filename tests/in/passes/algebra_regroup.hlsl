// pass: forward -O2
// `float4(v, 1)` is lowered as the components of `v` and 1; composed again
// of `v` itself, it is one instruction instead of four.
RWStructuredBuffer<float4> buf : register(u0);
cbuffer C { float3 v; };

[numthreads(1, 1, 1)]
void main() {
    buf[0] = float4(v, 1.0f);
}
// check: fn main() {
// check: %_:float3 = load %_
// not: compose %_, %_, %_, 1.0f32
// check: %_:float4 = compose %_, 1.0f32
// check: return
