// Compaction with a structured buffer's counter.
StructuredBuffer<uint> input;
RWStructuredBuffer<uint> kept;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint v = input[id.x];
    if (v % 3 == 0) {
        uint slot = kept.IncrementCounter();
        kept[slot] = v;
    }
}
