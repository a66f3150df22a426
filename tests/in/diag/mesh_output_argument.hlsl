// args: -T ms_6_5 -E main -fspv-target-env=vulkan1.2
// A helper's `out indices` parameter stands for the mesh shader's indices:
// it takes that array and nothing else, and an output array goes to no
// other parameter, nor read by an intrinsic.
struct V { float4 pos : SV_Position; };

void write_tris(out indices uint3 tris[1]) { tris[0] = uint3(0, 1, 2); }
void fill(out V vs[3]) { vs[0].pos = 0; vs[1].pos = 0; vs[2].pos = 0; }

[outputtopology("triangle")]
[numthreads(1, 1, 1)]
void main(out vertices V verts[3], out indices uint3 tris[1]) {
    SetMeshOutputCounts(3, 1);
    uint3 local[1];
    write_tris(local);
    fill(verts);
    uint n = countbits(tris);
}
