// What the ray tracing and ray query tests share
// (tests/unit/runtime_raytracing.rs builds the same scene and rays on the
// CPU): the bindings, one record per ray, and the rays of a grid.

struct Record {
    float t;         // RayTCurrent / CommittedRayT
    float u;         // barycentrics: the weights of vertices 1 and 2
    float v;
    uint primitive;  // PrimitiveIndex
    uint instance;   // InstanceID
    float payload;   // what raygen got back / candidates seen by the query
    uint launch;     // the ray's slot, written by raygen / the query
    uint kind;       // 1: hit, 2: miss
    float4 colour;   // barycentric colour on a hit, MISS_COLOUR on a miss
};

static const float4 MISS_COLOUR = float4(0.25, 0.5, 0.75, 1.0);

[[vk::binding(0, 0)]] RaytracingAccelerationStructure scene;
[[vk::binding(1, 0)]] RWStructuredBuffer<Record> records;

// Ray (x, y) of a grid of size.x by size.y: parallel rays from the plane
// z = 0 over [-3.5, 3.5] x [-2.5, 2.5], slanted a little.
RayDesc grid_ray(uint2 at, uint2 size) {
    float2 cell = (float2(at) + 0.5) / float2(size);
    RayDesc ray;
    ray.Origin = float3(lerp(-3.5, 3.5, cell.x), lerp(-2.5, 2.5, cell.y), 0.0);
    ray.Direction = float3(0.05, 0.1, 1.0);
    ray.TMin = 0.001;
    ray.TMax = 100.0;
    return ray;
}

void record_hit(uint slot, float t, float2 b, uint primitive, uint instance) {
    records[slot].t = t;
    records[slot].u = b.x;
    records[slot].v = b.y;
    records[slot].primitive = primitive;
    records[slot].instance = instance;
    records[slot].kind = 1;
    records[slot].colour = float4(1.0 - b.x - b.y, b.x, b.y, 1.0);
}

void record_miss(uint slot) {
    records[slot].kind = 2;
    records[slot].colour = MISS_COLOUR;
}
