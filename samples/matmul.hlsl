// matmul.hlsl — C = A x B for row-major float matrices, tiled through
// groupshared memory (compute shader).
//
// Each 16x16 group computes one 16x16 tile of C. It walks along K one tile
// at a time: all 256 threads load one element of A's tile and one of B's
// into groupshared memory, wait, and accumulate 16 products each. Every
// element of A and B is read from memory once per group instead of 16 times.
// Out-of-range loads read 0, so any M, N and K work.
//
// Compile:  hlslc -spirv -T cs_6_0 -E main samples/matmul.hlsl -Fo matmul.spv
// Dispatch: (DIVIDE_ROUND_UP(N, 16), DIVIDE_ROUND_UP(M, 16), 1)
//
// Bindings, all in descriptor set 0 ([[vk::binding]]):
//   0  StructuredBuffer<float> A     M x K, storage buffer
//   1  StructuredBuffer<float> B     K x N, storage buffer
//   2  RWStructuredBuffer<float> C   M x N, storage buffer
//   3  cbuffer MatrixDims            uniform buffer

#include "common.hlsli"

#define TILE GROUP_SIZE_2D

[[vk::binding(0)]] StructuredBuffer<float>   A;
[[vk::binding(1)]] StructuredBuffer<float>   B;
[[vk::binding(2)]] RWStructuredBuffer<float> C;

[[vk::binding(3)]]
cbuffer MatrixDims
{
    uint M;  // rows of A and C
    uint N;  // columns of B and C
    uint K;  // columns of A, rows of B
};

groupshared float TileA[TILE][TILE];
groupshared float TileB[TILE][TILE];

[numthreads(TILE, TILE, 1)]
void main(uint3 groupId : SV_GroupID, uint3 thread : SV_GroupThreadID)
{
    const uint row = groupId.y * TILE + thread.y;
    const uint col = groupId.x * TILE + thread.x;

    float sum = 0.0f;
    const uint tileCount = DIVIDE_ROUND_UP(K, TILE);
    for (uint t = 0; t < tileCount; ++t)
    {
        uint aCol = t * TILE + thread.x;
        uint bRow = t * TILE + thread.y;
        TileA[thread.y][thread.x] = (row < M && aCol < K) ? A[row * K + aCol] : 0.0f;
        TileB[thread.y][thread.x] = (bRow < K && col < N) ? B[bRow * N + col] : 0.0f;
        GroupMemoryBarrierWithGroupSync();

        [unroll]
        for (uint k = 0; k < TILE; ++k)
        {
            sum = mad(TileA[thread.y][k], TileB[k][thread.x], sum);
        }
        // Nobody may overwrite the tiles while others still read them.
        GroupMemoryBarrierWithGroupSync();
    }

    if (row < M && col < N)
    {
        C[row * N + col] = sum;
    }
}
