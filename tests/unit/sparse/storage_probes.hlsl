// Probes of a sparse RWTexture2D for tests/sparse/runtime.rs: Load with a
// status is OpImageSparseRead.

struct Result {
    float4 value;
    uint mapped;
    uint status;
    uint2 pad;
};

[[vk::binding(0)]] [[vk::image_format("rgba8")]] RWTexture2D<float4> img;
[[vk::binding(1)]] StructuredBuffer<int2> texels;
[[vk::binding(2)]] RWStructuredBuffer<Result> results;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint count, stride;
    texels.GetDimensions(count, stride);
    if (id.x >= count)
        return;
    uint status;
    float4 v = img.Load(texels[id.x], status);
    Result r;
    r.value = v;
    r.mapped = CheckAccessFullyMapped(status);
    r.status = status;
    r.pad = uint2(0, 0);
    results[id.x] = r;
}
