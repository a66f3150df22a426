//! Less common shapes and operations: derivatives, integer and degenerate
//! matrices, buffer lengths and counters, float atomics, selects of
//! matrices and structs, integer width conversions, hull shaders.

use super::*;
use crate::ir::{
    AtomicFunction, BinaryOperator as B, DerivativeAxis, DerivativeControl, MathFunction as M,
    ScalarKind, UnaryOperator,
};
use crate::options::Stage;
use spirv::{Capability, ExecutionMode};

/// A pixel shader with `ddx`, `ddy_coarse` and `fwidth_fine` of an input.
#[test]
fn derivatives() {
    let mut mb = ModuleBuilder::new();
    let vec4 = mb.vec(4, Scalar::F32);
    let input = mb.location("in", AddressSpace::Input, vec4, 0);
    let target = mb.location("out", AddressSpace::Output, vec4, 0);
    let in_ptr = mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gi = f.global(input, in_ptr);
    let go = f.global(target, out_ptr);
    let v = f.load(gi, vec4);
    let mut acc = v;
    for (axis, control) in [
        (DerivativeAxis::X, DerivativeControl::None),
        (DerivativeAxis::Y, DerivativeControl::Coarse),
        (DerivativeAxis::Width, DerivativeControl::Fine),
    ] {
        let d = f.emit(
            Expression::Derivative {
                axis,
                control,
                expr: v,
            },
            vec4,
        );
        acc = f.binary(B::Add, acc, d, vec4);
    }
    f.store(go, acc);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        assert_eq!(w.count(Op::DPdx), 1);
        assert_eq!(w.count(Op::DPdyCoarse), 1);
        assert_eq!(w.count(Op::FwidthFine), 1);
        assert!(w.has_capability(Capability::DerivativeControl));
    }
}

/// `int2x3` values: rows composed, transposed, negated, added, indexed
/// dynamically; and degenerate `float1x3`/`float3x1` matrices, which are
/// vectors.
#[test]
fn integer_and_degenerate_matrices() {
    let mut mb = ModuleBuilder::new();
    let i32_ty = mb.i32();
    let u32_ty = mb.u32();
    let f32_ty = mb.f32();
    let ivec2 = mb.vec(2, Scalar::I32);
    let ivec3 = mb.vec(3, Scalar::I32);
    let vec3 = mb.vec(3, Scalar::F32);
    let vec4 = mb.vec(4, Scalar::F32);
    let imat23 = mb.ty(TypeInner::Matrix {
        rows: 2,
        columns: 3,
        scalar: Scalar::I32,
    });
    let imat32 = mb.ty(TypeInner::Matrix {
        rows: 3,
        columns: 2,
        scalar: Scalar::I32,
    });
    let m13 = mb.mat(1, 3);
    let m31 = mb.mat(3, 1);
    let m33 = mb.mat(3, 3);
    let m31_ptr = mb.ptr(m31, AddressSpace::Function);
    let f_ptr = mb.ptr(f32_ty, AddressSpace::Function);
    let input = mb.location("in", AddressSpace::Input, vec4, 0);
    let target = mb.location("out", AddressSpace::Output, vec4, 0);
    let in_ptr = mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);

    let mut f = FunctionBuilder::new("main");
    let gi = f.global(input, in_ptr);
    let go = f.global(target, out_ptr);
    let v = f.load(gi, vec4);
    let x = f.index(v, 0, f32_ty);
    let y = f.index(v, 1, f32_ty);
    let xi = f.emit(
        Expression::As {
            expr: x,
            kind: ScalarKind::Sint,
            convert: Some(4),
            precise: false,
        },
        i32_ty,
    );
    let one = f.lit(Literal::I32(1), i32_ty);
    let r0 = f.emit(
        Expression::Compose {
            ty: ivec3,
            components: vec![xi, one, one],
        },
        ivec3,
    );
    let r1 = f.emit(Expression::Splat { size: 3, value: xi }, ivec3);
    let im = f.emit(
        Expression::Compose {
            ty: imat23,
            components: vec![r0, r1],
        },
        imat23,
    );
    let neg = f.emit(
        Expression::Unary {
            op: UnaryOperator::Negate,
            expr: im,
            precise: false,
        },
        imat23,
    );
    let sum = f.binary(B::Add, im, neg, imat23);
    let t = f.emit(
        Expression::Math {
            fun: M::Transpose,
            args: vec![sum],
            precise: false,
        },
        imat32,
    );
    let row_index = f.emit(
        Expression::As {
            expr: xi,
            kind: ScalarKind::Uint,
            convert: None,
            precise: false,
        },
        u32_ty,
    );
    let row = f.access(t, row_index, ivec2);
    let e = f.index(row, 1, i32_ty);
    let ef = f.emit(
        Expression::As {
            expr: e,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    // float1x3 from one row; float3x1 from three scalars.
    let row13 = f.emit(
        Expression::Swizzle {
            size: 3,
            vector: v,
            pattern: [
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::Y,
                ir::SwizzleComponent::Z,
                ir::SwizzleComponent::X,
            ],
        },
        vec3,
    );
    let a = f.emit(
        Expression::Compose {
            ty: m13,
            components: vec![row13],
        },
        m13,
    );
    let b = f.emit(
        Expression::Compose {
            ty: m31,
            components: vec![x, y, ef],
        },
        m31,
    );
    let dot = f.binary(B::MatMul, a, b, f32_ty);
    let outer = f.binary(B::MatMul, b, a, m33);
    let a_row = f.index(a, 0, vec3);
    let local = f.local("b", m31, m31_ptr);
    f.store(local, b);
    let elem_p = f.access(local, row_index, f_ptr);
    let elem = f.load(elem_p, f32_ty);
    let orow = f.index(outer, 2, vec3);
    let s = f.binary(B::Add, orow, a_row, vec3);
    let s2 = f.binary(B::Multiply, s, dot, vec3);
    let out = f.emit(
        Expression::Compose {
            ty: vec4,
            components: vec![s2, elem],
        },
        vec4,
    );
    f.store(go, out);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        // Integer matrices are arrays: no OpTypeMatrix of ints, per-row
        // SNegate and IAdd.
        assert_eq!(w.count(Op::SNegate), 2);
        assert_eq!(w.count(Op::IAdd), 2);
        assert_eq!(w.count(Op::Transpose), 0);
        // 1x3 · 3x1 is a dot product, 3x1 · 1x3 an outer product.
        assert_eq!(w.count(Op::Dot), 1);
        assert_eq!(w.count(Op::OuterProduct), 1);
        let matrices = w.all(Op::TypeMatrix);
        assert_eq!(matrices.len(), 1, "only the 3x3 float matrix");
    }
}

/// `RWStructuredBuffer<float>` with a counter: `IncrementCounter`,
/// `DecrementCounter`, `GetDimensions` (OpArrayLength), and a float
/// `InterlockedAdd`.
#[test]
fn buffer_length_counters_and_float_atomics() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let i32_ty = mb.i32();
    let u32_ty = mb.u32();
    let block = mb.structured_buffer("type.RWStructuredBuffer.float", f32_ty, 4);
    let counter_ty = mb.named(
        "type.ACSBuffer.counter",
        TypeInner::Struct {
            members: vec![member(None, i32_ty, Some(0))],
            size: 4,
        },
    );
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("buf", storage, block, 0, 0);
    let counter = mb.resource("counter.var.buf", storage, counter_ty, 0, 1);
    mb.m.globals[buf].counter = Some(counter);
    let block_ptr = mb.ptr(block, storage);
    let counter_ptr = mb.ptr(counter_ty, storage);
    let int_ptr = mb.ptr(i32_ty, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let elem_ptr = mb.ptr(f32_ty, storage);
    let mut f = FunctionBuilder::new("main");
    let gb = f.global(buf, block_ptr);
    let gc = f.global(counter, counter_ptr);
    let cp = f.index(gc, 0, int_ptr);
    let inc = f.add(Expression::AtomicResult, i32_ty);
    let one = f.lit(Literal::I32(1), i32_ty);
    f.stmt(Statement::Atomic {
        pointer: cp,
        fun: AtomicFunction::Add,
        value: Some(one),
        compare: None,
        result: Some(inc),
    });
    f.stmt(Statement::Atomic {
        pointer: cp,
        fun: AtomicFunction::Subtract,
        value: Some(one),
        compare: None,
        result: None,
    });
    let len = f.emit(
        Expression::ArrayLength {
            pointer: gb,
            member: 0,
        },
        u32_ty,
    );
    let lenf = f.emit(
        Expression::As {
            expr: len,
            kind: ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let arr = f.index(gb, 0, arr_ptr);
    let e = f.access(arr, inc, elem_ptr);
    f.stmt(Statement::Atomic {
        pointer: e,
        fun: AtomicFunction::Add,
        value: Some(lenf),
        compare: None,
        result: None,
    });
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [1, 1, 1]);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        assert_eq!(w.count(Op::AtomicIAdd), 1);
        assert_eq!(w.count(Op::AtomicISub), 1);
        assert_eq!(w.count(Op::ArrayLength), 1);
        assert_eq!(w.count(Op::AtomicFAddEXT), 1);
        assert!(w.has_capability(Capability::AtomicFloat32AddEXT));
        w.assert_text("SPV_EXT_shader_atomic_float_add");
    }
}

/// `cond ? m1 : m2` on float2x2, and on a struct (SPIR-V 1.4+ only).
#[test]
fn selects_of_matrices_and_structs() {
    let build = |with_struct: bool| {
        let mut mb = ModuleBuilder::new();
        let f32_ty = mb.f32();
        let bool_ty = mb.bool();
        let vec2 = mb.vec(2, Scalar::F32);
        let vec4 = mb.vec(4, Scalar::F32);
        let m22 = mb.mat(2, 2);
        let pair = mb.named(
            "Pair",
            TypeInner::Struct {
                members: vec![
                    member(Some("a"), f32_ty, None),
                    member(Some("b"), vec2, None),
                ],
                size: 0,
            },
        );
        let input = mb.location("in", AddressSpace::Input, vec4, 0);
        let target = mb.location("out", AddressSpace::Output, vec4, 0);
        let in_ptr = mb.ptr(vec4, AddressSpace::Input);
        let out_ptr = mb.ptr(vec4, AddressSpace::Output);
        let mut f = FunctionBuilder::new("main");
        let gi = f.global(input, in_ptr);
        let go = f.global(target, out_ptr);
        let v = f.load(gi, vec4);
        let x = f.index(v, 0, f32_ty);
        let zero = f.lit(lit_f32(0.0), f32_ty);
        let cond = f.binary(B::Greater, x, zero, bool_ty);
        let r = f.emit(
            Expression::Swizzle {
                size: 2,
                vector: v,
                pattern: [
                    ir::SwizzleComponent::X,
                    ir::SwizzleComponent::W,
                    ir::SwizzleComponent::X,
                    ir::SwizzleComponent::X,
                ],
            },
            vec2,
        );
        let m1 = f.emit(
            Expression::Compose {
                ty: m22,
                components: vec![r, r],
            },
            m22,
        );
        let m2 = f.emit(Expression::ZeroValue(m22), m22);
        let m = f.emit(
            Expression::Select {
                condition: cond,
                accept: m1,
                reject: m2,
            },
            m22,
        );
        let mut row = f.index(m, 1, vec2);
        if with_struct {
            let s1 = f.emit(
                Expression::Compose {
                    ty: pair,
                    components: vec![x, r],
                },
                pair,
            );
            let s2 = f.emit(Expression::ZeroValue(pair), pair);
            let s = f.emit(
                Expression::Select {
                    condition: cond,
                    accept: s1,
                    reject: s2,
                },
                pair,
            );
            let b = f.index(s, 1, vec2);
            row = f.binary(B::Add, row, b, vec2);
        }
        let out = f.emit(
            Expression::Compose {
                ty: vec4,
                components: vec![row, r],
            },
            vec4,
        );
        f.store(go, out);
        let main = mb.add_function(f);
        mb.entry("main", Stage::Pixel, main, [0; 3]);
        mb.m
    };
    let m = build(false);
    let w = write_valid(&m, TargetEnv::Vulkan1_0);
    assert_eq!(w.count(Op::Select), 2, "one per column");
    let w = write_valid(&m, TargetEnv::Vulkan1_2);
    assert_eq!(w.count(Op::Select), 2);
    let m = build(true);
    let w = write_valid(&m, TargetEnv::Vulkan1_2);
    assert_eq!(w.count(Op::Select), 3);
    let err = spv::write(&m, &options(TargetEnv::Vulkan1_0)).expect_err("no struct select");
    assert_eq!(err.code, crate::diag::codes::UNSUPPORTED);
}

/// `min16int`-style conversions between integer widths and signedness.
#[test]
fn integer_width_conversions() {
    let mut mb = ModuleBuilder::new();
    let i16_ty = mb.scalar(Scalar::I16);
    let u16_ty = mb.scalar(Scalar::U16);
    let u32_ty = mb.u32();
    let i32_ty = mb.i32();
    let block = mb.structured_buffer("type.RWStructuredBuffer.uint", u32_ty, 4);
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("buf", storage, block, 0, 0);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let elem_ptr = mb.ptr(u32_ty, storage);
    let mut f = FunctionBuilder::new("main");
    let gb = f.global(buf, block_ptr);
    let arr = f.index(gb, 0, arr_ptr);
    let e0 = f.index(arr, 0, elem_ptr);
    let v = f.load(e0, u32_ty);
    let conv = |f: &mut FunctionBuilder, expr, kind, width, ty| {
        f.emit(
            Expression::As {
                expr,
                kind,
                convert: Some(width),
                precise: false,
            },
            ty,
        )
    };
    let narrow = conv(&mut f, v, ScalarKind::Sint, 2, i16_ty); // u32 → i16
    let un = conv(&mut f, narrow, ScalarKind::Uint, 2, u16_ty); // i16 → u16
    let wide = conv(&mut f, narrow, ScalarKind::Uint, 4, u32_ty); // i16 → u32 (sign-extends)
    let wide2 = conv(&mut f, un, ScalarKind::Sint, 4, i32_ty); // u16 → i32 (zero-extends)
    let back = conv(&mut f, wide2, ScalarKind::Uint, 4, u32_ty);
    let s = f.binary(B::Add, wide, back, u32_ty);
    let e1 = f.index(arr, 1, elem_ptr);
    f.store(e1, s);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [1, 1, 1]);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        assert!(w.has_capability(Capability::Int16));
        // u32→i16: UConvert to u16 then bitcast; i16→u16: bitcast;
        // i16→u32: SConvert then bitcast; u16→i32: UConvert then bitcast;
        // i32→u32: bitcast.
        assert_eq!(w.count(Op::UConvert), 2);
        assert_eq!(w.count(Op::SConvert), 1);
        assert_eq!(w.count(Op::Bitcast), 5);
    }
}

/// A triangle hull shader: per-vertex Position output array, tessellation
/// levels as patch outputs.
#[test]
fn hull_shader() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let i32_ty = mb.i32();
    let vec4 = mb.vec(4, Scalar::F32);
    let arr3 = mb.ty(TypeInner::Array {
        base: vec4,
        size: ir::ArraySize::Constant(3),
        stride: None,
    });
    let outer_ty = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(4),
        stride: None,
    });
    let inner_ty = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(2),
        stride: None,
    });
    let pos_in = mb.builtin("gl_in", AddressSpace::Input, arr3, spirv::BuiltIn::Position);
    let pos_out = mb.builtin(
        "gl_out",
        AddressSpace::Output,
        arr3,
        spirv::BuiltIn::Position,
    );
    let id = mb.builtin(
        "gl_InvocationID",
        AddressSpace::Input,
        i32_ty,
        spirv::BuiltIn::InvocationId,
    );
    let outer = mb.builtin(
        "gl_TessLevelOuter",
        AddressSpace::Output,
        outer_ty,
        spirv::BuiltIn::TessLevelOuter,
    );
    let inner = mb.builtin(
        "gl_TessLevelInner",
        AddressSpace::Output,
        inner_ty,
        spirv::BuiltIn::TessLevelInner,
    );
    let arr_in_ptr = mb.ptr(arr3, AddressSpace::Input);
    let arr_out_ptr = mb.ptr(arr3, AddressSpace::Output);
    let v_in = mb.ptr(vec4, AddressSpace::Input);
    let v_out = mb.ptr(vec4, AddressSpace::Output);
    let id_ptr = mb.ptr(i32_ty, AddressSpace::Input);
    let outer_ptr = mb.ptr(outer_ty, AddressSpace::Output);
    let inner_ptr = mb.ptr(inner_ty, AddressSpace::Output);
    let f_out = mb.ptr(f32_ty, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gin = f.global(pos_in, arr_in_ptr);
    let gout = f.global(pos_out, arr_out_ptr);
    let gid = f.global(id, id_ptr);
    let gouter = f.global(outer, outer_ptr);
    let ginner = f.global(inner, inner_ptr);
    let i = f.load(gid, i32_ty);
    let src = f.access(gin, i, v_in);
    let v = f.load(src, vec4);
    let dst = f.access(gout, i, v_out);
    f.store(dst, v);
    let zero = f.lit(Literal::I32(0), i32_ty);
    let first = f.binary(B::Equal, i, zero, mb.m.scalar_type(Scalar::BOOL));
    let four = f.lit(lit_f32(4.0), f32_ty);
    f.open();
    for k in 0..3u32 {
        let p = f.index(gouter, k, f_out);
        f.store(p, four);
    }
    let p = f.index(ginner, 0, f_out);
    f.store(p, four);
    let accept = f.close();
    f.stmt(Statement::If {
        condition: first,
        accept,
        reject: vec![],
        control: ir::SelectionControl::None,
    });
    let _ = u32_ty;
    let main = mb.add_function(f);
    mb.entry("main", Stage::Hull, main, [0; 3]);
    mb.m.entry_points[0].execution_modes = vec![
        (ExecutionMode::Triangles, vec![]),
        (ExecutionMode::SpacingFractionalOdd, vec![]),
        (ExecutionMode::VertexOrderCcw, vec![]),
        (ExecutionMode::OutputVertices, vec![3]),
    ];
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        assert!(w.has_capability(Capability::Tessellation));
        w.assert_text("OpEntryPoint TessellationControl");
        w.assert_text("BuiltIn TessLevelOuter");
    }
    // -fvk-invert-y leaves the per-control-point positions alone.
    let opts = spv::Options {
        invert_y: true,
        ..options(TargetEnv::Vulkan1_0)
    };
    let w = write_valid_with(&mb.m, &opts, &[]);
    assert_eq!(w.count(Op::FNegate), 0);
}
