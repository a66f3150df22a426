// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// The output arrays of a mesh shader: `out`, one dimension, at most 256
// elements, indices of the topology's width; its other parameters are
// system values.
struct V { float4 pos : SV_Position; };
struct P { float4 color : COLOR; };

[outputtopology("triangle")]
[numthreads(32, 1, 1)]
void main(out vertices V verts,
          out indices uint2 tris[300],
          in primitives P prims[300],
          float weight : WEIGHT) {
    SetMeshOutputCounts(3, 1);
}
