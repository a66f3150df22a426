// tonemap.hlsl — the last full-screen pass of an HDR renderer: exposure,
// a filmic tone curve, vignette, sRGB encoding and dithering (vertex and
// pixel shaders).
//
// The vertex shader draws one triangle that covers the screen from
// SV_VertexID alone (no vertex buffer): Draw(3, 1, 0, 0).
// Exposure comes from the auto-exposure pass (see histogram.hlsl) as a
// value in stops in AutoExposure[0].
//
// Compile:  hlslc -spirv -T vs_6_0 -E FullscreenVS samples/tonemap.hlsl -Fo tonemap.vs.spv
//           hlslc -spirv -T ps_6_0 -E TonemapPS samples/tonemap.hlsl -Fo tonemap.ps.spv
//
// Bindings, all in descriptor set 0 ([[vk::binding]]):
//   0  Texture2D<float4> HdrScene             sampled image
//   1  SamplerState PointClamp                sampler
//   2  cbuffer TonemapParams                  uniform buffer
//   3  StructuredBuffer<float> AutoExposure   storage buffer, read-only
// Specialization constant 0: EnableDither (default true).

#include "common.hlsli"

[[vk::binding(0)]] Texture2D<float4>       HdrScene;
[[vk::binding(1)]] SamplerState            PointClamp;
[[vk::binding(3)]] StructuredBuffer<float> AutoExposure;

[[vk::binding(2)]]
cbuffer TonemapParams
{
    float ExposureBias;      // stops added to the automatic exposure
    float VignetteStrength;  // 0 turns the vignette off
    uint  FrameIndex;        // moves the dither pattern every frame
};

[[vk::constant_id(0)]] const bool EnableDither = true;

struct FullscreenVertex
{
    float4 Position : SV_Position;
    float2 UV       : TEXCOORD0;
};

FullscreenVertex FullscreenVS(uint vertexId : SV_VertexID)
{
    FullscreenVertex output;
    FullscreenTriangle(vertexId, output.Position, output.UV);
    return output;
}

// Krzysztof Narkowicz's fit of the ACES reference tone curve.
float3 AcesFilmic(float3 x)
{
    const float a = 2.51f, b = 0.03f, c = 2.43f, d = 0.59f, e = 0.14f;
    return saturate((x * (a * x + b)) / (x * (c * x + d) + e));
}

float4 TonemapPS(FullscreenVertex input) : SV_Target
{
    float3 hdr = HdrScene.SampleLevel(PointClamp, input.UV, 0).rgb;
    float exposure = exp2(AutoExposure[0] + ExposureBias);
    float3 color = AcesFilmic(hdr * exposure);

    float2 fromCentre = input.UV - 0.5f;
    color *= saturate(1.0f - VignetteStrength * dot(fromCentre, fromCentre));

    float3 encoded = LinearToSrgb(color);
    if (EnableDither)
    {
        // Up to half an 8-bit step either way hides banding in gradients.
        uint2 pixel = uint2(input.Position.xy);
        uint seed = pixel.x + pixel.y * 8192u + FrameIndex * 67108864u;
        encoded += (HashToUnitFloat(HashPcg(seed)) - 0.5f) / 255.0f;
    }
    return float4(encoded, 1.0f);
}
