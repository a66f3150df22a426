// args: -T cs_6_5 -E main -fspv-target-env=vulkan1.2
// A global of an opaque SPIR-V type cannot live in $Globals: no buffer
// can hold it.
typedef vk::SpirvOpaqueType</* OpTypeRayQueryKHR */ 4472> RQ;
RQ query;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() {
  o[0] = 1;
}
