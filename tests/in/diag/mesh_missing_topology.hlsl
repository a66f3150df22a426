// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// A mesh shader says which primitives it outputs with [outputtopology],
// and has both an `out vertices` and an `out indices` array.
struct V { float4 pos : SV_Position; };

[numthreads(32, 1, 1)]
void main(out vertices V verts[3]) {
    SetMeshOutputCounts(3, 1);
}
