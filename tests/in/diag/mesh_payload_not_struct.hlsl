// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// The payload a mesh shader reads is a struct, and an input.
struct V { float4 pos : SV_Position; };

[outputtopology("triangle")]
[numthreads(1, 1, 1)]
void main(in payload float4 scale, out vertices V verts[3], out indices uint3 tris[1]) {
    SetMeshOutputCounts(3, 1);
}
