// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// The topologies are "triangle", "line" and "point".
struct V { float4 pos : SV_Position; };

[outputtopology("quad")]
[numthreads(1, 1, 1)]
void main(out vertices V verts[4], out indices uint3 tris[2], out vertices V more[4]) {
    SetMeshOutputCounts(4, 2);
}
