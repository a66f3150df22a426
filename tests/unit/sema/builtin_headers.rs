//! hlslc's built-in headers (`vk/spirv.h`, `vk/opcode_selector.h`,
//! `vk/khr/cooperative_matrix.h`): an `#include` finds them without `-I`,
//! after the user's include path; what their API compiles to (validated)
//! and, where a driver can run it, computes.

use super::inline_spirv::{asm, assert_has};
use super::{compile_valid_words_with, run_outputs};
use crate::MemoryLoader;
use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::{Options, TargetEnv};
use crate::tests::common;
use std::path::PathBuf;

/// Compiles `src` with `o` and renders its diagnostics; `Err` when it
/// failed.
fn compile_text(loader: &MemoryLoader, o: &Options) -> Result<Vec<u32>, String> {
    let c = crate::compile(&PathBuf::from("main.hlsl"), loader, o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    match c.artifact.filter(|_| !c.diagnostics.has_errors()) {
        Some(a) => Ok(a.spirv),
        None => Err(text),
    }
}

/// Options for a compute shader with 16-bit types, for Vulkan 1.3.
fn options_16bit() -> Options {
    let mut o = common::options_for("cs_6_2");
    o.enable_16bit_types = true;
    o.target_env = TargetEnv::Vulkan1_3;
    o
}

const GROUP_SHARED: &str = r#"
#include <vk/spirv.h>
RWStructuredBuffer<int> o : register(u0);
groupshared int shared_data[4];
[[vk::ext_instruction(/* OpLoad */ 61)]] int load(vk::WorkgroupSpirvPointer<int> p);
[numthreads(1, 1, 1)]
void main() {
    shared_data[0] = 5;
    shared_data[2] = 7;
    vk::WorkgroupSpirvPointer<int> p = vk::GetGroupSharedAddress(shared_data[2]);
    o[0] = load(p) * 10 + load(vk::GetGroupSharedAddress(shared_data[0]));
    o[1] = vk::ScopeSubgroup + vk::StorageClassWorkgroup * 10;
}
"#;

#[test]
fn group_shared_addresses_are_workgroup_pointers() {
    let a = asm(GROUP_SHARED);
    assert_has(
        &a,
        &[
            "= OpCopyObject %_ptr_Workgroup_int %",
            "= OpLoad %int %",
        ],
    );
    assert!(!a.contains("VariablePointers"), "{a}");
}

#[test]
fn group_shared_addresses_read_the_memory_on_vulkan() {
    assert_eq!(run_outputs(GROUP_SHARED, 2), vec![75, 43]);
}

#[test]
fn a_users_header_of_the_same_name_wins() {
    let mut l = MemoryLoader::new();
    l.add(
        "main.hlsl",
        "#include <vk/spirv.h>\nRWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = MINE; }",
    );
    l.add("inc/vk/spirv.h", "#define MINE 3u\n");
    let mut o = super::options();
    o.include_dirs = vec![PathBuf::from("inc")];
    let words = compile_text(&l, &o).unwrap_or_else(|e| panic!("{e}"));
    assert!(common::spirv_dis(&words).contains("%uint_3"));
    // Without it, the built-in header has no `MINE`.
    o.include_dirs.clear();
    let e = compile_text(&l, &o).expect_err("MINE is the user's");
    assert!(e.contains("MINE"), "{e}");
}

#[test]
fn the_built_in_headers_are_named_in_diagnostics() {
    let (l, _) = common::single_file(
        "#include \"vk/khr/cooperative_matrix.h\"\n[numthreads(1, 1, 1)] void main() {}",
    );
    let mut o = super::options();
    o.target_env = TargetEnv::Vulkan1_1;
    let e = compile_text(&l, &o).expect_err("SPIR-V 1.3 has no cooperative matrices");
    assert!(e.contains("<hlslc>/vk/khr/cooperative_matrix.h"), "{e}");
    assert!(e.contains("needs SPIR-V 1.6"), "{e}");
}

/// Each `ConversionSelector` pair and `ArithmeticSelector` type gives
/// its instruction.
#[test]
fn the_selectors_pick_the_instruction_of_the_types() {
    let cases = [
        ("int32_t", "float", "OpConvertSToF %v4float"),
        ("uint32_t", "double", "OpConvertUToF %v4double"),
        ("float", "uint32_t", "OpConvertFToU %v4uint"),
        ("double", "int64_t", "OpConvertFToS %v4long"),
        ("int32_t", "uint32_t", "OpBitcast %v4uint"),
        ("uint64_t", "int64_t", "OpBitcast %v4long"),
        ("int32_t", "int64_t", "OpSConvert %v4long"),
        ("int64_t", "uint32_t", "OpUConvert %v4uint"),
        ("float", "double", "OpFConvert %v4double"),
        ("float", "float", "OpCopyObject %v4float"),
        ("half", "float", "OpFConvert %v4float"),
        ("uint16_t", "int32_t", "OpSConvert %v4int"),
        ("int16_t", "half", "OpConvertSToF %v4half"),
    ];
    for (from, to, want) in cases {
        let src = format!(
            "#include <vk/opcode_selector.h>\n\
             RWStructuredBuffer<vector<{from}, 4> > a;\n\
             RWStructuredBuffer<vector<{to}, 4> > b;\n\
             [numthreads(1, 1, 1)] void main() {{\n\
               b[0] = vk::util::ConversionSelector<{from}, {to}>::Convert<vector<{to}, 4> >(a[0]);\n\
             }}"
        );
        let words = compile_valid_words_with(&src, &options_16bit());
        let a = common::spirv_dis(&words);
        assert!(a.contains(want), "{from} -> {to}: missing `{want}` in\n{a}");
    }
    let arithmetic = [
        ("int", "OpSDiv", "OpSNegate"),
        ("uint", "OpUDiv", "OpSNegate"),
        ("float", "OpFDiv", "OpFNegate"),
        ("half", "OpFDiv", "OpFNegate"),
    ];
    for (t, div, neg) in arithmetic {
        let src = format!(
            "#include <vk/opcode_selector.h>\n\
             RWStructuredBuffer<{t}> a;\n\
             [numthreads(1, 1, 1)] void main() {{\n\
               a[0] = vk::util::ArithmeticSelector<{t}>::Div(a[1], a[2]);\n\
               a[3] = vk::util::ArithmeticSelector<{t}>::Negate(a[4]);\n\
             }}"
        );
        let words = compile_valid_words_with(&src, &options_16bit());
        let a = common::spirv_dis(&words);
        assert!(a.contains(div) && a.contains(neg), "{t}:\n{a}");
    }
}

/// The conversions and arithmetic compute on the driver as the
/// instructions say: a bitcast keeps the bits, a signed division rounds to
/// zero, an unsigned one reads the bits as unsigned.
#[test]
fn the_selectors_compute_on_vulkan() {
    let src = r#"
        #include <vk/opcode_selector.h>
        RWStructuredBuffer<uint> o : register(u0);
        [numthreads(1, 1, 1)]
        void main() {
            int m = -7 + int(o[7]);
            o[0] = vk::util::ConversionSelector<int, uint>::Convert<uint>(m);
            o[1] = asuint(vk::util::ConversionSelector<int, float>::Convert<float>(m));
            o[2] = vk::util::ConversionSelector<float, uint>::Convert<uint>(2.75f + o[7]);
            o[3] = asuint(vk::util::ArithmeticSelector<int>::Div(m, 2));
            o[4] = vk::util::ArithmeticSelector<uint>::Div(uint(m), 2u);
            o[5] = asuint(vk::util::ArithmeticSelector<int>::Negate(m));
        }"#;
    let got = run_outputs(src, 8);
    assert_eq!(
        got[..6],
        [
            (-7i32) as u32,
            (-7.0f32).to_bits(),
            2,
            (-3i32) as u32,
            ((-7i32) as u32) / 2,
            7
        ]
    );
}

const COOPERATIVE: &str = r#"
#include <vk/khr/cooperative_matrix.h>
RWStructuredBuffer<int> data;
StructuredBuffer<float> input;
globallycoherent RWStructuredBuffer<float> shared_out;
groupshared float tile[256];
uint stride;
[numthreads(32, 1, 1)]
void main() {
    using A = vk::khr::CooperativeMatrixA<int, vk::ScopeSubgroup, 16, 8>;
    using B = vk::khr::CooperativeMatrixB<int, vk::ScopeSubgroup, 8, 16>;
    using C = vk::khr::CooperativeMatrixAccumulator<int, vk::ScopeSubgroup, 16, 16>;
    using F = vk::khr::CooperativeMatrixAccumulator<float, vk::ScopeSubgroup, 16, 16>;
    A a = A::Load<vk::CooperativeMatrixLayoutRowMajorKHR>(data, 0, stride);
    B b = B::Load<vk::MemoryAccessNontemporalMask, vk::CooperativeMatrixLayoutColumnMajorKHR>(data, 128, 8);
    C c = C::Splat(2);
    c = vk::khr::cooperativeMatrixMultiplyAdd(a, b, c);
    c = cooperativeMatrixSaturatingMultiplyAdd(a, b, c);
    for (uint i = 0; i < c.GetLength(); ++i) {
        c.Set(c.Get(i) * 3, i);
    }
    c = (c + c - c) * c / c * 2;
    c = c.negate();
    F f = c.cast<float>();
    F g = F::Load<vk::CooperativeMatrixLayoutRowMajorKHR>(input, 0, 16);
    f.Store<vk::CooperativeMatrixLayoutRowMajorKHR>(vk::GetGroupSharedAddress(tile[0]), 16);
    F h = F::Load<vk::CooperativeMatrixLayoutRowMajorKHR>(vk::GetGroupSharedAddress(tile[0]), 16);
    (h + g).CoherentStore<vk::CooperativeMatrixLayoutColumnMajorKHR>(shared_out, 0, 16);
    c.Store<vk::CooperativeMatrixLayoutRowMajorKHR>(data, 512, stride);
}
"#;

#[test]
fn cooperative_matrices_are_the_instructions_of_the_extension() {
    let a = asm(COOPERATIVE);
    assert_has(
        &a,
        &[
            "OpCapability CooperativeMatrixKHR",
            "OpCapability VulkanMemoryModel",
            "OpExtension \"SPV_KHR_cooperative_matrix\"",
            "OpMemoryModel Logical Vulkan",
            "= OpTypeCooperativeMatrixKHR %int %uint_3 %uint_16 %uint_8 %uint_0",
            "= OpTypeCooperativeMatrixKHR %int %uint_3 %uint_8 %uint_16 %uint_1",
            "= OpTypeCooperativeMatrixKHR %int %uint_3 %uint_16 %uint_16 %uint_2",
            "= OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2",
            " %int_1 %uint_8 Nontemporal",
            "= OpCooperativeMatrixLengthKHR %uint %",
            "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR\n",
            "MatrixResultSignedComponentsKHR|SaturatingAccumulationKHR",
            "= OpIAdd %",
            "= OpISub %",
            "= OpIMul %",
            "= OpSDiv %",
            "= OpMatrixTimesScalar %",
            "= OpSNegate %",
            "= OpConvertSToF %",
            "= OpFAdd %",
            "MakePointerAvailable|NonPrivatePointer %int_2",
            "MakePointerVisible|NonPrivatePointer %int_2",
            "MakePointerAvailable|NonPrivatePointer %int_5",
            "= OpAccessChain %_ptr_Function_int %",
        ],
    );
    assert_eq!(a.matches("OpCooperativeMatrixMulAddKHR").count(), 2, "{a}");
    assert_eq!(a.matches("OpCooperativeMatrixLoadKHR").count(), 4, "{a}");
    assert_eq!(a.matches("OpCooperativeMatrixStoreKHR").count(), 3, "{a}");
}

/// Unsigned and float components take no signedness bits; the
/// saturating form keeps its own.
#[test]
fn multiply_add_operands_follow_the_component_type() {
    for (t, plain, saturating) in [
        ("uint", "None", "SaturatingAccumulationKHR"),
        ("float", "None", "SaturatingAccumulationKHR"),
    ] {
        let src = format!(
            "#include <vk/khr/cooperative_matrix.h>\n\
             RWStructuredBuffer<{t}> d;\n\
             [numthreads(32, 1, 1)] void main() {{\n\
               vk::khr::CooperativeMatrixA<{t}, vk::ScopeSubgroup, 16, 16> a = vk::khr::CooperativeMatrixA<{t}, vk::ScopeSubgroup, 16, 16>::Splat(1);\n\
               vk::khr::CooperativeMatrixB<{t}, vk::ScopeSubgroup, 16, 16> b = vk::khr::CooperativeMatrixB<{t}, vk::ScopeSubgroup, 16, 16>::Splat(2);\n\
               vk::khr::CooperativeMatrixAccumulator<{t}, vk::ScopeSubgroup, 16, 16> c = vk::khr::CooperativeMatrixAccumulator<{t}, vk::ScopeSubgroup, 16, 16>::Splat(3);\n\
               c = cooperativeMatrixMultiplyAdd(a, b, c);\n\
               c = cooperativeMatrixSaturatingMultiplyAdd(a, b, c);\n\
               c.Store<vk::CooperativeMatrixLayoutRowMajorKHR>(d, 0, 16);\n\
             }}"
        );
        let a = asm(&src);
        let lines: Vec<&str> = a
            .lines()
            .filter(|l| l.contains("OpCooperativeMatrixMulAddKHR"))
            .collect();
        assert_eq!(lines.len(), 2, "{a}");
        assert!(lines[0].ends_with(plain) || !lines[0].contains("Signed"), "{t}: {}", lines[0]);
        assert!(lines[1].ends_with(saturating), "{t}: {}", lines[1]);
    }
}

#[test]
fn the_length_builtin_needs_a_cooperative_matrix_type() {
    let (l, _) = common::single_file(
        "RWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = __builtin_spv_CooperativeMatrixLengthKHR<float4>(); }",
    );
    let e = compile_text(&l, &super::options()).expect_err("float4 is no matrix");
    assert!(e.contains("needs a cooperative matrix type, found `float4`"), "{e}");
}
