// args: -T ps_6_0 -E main
// vk::ext_builtin_input/_output: one of them, on a static variable, and
// an input is const; one built-in is not both an input and an output.
[[vk::ext_builtin_input(24)]] [[vk::ext_builtin_output(24)]]
static uint3 both;
[[vk::ext_builtin_input(24)]] static uint3 not_const;
[[vk::ext_builtin_output(24)]] uint3 not_static;
[[vk::ext_builtin_input(24)]] static const uint3 groups;
[[vk::ext_builtin_output(24)]] static uint3 groups_out;
[[vk::ext_builtin_input(9999)]] static const uint nothing;
float4 main() : SV_Target { return 1; }
