//! Stages and interfaces: geometry and domain shaders, execution modes and
//! their capabilities, fragment built-ins and interpolation, push
//! constants, 16- and 64-bit types, names and entry-point options.

use super::*;
use crate::ir::{BinaryOperator as B, Interpolation, Sampling};
use crate::options::Stage;
use spirv::{Capability, Decoration, ExecutionMode};

/// A triangle-in, triangle-strip-out geometry shader that re-emits its
/// input positions.
#[test]
fn geometry_shader_emits_vertices() {
    let mut mb = ModuleBuilder::new();
    let vec4 = mb.vec(4, Scalar::F32);
    let u32_ty = mb.u32();
    let tri = mb.ty(TypeInner::Array {
        base: vec4,
        size: ir::ArraySize::Constant(3),
        stride: None,
    });
    let pos_in = mb.builtin("gl_in", AddressSpace::Input, tri, spirv::BuiltIn::Position);
    let pos_out = mb.builtin(
        "gl_Position",
        AddressSpace::Output,
        vec4,
        spirv::BuiltIn::Position,
    );
    let tri_ptr = mb.ptr(tri, AddressSpace::Input);
    let v_in_ptr = mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gin = f.global(pos_in, tri_ptr);
    let gout = f.global(pos_out, out_ptr);
    for i in 0..3 {
        let idx = f.lit(Literal::U32(i), u32_ty);
        let p = f.access(gin, idx, v_in_ptr);
        let v = f.load(p, vec4);
        f.store(gout, v);
        f.stmt(Statement::EmitVertex { stream: None });
    }
    f.stmt(Statement::EndPrimitive { stream: None });
    let main = mb.add_function(f);
    mb.entry("main", Stage::Geometry, main, [0; 3]);
    mb.m.entry_points[0].execution_modes = vec![
        (ExecutionMode::Invocations, vec![1]),
        (ExecutionMode::Triangles, vec![]),
        (ExecutionMode::OutputTriangleStrip, vec![]),
        (ExecutionMode::OutputVertices, vec![3]),
    ];
    let opts = spv::Options {
        invert_y: true,
        ..options(TargetEnv::Vulkan1_0)
    };
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid_with(
            &mb.m,
            &spv::Options {
                target_env: env,
                ..opts.clone()
            },
            &[],
        );
        assert!(w.has_capability(Capability::Geometry));
        assert_eq!(w.count(Op::EmitVertex), 3);
        assert_eq!(w.count(Op::EndPrimitive), 1);
        assert_eq!(w.count(Op::ExecutionMode), 4);
        w.assert_text("OpEntryPoint Geometry");
        w.assert_text("OutputVertices 3");
        // -fvk-invert-y applies to the geometry stage's Position output.
        assert_eq!(w.count(Op::FNegate), 3);
    }
}

/// A domain shader reading TessCoord and writing Position.
#[test]
fn domain_shader() {
    let mut mb = ModuleBuilder::new();
    let vec3 = mb.vec(3, Scalar::F32);
    let vec4 = mb.vec(4, Scalar::F32);
    let f32_ty = mb.f32();
    let coord = mb.builtin(
        "gl_TessCoord",
        AddressSpace::Input,
        vec3,
        spirv::BuiltIn::TessCoord,
    );
    let pos = mb.builtin(
        "gl_Position",
        AddressSpace::Output,
        vec4,
        spirv::BuiltIn::Position,
    );
    let patch_in = mb.location("in.var.PATCH", AddressSpace::Input, vec4, 0);
    if let Some(ir::Binding::Location { patch, .. }) = &mut mb.m.globals[patch_in].io {
        *patch = true;
    }
    let in_ptr = mb.ptr(vec3, AddressSpace::Input);
    let patch_ptr = mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gc = f.global(coord, in_ptr);
    let gp = f.global(pos, out_ptr);
    let gpatch = f.global(patch_in, patch_ptr);
    let c = f.load(gc, vec3);
    let one = f.lit(lit_f32(1.0), f32_ty);
    let v = f.emit(
        Expression::Compose {
            ty: vec4,
            components: vec![c, one],
        },
        vec4,
    );
    let pv = f.load(gpatch, vec4);
    let r = f.binary(B::Add, v, pv, vec4);
    f.store(gp, r);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Domain, main, [0; 3]);
    mb.m.entry_points[0].execution_modes = vec![
        (ExecutionMode::Triangles, vec![]),
        (ExecutionMode::SpacingEqual, vec![]),
        (ExecutionMode::VertexOrderCw, vec![]),
    ];
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        assert!(w.has_capability(Capability::Tessellation));
        w.assert_text("OpEntryPoint TessellationEvaluation");
        assert_eq!(w.decorated(Decoration::Patch).len(), 1);
    }
}

/// A pixel shader writing depth and reading SampleId, with every
/// interpolation decoration, dual-source output and float controls.
#[test]
fn fragment_interface_and_execution_modes() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let vec4 = mb.vec(4, Scalar::F32);
    let u32_ty = mb.u32();
    let depth = mb.builtin(
        "gl_FragDepth",
        AddressSpace::Output,
        f32_ty,
        spirv::BuiltIn::FragDepth,
    );
    let sample = mb.builtin(
        "gl_SampleID",
        AddressSpace::Input,
        u32_ty,
        spirv::BuiltIn::SampleId,
    );
    let mut inputs = Vec::new();
    for (i, (interp, sampling)) in [
        (Some(Interpolation::Flat), None),
        (Some(Interpolation::NoPerspective), Some(Sampling::Centroid)),
        (None, Some(Sampling::Sample)),
        (Some(Interpolation::Perspective), None),
    ]
    .into_iter()
    .enumerate()
    {
        let g = mb.location(&format!("in{i}"), AddressSpace::Input, f32_ty, i as u32);
        mb.m.globals[g].io = Some(ir::Binding::Location {
            location: i as u32,
            index: None,
            interpolation: interp,
            sampling,
            patch: false,
        });
        inputs.push(g);
    }
    let color0 = mb.location("out0", AddressSpace::Output, vec4, 0);
    let color1 = mb.location("out1", AddressSpace::Output, vec4, 0);
    mb.m.globals[color1].io = Some(ir::Binding::Location {
        location: 0,
        index: Some(1),
        interpolation: None,
        sampling: None,
        patch: false,
    });
    let f_in = mb.ptr(f32_ty, AddressSpace::Input);
    let u_in = mb.ptr(u32_ty, AddressSpace::Input);
    let f_out = mb.ptr(f32_ty, AddressSpace::Output);
    let v_out = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gs = f.global(sample, u_in);
    let s = f.load(gs, u32_ty);
    let mut acc = f.emit(
        Expression::As {
            expr: s,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    for g in inputs {
        let p = f.global(g, f_in);
        let v = f.load(p, f32_ty);
        acc = f.binary(B::Add, acc, v, f32_ty);
    }
    let gd = f.global(depth, f_out);
    f.store(gd, acc);
    let splat = f.emit(
        Expression::Splat {
            size: 4,
            value: acc,
        },
        vec4,
    );
    for c in [color0, color1] {
        let p = f.global(c, v_out);
        f.store(p, splat);
    }
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    mb.m.entry_points[0].execution_modes = vec![
        (ExecutionMode::EarlyFragmentTests, vec![]),
        (ExecutionMode::DenormPreserve, vec![32]),
        (ExecutionMode::SignedZeroInfNanPreserve, vec![32]),
    ];

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        w.assert_text("DepthReplacing");
        w.assert_text("OriginUpperLeft");
        w.assert_text("DenormPreserve 32");
        assert!(w.has_capability(Capability::SampleRateShading));
        assert!(w.has_capability(Capability::DenormPreserve));
        assert!(w.has_capability(Capability::SignedZeroInfNanPreserve));
        // SPV_KHR_float_controls is core from SPIR-V 1.4.
        assert_eq!(
            w.text.contains("SPV_KHR_float_controls"),
            env == TargetEnv::Vulkan1_0
        );
        // The flat input, and SampleId: integer fragment inputs, built-ins
        // included, are Flat (VUID-StandaloneSpirv-Flat-04744).
        assert_eq!(w.decorated(Decoration::Flat).len(), 2);
        assert_eq!(w.decorated(Decoration::NoPerspective).len(), 1);
        assert_eq!(w.decorated(Decoration::Centroid).len(), 1);
        assert_eq!(w.decorated(Decoration::Sample).len(), 1);
        w.assert_text("Index 1");
    }
}

/// `[[vk::push_constant]]` with a half and a 64-bit int member in a
/// structured buffer.
#[test]
fn push_constants_and_wide_and_narrow_types() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let f16_ty = mb.scalar(Scalar::F16);
    let u64_ty = mb.scalar(Scalar::U64);
    let pc_ty = mb.named(
        "type.PushConstant.Params",
        TypeInner::Struct {
            members: vec![
                member(Some("scale"), f32_ty, Some(0)),
                member(Some("bias"), f16_ty, Some(4)),
            ],
            size: 8,
        },
    );
    let pc = mb.global("params", AddressSpace::PushConstant, pc_ty);
    let block = mb.structured_buffer("type.RWStructuredBuffer.ulong", u64_ty, 8);
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("big", storage, block, 0, 0);
    let pc_ptr = mb.ptr(pc_ty, AddressSpace::PushConstant);
    let f_ptr = mb.ptr(f32_ty, AddressSpace::PushConstant);
    let h_ptr = mb.ptr(f16_ty, AddressSpace::PushConstant);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let e_ptr = mb.ptr(u64_ty, storage);
    let mut f = FunctionBuilder::new("main");
    let g = f.global(pc, pc_ptr);
    let gb = f.global(buf, block_ptr);
    let sp = f.index(g, 0, f_ptr);
    let s = f.load(sp, f32_ty);
    let hp = f.index(g, 1, h_ptr);
    let h = f.load(hp, f16_ty);
    let hf = f.emit(
        Expression::As {
            expr: h,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let sum = f.binary(B::Add, s, hf, f32_ty);
    let wide = f.emit(
        Expression::As {
            expr: sum,
            kind: ir::ScalarKind::Uint,
            convert: Some(8),
            precise: false,
        },
        u64_ty,
    );
    let arr = f.index(gb, 0, arr_ptr);
    let e = f.index(arr, 0, e_ptr);
    f.store(e, wide);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [1, 1, 1]);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        assert_eq!(
            w.decorated(Decoration::Block).len(),
            if env == TargetEnv::Vulkan1_0 { 1 } else { 2 }
        );
        w.assert_text("OpTypePointer PushConstant");
        for cap in [
            Capability::Float16,
            Capability::Int64,
            Capability::StoragePushConstant16,
        ] {
            assert!(w.has_capability(cap), "{cap:?}");
        }
        assert_eq!(
            w.text.contains("SPV_KHR_16bit_storage"),
            env == TargetEnv::Vulkan1_0,
            "core from SPIR-V 1.3"
        );
        assert_eq!(w.count(Op::FConvert), 1);
        assert_eq!(w.count(Op::ConvertFToU), 1);
    }
}

#[test]
fn names_and_entry_point_options() {
    let m = super::control_flow::simple_kernel();
    let quiet = spv::Options {
        debug_names: false,
        ..options(TargetEnv::Vulkan1_0)
    };
    let w = write_valid_with(&m, &quiet, &[]);
    assert_eq!(w.count(Op::Name) + w.count(Op::MemberName), 0);
    let renamed = spv::Options {
        entry_point_name: Some("CSMain".into()),
        ..options(TargetEnv::Vulkan1_0)
    };
    let w = write_valid_with(&m, &renamed, &[]);
    w.assert_text("\"CSMain\"");
    assert!(!w.text.contains("OpEntryPoint GLCompute %1 \"main\""));

    let mut two = m.clone();
    let ep = two.entry_points[0].clone();
    two.entry_points.push(ir::EntryPoint {
        name: "second".into(),
        ..ep
    });
    let err = spv::write(&two, &renamed).expect_err("two entry points");
    assert_eq!(err.code, crate::diag::codes::BAD_OPTION);
    // Without the option, both entry points share the function.
    let w = write_valid(&two, TargetEnv::Vulkan1_0);
    assert_eq!(w.module.entry_points.len(), 2);
    assert_eq!(w.module.functions.len(), 1);
}

#[test]
fn dx_position_w_reads_reciprocal_w() {
    let mut mb = ModuleBuilder::new();
    let vec4 = mb.vec(4, Scalar::F32);
    let frag = mb.builtin(
        "gl_FragCoord",
        AddressSpace::Input,
        vec4,
        spirv::BuiltIn::FragCoord,
    );
    let target = mb.location("out.var.SV_Target", AddressSpace::Output, vec4, 0);
    let in_ptr = mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gi = f.global(frag, in_ptr);
    let go = f.global(target, out_ptr);
    let v = f.load(gi, vec4);
    f.store(go, v);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    let opts = spv::Options {
        dx_position_w: true,
        ..options(TargetEnv::Vulkan1_0)
    };
    let w = write_valid_with(&mb.m, &opts, &[]);
    assert_eq!(w.count(Op::FDiv), 1);
    let insert = &w.all(Op::CompositeInsert)[0];
    assert_eq!(insert.operands[2], Operand::LiteralBit32(3));
    let plain = write_valid(&mb.m, TargetEnv::Vulkan1_0);
    assert_eq!(plain.count(Op::FDiv), 0);
}

/// Broken IR gives internal-error diagnostics, never a panic.
#[test]
fn broken_ir_is_an_internal_error() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let vec4 = mb.vec(4, Scalar::F32);
    let target = mb.location("out", AddressSpace::Output, vec4, 0);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let go = f.global(target, out_ptr);
    // A load that is never emitted, then used.
    let never = f.body.add_outside(Expression::Load { pointer: go }, vec4);
    f.store(go, never);
    let _ = f32_ty;
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    let err = spv::write(&mb.m, &options(TargetEnv::Vulkan1_0)).expect_err("broken");
    assert_eq!(err.code, crate::diag::codes::INTERNAL);
    assert!(
        err.message.contains("before it is evaluated"),
        "{}",
        err.message
    );

    // `break` outside a loop.
    let mut m = mb.m.clone();
    m.functions[main].body = vec![Statement::Break];
    let err = spv::write(&m, &options(TargetEnv::Vulkan1_0)).expect_err("broken");
    assert_eq!(err.code, crate::diag::codes::INTERNAL);

    // An entry point naming a missing function.
    let mut m = mb.m.clone();
    m.entry_points[0].function = Handle::from_index(7);
    let err = spv::write(&m, &options(TargetEnv::Vulkan1_0)).expect_err("broken");
    assert_eq!(err.code, crate::diag::codes::INTERNAL);

    // A type made of a later (here: missing) type, and a constant that
    // refers to itself.
    let mut m = super::control_flow::simple_kernel();
    let bad = m.ty(TypeInner::Array {
        base: Handle::from_index(m.types.len() + 3),
        size: ir::ArraySize::Constant(2),
        stride: None,
    });
    let g = m.globals.iter().next().unwrap().0;
    let mut broken_type = m.clone();
    broken_type.globals[g].ty = bad;
    let err = spv::write(&broken_type, &options(TargetEnv::Vulkan1_0)).expect_err("broken");
    assert_eq!(err.code, crate::diag::codes::INTERNAL);
    let i32_ty = m.scalar_type(Scalar::I32);
    let arr2 = m.ty(TypeInner::Array {
        base: i32_ty,
        size: ir::ArraySize::Constant(2),
        stride: None,
    });
    let selfish = Handle::from_index(m.const_expressions.len());
    let c = m.add_const_expression(
        Expression::Compose {
            ty: arr2,
            components: vec![selfish, selfish],
        },
        arr2,
    );
    let mut mb = ModuleBuilder { m };
    let p = mb.global("p", AddressSpace::Private, arr2);
    mb.m.globals[p].init = Some(c);
    // The entry point names it, so that the module declares it.
    let entry = mb.m.entry_points[0].function;
    mb.m.functions[entry]
        .expressions
        .append(Expression::GlobalVariable(p));
    let err = spv::write(&mb.m, &options(TargetEnv::Vulkan1_0)).expect_err("broken");
    assert_eq!(err.code, crate::diag::codes::INTERNAL);
    assert!(
        err.message.contains("does not come before"),
        "{}",
        err.message
    );

    // Deep nesting works up to a limit, then is refused (no stack
    // overflow).
    let nested = |depth: usize| {
        let mut m = super::control_flow::simple_kernel();
        let main_fn = m.entry_points[0].function;
        let bool_ty = m.scalar_type(Scalar::BOOL);
        let bool_c = m.add_const_expression(Expression::Literal(Literal::Bool(true)), bool_ty);
        let cond = m.functions[main_fn].add_expression(Expression::Constant(bool_c), bool_ty);
        let mut body = m.functions[main_fn].body.clone();
        for i in 0..depth {
            body = if i % 2 == 0 {
                vec![Statement::Block(body)]
            } else {
                vec![Statement::If {
                    condition: cond,
                    accept: body,
                    reject: vec![],
                    control: ir::SelectionControl::None,
                }]
            };
        }
        m.functions[main_fn].body = body;
        m
    };
    let w = write_valid(&nested(200), TargetEnv::Vulkan1_0);
    assert_eq!(w.count(Op::SelectionMerge), 100);
    let err = spv::write(&nested(300), &options(TargetEnv::Vulkan1_0)).expect_err("deep");
    assert_eq!(err.code, crate::diag::codes::UNSUPPORTED);
    assert!(err.message.contains("nested"), "{}", err.message);

    // A mesh entry point gets the MeshEXT model and its capability.
    let mut m = super::control_flow::simple_kernel();
    m.entry_points[0].stage = Stage::Mesh;
    let words = spv::write(&m, &options(TargetEnv::Vulkan1_2)).expect("mesh");
    let dis = crate::tests::common::spirv_dis(&words);
    assert!(dis.contains("OpEntryPoint MeshEXT"), "{dis}");
    assert!(dis.contains("OpCapability MeshShadingEXT"), "{dis}");
}

/// `if (WaveGetLaneIndex() == 0) discard;` in a pixel shader, on every
/// environment with waves.
#[test]
fn discard_and_lane_index_in_a_pixel_shader() {
    let mut mb = ModuleBuilder::new();
    let u32_ty = mb.u32();
    let bool_ty = mb.bool();
    let vec4 = mb.vec(4, Scalar::F32);
    let target = mb.location("out", AddressSpace::Output, vec4, 0);
    let out_ptr = mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let go = f.global(target, out_ptr);
    let lane = f.add(Expression::SubgroupResult, u32_ty);
    f.stmt(Statement::Subgroup {
        op: ir::SubgroupOperation::GetLaneIndex,
        args: vec![],
        result: lane,
    });
    let zero = f.lit(Literal::U32(0), u32_ty);
    let first = f.binary(B::Equal, lane, zero, bool_ty);
    f.open();
    f.stmt(Statement::Kill);
    let accept = f.close();
    f.stmt(Statement::If {
        condition: first,
        accept,
        reject: vec![],
        control: ir::SelectionControl::None,
    });
    let z = f.emit(Expression::ZeroValue(vec4), vec4);
    f.store(go, z);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Pixel, main, [0; 3]);
    for env in [
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_1Spirv1_4,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
    ] {
        let w = write_valid(&mb.m, env);
        assert_eq!(w.count(Op::Kill), 1);
        // The backend's SubgroupLocalInvocationId input is Flat.
        assert_eq!(w.decorated(Decoration::Flat).len(), 1);
    }
}
