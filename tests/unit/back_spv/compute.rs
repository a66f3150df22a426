//! Compute shaders: structured buffers, groupshared memory, barriers,
//! atomics, wave operations.

use super::*;
use crate::ir::{AtomicFunction, BarrierMemory, BinaryOperator as B, SubgroupOperation};
use crate::options::Stage;
use spirv::{Capability, Decoration};

/// `RWStructuredBuffer<float> buf; [numthreads(64,1,1)]
/// void main(uint3 id : SV_DispatchThreadID) { buf[id.x] *= 2.0; }`
pub fn doubling_module() -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let uvec3 = mb.vec(3, Scalar::U32);
    let block = mb.structured_buffer("type.RWStructuredBuffer.float", f32_ty, 4);
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("buf", storage, block, 0, 0);
    let id = mb.builtin(
        "id",
        AddressSpace::Input,
        uvec3,
        spirv::BuiltIn::GlobalInvocationId,
    );
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let f32_ptr = mb.ptr(f32_ty, storage);
    let id_ptr = mb.ptr(uvec3, AddressSpace::Input);

    let mut f = FunctionBuilder::new("main");
    let gbuf = f.global(buf, block_ptr);
    let gid = f.global(id, id_ptr);
    let two = f.lit(lit_f32(2.0), f32_ty);
    let idv = f.load(gid, uvec3);
    let x = f.index(idv, 0, u32_ty);
    let arr = f.index(gbuf, 0, arr_ptr);
    let elem = f.access(arr, x, f32_ptr);
    let v = f.load(elem, f32_ty);
    let doubled = f.binary(B::Multiply, v, two, f32_ty);
    f.store(elem, doubled);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [64, 1, 1]);
    mb.m
}

#[test]
fn doubling_a_structured_buffer_on_vulkan_1_0() {
    let w = write_valid(&doubling_module(), TargetEnv::Vulkan1_0);
    w.assert_text("OpExecutionMode %");
    w.assert_text("LocalSize 64 1 1");
    w.assert_text("OpCapability Shader");
    // Below SPIR-V 1.3: BufferBlock in Uniform storage.
    assert_eq!(w.decorated(Decoration::BufferBlock).len(), 1);
    assert!(w.decorated(Decoration::Block).is_empty());
    w.assert_text("OpTypePointer Uniform");
    assert!(!w.text.contains("StorageBuffer"));
    w.assert_text("ArrayStride 4");
    w.assert_text("BuiltIn GlobalInvocationId");
    w.assert_text("DescriptorSet 0");
    w.assert_text("Binding 0");
    // The chain from the block to the element is one OpAccessChain.
    let chains = w.all(Op::AccessChain);
    assert_eq!(chains.len(), 1, "one for the load and the store");
    assert!(chains.iter().all(|c| c.operands.len() == 3));
    assert_eq!(w.count(Op::FMul), 1);
    // SPIR-V 1.0 lists only the Input variable in the interface.
    let ep = &w.module.entry_points[0];
    assert_eq!(ep.operands.len(), 4, "{:?}", ep.operands);
    assert_eq!(w.module.header.as_ref().map(|h| h.version()), Some((1, 0)));
}

#[test]
fn doubling_a_structured_buffer_on_vulkan_1_2() {
    let w = write_valid(&doubling_module(), TargetEnv::Vulkan1_2);
    assert_eq!(w.decorated(Decoration::Block).len(), 1);
    assert!(w.decorated(Decoration::BufferBlock).is_empty());
    w.assert_text("OpTypePointer StorageBuffer");
    // From SPIR-V 1.4 the interface lists every global the entry uses.
    let ep = &w.module.entry_points[0];
    assert_eq!(ep.operands.len(), 5, "{:?}", ep.operands);
    assert_eq!(w.module.header.as_ref().map(|h| h.version()), Some((1, 5)));
}

#[test]
fn read_only_buffers_are_non_writable() {
    let mut m = doubling_module();
    // Make a second, read-only buffer and read from it.
    let f32_ty = m.scalar_type(Scalar::F32);
    let arr = m.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Runtime,
        stride: Some(4),
    });
    let block = m.types.insert(Type {
        name: Some("type.StructuredBuffer.float".into()),
        inner: TypeInner::Struct {
            members: vec![member(None, arr, Some(0))],
            size: 0,
        },
    });
    let g = m.globals.append(ir::GlobalVariable {
        name: Some("input".into()),
        space: AddressSpace::Storage { writable: false },
        ty: block,
        init: None,
        binding: Some(ir::ResourceBinding {
            set: 0,
            binding: 1,
            input_attachment: None,
        }),
        io: None,
        precise: false,
        invariant: false,
        semantic: None,
        counter: None,
        user_type: None,
    });
    let _ = g;
    // No code reads it: `-fspv-preserve-bindings` keeps it in the module.
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let opts = spv::Options {
            keep_unused: ir::KeepUnused {
                bindings: true,
                interface: false,
            },
            ..options(env)
        };
        let w = write_valid_with(&m, &opts, &[]);
        w.assert_text("NonWritable");
        assert_eq!(
            w.text.matches("NonWritable").count(),
            1,
            "only the read-only block's member"
        );
    }
}

/// `groupshared float tile[64];` written, a group barrier, then read back
/// reversed.
pub fn groupshared_module() -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let tile_ty = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(64),
        stride: None,
    });
    let tile = mb.global("tile", AddressSpace::Workgroup, tile_ty);
    let gi = mb.builtin(
        "gi",
        AddressSpace::Input,
        u32_ty,
        spirv::BuiltIn::LocalInvocationIndex,
    );
    let block = mb.structured_buffer("type.RWStructuredBuffer.float", f32_ty, 4);
    let storage = AddressSpace::Storage { writable: true };
    let out = mb.resource("out", storage, block, 0, 0);
    let tile_ptr = mb.ptr(tile_ty, AddressSpace::Workgroup);
    let elem_ptr = mb.ptr(f32_ty, AddressSpace::Workgroup);
    let gi_ptr = mb.ptr(u32_ty, AddressSpace::Input);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let out_elem_ptr = mb.ptr(f32_ty, storage);

    let mut f = FunctionBuilder::new("main");
    let gtile = f.global(tile, tile_ptr);
    let ggi = f.global(gi, gi_ptr);
    let gout = f.global(out, block_ptr);
    let c63 = f.lit(Literal::U32(63), u32_ty);
    let i = f.load(ggi, u32_ty);
    let fi = f.emit(
        Expression::As {
            expr: i,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let slot = f.access(gtile, i, elem_ptr);
    f.store(slot, fi);
    f.stmt(Statement::Barrier {
        memory: BarrierMemory {
            workgroup: true,
            ..Default::default()
        },
        execution: true,
    });
    let j = f.binary(B::Subtract, c63, i, u32_ty);
    let other = f.access(gtile, j, elem_ptr);
    let v = f.load(other, f32_ty);
    let arr = f.index(gout, 0, arr_ptr);
    let dst = f.access(arr, i, out_elem_ptr);
    f.store(dst, v);
    f.stmt(Statement::Barrier {
        memory: BarrierMemory {
            device: true,
            image: true,
            workgroup: true,
        },
        execution: false,
    });
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [64, 1, 1]);
    mb.m
}

#[test]
fn groupshared_and_barrier() {
    let m = groupshared_module();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&m, env);
        // GroupMemoryBarrierWithGroupSync: Workgroup execution and memory
        // scopes, WorkgroupMemory | AcquireRelease = 264.
        let cb = w.all(Op::ControlBarrier);
        assert_eq!(cb.len(), 1);
        let ids: Vec<u32> = cb[0]
            .operands
            .iter()
            .map(|o| o.id_ref_any().unwrap())
            .collect();
        assert_eq!(
            ids.iter().map(|&i| w.const_u32(i)).collect::<Vec<_>>(),
            vec![2, 2, 264]
        );
        // AllMemoryBarrier: Device scope, 2376.
        let mb_ = w.all(Op::MemoryBarrier);
        assert_eq!(mb_.len(), 1);
        let ids: Vec<u32> = mb_[0]
            .operands
            .iter()
            .map(|o| w.const_u32(o.id_ref_any().unwrap()))
            .collect();
        assert_eq!(ids, vec![1, 2376]);
        // The groupshared array has no initialiser.
        let tile_var = w
            .all(Op::Variable)
            .into_iter()
            .find(|v| v.operands[0] == Operand::StorageClass(spirv::StorageClass::Workgroup))
            .expect("a Workgroup variable");
        assert_eq!(tile_var.operands.len(), 1);
    }
}

/// InterlockedAdd on a buffer element and InterlockedMax /
/// InterlockedCompareExchange on a groupshared uint.
#[test]
fn atomics_on_buffers_and_groupshared() {
    let mut mb = ModuleBuilder::new();
    let u32_ty = mb.u32();
    let i32_ty = mb.i32();
    let block = mb.structured_buffer("type.RWStructuredBuffer.uint", u32_ty, 4);
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("counters", storage, block, 0, 0);
    let shared = mb.global("best", AddressSpace::Workgroup, u32_ty);
    let ishared = mb.global("low", AddressSpace::Workgroup, i32_ty);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let elem_ptr = mb.ptr(u32_ty, storage);
    let shared_ptr = mb.ptr(u32_ty, AddressSpace::Workgroup);
    let ishared_ptr = mb.ptr(i32_ty, AddressSpace::Workgroup);

    let mut f = FunctionBuilder::new("main");
    let gbuf = f.global(buf, block_ptr);
    let gshared = f.global(shared, shared_ptr);
    let gi = f.global(ishared, ishared_ptr);
    let one = f.lit(Literal::U32(1), u32_ty);
    let seven = f.lit(Literal::U32(7), u32_ty);
    let minus = f.lit(Literal::I32(-3), i32_ty);
    let arr = f.index(gbuf, 0, arr_ptr);
    let e0 = f.index(arr, 0, elem_ptr);
    let orig = f.add(Expression::AtomicResult, u32_ty);
    f.stmt(Statement::Atomic {
        pointer: e0,
        fun: AtomicFunction::Add,
        value: Some(one),
        compare: None,
        result: Some(orig),
    });
    f.stmt(Statement::Atomic {
        pointer: gshared,
        fun: AtomicFunction::Max,
        value: Some(orig),
        compare: None,
        result: None,
    });
    let cmp = f.add(Expression::AtomicResult, u32_ty);
    f.stmt(Statement::Atomic {
        pointer: gshared,
        fun: AtomicFunction::CompareExchange,
        value: Some(seven),
        compare: Some(orig),
        result: Some(cmp),
    });
    f.stmt(Statement::Atomic {
        pointer: gi,
        fun: AtomicFunction::Min,
        value: Some(minus),
        compare: None,
        result: None,
    });
    let e1 = f.index(arr, 1, elem_ptr);
    f.store(e1, cmp);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [1, 1, 1]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        let scope_and_semantics = |i: &Instruction| {
            (
                w.const_u32(i.operands[1].id_ref_any().unwrap()),
                w.const_u32(i.operands[2].id_ref_any().unwrap()),
            )
        };
        let add = w.all(Op::AtomicIAdd);
        assert_eq!(add.len(), 1);
        assert_eq!(scope_and_semantics(add[0]), (1, 0), "Device scope, relaxed");
        let max = w.all(Op::AtomicUMax);
        assert_eq!(max.len(), 1);
        assert_eq!(scope_and_semantics(max[0]), (2, 0), "Workgroup scope");
        assert_eq!(w.count(Op::AtomicSMin), 1, "signed min on int");
        let cx = w.all(Op::AtomicCompareExchange);
        assert_eq!(cx.len(), 1);
        // value (7) before comparator (the IAdd result).
        assert_eq!(w.const_u32(cx[0].operands[4].unwrap_id_ref()), 7);
        assert_eq!(cx[0].operands[5].unwrap_id_ref(), add[0].result_id.unwrap());
    }
}

/// `WaveActiveSum`, `WaveGetLaneIndex`, `WaveReadLaneAt` with a dynamic
/// lane, `WaveActiveCountBits`, `QuadReadAcrossX`.
fn wave_module() -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let bool_ty = mb.bool();
    let block = mb.structured_buffer("type.RWStructuredBuffer.float", f32_ty, 4);
    let storage = AddressSpace::Storage { writable: true };
    let buf = mb.resource("data", storage, block, 0, 0);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let elem_ptr = mb.ptr(f32_ty, storage);

    let mut f = FunctionBuilder::new("main");
    let gbuf = f.global(buf, block_ptr);
    let lane = f.add(Expression::SubgroupResult, u32_ty);
    f.stmt(Statement::Subgroup {
        op: SubgroupOperation::GetLaneIndex,
        args: vec![],
        result: lane,
    });
    let arr = f.index(gbuf, 0, arr_ptr);
    let elem = f.access(arr, lane, elem_ptr);
    let v = f.load(elem, f32_ty);
    let sum = f.add(Expression::SubgroupResult, f32_ty);
    f.stmt(Statement::Subgroup {
        op: SubgroupOperation::Sum,
        args: vec![v],
        result: sum,
    });
    let one = f.lit(Literal::U32(1), u32_ty);
    let next = f.binary(B::Add, lane, one, u32_ty);
    let neighbour = f.add(Expression::SubgroupResult, f32_ty);
    f.stmt(Statement::Subgroup {
        op: SubgroupOperation::ReadLaneAt,
        args: vec![sum, next],
        result: neighbour,
    });
    let zero = f.lit(lit_f32(0.0), f32_ty);
    let positive = f.binary(B::Greater, v, zero, bool_ty);
    let count = f.add(Expression::SubgroupResult, u32_ty);
    f.stmt(Statement::Subgroup {
        op: SubgroupOperation::CountBits,
        args: vec![positive],
        result: count,
    });
    let quad = f.add(Expression::SubgroupResult, f32_ty);
    f.stmt(Statement::Subgroup {
        op: SubgroupOperation::QuadReadAcrossX,
        args: vec![neighbour],
        result: quad,
    });
    let quad_lane = f.add(Expression::SubgroupResult, f32_ty);
    f.stmt(Statement::Subgroup {
        op: SubgroupOperation::QuadReadLaneAt,
        args: vec![quad, next],
        result: quad_lane,
    });
    let fc = f.emit(
        Expression::As {
            expr: count,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let total = f.binary(B::Add, quad_lane, fc, f32_ty);
    f.store(elem, total);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [32, 1, 1]);
    mb.m
}

#[test]
fn wave_operations_on_vulkan_1_1() {
    let m = wave_module();
    let w = write_valid(&m, TargetEnv::Vulkan1_1);
    for cap in [
        Capability::GroupNonUniform,
        Capability::GroupNonUniformArithmetic,
        Capability::GroupNonUniformBallot,
        Capability::GroupNonUniformShuffle,
        Capability::GroupNonUniformQuad,
    ] {
        assert!(w.has_capability(cap), "{cap:?}");
    }
    w.assert_text("BuiltIn SubgroupLocalInvocationId");
    let add = w.all(Op::GroupNonUniformFAdd);
    assert_eq!(add.len(), 1);
    assert_eq!(
        w.const_u32(add[0].operands[0].id_ref_any().unwrap()),
        3,
        "Subgroup scope"
    );
    assert_eq!(
        add[0].operands[1],
        Operand::GroupOperation(spirv::GroupOperation::Reduce)
    );
    // A dynamic lane below SPIR-V 1.5 is a shuffle, not a broadcast; for
    // QuadReadLaneAt, of the lane in the same quad.
    assert_eq!(w.count(Op::GroupNonUniformShuffle), 2);
    assert_eq!(w.count(Op::GroupNonUniformBroadcast), 0);
    assert_eq!(w.count(Op::GroupNonUniformQuadBroadcast), 0);
    assert_eq!(w.count(Op::BitwiseAnd), 1);
    assert_eq!(w.count(Op::GroupNonUniformBallotBitCount), 1);
    assert_eq!(w.count(Op::GroupNonUniformQuadSwap), 1);
    // The lane-index built-in is in the (1.3) interface.
    let builtin_var = w.decorated(Decoration::BuiltIn)[0];
    assert!(
        w.module.entry_points[0]
            .operands
            .contains(&Operand::IdRef(builtin_var))
    );

    // From SPIR-V 1.5 a broadcast may take an id that is dynamically
    // uniform, but `lane + 1` differs between lanes: still shuffles.
    for env in [TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3] {
        let w = write_valid(&m, env);
        assert_eq!(w.count(Op::GroupNonUniformBroadcast), 0, "{env:?}");
        assert_eq!(w.count(Op::GroupNonUniformQuadBroadcast), 0, "{env:?}");
        assert_eq!(w.count(Op::GroupNonUniformShuffle), 2, "{env:?}");
    }
}

#[test]
fn wave_operations_need_vulkan_1_1() {
    let m = wave_module();
    let err = spv::write(&m, &options(TargetEnv::Vulkan1_0)).expect_err("vulkan1.0 has no waves");
    assert_eq!(err.code, crate::diag::codes::TARGET_TOO_OLD);
    assert!(err.message.contains("a wave operation needs SPIR-V 1.3"), "{}", err.message);
    assert!(err.message.contains("vulkan1.0"), "{}", err.message);
    assert!(
        err.notes
            .iter()
            .any(|n| n.contains("-fspv-target-env=vulkan1.1")),
        "{:?}",
        err.notes
    );
}
