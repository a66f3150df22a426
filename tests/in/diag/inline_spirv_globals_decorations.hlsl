// args: -T ps_6_0 -E main
// A uniform global is a member of `$Globals`: it takes the decorations a
// member can have, and SPIR-V has no member form of `OpDecorateId`.
[[vk::ext_decorate_id(/* UniformId */ 27, 13)]] float g;
[[vk::ext_decorate(/* RelaxedPrecision */ 0)]] float h;

float4 main() : SV_Target { return g * h; }
