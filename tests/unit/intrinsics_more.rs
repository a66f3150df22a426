//! The SPIR-V of the intrinsics DXC accepts beyond the common ones (issue
//! 23): each one's instructions, capabilities and extensions, checked in
//! the disassembly of a validated module. Their values are checked on the
//! device in `runtime_intrinsics.rs`.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;

/// Compiles `src` (entry `main`) for `profile` and `env`, validates it and
/// gives the disassembly.
fn asm(profile: &str, env: TargetEnv, src: &str) -> String {
    let mut o = common::options_for(profile);
    o.target_env = env;
    o.enable_16bit_types = src.contains("half") || src.contains("int16_t");
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed:\n{text}");
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), &[]) {
        panic!("invalid SPIR-V: {e}\n{}", common::spirv_dis(&a.spirv));
    }
    common::spirv_dis(&a.spirv)
}

/// The diagnostics of a module that must not compile.
fn errors(profile: &str, src: &str) -> String {
    let mut o = common::options_for(profile);
    o.target_env = TargetEnv::Vulkan1_2;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    assert!(c.diagnostics.has_errors(), "compiled:\n{src}");
    render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human)
}

/// Some line holds all of `parts` (an extended instruction's result type
/// and name, whatever the import's id).
fn has_line(asm: &str, parts: &[&str]) {
    assert!(
        asm.lines().any(|l| parts.iter().all(|p| l.contains(p))),
        "no line with {parts:?} in:\n{asm}"
    );
}

fn has_all(asm: &str, wants: &[&str]) {
    for w in wants {
        assert!(asm.contains(w), "missing `{w}` in:\n{asm}");
    }
}

/// A compute shader storing `expr` (of type `ty`) in a buffer.
fn cs(ty: &str, expr: &str) -> String {
    format!(
        "RWStructuredBuffer<{ty}> o; StructuredBuffer<uint4> u; StructuredBuffer<float4> f;\n\
         [numthreads(1, 1, 1)] void main() {{ o[0] = {expr}; }}"
    )
}

#[test]
fn vk_scopes_are_spirv_scope_constants() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs(
            "uint",
            "vk::CrossDeviceScope * 1000 + vk::DeviceScope * 100 + vk::WorkgroupScope * 10 \
             + vk::SubgroupScope + vk::InvocationScope * 7 + vk::QueueFamilyScope * 11 + u[0].x",
        ),
    );
    // 0*1000 + 1*100 + 2*10 + 3 + 4*7 + 5*11 = 206, folded.
    has_all(&a, &["OpConstant %uint 206"]);
}

#[test]
fn vk_read_clock_reads_the_device_and_subgroup_clocks() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs(
            "uint64_t",
            "vk::ReadClock(vk::DeviceScope) - vk::ReadClock(vk::SubgroupScope)",
        ),
    );
    has_all(
        &a,
        &[
            "OpCapability ShaderClockKHR",
            "OpExtension \"SPV_KHR_shader_clock\"",
            "OpReadClockKHR %ulong %uint_1",
            "OpReadClockKHR %ulong %uint_3",
        ],
    );
    // Two reads of one clock stay two reads.
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs(
            "uint64_t",
            "vk::ReadClock(vk::SubgroupScope) - vk::ReadClock(vk::SubgroupScope)",
        ),
    );
    assert_eq!(a.matches("OpReadClockKHR").count(), 2, "{a}");
}

#[test]
fn vk_builtins_misused_are_errors() {
    let e = errors(
        "cs_6_0",
        &cs("uint64_t", "vk::ReadClock(vk::WorkgroupScope)"),
    );
    assert!(e.contains("device or subgroup clock, not scope 2"), "{e}");
    let e = errors("cs_6_0", &cs("uint64_t", "vk::ReadClock(u[0].x)"));
    assert!(e.contains("must be a constant integer"), "{e}");
    let e = errors("cs_6_0", &cs("uint", "vk::DeviceScope()"));
    assert!(e.contains("is a constant, not a function"), "{e}");
    let e = errors("cs_6_0", &cs("uint", "vk::NoSuchScope"));
    assert!(e.contains("unknown namespace or type `vk`"), "{e}");
}

#[test]
fn packed_dot_products_are_sdot_and_udot() {
    for (env, ext) in [(TargetEnv::Vulkan1_1, true), (TargetEnv::Vulkan1_3, false)] {
        let a = asm(
            "cs_6_4",
            env,
            &cs(
                "uint",
                "dot4add_u8packed(u[0].x, u[0].y, u[0].z) + dot4add_i8packed(u[0].x, u[0].y, 5)",
            ),
        );
        has_all(
            &a,
            &[
                "OpCapability DotProduct",
                "OpCapability DotProductInput4x8BitPacked",
                "OpUDot %uint",
                "OpSDot %int",
                "PackedVectorFormat4x8Bit",
            ],
        );
        assert_eq!(
            a.contains("SPV_KHR_integer_dot_product"),
            ext,
            "extension only before SPIR-V 1.6:\n{a}"
        );
    }
}

#[test]
fn frexp_is_frexp_struct_row_by_row() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        "RWStructuredBuffer<float2x3> o; [numthreads(1, 1, 1)] void main() {\n\
         float2x3 e; float2x3 m = frexp(o[0], e); o[1] = m; o[2] = e; }",
    );
    has_all(
        &a,
        &[
            "OpTypeStruct %v3float %v3int",
            "FrexpStruct",
            "OpConvertSToF %v3float",
        ],
    );
    assert_eq!(a.matches(" FrexpStruct ").count(), 2, "{a}");
}

#[test]
fn isnormal_tests_the_exponent_bits() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs("bool4", "isnormal(f[0])"),
    );
    has_all(
        &a,
        &[
            "OpBitcast %v4uint",
            "OpConstant %uint 2139095040",
            "OpINotEqual %v4bool",
            "OpLogicalAnd %v4bool",
        ],
    );
    let a = asm(
        "cs_6_2",
        TargetEnv::Vulkan1_2,
        "RWStructuredBuffer<half> o; RWStructuredBuffer<uint> r;\n\
         [numthreads(1, 1, 1)] void main() { r[0] = isnormal(o[0]); }",
    );
    has_all(&a, &["OpBitcast %ushort", "OpConstant %ushort 31744"]);
}

#[test]
fn d3d9_helpers_expand_to_arithmetic() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs("int4", "D3DCOLORtoUBYTE4(f[0])"),
    );
    has_all(
        &a,
        &[
            "OpVectorShuffle %v4float",
            " 2 1 0 3",
            "OpConvertFToS %v4int",
            // 255.002 as a float.
            "%float_255_001999",
        ],
    );
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs("float4", "lit(f[0].x, f[0].y, f[0].z) + dst(f[0], f[1])"),
    );
    has_all(
        &a,
        &["NMax", "NMin", "Pow", "OpFOrdLessThan", "OpSelect %float"],
    );
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        &cs("uint4", "msad4(u[0].x, u[0].yz, u[1])"),
    );
    has_line(&a, &["OpExtInst %v4uint", "UMax"]);
    has_line(&a, &["OpExtInst %v4uint", "UMin"]);
    has_all(&a, &["OpSelect %v4uint"]);
}

#[test]
fn dot2add_widens_halves_and_adds_in_float() {
    let a = asm(
        "cs_6_4",
        TargetEnv::Vulkan1_2,
        "RWStructuredBuffer<half2> h; RWStructuredBuffer<float> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = dot2add(h[0], h[1], o[1]); }",
    );
    has_all(
        &a,
        &["OpFConvert %v2float", "OpFMul %v2float", "OpFAdd %float"],
    );
}

#[test]
fn byte_packing_works_on_32_bit_words() {
    let a = asm(
        "cs_6_6",
        TargetEnv::Vulkan1_2,
        "RWStructuredBuffer<int4> v; RWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() {\n\
         uint8_t4_packed p = pack_u8(v[0]); int8_t4_packed q = pack_clamp_s8(v[1]);\n\
         o[0] = p ^ q ^ pack_s8(v[2]) ^ pack_clamp_u8(v[3]);\n\
         v[4] = unpack_s8s32(p) + int4(unpack_u8u32(q)); }",
    );
    has_line(&a, &["OpExtInst %v4int", "SClamp"]);
    has_all(
        &a,
        &[
            "OpShiftLeftLogical %v4uint",
            "OpShiftRightArithmetic %v4int",
        ],
    );
    // No 8-bit types: the bytes are shifted and masked in 32-bit words.
    assert!(!a.contains("Int8"), "{a}");
}

#[test]
fn wave_partitions_use_the_nv_extension() {
    let a = asm(
        "cs_6_5",
        TargetEnv::Vulkan1_1,
        "RWStructuredBuffer<uint4> o; [numthreads(8, 1, 1)] void main(uint i : SV_GroupIndex) {\n\
         uint4 m = WaveMatch(i % 3);\n\
         o[i] = m + WaveMultiPrefixSum(i, m) + WaveMultiPrefixProduct(i, m)\n\
              + WaveMultiPrefixBitAnd(i, m) + WaveMultiPrefixBitOr(i, m)\n\
              + WaveMultiPrefixBitXor(i, m) + WaveMultiPrefixCountBits(i > 2, m); }",
    );
    has_all(
        &a,
        &[
            "OpCapability GroupNonUniformPartitionedNV",
            "OpExtension \"SPV_NV_shader_subgroup_partitioned\"",
            "OpGroupNonUniformPartitionNV %v4uint",
            "OpGroupNonUniformIAdd %uint %uint_3 PartitionedExclusiveScanNV",
            "OpGroupNonUniformIMul %uint %uint_3 PartitionedExclusiveScanNV",
            "OpGroupNonUniformBitwiseAnd %uint %uint_3 PartitionedExclusiveScanNV",
            "OpGroupNonUniformBitwiseOr %uint %uint_3 PartitionedExclusiveScanNV",
            "OpGroupNonUniformBitwiseXor %uint %uint_3 PartitionedExclusiveScanNV",
            "OpGroupNonUniformBallotBitCount %uint %uint_3 ExclusiveScan",
        ],
    );
}

#[test]
fn printf_is_debug_printf_with_string_formats() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        "const string greeting = \"hello %d\";\n\
         [numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) {\n\
         printf(greeting, i); printf(\"%f %v2d\", 1.5f, int2(1, 2)); printf(\"plain\"); }",
    );
    has_all(
        &a,
        &[
            "OpExtension \"SPV_KHR_non_semantic_info\"",
            "OpExtInstImport \"NonSemantic.DebugPrintf\"",
            "OpString \"hello %d\"",
            "OpString \"%f %v2d\"",
            "OpString \"plain\"",
        ],
    );
    assert_eq!(a.matches("OpExtInst %void").count(), 3, "{a}");
    // SPIR-V 1.6 has the extension in core.
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_3,
        "[numthreads(1, 1, 1)] void main() { printf(\"x\"); }",
    );
    assert!(!a.contains("OpExtension"), "{a}");
}

#[test]
fn printf_misused_is_an_error() {
    let e = errors("cs_6_0", "[numthreads(1, 1, 1)] void main() { printf(1); }");
    assert!(
        e.contains("must be a string literal or a `string` variable"),
        "{e}"
    );
    let e = errors(
        "cs_6_0",
        "[numthreads(1, 1, 1)] void main() { float2x2 m = 0; printf(\"%f\", m); }",
    );
    assert!(e.contains("prints numbers and vectors of them"), "{e}");
}

#[test]
fn debug_break_is_non_semantic_debug_break() {
    let a = asm(
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        "[numthreads(8, 1, 1)] void main(uint i : SV_GroupIndex) { if (i == 0) DebugBreak(); }",
    );
    has_all(
        &a,
        &[
            "OpExtInstImport \"NonSemantic.DebugBreak\"",
            "OpExtension \"SPV_KHR_non_semantic_info\"",
        ],
    );
}

#[test]
fn helper_lanes_attribute_asks_for_full_quads_in_pixel_shaders() {
    let a = asm(
        "ps_6_7",
        TargetEnv::Vulkan1_2,
        "[WaveOpsIncludeHelperLanes] float4 main(float4 p : SV_Position) : SV_Target { return p; }",
    );
    has_all(
        &a,
        &[
            "OpCapability QuadControlKHR",
            "OpExtension \"SPV_KHR_maximal_reconvergence\"",
            "OpExtension \"SPV_KHR_quad_control\"",
            "OpExecutionMode %main MaximallyReconvergesKHR",
            "OpExecutionMode %main RequireFullQuadsKHR",
        ],
    );
}
