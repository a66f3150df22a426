// args: -T cs_6_0 -E main
// `vk::ext_decorate_id` and `vk::ext_decorate_string` have no form for a
// function; an execution mode number must name one, and so must the
// built-in of a `BuiltIn` decoration.
[[vk::ext_decorate_string(/* UserTypeGOOGLE */ 5636, "myType")]]
uint f(uint x) { return x; }

[[vk::ext_decorate_id(/* UniformId */ 27, 13)]]
uint g(uint x) { return x; }

RWStructuredBuffer<uint> buf;
[numthreads(1, 1, 1)]
[[vk::spvexecutionmode(999999)]]
void main(uint3 tid : SV_DispatchThreadID,
          [[vk::ext_decorate(/* BuiltIn */ 11, 99999)]] uint3 gid : SV_GroupID) {
    uint l = f(tid.x);
    buf[0] = l + g(tid.x);
}
