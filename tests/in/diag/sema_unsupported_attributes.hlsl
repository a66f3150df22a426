// args: -T ps_6_0 -E main
// Combining two descriptors into one changes the descriptor set layout:
// ignoring the attribute would give two descriptors at one binding.
[[vk::combinedImageSampler]] Texture2D<float4> tex : register(t0);
[[vk::combinedImageSampler]] SamplerState smp : register(s0);

[WaveSize(32)]
float4 main(float2 uv : TEXCOORD) : SV_Target {
    return tex.Sample(smp, uv);
}
