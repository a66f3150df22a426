// args: -T as_6_5 -E main -fspv-target-env=vulkan1.2
// An amplification shader launches its mesh shaders with DispatchMesh;
// SetMeshOutputCounts belongs to mesh shaders.
[numthreads(4, 1, 1)]
void main(uint tid : SV_GroupThreadID) {
    SetMeshOutputCounts(3, 1);
}
