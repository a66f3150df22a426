// args: -T cs_6_0 -E main
// Decorations, built-ins and instructions that only OpenCL kernels have
// (their capabilities, such as Kernel, are in no Vulkan environment), and
// a decoration number SPIR-V does not define.
[[vk::ext_instruction(/* OpGroupAsyncCopy */ 259)]]
uint asyncCopy(uint scope, uint a, uint b, uint c, uint d, uint e);

[[vk::ext_builtin_input(/* GlobalSize */ 31)]]
static const uint3 globalSize;

[[vk::ext_decorate(/* BuiltIn */ 11, /* WorkDim */ 30)]] static uint dims;

RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main() {
    [[vk::ext_decorate(/* CPacked */ 10)]] float x = 1.0;
    // No decoration has this number.
    [[vk::ext_decorate(70, 16)]] float z = 3.0;
    // Fine: RelaxedPrecision needs no capability.
    [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] float y = 2.0;
    o[0] = x + y + z + globalSize.x + dims + asyncCopy(2, 0, 0, 0, 0, 0);
}
