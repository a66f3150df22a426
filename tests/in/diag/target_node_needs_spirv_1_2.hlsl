// args: -T lib_6_8 -fspv-target-env=vulkan1.0
// A work graph node's execution modes and output decorations take ids
// (OpExecutionModeId, OpDecorateId), which SPIR-V 1.2 brought.
struct Job { uint value; };
RWStructuredBuffer<uint> results;

[Shader("node")]
[NodeLaunch("broadcasting")]
[NodeDispatchGrid(4, 1, 1)]
[NumThreads(16, 1, 1)]
void first(DispatchNodeInputRecord<Job> job, uint t : SV_DispatchThreadID) {
    results[t] = job.Get().value;
}
