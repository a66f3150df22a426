// args: -T lib_6_3 -fspv-target-env=vulkan1.1
// SPV_KHR_ray_tracing needs SPIR-V 1.4; Vulkan 1.1 gives 1.3.
struct Payload { float4 color; };
[shader("miss")]
void sky(inout Payload p) { p.color = 1; }
