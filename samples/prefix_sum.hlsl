// prefix_sum.hlsl — exclusive prefix sum of uints, Blelloch's work-efficient
// scan (compute shader).
//
// Each group scans a block of 512 elements (two per thread) in groupshared
// memory. The up-sweep builds a tree of partial sums in place; the root,
// which then holds the block's total, is saved to BlockSums and cleared;
// the down-sweep walks back down the tree, swapping and adding, and leaves
// every element holding the sum of the elements before it. Scanning
// BlockSums and adding it back per block extends this to any length.
//
// Compile:  hlslc -spirv -T cs_6_0 -E main samples/prefix_sum.hlsl -Fo prefix_sum.spv
// Dispatch: (DIVIDE_ROUND_UP(Count, 512), 1, 1)
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   t0  ByteAddressBuffer Input            storage buffer, read-only
//   u1  RWByteAddressBuffer Output         storage buffer
//   u2  RWStructuredBuffer<uint> BlockSums storage buffer
//   Params                                 push constants ([[vk::push_constant]])

#include "common.hlsli"

#define THREADS GROUP_SIZE_1D
#define BLOCK   (2 * THREADS)

struct ScanParams
{
    uint Count;  // elements in Input and Output
};

[[vk::push_constant]] ScanParams Params;

ByteAddressBuffer        Input     : register(t0);
RWByteAddressBuffer      Output    : register(u1);
RWStructuredBuffer<uint> BlockSums : register(u2);

groupshared uint Tree[BLOCK];

[numthreads(THREADS, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint tid : SV_GroupIndex)
{
    const uint blockStart = groupId.x * BLOCK;
    const uint a = tid;            // this thread's two slots in the block
    const uint b = tid + THREADS;
    const uint globalA = blockStart + a;
    const uint globalB = blockStart + b;

    Tree[a] = globalA < Params.Count ? Input.Load(globalA * 4) : 0;
    Tree[b] = globalB < Params.Count ? Input.Load(globalB * 4) : 0;

    // Up-sweep: after the step with `offset`, every (2 * offset)-th slot
    // holds the sum of the 2 * offset elements ending there.
    uint offset = 1;
    [unroll]
    for (uint active = BLOCK >> 1; active > 0; active >>= 1)
    {
        GroupMemoryBarrierWithGroupSync();
        if (tid < active)
        {
            uint left  = offset * (2 * tid + 1) - 1;
            uint right = offset * (2 * tid + 2) - 1;
            Tree[right] += Tree[left];
        }
        offset <<= 1;
    }

    // The root holds the block's total; an exclusive scan starts from 0.
    if (tid == 0)
    {
        BlockSums[groupId.x] = Tree[BLOCK - 1];
        Tree[BLOCK - 1] = 0;
    }

    // Down-sweep: each left child gets its parent's value, each right child
    // the parent's plus the old left child.
    [unroll]
    for (uint pairs = 1; pairs < BLOCK; pairs <<= 1)
    {
        offset >>= 1;
        GroupMemoryBarrierWithGroupSync();
        if (tid < pairs)
        {
            uint left  = offset * (2 * tid + 1) - 1;
            uint right = offset * (2 * tid + 2) - 1;
            uint leftValue = Tree[left];
            Tree[left] = Tree[right];
            Tree[right] += leftValue;
        }
    }
    GroupMemoryBarrierWithGroupSync();

    if (globalA < Params.Count)
        Output.Store(globalA * 4, Tree[a]);
    if (globalB < Params.Count)
        Output.Store(globalB * 4, Tree[b]);
}
