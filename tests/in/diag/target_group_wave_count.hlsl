// args: -T cs_6_10 -E main -fspv-target-env=vulkan1.0
// GetGroupWaveCount and GetGroupWaveIndex read the wave built-ins, which
// need SPIR-V 1.3 (Vulkan 1.1) as every wave operation does.
RWStructuredBuffer<uint> waves;

[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    waves[i] = GetGroupWaveCount();
}
