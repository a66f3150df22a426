//! The compile side of tiled resources: every HLSL form with `clamp` and/or
//! `out uint status` becomes the SPIR-V instruction, image operands, result
//! struct and capabilities that SPIR-V.rst ("Texture methods") names, and
//! validates for Vulkan 1.0 and 1.2.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use rspirv::dr::{Instruction, Operand};
use spirv::{Capability, ImageOperands as IO, Op};

/// Every texture kind, with float4 texels unless named `d*` (depth-style
/// `float` textures for the comparison forms).
const PRELUDE: &str = "\
Texture1D<float4> t1; Texture1DArray<float4> t1a; Texture2D<float4> t2;
Texture2DArray<float4> t2a; Texture3D<float4> t3; TextureCube<float4> tc;
TextureCubeArray<float4> tca; Texture2DMS<float4> tms; Texture2DMSArray<float4> tmsa;
Texture1D<float> d1; Texture2D<float> d2; Texture2DArray<float> d2a;
TextureCube<float> dc; TextureCubeArray<float> dca;
RWTexture1D<float4> rw1; RWTexture2D<float4> rw2; RWTexture2DArray<float4> rw2a;
RWTexture3D<float4> rw3; Buffer<float4> b; RWBuffer<float4> rwb;
SamplerState s; SamplerComparisonState sc;
";

/// A pixel shader that reads `call` (a float4 or float expression using
/// `status`), checks residency, and returns the texel.
fn pixel_shader(call: &str) -> String {
    format!(
        "{PRELUDE}\
float4 main(float4 p : P, nointerpolation int4 q : Q) : SV_Target {{
    uint status;
    float4 r = {call};
    return CheckAccessFullyMapped(status) ? r : -1;
}}
"
    )
}

pub use common::Spv;

/// Compiles `src` for `profile` and `env`; panics with the diagnostics when
/// it fails and with spirv-val's message when the module is invalid.
pub fn compile(src: &str, profile: &str, env: TargetEnv) -> Spv {
    let mut o = common::options_for(profile);
    o.target_env = env;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed for {profile} {env:?}:\n{text}\n--- source ---\n{src}");
    };
    let flags: &[&str] = if env == TargetEnv::Vulkan1_0 {
        &["--relax-block-layout"]
    } else {
        &[]
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), flags) {
        panic!(
            "invalid SPIR-V for {env:?}: {e}\n{}\n--- source ---\n{src}",
            common::spirv_dis(&a.spirv)
        );
    }
    let module = rspirv::dr::load_words(&a.spirv).expect("rspirv reads the module");
    Spv { module }
}

impl Spv {
    /// Instructions that take `id` as an operand.
    pub fn users(&self, id: u32) -> Vec<&Instruction> {
        self.module
            .all_inst_iter()
            .filter(|i| i.operands.contains(&Operand::IdRef(id)))
            .collect()
    }
    /// The 32-bit pattern of a scalar constant.
    fn bits(&self, id: u32) -> u32 {
        let d = self.def(id);
        match (d.class.opcode, &d.operands[..]) {
            (Op::Constant, [Operand::LiteralBit32(v)]) => *v,
            _ => panic!("%{id} is not a 32-bit constant: {d:?}"),
        }
    }
    pub fn f32_const(&self, id: u32) -> f32 {
        f32::from_bits(self.bits(id))
    }
    /// A constant int scalar or vector as its components.
    pub fn i32s(&self, id: u32) -> Vec<i32> {
        let d = self.def(id);
        match d.class.opcode {
            Op::Constant => vec![self.bits(id) as i32],
            Op::ConstantComposite => d
                .operands
                .iter()
                .flat_map(|o| self.i32s(o.unwrap_id_ref()))
                .collect(),
            Op::ConstantNull => {
                let ty = self.def(d.result_type.unwrap_or_default());
                let n = match ty.class.opcode {
                    Op::TypeVector => match ty.operands[1] {
                        Operand::LiteralBit32(n) => n as usize,
                        _ => 1,
                    },
                    _ => 1,
                };
                vec![0; n]
            }
            _ => panic!("%{id} is not an int constant: {d:?}"),
        }
    }
    /// `OpTypeInt 32 signedness`, `OpTypeFloat 32`, `OpTypeVector` as text:
    /// "uint", "int", "float", "v4float"…
    pub fn type_name(&self, id: u32) -> String {
        let d = self.def(id);
        match d.class.opcode {
            Op::TypeInt => match d.operands[..] {
                [Operand::LiteralBit32(32), Operand::LiteralBit32(0)] => "uint".into(),
                [Operand::LiteralBit32(32), Operand::LiteralBit32(1)] => "int".into(),
                _ => format!("{d:?}"),
            },
            Op::TypeFloat => "float".into(),
            Op::TypeBool => "bool".into(),
            Op::TypeVector => {
                let n = match d.operands[1] {
                    Operand::LiteralBit32(n) => n,
                    _ => 0,
                };
                format!("v{n}{}", self.type_name(d.operands[0].unwrap_id_ref()))
            }
            Op::TypeStruct => {
                let members: Vec<String> = d
                    .operands
                    .iter()
                    .map(|o| self.type_name(o.unwrap_id_ref()))
                    .collect();
                format!("{{{}}}", members.join(", "))
            }
            _ => format!("{:?}", d.class.opcode),
        }
    }
}

/// The image operands of a sampling/fetch/gather instruction: the mask and,
/// per bit in mask order, its ids (SPIR-V 3.14: operands follow the mask
/// in the order of their bits).
pub fn image_operands(i: &Instruction) -> (IO, Vec<(IO, Vec<u32>)>) {
    let Some(at) = i
        .operands
        .iter()
        .position(|o| matches!(o, Operand::ImageOperands(_)))
    else {
        return (IO::NONE, Vec::new());
    };
    let Operand::ImageOperands(mask) = i.operands[at] else {
        unreachable!()
    };
    let mut ids = i.operands[at + 1..].iter().map(|o| o.unwrap_id_ref());
    let mut out = Vec::new();
    for bit in [
        IO::BIAS,
        IO::LOD,
        IO::GRAD,
        IO::CONST_OFFSET,
        IO::OFFSET,
        IO::CONST_OFFSETS,
        IO::SAMPLE,
        IO::MIN_LOD,
    ] {
        if mask.contains(bit) {
            let n = if bit == IO::GRAD { 2 } else { 1 };
            out.push((bit, ids.by_ref().take(n).collect()));
        }
    }
    assert!(ids.next().is_none(), "operands left over after {mask:?}");
    (mask, out)
}

/// What one form must become.
struct Form {
    /// The HLSL expression (uses `status`, `p`, `q`, the prelude's names).
    call: &'static str,
    profile: &'static str,
    op: Op,
    mask: IO,
    /// The struct's texel member: "v4float", or "float" for comparisons.
    texel: &'static str,
}

const fn form(call: &'static str, op: Op, mask: IO, texel: &'static str) -> Form {
    Form {
        call,
        profile: "ps_6_0",
        op,
        mask,
        texel,
    }
}

const fn form_sm(
    profile: &'static str,
    call: &'static str,
    op: Op,
    mask: IO,
    texel: &'static str,
) -> Form {
    Form {
        call,
        profile,
        op,
        mask,
        texel,
    }
}

const V4: &str = "v4float";
const F: &str = "float";

/// Sampling forms. Constants tell the operands apart: clamp 1.25, bias 0.5,
/// lod 2.0, comparison value 0.25, offsets (1, -2, 3).
const SAMPLE_FORMS: &[Form] = {
    use Op::*;
    const O_MIN: IO = IO::CONST_OFFSET.union(IO::MIN_LOD);
    &[
        // Sample(s, location[, offset][, clamp][, status]): implicit LOD.
        form(
            "t1.Sample(s, p.x, 1, 1.25, status)",
            ImageSparseSampleImplicitLod,
            O_MIN,
            V4,
        ),
        form(
            "t1a.Sample(s, p.xy, 1, 1.25, status)",
            ImageSparseSampleImplicitLod,
            O_MIN,
            V4,
        ),
        form(
            "t2.Sample(s, p.xy, int2(1, -2), 1.25, status)",
            ImageSparseSampleImplicitLod,
            O_MIN,
            V4,
        ),
        form(
            "t2a.Sample(s, p.xyz, int2(1, -2), 1.25, status)",
            ImageSparseSampleImplicitLod,
            O_MIN,
            V4,
        ),
        form(
            "t3.Sample(s, p.xyz, int3(1, -2, 3), 1.25, status)",
            ImageSparseSampleImplicitLod,
            O_MIN,
            V4,
        ),
        // Cubes take no offset: the third argument is the clamp.
        form(
            "tc.Sample(s, p.xyz, 1.25, status)",
            ImageSparseSampleImplicitLod,
            IO::MIN_LOD,
            V4,
        ),
        form(
            "tca.Sample(s, p, 1.25, status)",
            ImageSparseSampleImplicitLod,
            IO::MIN_LOD,
            V4,
        ),
        // SampleBias(s, location, bias[, offset][, clamp][, status]).
        form(
            "t2.SampleBias(s, p.xy, 0.5, int2(1, -2), 1.25, status)",
            ImageSparseSampleImplicitLod,
            IO::BIAS.union(O_MIN),
            V4,
        ),
        form(
            "tca.SampleBias(s, p, 0.5, 1.25, status)",
            ImageSparseSampleImplicitLod,
            IO::BIAS.union(IO::MIN_LOD),
            V4,
        ),
        // SampleGrad(s, location, ddx, ddy[, offset][, clamp][, status]).
        form(
            "t2.SampleGrad(s, p.xy, p.zw, p.wz, int2(1, -2), 1.25, status)",
            ImageSparseSampleExplicitLod,
            IO::GRAD.union(O_MIN),
            V4,
        ),
        form(
            "t3.SampleGrad(s, p.xyz, p.zwx, p.wzy, int3(1, -2, 3), 1.25, status)",
            ImageSparseSampleExplicitLod,
            IO::GRAD.union(O_MIN),
            V4,
        ),
        form(
            "tc.SampleGrad(s, p.xyz, p.zwx, p.wzy, 1.25, status)",
            ImageSparseSampleExplicitLod,
            IO::GRAD.union(IO::MIN_LOD),
            V4,
        ),
        // SampleLevel(s, location, lod[, offset][, status]): no clamp.
        form(
            "t2a.SampleLevel(s, p.xyz, 2.0, int2(1, -2), status)",
            ImageSparseSampleExplicitLod,
            IO::LOD.union(IO::CONST_OFFSET),
            V4,
        ),
        form(
            "tca.SampleLevel(s, p, 2.0, status)",
            ImageSparseSampleExplicitLod,
            IO::LOD,
            V4,
        ),
        // SampleCmp(s, location, value[, offset][, clamp][, status]).
        form(
            "d2.SampleCmp(sc, p.xy, 0.25, int2(1, -2), 1.25, status)",
            ImageSparseSampleDrefImplicitLod,
            O_MIN,
            F,
        ),
        form(
            "dca.SampleCmp(sc, p, 0.25, 1.25, status)",
            ImageSparseSampleDrefImplicitLod,
            IO::MIN_LOD,
            F,
        ),
        // SampleCmpLevelZero(s, location, value[, offset][, status]).
        form(
            "d1.SampleCmpLevelZero(sc, p.x, 0.25, 1, status)",
            ImageSparseSampleDrefExplicitLod,
            IO::LOD.union(IO::CONST_OFFSET),
            F,
        ),
        form(
            "dc.SampleCmpLevelZero(sc, p.xyz, 0.25, status)",
            ImageSparseSampleDrefExplicitLod,
            IO::LOD,
            F,
        ),
        // SampleCmpLevel (SM 6.7), SampleCmpBias and SampleCmpGrad (SM 6.8):
        // the comparison value comes first.
        form_sm(
            "ps_6_7",
            "d2a.SampleCmpLevel(sc, p.xyz, 0.25, 2.0, int2(1, -2), status)",
            ImageSparseSampleDrefExplicitLod,
            IO::LOD.union(IO::CONST_OFFSET),
            F,
        ),
        form_sm(
            "ps_6_8",
            "d2.SampleCmpBias(sc, p.xy, 0.25, 0.5, int2(1, -2), 1.25, status)",
            ImageSparseSampleDrefImplicitLod,
            IO::BIAS.union(O_MIN),
            F,
        ),
        form_sm(
            "ps_6_8",
            "dc.SampleCmpGrad(sc, p.xyz, 0.25, p.xyz, p.zyx, 1.25, status)",
            ImageSparseSampleDrefExplicitLod,
            IO::GRAD.union(IO::MIN_LOD),
            F,
        ),
    ]
};

/// Fetches and storage reads with a status.
const LOAD_FORMS: &[Form] = {
    use Op::*;
    &[
        // Load(location[, offset][, status]): the level is the location's
        // last component.
        form(
            "t1.Load(q.xy, 1, status)",
            ImageSparseFetch,
            IO::LOD.union(IO::CONST_OFFSET),
            V4,
        ),
        form(
            "t2.Load(q.xyz, int2(1, -2), status)",
            ImageSparseFetch,
            IO::LOD.union(IO::CONST_OFFSET),
            V4,
        ),
        form(
            "t2a.Load(q, int2(1, -2), status)",
            ImageSparseFetch,
            IO::LOD.union(IO::CONST_OFFSET),
            V4,
        ),
        form(
            "t3.Load(q, int3(1, -2, 3), status)",
            ImageSparseFetch,
            IO::LOD.union(IO::CONST_OFFSET),
            V4,
        ),
        // Load(location, sample[, offset][, status]).
        form(
            "tms.Load(q.xy, 3, int2(1, -2), status)",
            ImageSparseFetch,
            IO::CONST_OFFSET.union(IO::SAMPLE),
            V4,
        ),
        form(
            "tmsa.Load(q.xyz, 3, int2(1, -2), status)",
            ImageSparseFetch,
            IO::CONST_OFFSET.union(IO::SAMPLE),
            V4,
        ),
        form("b.Load(q.x, status)", ImageSparseFetch, IO::NONE, V4),
        // Storage images and texel buffers: OpImageSparseRead.
        form("rw1.Load(q.x, status)", ImageSparseRead, IO::NONE, V4),
        form("rw2.Load(q.xy, status)", ImageSparseRead, IO::NONE, V4),
        form("rw2a.Load(q.xyz, status)", ImageSparseRead, IO::NONE, V4),
        form("rw3.Load(q.xyz, status)", ImageSparseRead, IO::NONE, V4),
        form("rwb.Load(q.x, status)", ImageSparseRead, IO::NONE, V4),
    ]
};

/// Gathers with a status: component 0..3 by name, `ConstOffset`, or the
/// four constant offsets as one `ConstOffsets`.
const GATHER_FORMS: &[Form] = {
    use Op::*;
    &[
        form(
            "t2.Gather(s, p.xy, int2(1, -2), status)",
            ImageSparseGather,
            IO::CONST_OFFSET,
            V4,
        ),
        form(
            "tc.Gather(s, p.xyz, status)",
            ImageSparseGather,
            IO::NONE,
            V4,
        ),
        form(
            "t2a.GatherRed(s, p.xyz, int2(1, -2), status)",
            ImageSparseGather,
            IO::CONST_OFFSET,
            V4,
        ),
        form(
            "t2.GatherGreen(s, p.xy, int2(1, -2), status)",
            ImageSparseGather,
            IO::CONST_OFFSET,
            V4,
        ),
        form(
            "tca.GatherBlue(s, p, status)",
            ImageSparseGather,
            IO::NONE,
            V4,
        ),
        form(
            "t2.GatherAlpha(s, p.xy, int2(1, -2), status)",
            ImageSparseGather,
            IO::CONST_OFFSET,
            V4,
        ),
        form(
            "t2.GatherRed(s, p.xy, int2(1, -2), int2(3, 4), int2(-5, 6), int2(7, -8), status)",
            ImageSparseGather,
            IO::CONST_OFFSETS,
            V4,
        ),
        form(
            "t2a.GatherAlpha(s, p.xyz, int2(1, -2), int2(3, 4), int2(-5, 6), int2(7, -8), status)",
            ImageSparseGather,
            IO::CONST_OFFSETS,
            V4,
        ),
        form(
            "d2.GatherCmp(sc, p.xy, 0.25, int2(1, -2), status)",
            ImageSparseDrefGather,
            IO::CONST_OFFSET,
            V4,
        ),
        form(
            "dc.GatherCmpRed(sc, p.xyz, 0.25, status)",
            ImageSparseDrefGather,
            IO::NONE,
            V4,
        ),
        form(
            "d2a.GatherCmpRed(sc, p.xyz, 0.25, int2(1, -2), int2(3, 4), int2(-5, 6), int2(7, -8), status)",
            ImageSparseDrefGather,
            IO::CONST_OFFSETS,
            V4,
        ),
    ]
};

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2];

/// Checks one form: exactly one instruction `op`, its mask and operand
/// values, the `{uint, texel}` result, the residency code (member 0)
/// reaching OpImageSparseTexelsResident, and the capabilities.
fn check_form(f: &Form) {
    for env in ENVS {
        let spv = compile(&pixel_shader(f.call), f.profile, env);
        let what = format!("`{}` ({env:?})", f.call);
        let reads = spv.all(f.op);
        assert_eq!(reads.len(), 1, "{what}: one {:?}", f.op);
        let read = reads[0];
        let (mask, params) = image_operands(read);
        assert_eq!(mask, f.mask, "{what}: image operands");
        for (bit, ids) in &params {
            match *bit {
                IO::MIN_LOD => assert_eq!(spv.f32_const(ids[0]), 1.25, "{what}: MinLod = clamp"),
                IO::BIAS => assert_eq!(spv.f32_const(ids[0]), 0.5, "{what}: Bias"),
                // Fetches name the level from the location (a variable).
                IO::LOD if f.op == Op::ImageSparseFetch => {}
                // SampleCmpLevelZero reads level 0.
                IO::LOD if f.call.contains("LevelZero") => {
                    assert_eq!(spv.f32_const(ids[0]), 0.0, "{what}: Lod 0")
                }
                IO::LOD => assert_eq!(spv.f32_const(ids[0]), 2.0, "{what}: Lod"),
                IO::CONST_OFFSET => {
                    let v = spv.i32s(ids[0]);
                    assert_eq!(v[..], [1, -2, 3][..v.len()], "{what}: ConstOffset");
                }
                IO::CONST_OFFSETS => {
                    assert_eq!(
                        spv.i32s(ids[0]),
                        [1, -2, 3, 4, -5, 6, 7, -8],
                        "{what}: ConstOffsets, one per texel"
                    );
                }
                IO::SAMPLE => assert_eq!(spv.i32s(ids[0]), [3], "{what}: Sample"),
                _ => {}
            }
        }
        // Dref forms take the comparison value as an operand of their own.
        if matches!(
            f.op,
            Op::ImageSparseSampleDrefImplicitLod
                | Op::ImageSparseSampleDrefExplicitLod
                | Op::ImageSparseDrefGather
        ) {
            assert_eq!(
                spv.f32_const(read.operands[2].unwrap_id_ref()),
                0.25,
                "{what}: Dref"
            );
        }
        // The result: a struct of the residency code and the texel.
        let rt = read.result_type.expect("typed result");
        assert_eq!(
            spv.type_name(rt),
            format!("{{uint, {}}}", f.texel),
            "{what}: result struct"
        );
        // Member 0 is the code CheckAccessFullyMapped tests; member 1 the texel.
        let result = read.result_id.expect("result id");
        let extracts: Vec<&Instruction> = spv
            .users(result)
            .into_iter()
            .filter(|i| i.class.opcode == Op::CompositeExtract)
            .collect();
        let member = |n: u32| {
            extracts
                .iter()
                .find(|i| i.operands[1] == Operand::LiteralBit32(n))
                .unwrap_or_else(|| panic!("{what}: no extract of member {n}"))
        };
        let code = member(0);
        assert_eq!(spv.type_name(code.result_type.unwrap_or_default()), "uint");
        let code_id = code.result_id.unwrap_or_default();
        let resident = spv.all(Op::ImageSparseTexelsResident);
        assert_eq!(resident.len(), 1, "{what}: one CheckAccessFullyMapped");
        let tested = resident[0].operands[0].unwrap_id_ref();
        let reaches = tested == code_id
            || spv.users(code_id).iter().any(|u| {
                // Through the `status` variable: a store of the code to the
                // pointer that the tested value is loaded from.
                u.class.opcode == Op::Store
                    && spv.def(tested).class.opcode == Op::Load
                    && spv.def(tested).operands[0] == u.operands[0]
            });
        assert!(reaches, "{what}: the residency code reaches the check");
        let texel = member(1);
        assert_eq!(
            spv.type_name(texel.result_type.unwrap_or_default()),
            f.texel,
            "{what}: texel member"
        );
        assert!(spv.has_capability(Capability::SparseResidency), "{what}");
        assert_eq!(
            spv.has_capability(Capability::MinLod),
            f.mask.contains(IO::MIN_LOD),
            "{what}: MinLod capability exactly with a clamp"
        );
        let gather_extended = matches!(f.op, Op::ImageSparseGather | Op::ImageSparseDrefGather)
            && f.mask
                .intersects(IO::CONST_OFFSET | IO::OFFSET | IO::CONST_OFFSETS);
        if gather_extended {
            assert!(
                spv.has_capability(Capability::ImageGatherExtended),
                "{what}: ImageGatherExtended for gather offsets"
            );
        }
    }
}

#[test]
fn sample_forms_with_clamp_and_status() {
    for f in SAMPLE_FORMS {
        check_form(f);
    }
}

#[test]
fn load_forms_with_status() {
    for f in LOAD_FORMS {
        check_form(f);
    }
}

#[test]
fn gather_forms_with_status() {
    for f in GATHER_FORMS {
        check_form(f);
    }
}

/// A clamp without a status: the dense instruction with MinLod, and no
/// SparseResidency capability.
#[test]
fn clamp_without_status_is_min_lod_on_the_dense_read() {
    let cases = [
        (
            "t2.Sample(s, p.xy, int2(1, -2), 1.25)",
            Op::ImageSampleImplicitLod,
        ),
        (
            "tc.SampleBias(s, p.xyz, 0.5, 1.25)",
            Op::ImageSampleImplicitLod,
        ),
        (
            "t2a.SampleGrad(s, p.xyz, p.xy, p.yx, int2(1, -2), 1.25)",
            Op::ImageSampleExplicitLod,
        ),
        (
            "dc.SampleCmp(sc, p.xyz, 0.25, 1.25)",
            Op::ImageSampleDrefImplicitLod,
        ),
    ];
    for (call, op) in cases {
        for env in ENVS {
            let src =
                format!("{PRELUDE}float4 main(float4 p : P) : SV_Target {{ return {call}; }}");
            let spv = compile(&src, "ps_6_0", env);
            let reads = spv.all(op);
            assert_eq!(reads.len(), 1, "`{call}`");
            let (mask, params) = image_operands(reads[0]);
            assert!(mask.contains(IO::MIN_LOD), "`{call}`: {mask:?}");
            let (_, min_lod) = params
                .iter()
                .find(|(b, _)| *b == IO::MIN_LOD)
                .expect("MinLod");
            assert_eq!(spv.f32_const(min_lod[0]), 1.25);
            assert!(spv.has_capability(Capability::MinLod));
            assert!(
                !spv.has_capability(Capability::SparseResidency),
                "`{call}`: no status, no SparseResidency"
            );
            assert!(spv.all(Op::ImageSparseSampleImplicitLod).is_empty());
        }
    }
}

/// The texel member of the result struct is the 4-vector SPIR-V reads;
/// the value HLSL returns is its first components in the declared type.
#[test]
fn texel_member_becomes_the_declared_element_type() {
    let src = "\
Texture2D<float2> tf2; Texture2D<int> ti; RWTexture2D<uint3> ru3; Buffer<float> bf;
SamplerState s;
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint s0, s1, s2, s3;
    float2 a = tf2.SampleLevel(s, id.xy / 8.0, 0, int2(0, 0), s0);
    int b = ti.Load(int3(id.xy, 0), int2(0, 0), s1);
    uint3 c = ru3.Load(id.xy, s2);
    float d = bf.Load(id.x, s3);
    bool ok = CheckAccessFullyMapped(s0) && CheckAccessFullyMapped(s1)
        && CheckAccessFullyMapped(s2) && CheckAccessFullyMapped(s3);
    o[id.x] = ok ? float4(a, b, c.z + d) : 0;
}
";
    for env in ENVS {
        let spv = compile(src, "cs_6_0", env);
        let reads: Vec<&Instruction> = spv
            .module
            .all_inst_iter()
            .filter(|i| {
                matches!(
                    i.class.opcode,
                    Op::ImageSparseSampleExplicitLod | Op::ImageSparseFetch | Op::ImageSparseRead
                )
            })
            .collect();
        assert_eq!(reads.len(), 4);
        let mut seen = Vec::new();
        for r in reads {
            let rt = spv.type_name(r.result_type.unwrap_or_default());
            let texel = spv
                .users(r.result_id.unwrap_or_default())
                .into_iter()
                .find(|i| {
                    i.class.opcode == Op::CompositeExtract
                        && i.operands[1] == Operand::LiteralBit32(1)
                })
                .expect("texel extract");
            // What the texel becomes: the components that are used, read
            // out of it (the shuffle to 2 or 3 components that the
            // declared type is folds into the reads of its lanes).
            let narrowed: Vec<String> = spv
                .users(texel.result_id.unwrap_or_default())
                .into_iter()
                .filter(|i| matches!(i.class.opcode, Op::VectorShuffle | Op::CompositeExtract))
                .map(|i| spv.type_name(i.result_type.unwrap_or_default()))
                .collect();
            seen.push((rt, narrowed));
        }
        seen.sort();
        let expect = |s: &str, n: &[&str]| {
            (
                s.to_string(),
                n.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            )
        };
        let mut want = vec![
            expect("{uint, v4float}", &["float", "float"]),
            expect("{uint, v4int}", &["int"]),
            expect("{uint, v4uint}", &["uint"]),
            expect("{uint, v4float}", &["float"]),
        ];
        want.sort();
        assert_eq!(seen, want, "{env:?}");
    }
}

/// Four offsets that are not all constant: one gather per offset (SPIR-V.rst),
/// each with its own residency code; the status is resident only if all are.
#[test]
fn four_variable_offsets_gather_four_times() {
    let src = "\
Texture2D<float4> t; SamplerState s; RWStructuredBuffer<float4> o;
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint status;
    int2 v = int2(id.x, 0);
    float4 g = t.GatherGreen(s, float2(0.5, 0.5), v, int2(1, 0), int2(0, 1), int2(1, 1), status);
    o[id.x] = CheckAccessFullyMapped(status) ? g : -1;
}
";
    for env in ENVS {
        let spv = compile(src, "cs_6_0", env);
        let gathers = spv.all(Op::ImageSparseGather);
        assert_eq!(gathers.len(), 4, "{env:?}");
        let masks: Vec<IO> = gathers.iter().map(|g| image_operands(g).0).collect();
        assert_eq!(masks.iter().filter(|m| **m == IO::OFFSET).count(), 1);
        assert_eq!(masks.iter().filter(|m| **m == IO::CONST_OFFSET).count(), 3);
        assert!(spv.all(Op::ImageGather).is_empty());
        // Three residency tests pick the first non-resident code, then
        // CheckAccessFullyMapped tests the result.
        assert_eq!(spv.all(Op::ImageSparseTexelsResident).len(), 4);
        assert!(spv.has_capability(Capability::ImageGatherExtended));
        assert!(spv.has_capability(Capability::SparseResidency));
    }
}

/// `CheckAccessFullyMapped` is OpImageSparseTexelsResident on the code, with
/// a bool result.
#[test]
fn check_access_fully_mapped_tests_the_code() {
    let src = "\
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    o[id.x] = CheckAccessFullyMapped(o[id.x + 1]) ? 7 : 9;
}
";
    for env in ENVS {
        let spv = compile(src, "cs_6_0", env);
        let r = spv.all(Op::ImageSparseTexelsResident);
        assert_eq!(r.len(), 1);
        assert_eq!(spv.type_name(r[0].result_type.unwrap_or_default()), "bool");
        let code = spv.def(r[0].operands[0].unwrap_id_ref());
        assert_eq!(
            code.class.opcode,
            Op::Load,
            "the code is read from the buffer"
        );
        assert!(spv.has_capability(Capability::SparseResidency));
    }
}

/// Sampling in compute with implicit LOD needs SM 6.6 (then a derivative
/// group); SampleLevel, SampleGrad with a clamp, Load and Gather need none.
#[test]
fn compute_shaders_read_sparse_without_derivatives() {
    let src = "\
Texture2D<float4> t; SamplerState s; RWStructuredBuffer<float4> o;
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint s0, s1, s2, s3;
    float2 uv = id.xy / 64.0;
    float4 a = t.SampleLevel(s, uv, 1.0, int2(0, 0), s0);
    float4 b = t.SampleGrad(s, uv, float2(0.01, 0), float2(0, 0.01), int2(0, 0), 2.0, s1);
    float4 c = t.Load(int3(id.xy, 0), int2(0, 0), s2);
    float4 d = t.Gather(s, uv, int2(0, 0), s3);
    o[id.x] = float4(CheckAccessFullyMapped(s0), CheckAccessFullyMapped(s1),
                     CheckAccessFullyMapped(s2), CheckAccessFullyMapped(s3)) + a + b + c + d;
}
";
    for env in ENVS {
        let spv = compile(src, "cs_6_0", env);
        assert_eq!(spv.all(Op::ImageSparseSampleExplicitLod).len(), 2);
        assert_eq!(spv.all(Op::ImageSparseFetch).len(), 1);
        assert_eq!(spv.all(Op::ImageSparseGather).len(), 1);
        assert!(spv.has_capability(Capability::MinLod));
        assert!(
            !spv.has_capability(Capability::ComputeDerivativeGroupQuadsKHR)
                && !spv.has_capability(Capability::ComputeDerivativeGroupLinearKHR),
            "no derivatives needed"
        );
    }
    // Implicit LOD at SM 6.6: quads of derivatives.
    let implicit = "\
Texture2D<float4> t; SamplerState s; RWStructuredBuffer<float4> o;
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint st;
    float4 a = t.Sample(s, id.xy / 64.0, int2(0, 0), 1.5, st);
    o[id.x] = CheckAccessFullyMapped(st) ? a : -1;
}
";
    let spv = compile(implicit, "cs_6_6", TargetEnv::Vulkan1_2);
    assert_eq!(spv.all(Op::ImageSparseSampleImplicitLod).len(), 1);
    assert!(spv.has_capability(Capability::ComputeDerivativeGroupQuadsKHR));
}
