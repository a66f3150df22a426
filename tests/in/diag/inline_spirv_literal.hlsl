// args: -T cs_6_0 -E main
// A `vk::ext_literal` operand is a word of the instruction: its argument
// must be a compile-time constant.
[[vk::ext_instruction(/* OpLoad */ 61)]]
float load([[vk::ext_reference]] float p, [[vk::ext_literal]] uint memoryOperands);

static uint flags;
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main() {
    float x = 1;
    o[0] = load(x, flags);
    o[1] = load(2.0, 0);
}
