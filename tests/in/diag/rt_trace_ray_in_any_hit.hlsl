// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// TraceRay is for ray generation, closest-hit and miss shaders; ReportHit
// for intersection shaders; IgnoreHit for any-hit shaders.
RaytracingAccelerationStructure scene;
struct Payload { float4 color; };
struct Attribs { float2 uv; };

[shader("anyhit")]
void filter(inout Payload p, in Attribs a) {
    RayDesc r = { float3(0, 0, 0), 0.0, float3(0, 0, 1), 1.0 };
    TraceRay(scene, 0, 0xff, 0, 1, 0, r, p);
    ReportHit(1.0, 0, a);
}

[shader("closesthit")]
void hit(inout Payload p, in Attribs a) {
    IgnoreHit();
    CallShader(0, p);
}
