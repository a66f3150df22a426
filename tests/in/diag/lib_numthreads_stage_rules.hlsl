// args: -fsyntax-only
// `[numthreads]` makes a compute entry point of a library function: its
// thread group and its result are checked as compute rules say.
RWStructuredBuffer<uint> counts : register(u0);

[numthreads(64, 32, 1)]
uint CountAll(uint3 id : SV_DispatchThreadID) {
    InterlockedAdd(counts[0], 1);
    return id.x;
}
