// args: -T ps_6_0 -E main
// A texture and a sampler with [[vk::combinedImageSampler]] are one
// descriptor only when they share a binding.
[[vk::combinedImageSampler]] Texture2D<float4> lonely : register(t1);
[[vk::combinedImageSampler]] SamplerState elsewhere : register(s2);

[[vk::combinedImageSampler]] RWTexture2D<float4> storage : register(u3);

[[vk::combinedImageSampler]] Texture2D<float4> unbound;

[[vk::combinedImageSampler]] [[vk::binding(5)]] Texture2D<float4> twinA;
[[vk::combinedImageSampler]] [[vk::binding(5)]] Texture2D<float4> twinB;
[[vk::combinedImageSampler]] [[vk::binding(5)]] SamplerState twinSampler;

[[vk::combinedImageSampler]] Texture2D<float4> arr[2] : register(t6);
[[vk::combinedImageSampler]] SamplerState arrSamplers[2] : register(s6);

[[vk::combinedImageSampler]] Texture2D<float4> tex : register(t7);
[[vk::combinedImageSampler]] SamplerState smp : register(s7);
Texture2D<float4> other : register(t8);

float4 main(float2 uv : TEXCOORD) : SV_Target {
    return other.Sample(smp, uv);
}
