// A tree reduction in groupshared memory with barriers.
StructuredBuffer<uint> input;
RWStructuredBuffer<uint> output;

groupshared uint partial[64];

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
    partial[gi] = input[gid.x * 64 + gi];
    GroupMemoryBarrierWithGroupSync();
    for (uint stride = 32; stride > 0; stride >>= 1) {
        if (gi < stride)
            partial[gi] += partial[gi + stride];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0)
        output[gid.x] = partial[0];
}
