// args: -T ps_6_0 -E main
// An attribute Vulkan cannot express is a warning, not an error.
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s0);

[WaveSize(32)]
float4 main(float2 uv : TEXCOORD) : SV_Target {
    return tex.Sample(smp, uv);
}
