// common.hlsli — small helpers shared by several samples: constants,
// group-size macros, colour conversions, normal packing, a hash for
// procedural randomness, and the full-screen triangle.
//
// Include it with `#include "common.hlsli"`; it has no resources of its own,
// so including it never changes a shader's bindings.

#ifndef SAMPLES_COMMON_HLSLI
#define SAMPLES_COMMON_HLSLI

#define PI      3.14159265f
#define INV_PI  0.31830989f

// Thread-group sizes the compute samples agree on.
#define GROUP_SIZE_1D 256
#define GROUP_SIZE_2D 16

// Number of groups of `size` threads needed to cover `count` items.
#define DIVIDE_ROUND_UP(count, size) (((count) + (size) - 1) / (size))

// Relative luminance of linear Rec. 709 / sRGB primaries.
float Luminance(float3 linearRgb)
{
    return dot(linearRgb, float3(0.2126f, 0.7152f, 0.0722f));
}

// The sRGB transfer function, applied per channel. `step` picks the linear
// segment below the threshold without a vector ternary.
float3 LinearToSrgb(float3 c)
{
    c = saturate(c);
    float3 lowPart  = c * 12.92f;
    float3 highPart = 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
    return lerp(lowPart, highPart, step(0.0031308f, c));
}

// Tangent-space normal from a two-channel (BC5-style) normal map texel in
// [0, 1]: the z component is rebuilt from the unit length.
float3 UnpackNormalXY(float2 texel)
{
    float2 xy = texel * 2.0f - 1.0f;
    float z = sqrt(saturate(1.0f - dot(xy, xy)));
    return float3(xy, z);
}

// A 32-bit integer hash (PCG output permutation); good enough to seed
// particles and dither, not for cryptography.
uint HashPcg(uint v)
{
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// A float in [0, 1) from a hash.
float HashToUnitFloat(uint h)
{
    return float(h >> 8) * (1.0f / 16777216.0f);
}

// One triangle that covers the screen: vertex 0, 1, 2 land at (-1, 1),
// (3, 1) and (-1, -3) in clip space, with texture coordinates that run from
// 0 to 1 across the visible part.
void FullscreenTriangle(uint vertexId, out float4 clipPos, out float2 uv)
{
    uv = float2((vertexId << 1) & 2, vertexId & 2);
    clipPos = float4(uv * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.0f, 1.0f);
}

#endif // SAMPLES_COMMON_HLSLI
