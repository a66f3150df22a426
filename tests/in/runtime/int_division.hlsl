// Integer division and remainder, signed and unsigned; masked shifts.
StructuredBuffer<int2> pairs;
RWStructuredBuffer<int> output;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int2 p = pairs[id.x];
    uint ua = (uint)p.x;
    uint ub = (uint)p.y;
    output[id.x * 6 + 0] = p.x / p.y;
    output[id.x * 6 + 1] = p.x % p.y;
    output[id.x * 6 + 2] = (int)(ua / ub);
    output[id.x * 6 + 3] = (int)(ua % ub);
    output[id.x * 6 + 4] = p.x << (id.x + 30);
    output[id.x * 6 + 5] = (int)(ua >> (id.x + 28));
}
