//! `precise`: NoContraction on exactly the instructions of precise
//! expressions; expressions of every kind in one module, checked by
//! spirv-val on every target; determinism.

use super::*;
use crate::ir::{BinaryOperator as B, MathFunction as M, ScalarKind, UnaryOperator};
use crate::options::Stage;
use spirv::Decoration;

/// ```hlsl
/// precise float p = a * b + c;      // both precise
/// float q = a * b - c;              // neither
/// precise float r = sqrt(p);        // precise
/// precise int n = (int)q;           // precise conversion
/// float s = -r;                     // not precise
/// ```
#[test]
fn no_contraction_exactly_on_precise_instructions() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let i32_ty = mb.i32();
    let vec4 = mb.vec(4, Scalar::F32);
    let input = mb.location("in.var.A", AddressSpace::Input, vec4, 0);
    let target = mb.location("out.var.SV_Target", AddressSpace::Output, vec4, 0);
    let iptr = mb.ptr(vec4, AddressSpace::Input);
    let optr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gi = f.global(input, iptr);
    let go = f.global(target, optr);
    let v = f.load(gi, vec4);
    let a = f.index(v, 0, f32_ty);
    let b = f.index(v, 1, f32_ty);
    let c = f.index(v, 2, f32_ty);
    let bin = |f: &mut FunctionBuilder, op, l, r, precise| {
        f.emit(
            Expression::Binary {
                op,
                left: l,
                right: r,
                precise,
            },
            f32_ty,
        )
    };
    let ab_p = bin(&mut f, B::Multiply, a, b, true);
    let p = bin(&mut f, B::Add, ab_p, c, true);
    let ab = bin(&mut f, B::Multiply, a, b, false);
    let q = bin(&mut f, B::Subtract, ab, c, false);
    let r = f.emit(
        Expression::Math {
            fun: M::Sqrt,
            args: vec![p],
            precise: true,
        },
        f32_ty,
    );
    let n = f.emit(
        Expression::As {
            expr: q,
            kind: ScalarKind::Sint,
            convert: Some(4),
            precise: true,
        },
        i32_ty,
    );
    let s = f.emit(
        Expression::Unary {
            op: UnaryOperator::Negate,
            expr: r,
            precise: false,
        },
        f32_ty,
    );
    let nf = f.emit(
        Expression::As {
            expr: n,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let out = f.emit(
        Expression::Compose {
            ty: vec4,
            components: vec![p, q, s, nf],
        },
        vec4,
    );
    f.store(go, out);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        let mut decorated: Vec<Op> = w
            .decorated(Decoration::NoContraction)
            .into_iter()
            .map(|id| w.def(id).class.opcode)
            .collect();
        decorated.sort_by_key(|op| *op as u32);
        let mut expected = vec![Op::FMul, Op::FAdd, Op::ExtInst, Op::ConvertFToS];
        expected.sort_by_key(|op| *op as u32);
        assert_eq!(decorated, expected);
        // The precise multiply is the one feeding the precise add.
        let fadd = &w.all(Op::FAdd)[0];
        let first = fadd.operands[0].unwrap_id_ref();
        assert!(w.decorated(Decoration::NoContraction).contains(&first));
        // The other multiply, the subtract, negate and int→float are not.
        let fmuls = w.all(Op::FMul);
        assert_eq!(fmuls.len(), 2);
        let undecorated: Vec<u32> = fmuls
            .iter()
            .map(|m| m.result_id.unwrap())
            .filter(|id| !w.decorated(Decoration::NoContraction).contains(id))
            .collect();
        assert_eq!(undecorated.len(), 1);
        for op in [Op::FSub, Op::FNegate, Op::ConvertSToF] {
            let id = w.all(op)[0].result_id.unwrap();
            assert!(
                !w.decorated(Decoration::NoContraction).contains(&id),
                "{op:?}"
            );
        }
    }
}

/// Many expression kinds in one compute shader, valid on every target.
#[test]
fn expression_zoo_is_valid_everywhere() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let i32_ty = mb.i32();
    let bool_ty = mb.bool();
    let vec3 = mb.vec(3, Scalar::F32);
    let vec4 = mb.vec(4, Scalar::F32);
    let uvec2 = mb.vec(2, Scalar::U32);
    let bvec3 = mb.vec(3, Scalar::BOOL);
    let arr_ty = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(3),
        stride: None,
    });
    let block = mb.structured_buffer("type.RWStructuredBuffer.float4", vec4, 16);
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("buf", storage, block, 0, 0);
    let block_ptr = mb.ptr(block, storage);
    let rt_arr = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let rt_ptr = mb.ptr(rt_arr, storage);
    let elem_ptr = mb.ptr(vec4, storage);
    let mut f = FunctionBuilder::new("main");
    let g = f.global(buf, block_ptr);
    let rt = f.index(g, 0, rt_ptr);
    let e0 = f.index(rt, 0, elem_ptr);
    let v = f.load(e0, vec4);
    let x = f.index(v, 0, f32_ty);
    let xyz = f.emit(
        Expression::Swizzle {
            size: 3,
            vector: v,
            pattern: [
                ir::SwizzleComponent::Z,
                ir::SwizzleComponent::Y,
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::X,
            ],
        },
        vec3,
    );
    let math = |f: &mut FunctionBuilder, fun, args: Vec<Handle<Expression>>, ty| {
        f.emit(
            Expression::Math {
                fun,
                args,
                precise: false,
            },
            ty,
        )
    };
    let n = math(&mut f, M::Normalize, vec![xyz], vec3);
    let len = math(&mut f, M::Length, vec![n], f32_ty);
    let d = math(&mut f, M::Dot, vec![n, xyz], f32_ty);
    let sat = math(&mut f, M::Saturate, vec![xyz], vec3);
    let cl = math(&mut f, M::Clamp, vec![x, d, len], f32_ty);
    let mn = math(&mut f, M::Min, vec![sat, n], vec3);
    let lerp = math(&mut f, M::Mix, vec![mn, n, x], vec3);
    let rcp = math(&mut f, M::Reciprocal, vec![cl], f32_ty);
    let sign = math(&mut f, M::Sign, vec![rcp], i32_ty);
    let ui = f.emit(
        Expression::As {
            expr: sign,
            kind: ScalarKind::Uint,
            convert: None,
            precise: false,
        },
        u32_ty,
    );
    let bits = math(&mut f, M::CountOneBits, vec![ui], u32_ty);
    let high = math(&mut f, M::FirstLeadingBit, vec![sign], i32_ty);
    let half = math(&mut f, M::PackHalf, vec![x], u32_ty);
    let back = math(&mut f, M::UnpackHalf, vec![half], f32_ty);
    let shift = f.binary(B::ShiftRight, high, sign, i32_ty);
    let sh = f.emit(
        Expression::As {
            expr: shift,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let bits_f = f.emit(
        Expression::As {
            expr: bits,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let gt = f.binary(B::Greater, lerp, n, bvec3);
    let any = f.emit(
        Expression::Relational {
            fun: ir::RelationalFunction::Any,
            argument: gt,
        },
        bool_ty,
    );
    let nan = f.emit(
        Expression::Relational {
            fun: ir::RelationalFunction::IsNan,
            argument: x,
        },
        bool_ty,
    );
    let either = f.binary(B::LogicalOr, any, nan, bool_ty);
    let as_f = f.emit(
        Expression::As {
            expr: either,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let picked = f.emit(
        Expression::Select {
            condition: gt,
            accept: lerp,
            reject: n,
        },
        vec3,
    );
    // A dynamic index into an array value.
    let arr = f.emit(
        Expression::Compose {
            ty: arr_ty,
            components: vec![back, sh, bits_f],
        },
        arr_ty,
    );
    let idx = f.index(picked, 1, f32_ty);
    let i = f.emit(
        Expression::As {
            expr: idx,
            kind: ScalarKind::Uint,
            convert: Some(4),
            precise: false,
        },
        u32_ty,
    );
    let elem = f.access(arr, i, f32_ty);
    let dyn_comp = f.access(xyz, i, f32_ty);
    let pair = f.emit(Expression::Splat { size: 2, value: i }, uvec2);
    let pair_sum = f.binary(B::Add, pair, i, uvec2);
    let p0 = f.index(pair_sum, 0, u32_ty);
    let p0f = f.emit(
        Expression::As {
            expr: p0,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let s1 = f.binary(B::Add, elem, dyn_comp, f32_ty);
    let s2 = f.binary(B::Add, s1, as_f, f32_ty);
    let s3 = f.binary(B::Modulo, s2, p0f, f32_ty);
    let out = f.emit(
        Expression::Compose {
            ty: vec4,
            components: vec![picked, s3],
        },
        vec4,
    );
    let e1 = f.index(rt, 1, elem_ptr);
    f.store(e1, out);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [8, 8, 1]);

    let mut previous: Option<Vec<u32>> = None;
    for env in [
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_1Spirv1_4,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
    ] {
        let w = write_valid(&mb.m, env);
        assert_eq!(w.count(Op::ExtInstImport), 1);
        assert_eq!(w.count(Op::Dot), 1);
        assert_eq!(w.count(Op::VectorExtractDynamic), 1);
        // The shift amount is masked to 31; HLSL `%` on floats is OpFRem.
        assert_eq!(w.count(Op::BitwiseAnd), 1);
        assert_eq!(w.count(Op::ShiftRightArithmetic), 1);
        assert_eq!(w.count(Op::FRem), 1);
        assert_eq!(w.count(Op::Any), 1);
        assert_eq!(w.count(Op::IsNan), 1);
        assert_eq!(w.count(Op::BitCount), 1);
        assert_eq!(w.count(Op::VectorShuffle), 1);
        assert_ne!(previous.as_ref(), Some(&w.words), "envs differ");
        previous = Some(w.words);
    }
}

/// Writing is linear: a long chain of arithmetic writes, and twice the
/// chain gives about twice the words. No time is asserted (a timed test
/// fails under load; speed is measured by `benches/`): the two times are
/// printed for a reader of `--nocapture`.
#[test]
fn long_functions_write_in_linear_time() {
    let build = |n: usize| {
        let mut mb = ModuleBuilder::new();
        let f32_ty = mb.f32();
        let vec4 = mb.vec(4, Scalar::F32);
        let target = mb.location("out", AddressSpace::Output, vec4, 0);
        let out_ptr = mb.ptr(vec4, AddressSpace::Output);
        let mut f = FunctionBuilder::new("main");
        let go = f.global(target, out_ptr);
        let mut acc = f.lit(lit_f32(1.0), f32_ty);
        for i in 0..n {
            let c = f.lit(lit_f32(i as f32), f32_ty);
            acc = f.binary(
                if i % 2 == 0 { B::Add } else { B::Multiply },
                acc,
                c,
                f32_ty,
            );
        }
        let v = f.emit(
            Expression::Splat {
                size: 4,
                value: acc,
            },
            vec4,
        );
        f.store(go, v);
        let main = mb.add_function(f);
        mb.entry("main", Stage::Pixel, main, [0; 3]);
        mb.m
    };
    let time = |m: &ir::Module| {
        let start = std::time::Instant::now();
        let words = spv::write(m, &options(TargetEnv::Vulkan1_0)).expect("writes");
        (start.elapsed(), words.len())
    };
    let small = build(20_000);
    let large = build(40_000);
    let _ = time(&small);
    let (t1, n1) = time(&small);
    let (t2, n2) = time(&large);
    assert!(
        n2 > n1 * 19 / 10 && n2 < n1 * 21 / 10,
        "{n1} and {n2} words"
    );
    eprintln!("20k ops: {t1:?}, 40k ops: {t2:?}");
}
