// Probes of a sparse Texture2D for tests/sparse/runtime.rs. Each thread runs
// one probe (a read at a place) and writes what it read, the residency code
// and CheckAccessFullyMapped of it.

struct Probe {
    uint op;
    float level;   // SampleLevel: the lod; SampleGrad: the clamp
    float2 uv;
    int2 texel;    // Load: the texel
    int mip;       // Load: the level
    float grad;    // SampleGrad: ddx = (grad, 0), ddy = (0, grad)
};

struct Result {
    float4 value;
    uint mapped;   // CheckAccessFullyMapped(status); 2 for reads without one
    uint status;   // the residency code itself
    uint2 pad;
};

[[vk::binding(0)]] Texture2D<float4> tex;
[[vk::binding(1)]] SamplerState point_clamp;   // nearest, nearest mip
[[vk::binding(2)]] SamplerState linear_clamp;  // bilinear, nearest mip
[[vk::binding(3)]] StructuredBuffer<Probe> probes;
[[vk::binding(4)]] RWStructuredBuffer<Result> results;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint count, stride;
    probes.GetDimensions(count, stride);
    if (id.x >= count)
        return;
    Probe p = probes[id.x];
    uint status = 0;
    uint mapped = 2;
    float4 v = 0;
    switch (p.op) {
    case 0:
        v = tex.Load(int3(p.texel, p.mip), int2(0, 0), status);
        mapped = CheckAccessFullyMapped(status);
        break;
    case 1:
        v = tex.SampleLevel(point_clamp, p.uv, p.level, int2(0, 0), status);
        mapped = CheckAccessFullyMapped(status);
        break;
    case 2:
        v = tex.SampleLevel(linear_clamp, p.uv, p.level, int2(0, 0), status);
        mapped = CheckAccessFullyMapped(status);
        break;
    case 3:
        // The clamp (MinLod) raises the level the gradients choose.
        v = tex.SampleGrad(point_clamp, p.uv, float2(p.grad, 0), float2(0, p.grad),
                           int2(0, 0), p.level, status);
        mapped = CheckAccessFullyMapped(status);
        break;
    case 4:
        v = tex.GatherRed(point_clamp, p.uv, int2(0, 0), status);
        mapped = CheckAccessFullyMapped(status);
        break;
    case 5:
        // One texel from each of four footprints (ConstOffsets).
        v = tex.GatherAlpha(point_clamp, p.uv, int2(0, 0), int2(7, 0), int2(0, 7),
                            int2(-8, 0), status);
        mapped = CheckAccessFullyMapped(status);
        break;
    case 6:
        // A clamp without a status: MinLod on the dense instruction.
        v = tex.SampleGrad(point_clamp, p.uv, float2(p.grad, 0), float2(0, p.grad),
                           int2(0, 0), p.level);
        break;
    }
    Result r;
    r.value = v;
    r.mapped = mapped;
    r.status = status;
    r.pad = uint2(0, 0);
    results[id.x] = r;
}
