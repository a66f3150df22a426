// args: -T cs_6_0 -E main
// Capabilities of OpenCL kernels, asked for directly or through an execution
// mode, are errors: no Vulkan environment accepts a module declaring them.
[[vk::ext_capability(/* Kernel */ 6)]]
void k() {}

RWStructuredBuffer<uint> o;
[numthreads(32, 1, 1)] void main() {
    k();
    vk::ext_execution_mode(/* SubgroupSize */ 35, 32);
    o[0] = 1;
}
