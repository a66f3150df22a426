// args: -T cs_6_0 -E main -fspv-target-env=vulkan1.3
// vk::WorkgroupSpirvPointer is a const alias: its variables keep the
// pointer they start with.
#include <vk/spirv.h>

RWStructuredBuffer<int> data;
groupshared int shared_data[64];

[numthreads(64, 1, 1)] void main() {
    vk::WorkgroupSpirvPointer<int> p = vk::GetGroupSharedAddress(shared_data[0]);
    if (data[0] > 10) {
        p = vk::GetGroupSharedAddress(shared_data[1]);
    }
}
