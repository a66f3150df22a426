// args: -T cs_6_0 -fspv-target-env=vulkan1.0
// Wave operations need SPIR-V 1.3: the error points at the call, also once inlined.
RWStructuredBuffer<uint> sums;
uint total(uint v) { return WaveActiveSum(v); }
[numthreads(32, 1, 1)] void main(uint i : SV_GroupIndex) {
    sums[i] = total(i);
}
