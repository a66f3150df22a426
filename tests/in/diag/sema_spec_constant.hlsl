// args: -T cs_6_0 -E main
[[vk::constant_id(0)]] const uint Size = 64;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() { o[0] = Size; }
