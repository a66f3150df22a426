// args: -T lib_6_8 -fspv-target-env=vulkan1.3
// A node entry's launch, dispatch grid and input must fit together.
struct Rec { uint a; };

// Broadcasting (the default launch) needs a dispatch grid.
[Shader("node")]
[NumThreads(8, 1, 1)]
void no_grid(DispatchNodeInputRecord<Rec> r) {}

// A coalescing node takes group records, and has no dispatch grid.
[Shader("node")]
[NodeLaunch("coalescing")]
[NodeDispatchGrid(2, 1, 1)]
[NumThreads(8, 1, 1)]
void wrong_input(DispatchNodeInputRecord<Rec> r) {}

[Shader("node")]
[NodeLaunch("everywhere")]
void unknown_launch() {}

// Thread launch nodes run one thread per group.
[Shader("node")]
[NodeLaunch("thread")]
[NumThreads(4, 1, 1)]
void wide_thread(ThreadNodeInputRecord<Rec> r) {}
