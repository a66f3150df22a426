// Wave intrinsics on uniform control flow (results that do not depend on
// the subgroup size).
RWStructuredBuffer<uint> output;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint lanes = WaveGetLaneCount();
    uint lane = WaveGetLaneIndex();
    uint sum = WaveActiveSum(1u);
    uint first = WaveReadLaneFirst(id.x);
    bool all = WaveActiveAllTrue(id.x < 1000);
    uint prefix = WavePrefixCountBits(true);
    output[id.x * 4 + 0] = sum == lanes ? 1 : 0;
    output[id.x * 4 + 1] = id.x - first == lane ? 1 : 0;
    output[id.x * 4 + 2] = all ? 1 : 0;
    output[id.x * 4 + 3] = prefix == lane ? 1 : 0;
}
