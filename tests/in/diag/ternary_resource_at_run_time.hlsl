// args: -T ps_6_0 -E main -HV 2021
// `?:` between samplers with a condition only the running shader knows:
// Vulkan has no sampler values to choose between.
SamplerState linear_clamp;
SamplerState point_wrap;
Texture2D<float4> albedo;
cbuffer Settings { bool use_point; };

float4 main(float2 uv : TEXCOORD0) : SV_Target0 {
    float4 fixed = albedo.Sample(true ? point_wrap : linear_clamp, uv);
    return fixed + albedo.Sample(use_point ? point_wrap : linear_clamp, uv);
}
