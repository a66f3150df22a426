// args: -T cs_6_0 -E main -fspv-target-env=vulkan1.0
// A wave built-in used through vk::ext_builtin_input still needs SPIR-V 1.3.
[[vk::ext_builtin_input(/* NumSubgroups */ 38)]]
static const uint wave_count;
RWStructuredBuffer<uint> data;

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex) {
    data[i] = wave_count;
}
