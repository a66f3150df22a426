// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// Payloads are structs, in the entry and in TraceRay.
RaytracingAccelerationStructure scene;

[shader("miss")]
void sky(inout float4 color) {
    color = 0;
}

[shader("raygeneration")]
void gen() {
    RayDesc r = { float3(0, 0, 0), 0.0, float3(0, 0, 1), 1.0 };
    float4 color = 0;
    TraceRay(scene, 0, 0xff, 0, 1, 0, r, color);
}
