// args: -T ps_6_0 -E main
// An `[unroll]` loop whose bound is read at run time cannot be unrolled, so
// its counter is no constant texture offset.
SamplerState s;
Texture2D<float4> t;
cbuffer Params { int taps; };
float4 main(float2 uv : UV) : SV_Target {
    float4 r = 0;
    [unroll] for (int i = 0; i < taps; ++i)
        r += t.Sample(s, uv, int2(i, 0));
    return r;
}
