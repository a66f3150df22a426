// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// Mesh outputs are written element by element; the primitives array has
// one element per primitive, as the indices array.
struct V { float4 pos : SV_Position; };
struct P { uint layer : SV_RenderTargetArrayIndex; };

[outputtopology("triangle")]
[numthreads(4, 1, 1)]
void main(uint tid : SV_GroupThreadID,
          out vertices V verts[4], out indices uint3 tris[2], out primitives P prims[3]) {
    SetMeshOutputCounts(4, 2);
    verts[tid].pos = float4(0, 0, 0, 1);
    float4 p = verts[0].pos;
    tris = tris;
}
