// args: -T vs_6_0 -E main
// Vertex shaders have no derivatives: no implicit-LOD sampling.
Texture2D<float4> tex;
TextureCube<float> depth;
SamplerState smp;
SamplerComparisonState cmp;

float4 main(float2 uv : TEXCOORD) : SV_Position {
    uint status;
    float4 r = tex.Sample(smp, uv, int2(0, 0), 2.0, status);
    r += depth.SampleCmp(cmp, float3(uv, 1), 0.5, 2.0);
    r += tex.SampleLevel(smp, uv, 0, int2(0, 0), status);
    return r;
}
