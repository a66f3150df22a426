// A 64x64 target cut into a 4x4 grid of 16-pixel cells; each meshlet is
// one quad (4 vertices, 2 triangles) inset 2 pixels into its cell, with a
// colour and a primitive id per triangle.
//   MSGrid:   one mesh group per cell (a 4x4x1 launch).
//   MSRow:    the same from a row of 16 groups (VK_NV_mesh_shader launches
//             are one-dimensional), written by a helper function.
//   ASCull:   one amplification group keeps the cells whose x + y is even
//             and passes their numbers to MSCulled through the payload.
//   pixel.hlsl draws what they output.

#define CELLS 4
#define CELL_PIXELS 16.0
#define TARGET_PIXELS 64.0

struct Vertex {
    float4 pos : SV_Position;
};

struct Primitive {
    nointerpolation float4 color : COLOR;
    uint id : SV_PrimitiveID;
};

struct Payload {
    uint cells[CELLS * CELLS];
};

// Corner `corner` (0..3: x in bit 0, y in bit 1) of the quad in `cell`.
float4 corner_position(uint cell, uint corner) {
    float2 base = float2(cell % CELLS, cell / CELLS) * CELL_PIXELS + 2.0;
    float2 pixel = base + float2(corner & 1, corner >> 1) * 12.0;
    return float4(pixel / TARGET_PIXELS * 2.0 - 1.0, 0.0, 1.0);
}

float4 cell_color(uint cell, uint triangle) {
    return float4((cell % CELLS) * 0.25, (cell / CELLS) * 0.25, triangle, 1.0);
}

[outputtopology("triangle")]
[numthreads(4, 1, 1)]
void MSGrid(uint tid : SV_GroupThreadID, uint3 gid : SV_GroupID,
            out vertices Vertex verts[4],
            out indices uint3 tris[2],
            out primitives Primitive prims[2]) {
    SetMeshOutputCounts(4, 2);
    uint cell = gid.y * CELLS + gid.x;
    verts[tid].pos = corner_position(cell, tid);
    if (tid < 2) {
        tris[tid] = tid == 0 ? uint3(0, 1, 2) : uint3(1, 3, 2);
        prims[tid].color = cell_color(cell, tid);
        prims[tid].id = cell * 2 + tid;
    }
}

// Writes the quad of `cell`: thread `tid` its corner, threads 0 and 1 a
// triangle each, into the mesh shader's output arrays.
void emit_quad(uint cell, uint tid, out vertices Vertex verts[4],
               out indices uint3 tris[2], out primitives Primitive prims[2]) {
    verts[tid].pos = corner_position(cell, tid);
    if (tid < 2) {
        tris[tid] = tid == 0 ? uint3(0, 1, 2) : uint3(1, 3, 2);
        prims[tid].color = cell_color(cell, tid);
        prims[tid].id = cell * 2 + tid;
    }
}

[outputtopology("triangle")]
[numthreads(4, 1, 1)]
void MSRow(uint tid : SV_GroupThreadID, uint3 gid : SV_GroupID,
           out vertices Vertex verts[4],
           out indices uint3 tris[2],
           out primitives Primitive prims[2]) {
    SetMeshOutputCounts(4, 2);
    emit_quad(gid.x, tid, verts, tris, prims);
}

groupshared Payload kept;
groupshared uint kept_count;

[numthreads(16, 1, 1)]
void ASCull(uint tid : SV_GroupThreadID) {
    if (tid == 0) {
        kept_count = 0;
    }
    GroupMemoryBarrierWithGroupSync();
    if ((tid % CELLS + tid / CELLS) % 2 == 0) {
        uint slot;
        InterlockedAdd(kept_count, 1, slot);
        kept.cells[slot] = tid;
    }
    GroupMemoryBarrierWithGroupSync();
    DispatchMesh(kept_count, 1, 1, kept);
}

[outputtopology("triangle")]
[numthreads(4, 1, 1)]
void MSCulled(uint tid : SV_GroupThreadID, uint3 gid : SV_GroupID,
              in payload Payload from_task,
              out vertices Vertex verts[4],
              out indices uint3 tris[2],
              out primitives Primitive prims[2]) {
    SetMeshOutputCounts(4, 2);
    emit_quad(from_task.cells[gid.x], tid, verts, tris, prims);
}
