//! Backend output run on a Vulkan driver (lavapipe by default, see
//! `tests/unit/vk`): the numbers the shaders compute, not just their validity.

use super::*;
use crate::tests::vk::{self, Resource};

/// Writes and validates `m` for `env`, then runs its `main` with
/// `resources` and `groups` workgroups.
fn run(m: &ir::Module, env: TargetEnv, resources: &mut [Resource], groups: [u32; 3]) {
    let w = write_valid(m, env);
    let runner = vk::shared();
    if let Err(e) = runner.run_compute(&w.words, "main", resources, &[], groups) {
        panic!("dispatch failed on {env:?}: {e}\n{}", w.text);
    }
}

#[test]
fn doubling_runs() {
    let m = super::compute::doubling_module();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let input: Vec<f32> = (0..256).map(|i| i as f32 - 100.5).collect();
        let mut res = [Resource::storage(0, 0, vk::f32_bytes(&input))];
        run(&m, env, &mut res, [4, 1, 1]);
        let out = vk::to_f32s(&res[0].data);
        let expected: Vec<f32> = input.iter().map(|v| v * 2.0).collect();
        assert_eq!(out, expected, "{env:?}");
    }
}

#[test]
fn groupshared_reversal_runs() {
    let m = super::compute::groupshared_module();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let mut res = [Resource::storage(0, 0, vec![0u8; 4 * 64])];
        run(&m, env, &mut res, [1, 1, 1]);
        let out = vk::to_f32s(&res[0].data);
        let expected: Vec<f32> = (0..64).map(|i| (63 - i) as f32).collect();
        assert_eq!(out, expected, "{env:?}");
    }
}

#[test]
fn control_flow_runs() {
    let int_out = |m: &ir::Module, seed: i32| {
        let mut res = [Resource::storage(0, 0, vk::i32_bytes(&[0, seed]))];
        run(m, TargetEnv::Vulkan1_0, &mut res, [1, 1, 1]);
        vk::to_i32s(&res[0].data)[0]
    };
    // 0 + 1 + 2 + 4 + … + 9: 3 is skipped by `continue`, 10 breaks.
    assert_eq!(int_out(&super::control_flow::loop_module(), 0), 42);
    // classify(x): 2 above 10, 1 above 0, else 0.
    let classify = super::control_flow::classify_module();
    assert_eq!(int_out(&classify, 11), 2);
    assert_eq!(int_out(&classify, 5), 1);
    assert_eq!(int_out(&classify, -4), 0);
    // case 0 falls into case 1 (1 + 2); case 1 gives 2; case 5 falls into
    // default (9 + 7); anything else is default (0 + 7).
    for (selector, expected) in [(0, 3), (1, 2), (5, 16), (2, 7), (-1, 7)] {
        let m = super::control_flow::switch_module(selector);
        assert_eq!(int_out(&m, 0), expected, "switch({selector})");
    }
}

/// `out[i] = a*b + c` with `precise` on one copy: NoContraction keeps the
/// precise one separately rounded (+0 for these inputs) on every driver;
/// the plain one may be fused (+2^-24 on NVIDIA, VULKAN-NOTES.md). On
/// lavapipe, which never fuses, both are +0; run with
/// `HLSLC_VK_DEVICE=NVIDIA` for the check that matters.
#[test]
fn precise_multiply_add_is_not_fused() {
    use crate::ir::BinaryOperator as B;
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
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
    let g = f.global(buf, block_ptr);
    let arr = f.index(g, 0, arr_ptr);
    // data = [a, b, c, a, b, c, out_precise, out_plain]: each variant reads
    // its own copy of the inputs.
    for (variant, precise) in [(0u32, true), (1, false)] {
        let load = |f: &mut FunctionBuilder, i: u32| {
            let p = f.index(arr, 3 * variant + i, elem_ptr);
            f.load(p, f32_ty)
        };
        let a = load(&mut f, 0);
        let b = load(&mut f, 1);
        let c = load(&mut f, 2);
        let ab = f.emit(
            Expression::Binary {
                op: B::Multiply,
                left: a,
                right: b,
                precise,
            },
            f32_ty,
        );
        let r = f.emit(
            Expression::Binary {
                op: B::Add,
                left: ab,
                right: c,
                precise,
            },
            f32_ty,
        );
        let dst = f.index(arr, 6 + variant, elem_ptr);
        f.store(dst, r);
    }
    let main = mb.add_function(f);
    mb.entry("main", crate::options::Stage::Compute, main, [1, 1, 1]);

    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    let data = [a, a, c, a, a, c, 1.0, 1.0];
    let mut res = [Resource::storage(0, 0, vk::f32_bytes(&data))];
    run(&mb.m, TargetEnv::Vulkan1_0, &mut res, [1, 1, 1]);
    let out = vk::to_f32s(&res[0].data);
    assert_eq!(out[6].to_bits(), 0, "precise a*b+c is separately rounded");
    assert!(
        out[7] == 0.0 || out[7] == 2f32.powi(-24),
        "plain a*b+c is either rounded twice or fused: {}",
        out[7]
    );
    eprintln!(
        "device {}: precise {:e}, plain {:e}",
        vk::shared().info().name,
        out[6],
        out[7]
    );
}
