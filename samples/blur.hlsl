// blur.hlsl — one pass of a separable Gaussian blur (compute shader).
//
// Run it twice: with Direction = (1, 0) it blurs rows, then with (0, 1) it
// blurs the columns of the first pass's result. Each thread group loads a
// strip of 256 texels, plus RADIUS texels of apron on both sides, into
// groupshared memory once; then every thread sums its 2 * RADIUS + 1 taps
// from there instead of reading the texture 17 times.
//
// Compile:  hlslc -spirv -T cs_6_0 -E main samples/blur.hlsl -Fo blur.spv
// Dispatch: (DIVIDE_ROUND_UP(length along Direction, 256), length across, 1)
//
// Bindings, all in descriptor set 0 ([[vk::binding]]):
//   0  cbuffer BlurParams                uniform buffer
//   1  Texture2D<float4> Source          sampled image
//   2  RWTexture2D<float4> Destination   storage image, rgba16f

#include "common.hlsli"

#define RADIUS 8
#define STRIP  GROUP_SIZE_1D

[[vk::binding(0, 0)]]
cbuffer BlurParams
{
    int2 Direction;  // (1, 0) for rows, (0, 1) for columns
    int2 ImageSize;  // width and height of Source and Destination
};

[[vk::binding(1, 0)]] Texture2D<float4> Source;
[[vk::binding(2, 0)]] [[vk::image_format("rgba16f")]] RWTexture2D<float4> Destination;

// Normalised weights of a Gaussian with sigma = 4, centre tap first; the
// centre plus twice the rest sums to 1.
static const float Weights[RADIUS + 1] =
{
    0.1031526f, 0.0999789f, 0.0910319f, 0.0778637f, 0.0625652f,
    0.0472267f, 0.0334888f, 0.0223083f, 0.0139602f,
};

groupshared float4 Strip[STRIP + 2 * RADIUS];

// The texel `along` texels down the blur direction on line `across`.
int2 ToTexel(int along, int across)
{
    return Direction * along + (int2(1, 1) - Direction) * across;
}

// Loads with the edge texel repeated outside the image.
float4 LoadClamped(int along, int across)
{
    int2 texel = clamp(ToTexel(along, across), int2(0, 0), ImageSize - 1);
    return Source.Load(int3(texel, 0));
}

[numthreads(STRIP, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint3 groupThreadId : SV_GroupThreadID)
{
    const int first  = int(groupId.x) * STRIP;  // first texel of this strip
    const int across = int(groupId.y);
    const int local  = int(groupThreadId.x);

    // Every thread loads its own texel; the first 2 * RADIUS threads also
    // load the apron: RADIUS texels before the strip, then RADIUS after it.
    Strip[local + RADIUS] = LoadClamped(first + local, across);
    if (local < 2 * RADIUS)
    {
        bool before = local < RADIUS;
        int along = before ? first - RADIUS + local : first + STRIP + (local - RADIUS);
        int slot  = before ? local : STRIP + local;
        Strip[slot] = LoadClamped(along, across);
    }
    GroupMemoryBarrierWithGroupSync();

    float4 sum = Strip[local + RADIUS] * Weights[0];
    [unroll]
    for (int i = 1; i <= RADIUS; ++i)
    {
        sum += (Strip[local + RADIUS - i] + Strip[local + RADIUS + i]) * Weights[i];
    }

    int2 texel = ToTexel(first + local, across);
    if (all(texel < ImageSize))
    {
        Destination[texel] = sum;
    }
}
