// args: -T cs_6_0 -E main
// Misuse of `vk::ext_type_def`: a body, an opcode that is no type, a
// non-constant argument, an id nothing defines, and one id defined twice as
// different types.
[[vk::ext_type_def(0, /* OpTypeInt */ 21)]]
void defineInt([[vk::ext_literal]] uint width, [[vk::ext_literal]] uint signedness);

[[vk::ext_type_def(1, /* OpTypeFloat */ 22)]]
void defineFloat([[vk::ext_literal]] uint width) {}

[[vk::ext_type_def(2, /* OpTypeFloat */ 22)]]
void defineHalfOrFloat([[vk::ext_literal]] uint width);

[[vk::ext_type_def(3, /* OpTypeInt */ 21)]]
void defineAnyInt([[vk::ext_literal]] uint width, [[vk::ext_literal]] uint signedness);

[[vk::ext_type_def(4, /* OpIAdd */ 128)]]
void defineNothing();

RWStructuredBuffer<uint> buf;

[numthreads(1, 1, 1)]
void main() {
    defineInt(32, 0);
    defineHalfOrFloat(32);
    defineHalfOrFloat(64);
    defineAnyInt(buf[0], 0);
    defineNothing();
    vk::ext_type<0> a = 1;
    vk::ext_type<2> b = 2;
    vk::ext_type<7> c;
    buf[1] = a;
}
