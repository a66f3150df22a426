// args: -T cs_6_5 -fspv-target-env=vulkan1.0
// SPV_KHR_ray_query needs SPIR-V 1.4: the note names the oldest target with it.
RaytracingAccelerationStructure scene;
RWStructuredBuffer<uint> hits;
[numthreads(1, 1, 1)] void main() {
    RayQuery<0> q;
    RayDesc r = { float3(0, 0, 0), 0.0, float3(1, 0, 0), 10.0 };
    q.TraceRayInline(scene, 0, 0xff, r);
    hits[0] = q.Proceed();
}
