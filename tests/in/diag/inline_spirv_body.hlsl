// args: -T cs_6_0 -E main
// The call of a `vk::ext_instruction` function is the instruction itself:
// it has no body.
[[vk::ext_instruction(/* OpIAdd */ 128)]]
uint add(uint a, uint b) { return a + b; }

RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() { o[0] = add(1, 2); }
