// args: -T cs_6_0 -E main
// An extension the shader asks for must exist in the target's SPIR-V:
// SPV_KHR_workgroup_memory_explicit_layout needs SPIR-V 1.4.
[[vk::ext_extension("SPV_KHR_workgroup_memory_explicit_layout")]]
[[vk::ext_capability(/* WorkgroupMemoryExplicitLayoutKHR */ 4428)]]
void explicit_layout() {}

RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() {
  explicit_layout();
  o[0] = 1;
}
