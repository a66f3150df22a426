// pass: dce -O3
// Components picked out of values whose components are known are read
// directly: `int3(c, 0).xy` is `c`, a swizzle of a swizzle is one swizzle,
// a component of a composed vector or struct is that component, and a
// vector composed of lanes of one vector is a swizzle of it.
RWStructuredBuffer<float4> buf : register(u0);
RWStructuredBuffer<int2> ints : register(u1);
struct Pair { float a; float4 b; };

[numthreads(1, 1, 1)]
void main() {
    int2 c = ints[0];
    ints[1] = int3(c, 0).xy;
    float4 v = buf[0];
    float s = buf[1].x;
    buf[2] = float4(v.x, v.z, v.y, v.w);
    buf[3] = v.wzyx.yyxx;
    Pair p = { s, v };
    buf[4] = float4(p.a, float3(s, 1, 2).yz, float2(s, v.y).y);
    buf[5] = float2(s, s).xxyy;
}
// check: fn main() {
// check: %_:int2 = load
// not: compose
// check: store %_, %_
// check: %_:float4 = swizzle %_.xzyw
// check: %_:float4 = swizzle %_.zzww
// check: %_:float4 = compose %_, 1.0f32, 2.0f32, %_
// check: %_:float4 = swizzle %_.xxxx
// check: return
