// args: -T cs_6_0 -E main
// The operands of a core instruction are checked against the grammar:
// their number, ids against literal words, and pointers where memory
// instructions need them, of the type the result or the value has.

// OpCopyMemory: the source must be a pointer too.
[[vk::ext_instruction(63)]]
void copy([[vk::ext_reference]] float to, vk::ext_result_id<float> from, [[vk::ext_literal]] int m);

// OpStore: the object is the pointee type.
[[vk::ext_instruction(62)]]
void store_int([[vk::ext_reference]] float p, int v);

// OpLoad: the result is the pointee type.
[[vk::ext_instruction(61)]]
int load_int([[vk::ext_reference]] float p);

// OpFAdd takes two ids, not a literal.
[[vk::ext_instruction(129)]]
float add(float a, [[vk::ext_literal]] int b);

// OpFNegate takes one operand.
[[vk::ext_instruction(127)]]
float neg(float a, float b);

// OpIsNan takes one operand, not none.
[[vk::ext_instruction(156)]]
bool nan();

// OpMemoryBarrier's scope is an id.
[[vk::ext_instruction(225)]]
void barrier([[vk::ext_literal]] uint scope, uint semantics);

// OpGroupNonUniformIAdd's group operation is a literal word.
[[vk::ext_instruction(349)]]
int wave_sum(uint scope, uint operation, int value);

// An instruction set must be one SPIR-V knows (or a NonSemantic.* one).
[[vk::ext_instruction(1, "NoSuch.Set")]]
float no_such(float a);

[numthreads(1, 1, 1)]
void main() {
    float a = 1, b = 2;
    copy(a, b, 0);
    store_int(a, 1);
    int i = load_int(a);
    float c = add(a, 1);
    float d = neg(a, b);
    bool e = nan();
    barrier(1, 0);
    int s = wave_sum(3, 0, i);
    float f = no_such(a);
}
