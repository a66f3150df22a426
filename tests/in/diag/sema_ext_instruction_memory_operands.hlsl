// args: -T cs_6_0 -E main
// An OpLoad/OpStore through vk::ext_instruction whose memory operand bits
// (Aligned, MakePointerAvailable, MakePointerVisible) lack the operands
// they take (found by the fuzzer: the store ran past its end and the
// module could not be read). A complete one compiles.
[[vk::ext_instruction(/* OpLoad */ 61)]]
float load([[vk::ext_reference]] float pointer, [[vk::ext_literal]] int memoryOperands);
[[vk::ext_instruction(/* OpStore */ 62)]]
void store([[vk::ext_reference]] float pointer, float value, [[vk::ext_literal]] int memoryOperands);
[[vk::ext_instruction(/* OpStore */ 62)]]
void store_aligned([[vk::ext_reference]] float pointer, float value,
                   [[vk::ext_literal]] int memoryOperands, [[vk::ext_literal]] int alignment);
RWStructuredBuffer<float> buf;
[numthreads(1, 1, 1)]
void main() {
    float foo = buf[0], bar;
    store(bar, load(foo, /* None */ 0x0), /* Volatile|Aligned */ 0x3);
    store_aligned(bar, load(foo, 0x0), /* Aligned */ 0x2, 4);
    buf[1] = bar;
}
