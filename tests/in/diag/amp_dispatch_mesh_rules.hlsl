// args: -T as_6_5 -E main -fspv-target-env=vulkan1.2
// DispatchMesh passes a groupshared struct, and ends the amplification
// shader: once, last.
struct Payload { uint cells[4]; };
groupshared Payload shared_cells;
RWStructuredBuffer<uint> log;

[numthreads(4, 1, 1)]
void main(uint tid : SV_GroupThreadID) {
    Payload local;
    local.cells[tid] = tid;
    if (tid == 0) {
        DispatchMesh(1, 1, 1, shared_cells);
    }
    DispatchMesh(1, 1, 1, local);
    log[tid] = 1;
}
