// Bitwise operators on vectors, mixed with scalars.
StructuredBuffer<uint4> input;
RWStructuredBuffer<uint4> output;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint4 v = input[id.x];
    output[id.x * 4 + 0] = v & 0xff;
    output[id.x * 4 + 1] = (v | uint4(1, 2, 4, 8)) ^ v.wzyx;
    output[id.x * 4 + 2] = (v << uint4(1, 2, 3, 4)) >> 1;
    output[id.x * 4 + 3] = uint4(v > 100) + uint4(!(v == 7)) * 2;
}
