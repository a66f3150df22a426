// args: -T cs_6_0 -E main -fspv-target-env=vulkan1.0
// vk::ext_decorate_id writes OpDecorateId: SPIR-V 1.2 or later.
RWStructuredBuffer<uint> data;

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex) {
    [[vk::ext_decorate_id(/* UniformId */ 27, /* Subgroup */ 3)]] uint lane = data[i];
    data[i] = lane + 1;
}
