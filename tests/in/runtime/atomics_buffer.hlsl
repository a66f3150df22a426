// Atomics on buffer elements.
RWStructuredBuffer<uint> counters;
RWStructuredBuffer<int> signed_vals;

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    InterlockedAdd(counters[0], 2);
    InterlockedAnd(counters[1], ~(1u << id.x));
    InterlockedXor(counters[2], 1u << id.x);
    uint old;
    InterlockedExchange(counters[3 + id.x], id.x * 3, old);
    counters[40 + id.x] = old;
    InterlockedMin(signed_vals[0], (int)id.x - 20);
    InterlockedMax(signed_vals[1], (int)id.x - 20);
    uint orig;
    InterlockedCompareExchange(counters[36], id.x, id.x + 100, orig);
}
