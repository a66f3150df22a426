// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// SetMeshOutputCounts runs once per thread group, in uniform control flow.
struct V { float4 pos : SV_Position; };

[outputtopology("line")]
[numthreads(32, 1, 1)]
void main(uint tid : SV_GroupThreadID, uint3 group : SV_GroupID,
          out vertices V verts[2], out indices uint2 lines[1]) {
    SetMeshOutputCounts(2, 1);
    if (tid == 0) {
        SetMeshOutputCounts(2, 1);
    }
    for (uint i = 0; i < group.x; ++i) {
        SetMeshOutputCounts(2, 1);
    }
}
