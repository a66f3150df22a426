// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.1 -fspv-extension=SPV_EXT_mesh_shader
// SPV_EXT_mesh_shader, asked for by name, needs SPIR-V 1.4; Vulkan 1.1 alone gives 1.3.
struct V { float4 pos : SV_Position; };

[outputtopology("triangle")]
[numthreads(1, 1, 1)]
void main(out vertices V verts[3], out indices uint3 tris[1]) {
    SetMeshOutputCounts(3, 1);
}
