// Integer intrinsics and bit operations.
StructuredBuffer<uint> input;
RWStructuredBuffer<uint> output;

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint u = input[id.x];
    int s = (int)u;
    uint o = id.x * 12;
    output[o + 0] = countbits(u);
    output[o + 1] = reversebits(u);
    output[o + 2] = firstbithigh(u);
    output[o + 3] = firstbitlow(u);
    output[o + 4] = (uint)abs(s);
    output[o + 5] = (uint)min(s, 7);
    output[o + 6] = max(u, 100u);
    output[o + 7] = (uint)clamp(s, -50, 50);
    output[o + 8] = u ^ (u >> 3) ^ (u << 5);
    output[o + 9] = ~u & 0xffff;
    output[o + 10] = (uint)(s >> 2);
    output[o + 11] = asuint(asfloat(u));
}
