// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.1
// Below SPIR-V 1.4 mesh shaders use SPV_NV_mesh_shader, which has no
// built-in for culling a primitive.
struct V { float4 pos : SV_Position; };
struct P { bool cull : SV_CullPrimitive; };

[outputtopology("triangle")]
[numthreads(1, 1, 1)]
void main(out vertices V verts[3], out indices uint3 tris[1], out primitives P prims[1]) {
    SetMeshOutputCounts(3, 1);
    prims[0].cull = false;
}
