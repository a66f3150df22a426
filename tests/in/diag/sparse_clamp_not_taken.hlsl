// args: -T ps_6_0 -E main
// Only the implicit-LOD and gradient forms take a LOD clamp.
Texture2D<float4> tex;
Texture2D<float> depth;
SamplerState smp;
SamplerComparisonState cmp;

float4 main(float2 uv : TEXCOORD) : SV_Target {
    uint status;
    float4 r = tex.SampleLevel(smp, uv, 2.0, int2(0, 0), 1.5);
    r += depth.SampleCmpLevelZero(cmp, uv, 0.5, int2(0, 0), 1.5, status);
    r += tex.Gather(smp, uv, int2(0, 0), 1.5, status);
    r += tex.Sample(smp, uv, int2(0, 0), 1.5, status, status);
    return r;
}
