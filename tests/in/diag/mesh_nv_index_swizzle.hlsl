// args: -T ms_6_5 -E main -fspv-extension=SPV_NV_mesh_shader
// With SPV_NV_mesh_shader the indices are one flat array written index by
// index: a swizzle naming a component twice cannot be assigned.
struct V { float4 pos : SV_Position; };

[outputtopology("triangle")]
[numthreads(1, 1, 1)]
void main(out vertices V verts[3], out indices uint3 tris[1]) {
    SetMeshOutputCounts(3, 1);
    tris[0].xzx = uint3(0, 1, 2);
    tris[0][3] = 1;
}
