// args: -T ps_6_0 -E main
// A texture and a sampler on one binding are read as one combined image
// sampler descriptor: no W0601. Two textures, two samplers, or a texel
// buffer and a sampler cannot be one descriptor: W0601.
Texture2D<float4> albedo : register(t1);
SamplerState albedoSampler : register(s1);
Texture2D<float4> first : register(t2);
SamplerState pointSampler : register(s2);
[[vk::binding(2)]] Texture2D<float4> second;
[[vk::binding(3)]] SamplerState a;
[[vk::binding(3)]] SamplerState b;
Buffer<float4> texels : register(t4);
SamplerState texelSampler : register(s4);

float4 main(float2 uv : TEXCOORD0) : SV_Target {
    return albedo.Sample(albedoSampler, uv) + first.Sample(pointSampler, uv)
         + second.Sample(a, uv) + second.Sample(b, uv)
         + texels.Load(0) + albedo.Sample(texelSampler, uv);
}
