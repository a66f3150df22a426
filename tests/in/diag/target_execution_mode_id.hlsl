// args: -T cs_6_0 -E main -fspv-target-env=vulkan1.0
// vk::ext_execution_mode_id writes OpExecutionModeId: SPIR-V 1.2 or later.
RWStructuredBuffer<uint> sizes;

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex) {
    vk::ext_execution_mode_id(/* LocalSizeId */ 38, 8u, 1u, 1u);
    sizes[i] = i;
}
