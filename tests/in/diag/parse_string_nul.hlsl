// args: -T cs_6_0 -E main
// A string holding a NUL cannot become a SPIR-V string, which ends at
// the first NUL (the byte itself is tested in tests/unit/parse).
[[vk::ext_extension("SPV_KHR_a\0b")]]
[[vk::ext_instruction(1, "NonSemantic.DebugBreak")]]
void debugBreak();

[numthreads(1, 1, 1)]
void main() {
    debugBreak();
    printf("value\0 %d\n", 1);
}
