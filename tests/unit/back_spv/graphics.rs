//! Vertex and pixel shaders: cbuffer layouts, matrices, stage inputs and
//! outputs, textures and samplers, sparse sampling.

use super::*;
use crate::ir::{
    BinaryOperator as B, ImageClass, ImageDim, ImageSampling, MatrixLayout, SampleLevel,
};
use crate::options::Stage;
use spirv::{Capability, Decoration};

fn matrix_member(name: &str, ty: Handle<Type>, offset: u32, row_major: bool) -> ir::StructMember {
    ir::StructMember {
        matrix_layout: Some(MatrixLayout {
            row_major,
            stride: 16,
        }),
        ..member(Some(name), ty, Some(offset))
    }
}

/// ```hlsl
/// cbuffer Transforms : register(b0) {
///     float4x4 mvp;               // offset 0   (column_major: RowMajor)
///     row_major float3x4 bones;   // offset 64  (ColMajor)
///     float weights[4];           // offset 112, stride 16
///     float2x3 uvm;               // offset 176
/// };
/// float4 main(float4 pos : POSITION) : SV_Position {
///     return mul(mvp, pos) + weights[2];
/// }
/// ```
fn cbuffer_module() -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let vec4 = mb.vec(4, Scalar::F32);
    let m44 = mb.mat(4, 4);
    let m34 = mb.mat(3, 4);
    let m23 = mb.mat(2, 3);
    let weights = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(4),
        stride: Some(16),
    });
    let cb_ty = mb.named(
        "type.Transforms",
        TypeInner::Struct {
            members: vec![
                matrix_member("mvp", m44, 0, false),
                matrix_member("bones", m34, 64, true),
                member(Some("weights"), weights, Some(112)),
                matrix_member("uvm", m23, 176, false),
            ],
            size: 224,
        },
    );
    let cb = mb.resource("Transforms", AddressSpace::Uniform, cb_ty, 0, 0);
    let pos_in = mb.location("in.var.POSITION", AddressSpace::Input, vec4, 0);
    let pos_out = mb.builtin(
        "gl_Position",
        AddressSpace::Output,
        vec4,
        spirv::BuiltIn::Position,
    );
    let cb_ptr = mb.ptr(cb_ty, AddressSpace::Uniform);
    let m44_ptr = mb.ptr(m44, AddressSpace::Uniform);
    let w_ptr = mb.ptr(weights, AddressSpace::Uniform);
    let f_ptr = mb.ptr(f32_ty, AddressSpace::Uniform);
    let in_ptr = mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);

    let mut f = FunctionBuilder::new("main");
    let gcb = f.global(cb, cb_ptr);
    let gin = f.global(pos_in, in_ptr);
    let gout = f.global(pos_out, out_ptr);
    let mvp_p = f.index(gcb, 0, m44_ptr);
    let mvp = f.load(mvp_p, m44);
    let pos = f.load(gin, vec4);
    let t = f.binary(B::MatMul, mvp, pos, vec4);
    let wp = f.index(gcb, 2, w_ptr);
    let w2p = f.index(wp, 2, f_ptr);
    let w2 = f.load(w2p, f32_ty);
    let splat = f.emit(Expression::Splat { size: 4, value: w2 }, vec4);
    let r = f.binary(B::Add, t, splat, vec4);
    f.store(gout, r);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Vertex, main, [0; 3]);
    mb.m
}

#[test]
fn cbuffer_with_matrices_and_arrays() {
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&cbuffer_module(), env);
        let block = w.decorated(Decoration::Block);
        assert_eq!(block.len(), 1);
        let b = block[0];
        for needle in [
            format!("OpMemberDecorate %{b} 0 Offset 0"),
            format!("OpMemberDecorate %{b} 0 MatrixStride 16"),
            // HLSL column_major is SPIR-V RowMajor, and row_major ColMajor.
            format!("OpMemberDecorate %{b} 0 RowMajor"),
            format!("OpMemberDecorate %{b} 1 Offset 64"),
            format!("OpMemberDecorate %{b} 1 ColMajor"),
            format!("OpMemberDecorate %{b} 2 Offset 112"),
            format!("OpMemberDecorate %{b} 3 Offset 176"),
            format!("OpMemberDecorate %{b} 3 RowMajor"),
        ] {
            w.assert_text(&needle);
        }
        w.assert_text("ArrayStride 16");
        // float4x4 → 4 columns of vec4; float3x4 → 3 columns of vec4;
        // float2x3 → 2 columns of vec3.
        let matrices: Vec<(u32, u32)> = w
            .all(Op::TypeMatrix)
            .iter()
            .map(|m| {
                let col = w.def(m.operands[0].unwrap_id_ref());
                let size = match col.operands[1] {
                    Operand::LiteralBit32(n) => n,
                    _ => 0,
                };
                let n = match m.operands[1] {
                    Operand::LiteralBit32(n) => n,
                    _ => 0,
                };
                (n, size)
            })
            .collect();
        assert_eq!(matrices, vec![(4, 4), (3, 4), (2, 3)]);
        // mul(matrix, vector) is OpVectorTimesMatrix(vector, matrix).
        let vtm = w.all(Op::VectorTimesMatrix);
        assert_eq!(vtm.len(), 1);
        let vector_operand = w.def(vtm[0].operands[0].unwrap_id_ref());
        assert_eq!(vector_operand.class.opcode, Op::Load);
        assert_eq!(w.count(Op::MatrixTimesVector), 0);
        w.assert_text("OpEntryPoint Vertex");
        w.assert_text("BuiltIn Position");
        w.assert_text("Location 0");
        w.assert_text("OpMemberName");
    }
}

#[test]
fn invert_y_negates_position_y() {
    let m = cbuffer_module();
    let opts = spv::Options {
        invert_y: true,
        ..options(TargetEnv::Vulkan1_0)
    };
    let w = write_valid_with(&m, &opts, &[]);
    assert_eq!(w.count(Op::FNegate), 1);
    let insert = w.all(Op::CompositeInsert);
    assert_eq!(insert.len(), 1);
    assert_eq!(insert[0].operands[2], Operand::LiteralBit32(1));
    let plain = write_valid(&m, TargetEnv::Vulkan1_0);
    assert_eq!(plain.count(Op::FNegate), 0);
}

/// mul() in all its shapes, matrices built from rows, and element access.
#[test]
fn matrix_products_and_composition() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let vec2 = mb.vec(2, Scalar::F32);
    let vec3 = mb.vec(3, Scalar::F32);
    let m23 = mb.mat(2, 3);
    let m32 = mb.mat(3, 2);
    let m22 = mb.mat(2, 2);
    let out = mb.location("out.var.SV_Target", AddressSpace::Output, vec2, 0);
    let out_ptr = mb.ptr(vec2, AddressSpace::Output);
    let m22_ptr = mb.ptr(m22, AddressSpace::Function);
    let vec2_ptr = mb.ptr(vec2, AddressSpace::Function);
    let u32_ty = mb.u32();
    let mut f = FunctionBuilder::new("main");
    let one = f.lit(lit_f32(1.0), f32_ty);
    let two = f.lit(lit_f32(2.0), f32_ty);
    let row3 = f.emit(
        Expression::Compose {
            ty: vec3,
            components: vec![one, two, one],
        },
        vec3,
    );
    let row2 = f.emit(
        Expression::Compose {
            ty: vec2,
            components: vec![one, two],
        },
        vec2,
    );
    // Rows made of constants fold into constant composites; these do not.
    let out_ptr_in = f.global(out, out_ptr);
    let seed = f.load(out_ptr_in, vec2);
    let x = f.index(seed, 0, f32_ty);
    let row3b = f.emit(
        Expression::Compose {
            ty: vec3,
            components: vec![x, two, one],
        },
        vec3,
    );
    let a = f.emit(
        Expression::Compose {
            ty: m23,
            components: vec![row3, row3b],
        },
        m23,
    );
    let b = f.emit(
        Expression::Compose {
            ty: m32,
            components: vec![row2, row2, row2],
        },
        m32,
    );
    let ab = f.binary(B::MatMul, a, b, m22); // mul(float2x3, float3x2)
    let v3 = f.binary(B::MatMul, row2, a, vec3); // mul(float2, float2x3)
    let v2 = f.binary(B::MatMul, a, v3, vec2); // mul(float2x3, float3)
    let scaled = f.binary(B::Multiply, ab, two, m22); // matrix * scalar
    let sum = f.binary(B::Add, scaled, ab, m22); // per column
    let local = f.local("m", m22, m22_ptr);
    f.store(local, sum);
    let i = f.lit(Literal::U32(1), u32_ty);
    let row_p = f.access(local, i, vec2_ptr);
    let row = f.load(row_p, vec2);
    // A dynamic index into a matrix value goes through memory.
    let dyn_row = f.access(sum, i, vec2);
    let r1 = f.binary(B::Add, row, v2, vec2);
    let r2 = f.binary(B::Add, r1, dyn_row, vec2);
    f.store(out_ptr_in, r2);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        // A × B is OpMatrixTimesMatrix(B, A).
        let mtm = w.all(Op::MatrixTimesMatrix);
        assert_eq!(mtm.len(), 1);
        let left = w.def(mtm[0].operands[0].unwrap_id_ref());
        let right = w.def(mtm[0].operands[1].unwrap_id_ref());
        // B (3 rows of float2) is a constant; A has a non-constant row.
        assert_eq!(left.class.opcode, Op::ConstantComposite);
        assert_eq!(right.class.opcode, Op::CompositeConstruct);
        assert_eq!(w.count(Op::MatrixTimesVector), 1);
        assert_eq!(w.count(Op::VectorTimesMatrix), 1);
        assert_eq!(w.count(Op::MatrixTimesScalar), 1);
        // Component-wise matrix addition: one OpFAdd per column (2), plus
        // the two vector additions.
        assert_eq!(w.count(Op::FAdd), 4);
        assert!(w.count(Op::AccessChain) >= 2);
        w.assert_text("OriginUpperLeft");
    }
}

/// ```hlsl
/// Texture2D<float4> tex : register(t0);
/// SamplerState smp : register(s1);
/// float4 main(float2 uv : TEXCOORD0, uint id : ID, float4 pos : SV_Position) : SV_Target {
///     return tex.Sample(smp, uv) * pos.x + (float)id;
/// }
/// ```
fn texture_module(sparse: bool) -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let int2 = mb.vec(2, Scalar::I32);
    let vec2 = mb.vec(2, Scalar::F32);
    let vec4 = mb.vec(4, Scalar::F32);
    let bool_ty = mb.bool();
    let image = mb.ty(TypeInner::Image {
        dim: ImageDim::D2,
        arrayed: false,
        multisampled: false,
        sampled: Scalar::F32,
        class: ImageClass::Sampled,
    });
    let sampler = mb.ty(TypeInner::Sampler { comparison: false });
    let tex = mb.resource("tex", AddressSpace::Handle, image, 0, 0);
    let smp = mb.resource("smp", AddressSpace::Handle, sampler, 0, 1);
    let uv_in = mb.location("in.var.TEXCOORD0", AddressSpace::Input, vec2, 0);
    let id_in = mb.location("in.var.ID", AddressSpace::Input, u32_ty, 1);
    let frag = mb.builtin(
        "gl_FragCoord",
        AddressSpace::Input,
        vec4,
        spirv::BuiltIn::FragCoord,
    );
    let target = mb.location("out.var.SV_Target", AddressSpace::Output, vec4, 0);
    let image_ptr = mb.ptr(image, AddressSpace::Handle);
    let sampler_ptr = mb.ptr(sampler, AddressSpace::Handle);
    let vec2_in = mb.ptr(vec2, AddressSpace::Input);
    let u32_in = mb.ptr(u32_ty, AddressSpace::Input);
    let vec4_in = mb.ptr(vec4, AddressSpace::Input);
    let vec4_out = mb.ptr(vec4, AddressSpace::Output);
    let f32_in = mb.ptr(f32_ty, AddressSpace::Input);
    let residency = mb.ty(TypeInner::Struct {
        members: vec![
            member(Some("code"), u32_ty, None),
            member(Some("texel"), vec4, None),
        ],
        size: 0,
    });

    let mut f = FunctionBuilder::new("main");
    let gtex = f.global(tex, image_ptr);
    let gsmp = f.global(smp, sampler_ptr);
    let guv = f.global(uv_in, vec2_in);
    let gid = f.global(id_in, u32_in);
    let gpos = f.global(frag, vec4_in);
    let gtarget = f.global(target, vec4_out);
    let one = f.lit(Literal::I32(1), mb.m.scalar_type(Scalar::I32));
    let offset = f.emit(
        Expression::Compose {
            ty: int2,
            components: vec![one, one],
        },
        int2,
    );
    let clamp = f.lit(lit_f32(2.0), f32_ty);
    let uv = f.load(guv, vec2);
    let (texel, resident) = if sparse {
        let s = f.emit(
            Expression::ImageSample(Box::new(ImageSampling {
                image: gtex,
                sampler: Some(gsmp),
                coordinate: uv,
                offset: Some(offset),
                level: SampleLevel::Auto,
                depth_ref: None,
                clamp: Some(clamp),
                gather: None,
                sparse: true,
            })),
            residency,
        );
        let code = f.index(s, 0, u32_ty);
        let texel = f.index(s, 1, vec4);
        let resident = f.emit(Expression::SparseTexelsResident { code }, bool_ty);
        (texel, Some(resident))
    } else {
        let s = f.emit(
            Expression::ImageSample(Box::new(ImageSampling {
                image: gtex,
                sampler: Some(gsmp),
                coordinate: uv,
                offset: None,
                level: SampleLevel::Auto,
                depth_ref: None,
                clamp: None,
                gather: None,
                sparse: false,
            })),
            vec4,
        );
        (s, None)
    };
    let px = f.index(gpos, 0, f32_in);
    let x = f.load(px, f32_ty);
    let scaled = f.binary(B::Multiply, texel, x, vec4);
    let id = f.load(gid, u32_ty);
    let fid = f.emit(
        Expression::As {
            expr: id,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let mut color = f.binary(B::Add, scaled, fid, vec4);
    if let Some(resident) = resident {
        let zero = f.emit(Expression::ZeroValue(vec4), vec4);
        color = f.emit(
            Expression::Select {
                condition: resident,
                accept: color,
                reject: zero,
            },
            vec4,
        );
    }
    f.store(gtarget, color);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    mb.m
}

#[test]
fn sampled_texture_in_a_pixel_shader() {
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&texture_module(false), env);
        assert_eq!(w.count(Op::SampledImage), 1);
        assert_eq!(w.count(Op::ImageSampleImplicitLod), 1);
        assert_eq!(w.count(Op::VectorTimesScalar), 1);
        w.assert_text("OpEntryPoint Fragment");
        w.assert_text("OriginUpperLeft");
        w.assert_text("BuiltIn FragCoord");
        w.assert_text("Location 1");
        w.assert_text("Binding 1");
        // The uint input is made Flat (VUID-StandaloneSpirv-Flat-04744),
        // the float ones are not.
        assert_eq!(w.decorated(Decoration::Flat).len(), 1);
        let image = &w.all(Op::TypeImage)[0];
        assert_eq!(image.operands[1], Operand::Dim(spirv::Dim::Dim2D));
        assert_eq!(image.operands[5], Operand::LiteralBit32(1), "sampled");
    }
}

#[test]
fn sparse_sample_with_min_lod() {
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&texture_module(true), env);
        let s = w.all(Op::ImageSparseSampleImplicitLod);
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].operands[2],
            Operand::ImageOperands(
                spirv::ImageOperands::CONST_OFFSET | spirv::ImageOperands::MIN_LOD
            )
        );
        let result = w.def(s[0].result_type.unwrap());
        assert_eq!(result.class.opcode, Op::TypeStruct);
        assert_eq!(w.count(Op::ImageSparseTexelsResident), 1);
        assert!(w.has_capability(Capability::SparseResidency));
        assert!(w.has_capability(Capability::MinLod));
        // Below SPIR-V 1.4 the scalar condition is splatted for OpSelect.
        let select = &w.all(Op::Select)[0];
        let cond = w.def(select.operands[0].unwrap_id_ref());
        if env < TargetEnv::Vulkan1_1Spirv1_4 {
            assert_eq!(cond.class.opcode, Op::CompositeConstruct);
        } else {
            assert_eq!(cond.class.opcode, Op::ImageSparseTexelsResident);
        }
    }
}

#[test]
fn private_globals_are_zero_initialised() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let vec4 = mb.vec(4, Scalar::F32);
    let counter = mb.global("counter", AddressSpace::Private, f32_ty);
    let init =
        mb.m.add_const_expression(Expression::Literal(lit_f32(0.5)), f32_ty);
    let scale = mb.global("scale", AddressSpace::Private, f32_ty);
    mb.m.globals[scale].init = Some(init);
    let target = mb.location("out.var.SV_Target", AddressSpace::Output, vec4, 0);
    let fptr = mb.ptr(f32_ty, AddressSpace::Private);
    let optr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let c = f.global(counter, fptr);
    let s = f.global(scale, fptr);
    let o = f.global(target, optr);
    let cv = f.load(c, f32_ty);
    let sv = f.load(s, f32_ty);
    let p = f.binary(B::Add, cv, sv, f32_ty);
    let v = f.emit(Expression::Splat { size: 4, value: p }, vec4);
    f.store(o, v);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        let privates: Vec<&Instruction> = w
            .all(Op::Variable)
            .into_iter()
            .filter(|v| v.operands[0] == Operand::StorageClass(spirv::StorageClass::Private))
            .collect();
        assert_eq!(privates.len(), 2);
        let inits: Vec<Op> = privates
            .iter()
            .map(|v| w.def(v.operands[1].unwrap_id_ref()).class.opcode)
            .collect();
        assert_eq!(inits, vec![Op::ConstantNull, Op::Constant]);
    }
}
