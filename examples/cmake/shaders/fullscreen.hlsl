// A full-screen triangle (VSMain) showing a texture (PSMain): one file, two
// entry points, two permutations.
#include "common.hlsli"

struct Varyings
{
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
};

Varyings VSMain(uint vertex : SV_VertexID)
{
    Varyings v;
    v.uv = float2((vertex << 1) & 2, vertex & 2);
    v.position = float4(v.uv * float2(2, -2) + float2(-1, 1), 0, 1);
    return v;
}

Texture2D<float4> image : register(t0);
SamplerState image_sampler : register(s1);

float4 PSMain(Varyings v) : SV_Target
{
    float4 c = image.Sample(image_sampler, v.uv);
    return float4(srgb_to_linear(c.rgb), c.a);
}
