//! Combined image samplers (`vk::SampledTexture*`) and subpass inputs
//! (`SubpassInput`, `SubpassInputMS`): their types, decorations,
//! capabilities, and the instructions of their methods.

use super::*;
use crate::tests::common::Spv;
use rspirv::dr::Operand;
use spirv::{Capability, Decoration, Op};

/// Compiles the pixel shader `src` (`ps_6_0`, or `profile`), validates it
/// for Vulkan 1.0 and 1.2, and reads the 1.2 module back.
fn pixel(src: &str, profile: &str) -> Spv {
    let mut o = common::options_for(profile);
    o.target_env = TargetEnv::Vulkan1_0;
    compile_valid_words_with(src, &o);
    o.target_env = TargetEnv::Vulkan1_2;
    let words = compile_valid_words_with(src, &o);
    Spv {
        module: rspirv::dr::load_words(&words).expect("rspirv reads the module"),
    }
}

impl Spv {
    /// The opcode of the instruction that defines the first operand of
    /// each `op` (the image an image instruction reads).
    fn image_operand_ops(&self, op: Op) -> Vec<Op> {
        self.all(op)
            .iter()
            .map(|i| match i.operands[0] {
                Operand::IdRef(id) => self.def(id).class.opcode,
                ref other => panic!("not an id: {other:?}"),
            })
            .collect()
    }

    /// The literal operands of the decorations `d` in the module.
    fn decorations(&self, d: Decoration) -> Vec<u32> {
        self.all(Op::Decorate)
            .iter()
            .filter(|i| i.operands[1] == Operand::Decoration(d))
            .filter_map(|i| match i.operands.get(2) {
                Some(Operand::LiteralBit32(v)) => Some(*v),
                _ => None,
            })
            .collect()
    }

    /// The result type opcodes of the module's UniformConstant variables'
    /// pointees.
    fn uniform_constant_pointees(&self) -> Vec<Op> {
        self.all(Op::Variable)
            .iter()
            .filter(|v| {
                v.operands[0] == Operand::StorageClass(spirv::StorageClass::UniformConstant)
            })
            .map(|v| {
                let ptr = self.def(v.result_type.expect("typed"));
                match ptr.operands[1] {
                    Operand::IdRef(p) => self.def(p).class.opcode,
                    ref other => panic!("not an id: {other:?}"),
                }
            })
            .collect()
    }
}

#[test]
fn sampled_texture_is_one_combined_descriptor_sampled_directly() {
    let spv = pixel(
        "vk::SampledTexture2D<float4> tex : register(t3);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target {\n\
           return tex.Sample(uv) + tex.SampleLevel(uv, 1.0) + tex.SampleBias(uv, 0.5, int2(1, 0));\n\
         }",
        "ps_6_0",
    );
    // One UniformConstant variable, of OpTypeSampledImage, bound at t3.
    assert_eq!(spv.uniform_constant_pointees(), vec![Op::TypeSampledImage]);
    assert_eq!(spv.decorations(Decoration::Binding), vec![3]);
    // Sampled straight from its load: no OpSampledImage, no sampler.
    assert!(spv.all(Op::SampledImage).is_empty());
    assert!(spv.all(Op::TypeSampler).is_empty());
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleImplicitLod),
        vec![Op::Load; 2]
    );
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleExplicitLod),
        vec![Op::Load]
    );
}

#[test]
fn sampled_texture_reads_its_image_for_loads_and_queries() {
    let spv = pixel(
        "vk::SampledTexture2DArray<float4> tex;\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target {\n\
           uint w, h, layers, levels;\n\
           tex.GetDimensions(0, w, h, layers, levels);\n\
           float4 a = tex.Load(int4(1, 2, 0, 0));\n\
           float4 b = tex[uint3(0, 1, 0)];\n\
           float4 c = tex.mips[1][uint3(0, 0, 0)];\n\
           float lod = tex.CalculateLevelOfDetail(uv);\n\
           float4 g = tex.GatherGreen(float3(uv, 0));\n\
           return a + b + c + g + float(w + h + layers + levels) + lod;\n\
         }",
        "ps_6_0",
    );
    // Fetches and size queries take the image of the combined sampler.
    assert_eq!(spv.image_operand_ops(Op::ImageFetch), vec![Op::Image; 3]);
    assert_eq!(
        spv.image_operand_ops(Op::ImageQuerySizeLod),
        vec![Op::Image]
    );
    assert_eq!(spv.image_operand_ops(Op::ImageQueryLevels), vec![Op::Image]);
    // The level-of-detail query and gathers take the sampled image.
    assert_eq!(spv.image_operand_ops(Op::ImageQueryLod), vec![Op::Load]);
    assert_eq!(spv.image_operand_ops(Op::ImageGather), vec![Op::Load]);
    assert!(spv.has_capability(Capability::ImageQuery));
}

#[test]
fn sampled_texture_comparisons_and_sparse_feedback() {
    let spv = pixel(
        "vk::SampledTextureCUBE<float> depth; vk::SampledTexture2DMS<uint2> ms;\n\
         float4 main(float3 dir : TEXCOORD) : SV_Target {\n\
           uint status;\n\
           float d = depth.SampleCmp(dir, 0.5, 0.0, status);\n\
           float z = depth.SampleCmpLevelZero(dir, 0.25);\n\
           uint2 s = ms.Load(int2(1, 1), 2);\n\
           return float4(d, z, s) + CheckAccessFullyMapped(status);\n\
         }",
        "ps_6_0",
    );
    assert_eq!(
        spv.image_operand_ops(Op::ImageSparseSampleDrefImplicitLod),
        vec![Op::Load]
    );
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleDrefExplicitLod),
        vec![Op::Load]
    );
    assert_eq!(spv.image_operand_ops(Op::ImageFetch), vec![Op::Image]);
    assert!(spv.has_capability(Capability::SparseResidency));
    assert!(spv.has_capability(Capability::MinLod));
    assert_eq!(spv.all(Op::TypeSampledImage).len(), 2);
}

#[test]
fn sampled_textures_pass_to_functions_and_default_to_float4() {
    let spv = pixel(
        "vk::SampledTexture1D tex;\n\
         float4 read(vk::SampledTexture1D t, float u) { return t.SampleGrad(u, 0.1, 0.2); }\n\
         float4 main(float u : TEXCOORD) : SV_Target { return read(tex, u); }",
        "ps_6_0",
    );
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleExplicitLod),
        vec![Op::Load]
    );
    let e = fails_with(
        "vk::SampledTexture2D<float4> tex; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = tex.Sample(float2(0, 0)); }",
        "E0",
    );
    assert!(e.contains("shader model 6.6"), "{e}");
    let e = fails_with(
        "struct S { float a; }; vk::SampledTexture2D<S> tex; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = 0; }",
        "E0",
    );
    assert!(e.contains("scalars or vectors"), "{e}");
}

#[test]
fn subpass_inputs_read_at_the_fragment_with_their_attachment_index() {
    let spv = pixel(
        "[[vk::input_attachment_index(2)]] SubpassInput<float3> color;\n\
         [[vk::input_attachment_index(5), vk::binding(4, 1)]] SubpassInputMS<int> ids;\n\
         float3 pass_on(SubpassInput<float3> s) { return s.SubpassLoad(); }\n\
         float4 main() : SV_Target { return float4(pass_on(color), ids.SubpassLoad(3)); }",
        "ps_6_0",
    );
    assert!(spv.has_capability(Capability::InputAttachment));
    let mut indices = spv.decorations(Decoration::InputAttachmentIndex);
    indices.sort();
    assert_eq!(indices, vec![2, 5]);
    let reads = spv.all(Op::ImageRead);
    assert_eq!(reads.len(), 2);
    for r in &reads {
        // Coordinate (0, 0): a constant ivec2 of zeros.
        let Operand::IdRef(c) = r.operands[1] else {
            panic!("no coordinate");
        };
        let k = spv.def(c);
        assert!(
            matches!(k.class.opcode, Op::ConstantComposite | Op::ConstantNull),
            "{k:?}"
        );
    }
    // The multisampled read names its sample.
    let with_sample: Vec<_> = reads
        .iter()
        .filter(|r| {
            r.operands.get(2) == Some(&Operand::ImageOperands(spirv::ImageOperands::SAMPLE))
        })
        .collect();
    assert_eq!(with_sample.len(), 1);
    // Both are SubpassData images, read without a sampler (Sampled = 2).
    let dims: Vec<_> = spv
        .all(Op::TypeImage)
        .iter()
        .map(|t| {
            (
                t.operands[1].clone(),
                t.operands[4].clone(),
                t.operands[5].clone(),
            )
        })
        .collect();
    assert!(
        dims.iter()
            .all(|(d, _, s)| *d == Operand::Dim(spirv::Dim::DimSubpassData)
                && *s == Operand::LiteralBit32(2))
    );
    assert!(
        dims.iter()
            .any(|(_, ms, _)| *ms == Operand::LiteralBit32(1))
    );
}

#[test]
fn subpass_inputs_only_in_pixel_shaders() {
    let e = fails_with(
        "[[vk::input_attachment_index(0)]] SubpassInput<float4> s; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = s.SubpassLoad(); }",
        "E0",
    );
    assert!(e.contains("pixel shaders only"), "{e}");
    let (e, failed) = diagnose_with(
        "[[vk::input_attachment_index(0)]] SubpassInputMS<float4> s;\n\
         float4 main() : SV_Target { return s.SubpassLoad(); }",
        &common::options_for("ps_6_0"),
    );
    assert!(failed && e.contains("takes the sample index"), "{e}");
    let e = fails_with(
        "[[vk::input_attachment_index(0)]] Texture2D<float4> t; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = 0; }",
        "E0",
    );
    assert!(e.contains("for subpass inputs"), "{e}");
}

#[test]
fn bool_texels_are_uints_compared_with_zero() {
    let spv = pixel(
        "Texture2D<bool> flags; Texture2D<bool3> masks; SamplerState s;\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target {\n\
           bool f = flags.Load(int3(1, 2, 0));\n\
           bool3 m = masks[uint2(0, 1)];\n\
           return float4(m, f);\n\
         }",
        "ps_6_0",
    );
    // The images hold 32-bit uints; each read is compared with zero.
    for t in spv.all(Op::TypeImage) {
        let ty = spv.def(match t.operands[0] {
            Operand::IdRef(id) => id,
            ref other => panic!("not an id: {other:?}"),
        });
        assert_eq!(ty.class.opcode, Op::TypeInt, "{ty:?}");
    }
    assert_eq!(spv.all(Op::ImageFetch).len(), 2);
    assert_eq!(spv.all(Op::INotEqual).len(), 2);
}

#[test]
fn bool_texels_are_written_as_zero_or_one() {
    let src = "RWTexture2D<bool> t; RWBuffer<bool2> b;\n\
               [numthreads(1,1,1)] void main() { t[uint2(0, 0)] = !t[uint2(1, 1)]; b[0] = bool2(true, b[1].x); }";
    let words = compile_valid_words(src, TargetEnv::Vulkan1_1);
    let spv = Spv {
        module: rspirv::dr::load_words(&words).expect("rspirv reads the module"),
    };
    // Each stored bool becomes a uint (OpSelect 1, 0) before OpImageWrite.
    let writes = spv.all(Op::ImageWrite);
    assert_eq!(writes.len(), 2);
    for w in writes {
        let Operand::IdRef(v) = w.operands[2] else {
            panic!("no texel");
        };
        assert_eq!(spv.def(v).class.opcode, Op::Select);
    }
}

/// [`pixel`] with command line flags (`-T ps_6_0 -E main` and `args`).
fn pixel_with(src: &str, args: &[&str]) -> Spv {
    let mut all = vec!["-T", "ps_6_0", "-E", "main"];
    all.extend_from_slice(args);
    let mut o = common::options_from_args(&all).expect("valid flags");
    o.target_env = TargetEnv::Vulkan1_0;
    compile_valid_words_with(src, &o);
    o.target_env = TargetEnv::Vulkan1_2;
    let words = compile_valid_words_with(src, &o);
    Spv {
        module: rspirv::dr::load_words(&words).expect("rspirv reads the module"),
    }
}

#[test]
fn combined_image_sampler_attribute_makes_one_variable_per_pair() {
    // Paired by [[vk::binding]] (set 1) and by registers t1/s1; the
    // SamplerComparisonState pair is sampled with a comparison.
    let spv = pixel_with(
        "[[vk::combinedImageSampler]][[vk::binding(0, 1)]] SamplerState sam0;\n\
         [[vk::combinedImageSampler]][[vk::binding(0, 1)]] Texture2D<float4> tex0;\n\
         [[vk::combinedImageSampler]] SamplerState sam1 : register(s1);\n\
         [[vk::combinedImageSampler]] Texture2D<float4> tex1 : register(t1);\n\
         [[vk::combinedImageSampler]] Texture2D depth : register(t4);\n\
         [[vk::combinedImageSampler]] SamplerComparisonState cmp : register(s4);\n\
         float4 read(Texture2D<float4> t, SamplerState s, float2 uv) { return t.SampleLevel(s, uv, 0); }\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target {\n\
           return tex0.Sample(sam0, uv) + read(tex1, sam1, uv) + depth.SampleCmp(cmp, uv, 0.5)\n\
             + tex0.CalculateLevelOfDetail(sam0, uv);\n\
         }",
        &[],
    );
    // Three OpTypeSampledImage variables and no sampler at all.
    assert_eq!(
        spv.uniform_constant_pointees(),
        vec![Op::TypeSampledImage; 3]
    );
    assert!(spv.all(Op::TypeSampler).is_empty());
    assert!(spv.all(Op::SampledImage).is_empty());
    let mut sets = spv.decorations(Decoration::DescriptorSet);
    sets.sort();
    assert_eq!(sets, vec![0, 0, 1]);
    let mut bindings = spv.decorations(Decoration::Binding);
    bindings.sort();
    assert_eq!(bindings, vec![0, 1, 4]);
    // Each sample reads the loaded combined variable as it is.
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleImplicitLod),
        vec![Op::Load]
    );
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleExplicitLod),
        vec![Op::Load]
    );
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleDrefImplicitLod),
        vec![Op::Load]
    );
    assert_eq!(spv.image_operand_ops(Op::ImageQueryLod), vec![Op::Load]);
}

#[test]
fn combined_texture_alone_or_with_another_sampler_reads_its_image() {
    let spv = pixel_with(
        "[[vk::combinedImageSampler]] Texture2D<float4> tex : register(t2);\n\
         [[vk::combinedImageSampler]] SamplerState smp : register(s2);\n\
         SamplerState other : register(s0);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target {\n\
           uint w, h; tex.GetDimensions(w, h);\n\
           return tex.Sample(other, uv) + tex.Load(int3(1, 1, 0)) + float(w + h);\n\
         }",
        &[],
    );
    // The combined variable and the other sampler: two descriptors.
    assert_eq!(
        spv.uniform_constant_pointees(),
        vec![Op::TypeSampledImage, Op::TypeSampler]
    );
    // Sampling with the other sampler: OpImage of the combined one, then
    // OpSampledImage with that sampler.
    assert_eq!(spv.image_operand_ops(Op::SampledImage), vec![Op::Image]);
    assert_eq!(
        spv.image_operand_ops(Op::ImageSampleImplicitLod),
        vec![Op::SampledImage]
    );
    assert_eq!(spv.image_operand_ops(Op::ImageFetch), vec![Op::Image]);
    assert_eq!(
        spv.image_operand_ops(Op::ImageQuerySizeLod),
        vec![Op::Image]
    );
}

#[test]
fn combined_pairs_shift_by_the_texture_shift_only() {
    // SPIR-V.rst: with the attribute, only -fvk-t-shift applies to either
    // half; other samplers keep -fvk-s-shift.
    let spv = pixel_with(
        "[[vk::combinedImageSampler]] SamplerState sam : register(s0);\n\
         [[vk::combinedImageSampler]] Texture2D<float4> tex : register(t0);\n\
         SamplerState plain : register(s1);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target {\n\
           return tex.Sample(sam, uv) + tex.Sample(plain, uv);\n\
         }",
        &["-fvk-t-shift", "10", "0", "-fvk-s-shift", "20", "0"],
    );
    let mut bindings = spv.decorations(Decoration::Binding);
    bindings.sort();
    assert_eq!(bindings, vec![10, 21]);
}

#[test]
fn combined_image_sampler_misuse_is_an_error() {
    // The pair's bindings differ: neither has a partner.
    let e = fails_with(
        "[[vk::combinedImageSampler]] Texture2D<float4> t : register(t1);\n\
         [[vk::combinedImageSampler]] SamplerState s : register(s2);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv); }",
        "E0607",
    );
    assert!(e.contains("no sampler with"), "{e}");
    assert!(e.contains("no texture with"), "{e}");
    // A texture without the attribute does not pair with the sampler.
    let e = fails_with(
        "Texture2DArray t : register(t1);\n\
         [[vk::combinedImageSampler]] SamplerState s : register(s1);\n\
         float4 main(float3 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv); }",
        "E0607",
    );
    assert!(e.contains("descriptor set 0, binding 1"), "{e}");
    // The combined sampler cannot sample another texture.
    let e = fails_with(
        "[[vk::combinedImageSampler]] Texture2D<float4> t : register(t1);\n\
         [[vk::combinedImageSampler]] SamplerState s : register(s1);\n\
         Texture2D<float4> u : register(t2);\n\
         float4 main(float2 uv : TEXCOORD) : SV_Target { return u.Sample(s, uv); }",
        "E0609",
    );
    assert!(e.contains("samples only `t`"), "{e}");
    // Not a texture or sampler.
    let e = fails_with(
        "[[vk::combinedImageSampler]] RWTexture2D<float4> t : register(u1);\n\
         float4 main() : SV_Target { return t[uint2(0, 0)]; }",
        "E0607",
    );
    assert!(e.contains("not a texture or a sampler"), "{e}");
}
