// args: -T ps_6_0 -E main
// vk::ext_builtin_input/_output: a built-in whose direction and type Vulkan
// fixes is declared as that (found by the fuzzer: an input `bool` FragDepth
// was written as it was, and spirv-val rejected the module).
[[vk::ext_builtin_input(22)]] static const bool depth_in;
[[vk::ext_builtin_output(23)]] static bool helper_out;
[[vk::ext_builtin_input(16)]] static const float3 point3;
[[vk::ext_builtin_input(24)]] static const half3 groups_half;
[[vk::ext_builtin_input(17)]] static const uint facing;
[[vk::ext_builtin_input(24)]] static const int3 groups;
[[vk::ext_builtin_input(16)]] static const float2 point;
float4 main() : SV_Target { return point.x + groups.x; }
