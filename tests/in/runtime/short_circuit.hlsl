// && || ?: evaluate their right side only when needed (HLSL 2021).
RWStructuredBuffer<uint> hits;
RWStructuredBuffer<uint> output;

bool touch(uint i, bool r) {
    hits[i] += 1;
    return r;
}

[numthreads(1, 1, 1)]
void main() {
    uint r = 0;
    if (false && touch(0, true)) r |= 1;
    if (true && touch(1, true)) r |= 2;
    if (true || touch(2, true)) r |= 4;
    if (false || touch(3, false)) r |= 8;
    uint x = hits[10] > 0 ? (touch(4, true) ? 16 : 0) : (touch(5, true) ? 32 : 0);
    bool y = hits[10] == 0 && hits[11] == 0 || touch(6, true);
    output[0] = r | x | (y ? 64 : 0);
}
