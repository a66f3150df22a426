// Ray queries in a compute shader (cs_6_5) over the scene of trace.hlsl:
// every triangle is made a non-opaque candidate, which the Proceed loop
// commits, so the committed hit is the closest one.
#include "scene.hlsli"

static const uint2 GRID = uint2(32, 24);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint slot = id.y * GRID.x + id.x;
    RayQuery<RAY_FLAG_NONE> q;
    q.TraceRayInline(scene, RAY_FLAG_FORCE_NON_OPAQUE, 0xFF, grid_ray(id.xy, GRID));
    uint candidates = 0;
    while (q.Proceed()) {
        if (q.CandidateType() == CANDIDATE_NON_OPAQUE_TRIANGLE) {
            candidates += 1;
            q.CommitNonOpaqueTriangleHit();
        }
    }
    if (q.CommittedStatus() == COMMITTED_TRIANGLE_HIT) {
        record_hit(slot, q.CommittedRayT(), q.CommittedTriangleBarycentrics(),
                   q.CommittedPrimitiveIndex(), q.CommittedInstanceID());
    } else {
        record_miss(slot);
    }
    records[slot].payload = candidates;
    records[slot].launch = slot;
}
