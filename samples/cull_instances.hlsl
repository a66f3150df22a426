// cull_instances.hlsl — GPU frustum culling of mesh instances with
// wave-level stream compaction (compute shader, SM 6.0 wave intrinsics).
//
// Each thread tests one instance's bounding sphere against the six frustum
// planes. The visible ones are packed into VisibleIndices without gaps:
// within a wave, WavePrefixCountBits gives each visible lane its slot, and
// one lane reserves room for the whole wave with a single atomic add on the
// counter, instead of one atomic per visible instance. The subgroup size is
// whatever the device has (8 on lavapipe, 32 on NVIDIA).
//
// Compile:  hlslc -spirv -T cs_6_0 -E main -fspv-target-env=vulkan1.1 samples/cull_instances.hlsl -Fo cull_instances.spv
// Dispatch: (DIVIDE_ROUND_UP(InstanceCount, 64), 1, 1)
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   b0  cbuffer CullParams                      uniform buffer
//   t1  StructuredBuffer<Instance> Instances    storage buffer, read-only
//   u2  RWStructuredBuffer<uint> VisibleIndices storage buffer
//   u3  RWByteAddressBuffer VisibleCount        storage buffer, uint at 0, cleared by the app

#include "common.hlsli"

struct Instance
{
    float4 BoundingSphere;  // world-space centre and radius
    uint   MeshIndex;
    uint   MaterialIndex;
    uint2  Padding;
};

cbuffer CullParams : register(b0)
{
    float4 FrustumPlanes[6];  // xyz: inward unit normal, w: distance
    uint   InstanceCount;
};

StructuredBuffer<Instance> Instances      : register(t1);
RWStructuredBuffer<uint>   VisibleIndices : register(u2);
RWByteAddressBuffer        VisibleCount   : register(u3);

bool SphereInFrustum(float4 sphere)
{
    [unroll]
    for (uint i = 0; i < 6; ++i)
    {
        if (dot(FrustumPlanes[i].xyz, sphere.xyz) + FrustumPlanes[i].w < -sphere.w)
            return false;
    }
    return true;
}

[numthreads(64, 1, 1)]
void main(uint3 dispatchId : SV_DispatchThreadID)
{
    const uint index = dispatchId.x;
    bool visible = false;
    if (index < InstanceCount)
    {
        visible = SphereInFrustum(Instances[index].BoundingSphere);
    }

    uint slotInWave = WavePrefixCountBits(visible);
    uint visibleInWave = WaveActiveCountBits(visible);

    uint waveBase = 0;
    if (WaveIsFirstLane() && visibleInWave > 0)
    {
        VisibleCount.InterlockedAdd(0, visibleInWave, waveBase);
    }
    waveBase = WaveReadLaneFirst(waveBase);

    if (visible)
    {
        VisibleIndices[waveBase + slotInWave] = index;
    }
}
