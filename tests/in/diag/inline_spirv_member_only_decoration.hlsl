// args: -T cs_6_0 -E main
// Layout decorations belong to struct members: on a function or a
// variable, SPIR-V has no meaning for them (found by fuzzing).
[[vk::ext_decorate(/* ColMajor */ 5)]]
uint Identity(uint x) { return x; }

[[vk::ext_decorate(/* Offset */ 35, 16)]]
static uint counter;

RWStructuredBuffer<uint> buf;

[numthreads(1, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
  counter = tid.x;
  buf[0] = Identity(counter);
}
