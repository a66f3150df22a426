// histogram.hlsl — 256-bin luminance histogram of an HDR image, the first
// step of automatic exposure (compute shader).
//
// Luminance is binned on a log2 scale; bin 0 collects near-black pixels so
// they do not drag the average down. Each 16x16 group first counts its tile
// into groupshared bins with InterlockedAdd, then adds its non-zero bins to
// the global histogram: at most 256 global atomics per group instead of one
// per pixel.
//
// Compile:  hlslc -spirv -T cs_6_0 -E main samples/histogram.hlsl -Fo histogram.spv
// Dispatch: (DIVIDE_ROUND_UP(width, 16), DIVIDE_ROUND_UP(height, 16), 1)
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   t0  Texture2D<float4> HdrImage      sampled image
//   u1  RWByteAddressBuffer Histogram   storage buffer, 256 uints, cleared by the app
//   b2  cbuffer HistogramParams         uniform buffer

#include "common.hlsli"

#define BIN_COUNT 256

// One thread per bin when clearing and flushing.
#if GROUP_SIZE_2D * GROUP_SIZE_2D != BIN_COUNT
#error "histogram.hlsl needs exactly one thread per bin"
#endif

Texture2D<float4>   HdrImage  : register(t0);
RWByteAddressBuffer Histogram : register(u1);

cbuffer HistogramParams : register(b2)
{
    uint2 ImageSize;
    float MinLogLuminance;       // log2 of the darkest luminance binned
    float InvLogLuminanceRange;  // 1 / (log2 of the brightest - MinLogLuminance)
};

groupshared uint LocalBins[BIN_COUNT];

uint LuminanceBin(float3 color)
{
    float luminance = Luminance(color);
    if (luminance < 1e-4f)
        return 0;
    float t = saturate((log2(luminance) - MinLogLuminance) * InvLogLuminanceRange);
    return uint(t * (BIN_COUNT - 2) + 1.0f);  // bins 1 .. 255
}

[numthreads(GROUP_SIZE_2D, GROUP_SIZE_2D, 1)]
void main(uint3 dispatchId : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex)
{
    LocalBins[groupIndex] = 0;
    GroupMemoryBarrierWithGroupSync();

    if (all(dispatchId.xy < ImageSize))
    {
        float3 color = HdrImage.Load(int3(dispatchId.xy, 0)).rgb;
        InterlockedAdd(LocalBins[LuminanceBin(color)], 1);
    }
    GroupMemoryBarrierWithGroupSync();

    uint count = LocalBins[groupIndex];
    if (count != 0)
    {
        Histogram.InterlockedAdd(groupIndex * 4, count);
    }
}
