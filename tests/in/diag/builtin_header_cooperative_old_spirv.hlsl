// args: -T cs_6_0 -E main -fspv-target-env=vulkan1.1
// Cooperative matrices need SPIR-V 1.6.
#include <vk/khr/cooperative_matrix.h>

[numthreads(64, 1, 1)] void main() {}
