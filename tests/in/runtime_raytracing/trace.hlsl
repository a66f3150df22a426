// A ray tracing pipeline (lib_6_3): raygen traces one ray per launch
// index, the closest-hit shader records what it hit, the miss shader the
// miss colour; the payload carries a value back to raygen.
#include "scene.hlsli"

struct Payload {
    float value;
};

uint launch_slot() {
    return DispatchRaysIndex().y * DispatchRaysDimensions().x + DispatchRaysIndex().x;
}

[shader("raygeneration")]
void RayGen() {
    uint slot = launch_slot();
    Payload p;
    p.value = 0.0;
    TraceRay(scene, RAY_FLAG_NONE, 0xFF, 0, 1, 0,
             grid_ray(DispatchRaysIndex().xy, DispatchRaysDimensions().xy), p);
    records[slot].payload = p.value;
    records[slot].launch = slot;
}

[shader("closesthit")]
void ClosestHit(inout Payload p, in BuiltInTriangleIntersectionAttributes hit) {
    record_hit(launch_slot(), RayTCurrent(), hit.barycentrics, PrimitiveIndex(), InstanceID());
    p.value = 10.0 + PrimitiveIndex();
}

[shader("miss")]
void Miss(inout Payload p) {
    record_miss(launch_slot());
    p.value = -1.0;
}
