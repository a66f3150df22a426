// args: -T lib_6_8 -fspv-target-env=vulkan1.3
// Work graph objects: struct records, the methods each kind has, node
// shaders only, and what SV_DispatchGrid may be.
struct Rec { uint a; };
struct BadGrid { float2 grid : SV_DispatchGrid; };
RWBuffer<uint> o;

[Shader("node")]
[NodeLaunch("coalescing")]
[NumThreads(8, 1, 1)]
void group_get(EmptyNodeInput input) { o[0] = input.Get().a; }

[Shader("node")]
[NodeLaunch("thread")]
void not_a_struct(ThreadNodeInputRecord<uint> r) {}

[Shader("compute")]
[NumThreads(1, 1, 1)]
void compute_input(DispatchNodeInputRecord<Rec> r) {}

[Shader("node")]
[NodeLaunch("broadcasting")]
[NodeMaxDispatchGrid(4, 4, 1)]
[NumThreads(1, 1, 1)]
void float_grid(DispatchNodeInputRecord<BadGrid> r) {}

[Shader("node")]
[NodeLaunch("broadcasting")]
[NodeDispatchGrid(1, 1, 1)]
[NumThreads(1, 1, 1)]
void untracked(RWDispatchNodeInputRecord<Rec> r) { o[0] = r.FinishedCrossGroupSharing(); }
