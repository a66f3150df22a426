// enable-16bit-types
// Bit intrinsics on 16- and 64-bit integers (Vulkan's bit instructions
// take 32-bit operands: sema widens or splits the values).
RWStructuredBuffer<uint> input;
RWStructuredBuffer<uint> output;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    uint a = input[2 * i];
    uint b = input[2 * i + 1];
    uint16_t h = (uint16_t)a;
    int16_t s = (int16_t)b;
    uint64_t w = ((uint64_t)b << 32) | a;
    uint base = i * 8;
    output[base + 0] = countbits(h);
    output[base + 1] = countbits(s);
    output[base + 2] = firstbithigh(h);
    output[base + 3] = firstbitlow(s);
    output[base + 4] = reversebits(h);
    output[base + 5] = countbits(w);
    uint64_t r = reversebits(w);
    output[base + 6] = (uint)r;
    output[base + 7] = (uint)(r >> 32);
}
