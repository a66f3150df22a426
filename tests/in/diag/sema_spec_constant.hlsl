// args: -T cs_6_0 -E main
[[vk::constant_id(0)]] const uint Size = 64;
[[vk::constant_id(1)]] const uint Missing;
[[vk::constant_id(2)]] const uint Derived = Size * 2;
[[vk::constant_id(3)]] const double Wide = 1.0;
[[vk::constant_id(-1)]] const int Negative = 1;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() { o[0] = Size; }
