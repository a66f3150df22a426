// args: -T cs_6_0 -E main
// Opcodes and capabilities are numbers of the SPIR-V specification; one
// that names nothing is an error, as is a result type that does not match
// whether the instruction gives a value.
[[vk::ext_capability(99999)]]
[[vk::ext_instruction(70000)]]
uint nothing(uint a);

[[vk::ext_instruction(/* OpIAdd */ 128)]]
void add(uint a, uint b);

[[vk::ext_instruction(/* OpStore */ 62)]]
uint store([[vk::ext_reference]] uint p, uint v);

RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() {
    uint x = 0;
    o[0] = nothing(1);
    add(1, 2);
    o[1] = store(x, 3);
}
