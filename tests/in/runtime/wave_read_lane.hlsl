// Each lane reads another lane's value: WaveReadLaneAt with a lane that
// differs between lanes, and QuadReadLaneAt with a per-lane quad index.
// Records, per thread: its lane, the first lane's thread id (which wave it
// is in), and the two values read. The wave size is not assumed.
RWStructuredBuffer<uint> output;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint lane = WaveGetLaneIndex();
    uint mine = id.x * 10 + 1;
    uint across = WaveReadLaneAt(mine, lane ^ 2);
    uint in_quad = QuadReadLaneAt(mine, (lane + 1) & 3);
    output[id.x * 4 + 0] = lane;
    output[id.x * 4 + 1] = WaveReadLaneFirst(id.x);
    output[id.x * 4 + 2] = across;
    output[id.x * 4 + 3] = in_quad;
}
