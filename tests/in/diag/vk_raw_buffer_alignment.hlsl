// args: -T cs_6_0 -E main
uint64_t Address;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main() {
  // The alignment must be a constant power of two.
  o[0] = vk::RawBufferLoad<float4>(Address, 12);
  o[1] = vk::RawBufferLoad<float4>(Address, -16);
  // Resources have no memory layout.
  vk::RawBufferStore<RWStructuredBuffer<float4> >(Address, o);
}
