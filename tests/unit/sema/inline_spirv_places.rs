//! Inline SPIR-V on the places a shader declares: `vk::ext_decorate*` on
//! parameters, locals, `$Globals` and cbuffer members and the entry
//! point's stage variables, and
//! `[[vk::ext_storage_class]]` on globals, locals and `ext_reference`
//! parameters. The decorations reach the module on the right ids and
//! survive the passes; the module validates.

use super::{compile_valid_words_with, options};
use super::inline_spirv::{asm, assert_has};
use crate::options::TargetEnv;
use crate::tests::common;

#[test]
fn parameters_and_locals_keep_their_decorations() {
    let a = asm(r#"
        RWStructuredBuffer<float> buf;
        void add([[vk::ext_decorate(/* Aliased */ 20)]] inout float a,
                 [[vk::ext_decorate(/* Aliased */ 20)]] inout float b) {
            a += 1.0;
            b += 2.0;
        }
        [numthreads(1, 1, 1)]
        void main(uint3 tid : SV_DispatchThreadID) {
            [[vk::ext_decorate(/* Aliased */ 20)]] float x = buf[0];
            [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] float unread = 3.0;
            add(x, x);
            buf[1] = x;
        }"#);
    assert_has(
        &a,
        &[
            "OpDecorate %x Aliased",
            "OpDecorate %a Aliased",
            "OpDecorate %b Aliased",
            "OpDecorate %unread RelaxedPrecision",
            "%a = OpFunctionParameter %_ptr_Function_float",
            "%b = OpFunctionParameter %_ptr_Function_float",
            "%x = OpVariable %_ptr_Function_float Function",
            // A decorated local keeps its stores, though nothing reads it.
            "OpStore %unread %float_3",
        ],
    );
    // The decorated function stays a function of its own.
    assert!(a.contains("OpFunctionCall %void %add "), "{a}");
}

#[test]
fn static_locals_keep_their_decorations() {
    // A static local is a Private global: its decorations go there, and
    // the passes keep it (as a decorated local), initialised once by a
    // constant or by a guarded store.
    let a = asm(r#"
        RWStructuredBuffer<float> buf;
        [numthreads(1, 1, 1)]
        void main(uint3 tid : SV_DispatchThreadID) {
            [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] static float acc = 1.0;
            [[vk::ext_decorate(/* Aliased */ 20)]] static float first = buf[2];
            acc += 1.0;
            buf[tid.x] = acc + first;
        }"#);
    assert_has(
        &a,
        &[
            "OpDecorate %src_main_acc RelaxedPrecision",
            "OpDecorate %src_main_first Aliased",
            "%src_main_acc = OpVariable %_ptr_Private_float Private %float_1",
            "%src_main_first = OpVariable %_ptr_Private_float Private",
        ],
    );
}

#[test]
fn entry_decorations_go_to_its_stage_variables() {
    let src = r#"
        [[vk::ext_decorate(/* Location */ 30, 3)]]
        float4 main(
            [[vk::ext_decorate(/* BuiltIn */ 11, /* BaryCoordSmoothAMD */ 4995)]] float2 bary : COLOR0,
            [[vk::ext_decorate(/* Location */ 30, 5), vk::ext_decorate(/* Flat */ 14)]]
            [[vk::ext_decorate_string(/* UserSemantic */ 5635, "c")]] float c : COLOR1,
            [[vk::location(2)]] out float4 o : SV_Target1) : SV_Target {
            o = c;
            return float4(bary, c, 1);
        }"#;
    let mut o = common::options_for("ps_6_0");
    o.target_env = TargetEnv::Vulkan1_3;
    let a = common::spirv_dis(&compile_valid_words_with(src, &o));
    assert_has(
        &a,
        &[
            "OpExtension \"SPV_AMD_shader_explicit_vertex_parameter\"",
            "OpDecorate %in_var_COLOR0 BuiltIn BaryCoordSmoothAMD",
            "OpDecorate %in_var_COLOR1 Location 5",
            "OpDecorate %in_var_COLOR1 Flat",
            "OpDecorateString %in_var_COLOR1 UserSemantic \"c\"",
            "OpDecorate %out_var_SV_Target Location 3",
            "OpDecorate %out_var_SV_Target1 Location 2",
        ],
    );
    // A built-in takes no location; the result's location is the one
    // written, not the semantic's.
    assert!(!a.contains("OpDecorate %in_var_COLOR0 Location"), "{a}");
    assert!(!a.contains("OpDecorate %out_var_SV_Target Location 0"), "{a}");
}

#[test]
fn ext_decorate_builtin_on_the_entry_function_decorates_its_result() {
    let src = r#"
        [[vk::ext_decorate(/* BuiltIn */ 11, /* FragStencilRefEXT */ 5014)]]
        int main() : SV_Target0 {
            vk::ext_execution_mode(/* StencilRefReplacingEXT */ 5027);
            return 3;
        }"#;
    let o = common::options_for("ps_6_0");
    let a = common::spirv_dis(&compile_valid_words_with(src, &o));
    assert_has(
        &a,
        &[
            "OpCapability StencilExportEXT",
            "OpExtension \"SPV_EXT_shader_stencil_export\"",
            "OpExecutionMode %main StencilRefReplacingEXT",
            "OpDecorate %out_var_SV_Target0 BuiltIn FragStencilRefEXT",
        ],
    );
    assert!(!a.contains("OpDecorate %out_var_SV_Target0 Location"), "{a}");
}

#[test]
fn ext_storage_class_places_globals_locals_and_references() {
    let src = r#"
        [[vk::ext_storage_class(/* Private */ 6)]] float4 p;
        [[vk::ext_storage_class(/* Workgroup */ 4)]] uint counter;
        RWStructuredBuffer<float4> buf;
        [[vk::ext_instruction(/* OpAtomicIAdd */ 234)]]
        uint atomicAdd([[vk::ext_reference, vk::ext_storage_class(/* Workgroup */ 4)]] uint p,
                       uint scope, uint semantics, uint v);
        [numthreads(4, 1, 1)]
        void main(uint i : SV_GroupIndex) {
            [[vk::ext_storage_class(/* Private */ 6)]] float t = 2;
            p = float4(1, 2, 3, t);
            uint old = atomicAdd(counter, /* Workgroup */ 2, 0, 1);
            buf[i] = p + old;
        }"#;
    let a = asm(src);
    assert_has(
        &a,
        &[
            "%counter = OpVariable %_ptr_Workgroup_uint Workgroup",
            "= OpAtomicIAdd %uint %counter %uint_2 %uint_0 %uint_1",
        ],
    );
    // At -O1 and above a Private variable that only the entry point uses
    // becomes its local (spirv-opt's private-to-local): where they are
    // declared shows at -O0.
    let mut o = options();
    o.target_env = TargetEnv::Vulkan1_3;
    o.opt_level = 0;
    let a = common::spirv_dis(&compile_valid_words_with(src, &o));
    assert_has(
        &a,
        &[
            "%p = OpVariable %_ptr_Private_v4float Private",
            // The local lives outside the function; its initializer is a
            // store where it is declared.
            "%t = OpVariable %_ptr_Private_float Private",
            "OpStore %t %float_2",
        ],
    );
}

#[test]
fn raw_buffer_load_reads_a_spirv_type_with_its_layout() {
    let a = asm(r#"
        using MyInt = vk::SpirvType</* OpTypeInt */ 21, 2, 2,
            vk::Literal<vk::integral_constant<uint, 16> >, vk::Literal<vk::integral_constant<uint, 1> > >;
        [[vk::ext_capability(/* Int16 */ 22)]]
        [[vk::ext_instruction(/* OpSConvert */ 114)]] int widen(MyInt x);
        struct Push { uint64_t address; };
        [[vk::push_constant]] Push push;
        RWStructuredBuffer<int> buf;
        [numthreads(1, 1, 1)]
        void main() {
            MyInt v = vk::RawBufferLoad<MyInt>(push.address, 2);
            buf[0] = widen(v);
        }"#);
    assert_has(
        &a,
        &[
            "= OpConvertUToPtr %_ptr_PhysicalStorageBuffer_short %",
            "= OpLoad %short %",
            " Aligned 2",
            "= OpSConvert %int %",
        ],
    );
    // An opaque type has no layout to read.
    let e = super::fails_with(
        r#"
        using Opaque = vk::SpirvOpaqueType</* OpTypeInt */ 21,
            vk::Literal<vk::integral_constant<uint, 32> >, vk::Literal<vk::integral_constant<uint, 0> > >;
        struct Push { uint64_t address; };
        [[vk::push_constant]] Push push;
        [numthreads(1, 1, 1)]
        void main() { Opaque o = vk::RawBufferLoad<Opaque>(push.address); }"#,
        "E0304",
    );
    assert!(e.contains("cannot access a value of type"), "{e}");
}

#[test]
fn struct_member_decorations_decorate_the_member() {
    let a = asm(r#"
        struct S {
            [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] float4 f1;
            uint pad;
            [[vk::ext_decorate_string(/* UserSemantic */ 5635, "second")]] float4 f2;
        };
        RWStructuredBuffer<S> buf;
        groupshared S shared_s;
        [numthreads(1, 1, 1)]
        void main(uint3 tid : SV_DispatchThreadID) {
            shared_s = buf[tid.x];
            GroupMemoryBarrierWithGroupSync();
            S s = shared_s;
            s.f1 *= 2.0;
            buf[tid.x + 1] = s;
        }"#);
    // The laid-out copy (in the buffer) keeps its offsets and adds the
    // written decorations; so does the workgroup one without offsets.
    assert_has(
        &a,
        &[
            "OpMemberDecorate %S 0 Offset 0",
            "OpMemberDecorate %S 0 RelaxedPrecision",
            "OpMemberDecorate %S 2 Offset 32",
            "OpMemberDecorateString %S 2 UserSemantic \"second\"",
        ],
    );
    let relaxed = a.matches("OpMemberDecorate %S_0 0 RelaxedPrecision").count()
        + a.matches("OpMemberDecorate %S 0 RelaxedPrecision").count();
    assert_eq!(relaxed, 2, "{a}");
    // The undecorated member has none but its offset.
    assert!(!a.contains("OpMemberDecorate %S 1 RelaxedPrecision"), "{a}");
}

#[test]
fn globals_and_cbuffer_member_decorations_decorate_the_member() {
    let a = asm(r#"
        cbuffer Params {
            float4 color;
            [[vk::ext_decorate(/* RelaxedPrecision */ 0)]] float gain;
        };
        float bias;
        [[vk::ext_decorate_string(/* UserSemantic */ 5635, "tint")]] float4 tint;
        RWStructuredBuffer<float4> buf;
        [numthreads(1, 1, 1)]
        void main() { buf[0] = tint * gain + color + bias; }"#);
    // A uniform global is its member of `$Globals`; the decorations go
    // there, after its offset.
    assert_has(
        &a,
        &[
            "OpMemberDecorate %type_Params 1 RelaxedPrecision",
            "OpMemberDecorate %type__Globals 1 Offset 16",
            "OpMemberDecorateString %type__Globals 1 UserSemantic \"tint\"",
        ],
    );
    assert!(!a.contains("%type_Params 0 RelaxedPrecision"), "{a}");
    assert!(!a.contains("%type__Globals 0 UserSemantic"), "{a}");
}

#[test]
fn entry_struct_member_decorations_go_to_their_stage_variables() {
    let src = r#"
        struct VsIn {
            [[vk::ext_decorate(/* Location */ 30, 4)]] float4 pos : POSITION;
            [[vk::location(2), vk::ext_decorate_string(/* UserSemantic */ 5635, "tint")]]
            float4 col : COLOR0;
        };
        struct PsOut {
            [[vk::location(1), vk::ext_decorate_string(/* UserSemantic */ 5635, "rt1")]]
            float4 rt : SV_Target1;
        };
        PsOut main(VsIn i) {
            PsOut o;
            o.rt = i.pos * i.col;
            return o;
        }"#;
    let a = common::spirv_dis(&compile_valid_words_with(src, &common::options_for("ps_6_0")));
    assert_has(
        &a,
        &[
            "OpDecorate %in_var_POSITION Location 4",
            "OpDecorate %in_var_COLOR0 Location 2",
            "OpDecorateString %in_var_COLOR0 UserSemantic \"tint\"",
            "OpDecorate %out_var_SV_Target1 Location 1",
            "OpDecorateString %out_var_SV_Target1 UserSemantic \"rt1\"",
        ],
    );
    // The location written is the variable's only one.
    assert!(!a.contains("OpDecorate %in_var_POSITION Location 0"), "{a}");
}

#[test]
fn ext_instruction_default_arguments_are_passed() {
    // `OpLoad` of a physical storage buffer pointer with the memory
    // operands `Aligned 16` given by the defaults; the pointee's layout is
    // written with member decorations.
    let a = asm(r#"
        struct S {
            [[vk::ext_decorate(/* Offset */ 35, 0)]] float4 a;
            [[vk::ext_decorate(/* Offset */ 35, 16)]] float4 b;
        };
        using Ptr = vk::SpirvOpaqueType</* OpTypePointer */ 32,
            /* PhysicalStorageBuffer */ vk::Literal<vk::integral_constant<uint, 5349> >, S>;
        template<class T, class U>
        [[vk::ext_instruction(/* OpBitcast */ 124)]] T Bitcast(U);
        [[vk::ext_capability(/* PhysicalStorageBufferAddresses */ 5347)]]
        [[vk::ext_instruction(/* OpLoad */ 61)]]
        S Load(Ptr p, [[vk::ext_literal]] uint access = /* Aligned */ 2,
               [[vk::ext_literal]] uint alignment = 16);
        uint64_t address;
        RWStructuredBuffer<float4> buf;
        [numthreads(1, 1, 1)]
        void main() {
            Ptr p = Bitcast<Ptr>(address);
            buf[0] = Load(p).b;
            buf[1] = Load(p, 2, 32).a;
        }"#);
    assert_has(
        &a,
        &[
            "OpLoad %S %",
            " Aligned 16",
            " Aligned 32",
            "OpCapability PhysicalStorageBufferAddresses",
            "OpMemberDecorate %S 1 Offset 16",
        ],
    );
}

#[test]
fn an_ext_decorate_offset_places_the_member_in_a_buffer() {
    let a = asm(r#"
        struct S {
            [[vk::ext_decorate(/* Offset */ 35, 0)]] float4 f1;
            [[vk::ext_decorate(/* Offset */ 35, 32)]] float4 f2;
        };
        RWStructuredBuffer<S> buf;
        [numthreads(1, 1, 1)]
        void main(uint3 tid : SV_DispatchThreadID) {
            buf[tid.x].f1 = buf[tid.x].f2;
        }"#);
    // Written once, at the offset asked for; the stride follows it.
    assert_eq!(a.matches("OpMemberDecorate %S 1 Offset 32").count(), 1, "{a}");
    assert_eq!(a.matches("OpMemberDecorate %S 0 Offset 0").count(), 1, "{a}");
    assert!(a.contains("ArrayStride 48"), "{a}");
}
