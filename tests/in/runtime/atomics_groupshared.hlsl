// Atomics on groupshared memory.
RWStructuredBuffer<uint> output;

groupshared uint sum;
groupshared uint mx;
groupshared uint mn;
groupshared uint bits;

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    if (gi == 0) {
        sum = 0;
        mx = 0;
        mn = 0xffffffff;
        bits = 0;
    }
    GroupMemoryBarrierWithGroupSync();
    uint before;
    InterlockedAdd(sum, gi, before);
    InterlockedMax(mx, gi * 3);
    InterlockedMin(mn, gi + 5);
    InterlockedOr(bits, 1u << (gi % 32));
    GroupMemoryBarrierWithGroupSync();
    // `before` values are a permutation of prefix sums: check their range.
    output[gi] = before <= sum ? 1 : 0;
    if (gi == 0) {
        output[64] = sum;
        output[65] = mx;
        output[66] = mn;
        output[67] = bits;
    }
}
