// Tints a texture.
#include "common.hlsli"

cbuffer Tint : register(b0)
{
    float3 tint;
};

Texture2D<float4> image : register(t0);
SamplerState linear_sampler : register(s0);

float4 PSMain(float2 uv : TEXCOORD0) : SV_Target
{
    return tinted(image.Sample(linear_sampler, uv), tint);
}
