// args: -T cs_6_5 -E gen -fspv-target-env=vulkan1.2
// Ray tracing stages are compiled by library profiles only.
RWStructuredBuffer<uint> hits : register(u0);
[shader("raygeneration")]
void gen() { hits[0] = DispatchRaysIndex().x; }
