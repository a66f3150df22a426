// reduce_sum.hlsl — parallel sum of a float array, one pass (compute shader).
//
// Each group of 256 threads sums 512 consecutive elements: every thread adds
// two elements while loading them into groupshared memory, then a tree of
// halving steps folds the 256 partial sums into one. The group writes that
// sum to PartialSums[group]; run the shader again on PartialSums until one
// value is left (512 elements shrink to 1 per pass).
//
// The combining step is a function template (HLSL 2021), so a max or min
// reduction needs only another Combine.
//
// Compile:  hlslc -spirv -T cs_6_0 -E main -HV 2021 samples/reduce_sum.hlsl -Fo reduce_sum.spv
// Dispatch: (DIVIDE_ROUND_UP(Count, 512), 1, 1)
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   t0  StructuredBuffer<float> Input          storage buffer, read-only
//   u1  RWStructuredBuffer<float> PartialSums  storage buffer
//   b2  cbuffer ReduceParams                   uniform buffer

#include "common.hlsli"

#define ELEMENTS_PER_GROUP (2 * GROUP_SIZE_1D)

StructuredBuffer<float>   Input       : register(t0);
RWStructuredBuffer<float> PartialSums : register(u1);

cbuffer ReduceParams : register(b2)
{
    uint Count;  // elements in Input
};

groupshared float Partial[GROUP_SIZE_1D];

// The reduction's operator; 0 is its identity for out-of-range elements.
template <typename T>
T Combine(T a, T b)
{
    return a + b;
}

float LoadOrIdentity(uint index)
{
    return index < Count ? Input[index] : 0.0f;
}

[numthreads(GROUP_SIZE_1D, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint first = groupId.x * ELEMENTS_PER_GROUP + groupIndex;

    // Two elements per thread while loading: no thread idles in step one.
    Partial[groupIndex] = Combine(LoadOrIdentity(first), LoadOrIdentity(first + GROUP_SIZE_1D));
    GroupMemoryBarrierWithGroupSync();

    [unroll]
    for (uint stride = GROUP_SIZE_1D / 2; stride > 0; stride >>= 1)
    {
        if (groupIndex < stride)
        {
            Partial[groupIndex] = Combine<float>(Partial[groupIndex], Partial[groupIndex + stride]);
        }
        GroupMemoryBarrierWithGroupSync();
    }

    if (groupIndex == 0)
    {
        PartialSums[groupId.x] = Partial[0];
    }
}
