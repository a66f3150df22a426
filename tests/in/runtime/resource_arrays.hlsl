// Arrays of resources: constant buffers indexed at run time, and a
// function returning an element of a buffer array chosen at run time. The
// indices are the workgroup's: dynamically uniform, as Vulkan requires
// without NonUniform.
struct Params {
    float4 scale;
};

ConstantBuffer<Params> params[3];
RWStructuredBuffer<float> outputs[2];

RWStructuredBuffer<float> pick(uint i) {
    return outputs[i];
}

[numthreads(8, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 id : SV_DispatchThreadID) {
    float v = params[group.x].scale.x + params[2].scale.y;
    pick(group.x & 1)[id.x] = v;
}
