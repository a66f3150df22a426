//! Inline SPIR-V (`vk::ext_instruction` and friends): the instructions,
//! capabilities and extensions the shader spells out reach the module as
//! written, validate, and compute on a real driver.

use super::{compile_valid_words, lower, run_outputs};
use crate::diag::{DiagnosticFormat, render_to_string};
use crate::ir::{Expression, Statement};
use crate::options::TargetEnv;
use crate::tests::common;

/// Compiles the compute shader `src` for Vulkan 1.3 (validated) and
/// returns the disassembly.
pub(super) fn asm(src: &str) -> String {
    let words = compile_valid_words(src, TargetEnv::Vulkan1_3);
    common::spirv_dis(&words)
}

pub(super) fn assert_has(a: &str, wants: &[&str]) {
    for want in wants {
        assert!(a.contains(want), "missing `{want}` in:\n{a}");
    }
}

const RAW: &str = r#"
[[vk::ext_capability(/* ShaderClockKHR */ 5055)]]
[[vk::ext_extension("SPV_KHR_shader_clock")]]
[[vk::ext_instruction(/* OpReadClockKHR */ 5056)]]
uint64_t ReadClock(uint scope);

[[vk::ext_instruction(/* Sin */ 13, "GLSL.std.450")]]
float4 spv_sin(float4 v);

[[vk::ext_extension("SPV_KHR_non_semantic_info")]]
[[vk::ext_instruction(1, "NonSemantic.DebugBreak")]]
void debugBreak();

[[vk::ext_instruction(/* OpLoad */ 61)]]
float4 load([[vk::ext_reference]] float4 pointer, [[vk::ext_literal]] int memoryOperands);

[[vk::ext_instruction(/* OpStore */ 62)]]
void store([[vk::ext_reference]] float4 pointer, float4 object, [[vk::ext_literal]] int memoryOperands);

RWStructuredBuffer<float4> buf;

[numthreads(1, 1, 1)]
void main() {
    float4 o = spv_sin(buf[0]);
    o.w = float(ReadClock(/* Device */ 1));
    debugBreak();
    float4 output = 0;
    store(output, load(o, /* None */ 0x0), /* Volatile */ 0x1);
    store(buf[1], output, 0x0);
}
"#;

#[test]
fn ext_instruction_calls_are_the_instructions() {
    let a = asm(RAW);
    assert_has(
        &a,
        &[
            "OpCapability ShaderClockKHR",
            "OpExtension \"SPV_KHR_shader_clock\"",
            "OpExtension \"SPV_KHR_non_semantic_info\"",
            "= OpExtInstImport \"NonSemantic.DebugBreak\"",
            "= OpExtInst %v4float %",
            " Sin %",
            "= OpReadClockKHR %ulong %uint_1",
            "= OpExtInst %void %",
            "= OpLoad %v4float %o None",
            "OpStore %output %",
        ],
    );
    // The pointer operands are the places the arguments name.
    assert!(
        a.lines()
            .any(|l| l.contains("OpStore %output") && l.ends_with("Volatile")),
        "{a}"
    );
    // GLSL.std.450 is imported once, shared with hlslc's own math.
    assert_eq!(
        a.matches("OpExtInstImport \"GLSL.std.450\"").count(),
        1,
        "{a}"
    );
}

/// A `NonSemantic.*` set of inline SPIR-V brings SPV_KHR_non_semantic_info,
/// which SPIR-V before 1.6 requires of its import, when the shader does not
/// name it (spirv-val rejects the module otherwise); found by the fuzzer.
#[test]
fn a_non_semantic_set_brings_its_extension() {
    let words = compile_valid_words(
        r#"
        [[vk::ext_instruction(1, "NonSemantic.DebugBreak")]]
        void debugBreak();
        [numthreads(1, 1, 1)]
        void main() { debugBreak(); }
        "#,
        TargetEnv::Vulkan1_0,
    );
    let a = common::spirv_dis(&words);
    assert_has(
        &a,
        &["OpExtension \"SPV_KHR_non_semantic_info\"", "= OpExtInstImport \"NonSemantic.DebugBreak\""],
    );
}

#[test]
fn ext_instructions_stay_in_the_ir_as_written() {
    let m = lower(RAW);
    let fs = || m.functions.iter().map(|(_, f)| f);
    let raw: usize = fs()
        .map(|f| super::count_stmts(&f.body, &|s| matches!(s, Statement::Spirv { .. })))
        .sum();
    assert_eq!(raw, 6, "sin, clock, debug break, load, two stores");
    let results: usize = fs()
        .map(|f| super::count_exprs(f, &|e| matches!(e, Expression::SpirvResult)))
        .sum();
    assert_eq!(results, 3, "sin, clock and load give values");
    assert!(
        m.required_extensions
            .iter()
            .any(|e| e == "SPV_KHR_shader_clock")
    );
}

#[test]
fn the_instruction_capability_is_added_when_the_shader_asks_none() {
    let a = asm(r#"
        [[vk::ext_instruction(/* OpGroupNonUniformBallotBitCount */ 342)]]
        uint BitCount(uint scope, [[vk::ext_literal]] uint groupOperation, uint4 ballot);
        static const uint Reduce = 0;
        enum { ExclusiveScan = 2 };
        RWStructuredBuffer<uint> o;
        [numthreads(1, 1, 1)]
        void main() {
            o[0] = BitCount(/* Subgroup */ 3, Reduce, 1) + BitCount(3, ExclusiveScan, 1);
        }"#);
    assert_has(
        &a,
        &[
            "OpCapability GroupNonUniformBallot",
            "= OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %",
            "= OpGroupNonUniformBallotBitCount %uint %uint_3 ExclusiveScan %",
        ],
    );
}

#[test]
fn capabilities_of_variables_and_functions_are_required() {
    let a = asm(r#"
        [[vk::ext_capability(/* Int8 */ 39)]]
        static uint g;
        [[vk::ext_extension("SPV_KHR_shader_clock")]]
        [[vk::ext_capability(/* ShaderClockKHR */ 5055)]]
        uint helper() { return g; }
        RWStructuredBuffer<uint> o;
        [numthreads(1, 1, 1)]
        void main() {
            [[vk::ext_capability(/* Int16 */ 22)]] uint l = helper();
            o[0] = l;
        }"#);
    assert_has(
        &a,
        &[
            "OpCapability Int8",
            "OpCapability Int16",
            "OpCapability ShaderClockKHR",
            "OpExtension \"SPV_KHR_shader_clock\"",
        ],
    );
}

/// An `OpIAdd` and a GLSL.std.450 `FMax` written by the shader compute
/// what they say on the driver.
#[test]
fn raw_instructions_compute_on_vulkan() {
    let src = r#"
        [[vk::ext_instruction(/* OpIAdd */ 128)]]
        uint iadd(uint a, uint b);
        [[vk::ext_instruction(/* FMax */ 40, "GLSL.std.450")]]
        float fmax(float a, float b);
        [[vk::ext_instruction(/* OpStore */ 62)]]
        void store([[vk::ext_reference]] uint p, uint v);
        RWStructuredBuffer<uint> o : register(u0);
        [numthreads(1, 1, 1)]
        void main() {
            o[0] = iadd(40, 2);
            o[1] = iadd(0xFFFFFFFFu, 3);
            o[2] = asuint(fmax(-1.5, 2.25));
            store(o[3], iadd(o[0], 100));
        }"#;
    let got = run_outputs(src, 4);
    assert_eq!(got, vec![42, 2, 2.25f32.to_bits(), 142]);
}

#[test]
fn a_body_on_an_ext_instruction_function_is_an_error() {
    let (loader, path) = common::single_file(
        "[[vk::ext_instruction(128)]] uint add(uint a, uint b) { return a + b; }\n\
         RWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = add(1, 2); }",
    );
    let c = crate::compile(&path, &loader, &super::options());
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    assert!(c.diagnostics.has_errors(), "{text}");
    assert!(text.contains("cannot have a body"), "{text}");
}

#[test]
fn ext_decorate_decorates_functions_and_globals() {
    let a = asm(r#"
        [[vk::ext_decorate(/* RelaxedPrecision */ 0)]]
        [noinline] uint identity(uint x) { return x; }
        [[vk::ext_decorate(/* RelaxedPrecision */ 0)]]
        [noinline] uint increment(uint x) { return x + 1; }
        [[vk::ext_decorate_string(/* UserSemantic */ 5635, "scratch")]]
        [[vk::ext_decorate_id(/* UniformId */ 27, /* Subgroup */ 3)]]
        groupshared uint scratch;
        RWStructuredBuffer<uint> buf;
        [numthreads(1, 1, 1)]
        void main(uint3 tid : SV_DispatchThreadID) {
            scratch = tid.x;
            buf[0] = identity(scratch) + increment(tid.x);
        }"#);
    assert_has(
        &a,
        &[
            "OpDecorate %identity RelaxedPrecision",
            "OpDecorate %increment RelaxedPrecision",
            "OpDecorateString %scratch UserSemantic \"scratch\"",
            "OpDecorateId %scratch UniformId %uint_3",
        ],
    );
}

#[test]
fn spvexecutionmode_adds_modes_with_their_capabilities() {
    let words = super::compile_valid_words_with(
        "[[vk::spvexecutionmode(/* PostDepthCoverage */ 4446), vk::spvexecutionmode(/* DepthLess */ 15)]]\n\
         float4 main() : SV_Target { return 1; }",
        &{
            let mut o = common::options_for("ps_6_0");
            o.entry = "main".into();
            o.target_env = TargetEnv::Vulkan1_2;
            o
        },
    );
    let a = common::spirv_dis(&words);
    assert_has(
        &a,
        &[
            "OpExecutionMode %main PostDepthCoverage",
            "OpExecutionMode %main DepthLess",
            "OpCapability SampleMaskPostDepthCoverage",
            "OpExtension \"SPV_KHR_post_depth_coverage\"",
        ],
    );
}

#[test]
fn ext_result_id_is_the_value_of_its_type() {
    let a = asm(r#"
        [[vk::ext_instruction(/* OpLoad */ 61)]]
        vk::ext_result_id<float> load([[vk::ext_reference]] float pointer,
                                      [[vk::ext_literal]] int memoryOperands);
        [[vk::ext_instruction(/* OpStore */ 62)]]
        void store([[vk::ext_reference]] float pointer, vk::ext_result_id<float> value,
                   [[vk::ext_literal]] int memoryOperands);
        RWStructuredBuffer<float> buf;
        [numthreads(1, 1, 1)]
        void main() {
            float foo = buf[0], bar;
            vk::ext_result_id<float> v = load(foo, /* None */ 0x0);
            store(bar, v, /* Volatile */ 0x1);
            buf[1] = bar;
        }"#);
    assert_has(&a, &["= OpLoad %float %foo None"]);
    assert!(
        a.lines()
            .any(|l| l.contains("OpStore %bar") && l.ends_with("Volatile")),
        "{a}"
    );
}
