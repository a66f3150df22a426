//! Inline SPIR-V types (`vk::SpirvType`, `vk::SpirvOpaqueType`) and the
//! capabilities and extensions of the typedefs and aliases that name them:
//! the type instruction reaches the module once, as written, and
//! validates.

use super::compile_valid_words;
use crate::options::TargetEnv;
use crate::tests::common;

use super::inline_spirv::{asm, assert_has};

const BYTES: &str = r#"
using uint8_t [[vk::ext_capability(/* Int8 */ 39)]] = vk::SpirvType</* OpTypeInt */ 21, 1, 1,
    vk::Literal<vk::integral_constant<uint, 8> >, vk::Literal<vk::integral_constant<bool, false> > >;
typedef vk::SpirvType</* OpTypeVector */ 23, 4, 4, uint8_t, vk::Literal<vk::integral_constant<uint, 4> > > uchar4;
[[vk::ext_instruction(/* OpUConvert */ 113)]] uint8_t narrow(uint x);
[[vk::ext_instruction(/* OpUConvert */ 113)]] uint widen(uint8_t x);
[[vk::ext_instruction(/* OpBitcast */ 124)]] uchar4 bytes(uint x);
[[vk::ext_instruction(/* OpCompositeExtract */ 81)]] uint8_t byte(uchar4 v, [[vk::ext_literal]] uint i);
RWStructuredBuffer<uint> buf;
static uint8_t saved[2];
[noinline] uint8_t same(uint8_t v) { return v; }
[numthreads(1, 1, 1)]
void main() {
    uint8_t b = narrow(buf[0]);
    saved[0] = b;
    saved[1] = same(saved[0]);
    buf[1] = widen(saved[1]);
    buf[2] = widen(byte(bytes(buf[3]), 2));
}
"#;

#[test]
fn spirv_types_are_their_instructions_declared_once() {
    let a = asm(BYTES);
    assert_has(
        &a,
        &[
            "OpCapability Int8",
            "%uchar = OpTypeInt 8 0",
            "= OpTypeVector %uchar 4",
            "= OpUConvert %uchar %",
            "= OpUConvert %uint %",
            "= OpBitcast %v4uchar %",
            "= OpTypeArray %uchar %uint_2",
        ],
    );
    assert_eq!(a.matches("OpTypeInt 8 0").count(), 1, "{a}");
}

#[test]
fn a_spirv_type_spelling_a_known_type_is_that_type() {
    // `OpTypeInt 32 0` is `uint`: declaring it twice would not validate.
    let a = asm(r#"
        typedef vk::SpirvType<21, 4, 4, vk::Literal<vk::integral_constant<uint, 32> >,
                              vk::Literal<vk::integral_constant<uint, 0> > > u32;
        [[vk::ext_instruction(/* OpCopyObject */ 83)]] u32 to(uint a);
        [[vk::ext_instruction(/* OpIAdd */ 128)]] u32 add(u32 a, u32 b);
        [[vk::ext_instruction(/* OpCopyObject */ 83)]] uint back(u32 a);
        RWStructuredBuffer<uint> buf;
        [numthreads(1, 1, 1)]
        void main() {
            u32 x = to(buf[0]);
            buf[1] = back(add(x, x));
        }"#);
    assert_eq!(a.matches("OpTypeInt 32 0").count(), 1, "{a}");
    assert_has(&a, &["= OpIAdd %uint %"]);
}

#[test]
fn opaque_types_take_type_and_constant_operands() {
    let a = asm(r#"
        typedef vk::SpirvOpaqueType</* OpTypeArray */ 28, Texture2D, vk::integral_constant<uint, 3> > Textures;
        Texture2D t0, t1, t2;
        [[vk::ext_instruction(/* OpCompositeConstruct */ 80)]] Textures make(Texture2D a, Texture2D b, Texture2D c);
        [[vk::ext_instruction(/* OpCompositeExtract */ 81)]] Texture2D pick(Textures ts, [[vk::ext_literal]] uint i);
        RWStructuredBuffer<float4> buf;
        [numthreads(1, 1, 1)]
        void main() {
            buf[0] = pick(make(t0, t1, t2), 1).Load(int3(0, 0, 0));
        }"#);
    // The image type is the one the textures have.
    let image = a
        .lines()
        .find(|l| l.contains("= OpTypeImage %float 2D"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no image type in:\n{a}"));
    assert_has(
        &a,
        &[
            &format!("= OpTypeArray {image} %uint_3"),
            &format!("= OpCompositeExtract {image} %"),
            "= OpCompositeConstruct %",
        ],
    );
}

#[test]
fn spirv_type_size_and_alignment_lay_out_buffers() {
    let words = compile_valid_words(
        r#"
        using byte_t [[vk::ext_capability(/* Int8 */ 39)]] = vk::SpirvType<21, 1, 1,
            vk::Literal<vk::integral_constant<uint, 8> >, vk::Literal<vk::integral_constant<bool, false> > >;
        typedef vk::SpirvType<21, 1, 32, vk::Literal<vk::integral_constant<uint, 8> >,
            vk::Literal<vk::integral_constant<bool, false> > > wide_t;
        struct S { byte_t a; wide_t b; uint end; };
        [[vk::ext_capability(/* StorageBuffer8BitAccess */ 4448)]]
        [[vk::ext_extension("SPV_KHR_8bit_storage")]]
        RWStructuredBuffer<S> buf;
        [[vk::ext_instruction(/* OpUConvert */ 113)]] uint widen(byte_t x);
        [[vk::ext_instruction(/* OpUConvert */ 113)]] uint widen_wide(wide_t x);
        [numthreads(1, 1, 1)]
        void main() { buf[0].end = widen(buf[0].a) + widen_wide(buf[0].b); }"#,
        TargetEnv::Vulkan1_3,
    );
    let a = common::spirv_dis(&words);
    assert_has(
        &a,
        &[
            "OpMemberDecorate %S 0 Offset 0",
            "OpMemberDecorate %S 1 Offset 32",
            "OpMemberDecorate %S 2 Offset 36",
        ],
    );
}

#[test]
fn alias_capabilities_come_only_with_a_use() {
    let a = asm(r#"
        using unused_t [[vk::ext_capability(/* Int8 */ 39), vk::ext_extension("SPV_unused_ext")]] = uint;
        [[vk::ext_capability(/* Int16 */ 22)]] typedef uint used_t;
        RWStructuredBuffer<uint> buf;
        [numthreads(1, 1, 1)]
        void main() { used_t x = buf[0]; buf[1] = x; }"#);
    assert_has(&a, &["OpCapability Int16"]);
    assert!(!a.contains("OpCapability Int8"), "{a}");
    assert!(!a.contains("SPV_unused_ext"), "{a}");
}

#[test]
fn ext_execution_mode_calls_add_modes_to_the_entry_point() {
    let a = asm(r#"
        template<uint width>
        struct FlushDenorms {
            static void declare() { vk::ext_execution_mode(/* DenormFlushToZero */ 4460, width); }
        };
        RWStructuredBuffer<float> buf;
        [numthreads(1, 1, 1)]
        void main() {
            FlushDenorms<32>::declare();
            buf[0] = buf[1] * 0.5;
        }"#);
    assert_has(
        &a,
        &[
            "OpCapability DenormFlushToZero",
            "OpExecutionMode %main DenormFlushToZero 32",
            "OpExecutionMode %main LocalSize 1 1 1",
        ],
    );
}

#[test]
fn ext_execution_mode_id_operands_are_constants_of_their_types() {
    let m = super::lower(
        r#"
        [numthreads(8, 6, 8)]
        void main() { vk::ext_execution_mode_id(/* LocalSizeId */ 38, 8u, 6u, 8); }"#,
    );
    use crate::ir::{Scalar, SpirvModeOperands};
    let [mode] = m.spirv_execution_modes.as_slice() else {
        panic!("one mode expected: {:?}", m.spirv_execution_modes);
    };
    assert_eq!(mode.mode, spirv::ExecutionMode::LocalSizeId);
    assert_eq!(
        mode.operands,
        SpirvModeOperands::Ids(vec![(Scalar::U32, 8), (Scalar::U32, 6), (Scalar::I32, 8)])
    );
}

/// A type or constant instruction called inside a function would stand in
/// the wrong section of the module: an error at the call, never invalid
/// SPIR-V.
#[test]
fn module_level_instructions_called_in_functions_are_errors() {
    let src = "[[vk::ext_instruction(43)]]\nuint mk();\nRWStructuredBuffer<uint> o;\n\
               [numthreads(1,1,1)] void main() { o[0] = mk(); }";
    let o = crate::options::Options::from_args(["-T", "cs_6_0", "-E", "main"]).unwrap();
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = crate::diag::render_to_string(
        &c.diagnostics.list,
        &c.source_map,
        crate::diag::DiagnosticFormat::Human,
    );
    assert!(c.diagnostics.has_errors(), "{text}");
    assert!(
        text.contains("`OpConstant` through `vk::ext_instruction`"),
        "{text}"
    );
    assert!(text.contains("main.hlsl:4:42"), "{text}");
}
