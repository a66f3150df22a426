// args: -T cs_6_0 -E main
// `vk::ext_decorate_id` and `vk::ext_decorate_string` have no form for a
// function; decorations of parameters and locals are not placed yet; an
// execution mode number must name one.
[[vk::ext_decorate_string(/* UserTypeGOOGLE */ 5636, "myType")]]
uint f([[vk::ext_decorate(/* Aliased */ 20)]] uint x) { return x; }

[[vk::ext_decorate_id(/* UniformId */ 27, 13)]]
uint g(uint x) { return x; }

RWStructuredBuffer<uint> buf;
[numthreads(1, 1, 1)]
[[vk::spvexecutionmode(999999)]]
void main(uint3 tid : SV_DispatchThreadID) {
    [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] uint l = f(tid.x);
    buf[0] = l + g(tid.x);
}
