// args: -T ps_6_0 -E main
// The stencil reference can be promised one way per face only.
[[vk::early_and_late_tests]]
[[vk::stencil_ref_unchanged_front]]
[[vk::stencil_ref_less_equal_front]]
float4 main() : SV_Target { return 1; }
