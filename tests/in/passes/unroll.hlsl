// pass: unroll -O0 -T ps_6_0
// `[unroll]` loops with a counter known at compile time are unrolled at
// every level (as DXC's legalisation does): each iteration is a block in
// which the counter is a literal, so the texture offsets are constants.
// Loops that `break` are left alone.
SamplerState s;
Texture2D<float4> t;
float4 main(float2 uv : UV) : SV_Target {
    float4 r = 0;
    [unroll] for (int i = -1; i <= 1; ++i)
        r += t.Sample(s, uv, int2(i, 0));
    [unroll] for (uint j = 3; j > 0; j -= 1)
        r.x += j;
    [unroll] for (int k = 0; k < 8; ++k) {
        if (r.y > 1) break;
        r.y += k;
    }
    return r;
}
// check: store $i, -1i32
// not: loop
// check: compose -1i32, 0i32
// check: offset(
// check: compose 0i32, 0i32
// check: offset(
// check: compose 1i32, 0i32
// check: offset(
// check: store $j, 3u32
// not: loop
// check: convert 3u32
// check: convert 2u32
// check: convert 1u32
// check: loop [unroll]
