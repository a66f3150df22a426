// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2 -fspv-extension=SPV_NV_mesh_shader
// The NV mesh shader extension is not written yet.
struct V { float4 pos : SV_Position; };

[outputtopology("triangle")]
[numthreads(1, 1, 1)]
void main(out vertices V verts[3], out indices uint3 tris[1]) {
    SetMeshOutputCounts(3, 1);
}
