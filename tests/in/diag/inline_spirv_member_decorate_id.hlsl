// args: -T cs_6_0 -E main
// SPIR-V decorates struct members with literal or string operands only:
// `vk::ext_decorate_id` on a member is an error.
struct S {
    [[vk::ext_decorate_id(/* UniformId */ 27, 3)]] uint a;
    [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] float b;
};
RWStructuredBuffer<S> buf;
[numthreads(1, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    buf[tid.x].a = tid.x;
}
