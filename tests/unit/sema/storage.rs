//! Storage classes and their errors.

use super::*;

// --- storage classes ---------------------------------------------------

#[test]
fn static_globals_are_private_with_constant_initializers() {
    let m = lower(
        "static float a = 2.5; static int b; static const float3 c = float3(1, 2, 3);\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = a + b + c.y; }",
    );
    let a = global(&m, "a");
    assert_eq!(a.space, AddressSpace::Private);
    let init = a.init.expect("a constant initializer");
    assert_eq!(
        m.const_expressions[init],
        Expression::Literal(ir::Literal::f32(2.5))
    );
    let b = global(&m, "b");
    assert_eq!(b.space, AddressSpace::Private);
    assert!(b.init.is_none(), "no initializer: zero");
    assert!(global(&m, "c").init.is_some());
    assert!(
        !has_global(&m, "$Globals"),
        "static globals are not uniforms"
    );
}

#[test]
fn static_globals_with_runtime_initializers_run_at_entry() {
    let m = lower(
        "RWStructuredBuffer<float> o; static float s = o[1] * 2;\n\
         [numthreads(1,1,1)] void main() { o[0] = s; }",
    );
    assert!(global(&m, "s").init.is_none());
    let wrapper = function(&m, "main");
    // The wrapper stores into `s` before calling src.main.
    let first_call = wrapper
        .body
        .iter()
        .position(|s| matches!(s, Statement::Call { .. }))
        .expect("a call");
    let store_before = wrapper.body[..first_call]
        .iter()
        .any(|s| matches!(s, Statement::Store { .. }));
    assert!(
        store_before,
        "the initializer runs before the user's entry function"
    );
}

#[test]
fn uniforms_are_gathered_into_globals() {
    let m = lower(
        "float a; uniform float3 b; extern float c; const float d;\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = a + b.x + c + d; }",
    );
    let g = global(&m, "$Globals");
    assert_eq!(g.space, AddressSpace::Uniform);
    // Relaxed std140: float at 0, float3 at 4 (fits in the first 16 bytes),
    // float at 16, float at 20.
    assert_eq!(offsets(&m, g.ty), vec![0, 4, 16, 20]);
    assert_eq!(m.types[g.ty].name.as_deref(), Some("type.$Globals"));
}

#[test]
fn globals_block_takes_the_binding_of_its_first_member() {
    let m = lower(
        "Texture2D t0; float x; RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = x + t0.Load(int3(0,0,0)).x; }",
    );
    assert_eq!(binding(&m, "t0"), (0, 0));
    assert_eq!(binding(&m, "$Globals"), (0, 1));
    assert_eq!(binding(&m, "o"), (0, 2));
}

#[test]
fn bind_globals_option_places_the_globals_block() {
    let mut o = options();
    o.bind_globals = Some((5, 2));
    let m = lower_with(
        "float x; RWStructuredBuffer<float> b; [numthreads(1,1,1)] void main() { b[0] = x; }",
        &o,
    );
    assert_eq!(binding(&m, "$Globals"), (2, 5));
    assert_eq!(binding(&m, "b"), (0, 0));
}

#[test]
fn groupshared_is_workgroup_memory() {
    let m = lower(
        "groupshared float cache[64]; RWStructuredBuffer<float> o;\n\
         [numthreads(64,1,1)] void main(uint i : SV_GroupIndex) { cache[i] = i; GroupMemoryBarrierWithGroupSync(); o[i] = cache[63 - i]; }",
    );
    let g = global(&m, "cache");
    assert_eq!(g.space, AddressSpace::Workgroup);
    assert!(g.init.is_none());
    let f = function(&m, "src.main");
    let barriers = count_stmts(
        &f.body,
        &|s| matches!(s, Statement::Barrier { execution: true, memory } if memory.workgroup),
    );
    assert_eq!(barriers, 1);
}

#[test]
fn static_locals_are_private_and_initialized_once() {
    let m = lower(
        "RWStructuredBuffer<uint> o;\n\
         uint next() { static uint counter = 10; return counter++; }\n\
         uint slow(uint x) { static uint k = o[x]; return k; }\n\
         [numthreads(1,1,1)] void main() { o[0] = next() + next() + slow(1); }",
    );
    let c = global(&m, "next.counter");
    assert_eq!(c.space, AddressSpace::Private);
    assert_eq!(
        m.const_expressions[c.init.expect("constant init")],
        Expression::Literal(ir::Literal::U32(10))
    );
    // A non-constant initializer is guarded by a flag.
    let k = global(&m, "slow.k");
    assert!(k.init.is_none());
    assert_eq!(
        global(&m, "slow.k.initialized").space,
        AddressSpace::Private
    );
}

#[test]
fn precise_flags_reach_the_ir() {
    let m = lower(
        "struct S { precise float a; float b; };\n\
         RWStructuredBuffer<float> o;\n\
         precise float f(precise float x) { return x * 2; }\n\
         [numthreads(1,1,1)] void main() { precise float p = o[0] * o[1]; S s; s.a = p; s.b = 0; o[2] = f(s.a) + s.b; }",
    );
    let f = function(&m, "f");
    assert!(f.arguments[0].precise, "precise parameter");
    assert!(
        f.result.as_ref().is_some_and(|r| r.precise),
        "precise result"
    );
    let main = function(&m, "src.main");
    assert!(
        main.local_variables
            .iter()
            .any(|(_, v)| v.name.as_deref() == Some("p") && v.precise)
    );
    let s = m
        .types
        .iter()
        .find(|(_, t)| {
            t.name.as_deref() == Some("S") && matches!(t.inner, TypeInner::Struct { .. })
        })
        .expect("struct S");
    match &s.1.inner {
        TypeInner::Struct { members, .. } => {
            assert!(members[0].precise);
            assert!(!members[1].precise);
        }
        _ => unreachable!(),
    }
    // Sema marks no expression precise: the precise pass does.
    let marked = count_exprs(main, &|e| {
        matches!(e, Expression::Binary { precise: true, .. })
    });
    assert_eq!(marked, 0);
}

// --- storage-class errors ------------------------------------------------

#[test]
fn storage_class_conflicts_are_errors() {
    fails_with(
        "static extern float x; [numthreads(1,1,1)] void main() {}",
        "E0401",
    );
    fails_with(
        "static uniform float x; [numthreads(1,1,1)] void main() {}",
        "E0401",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { extern float x = 1; }",
        "E0402",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { groupshared float x; }",
        "E0402",
    );
    fails_with(
        "volatile float x; [numthreads(1,1,1)] void main() {}",
        "E0402",
    );
    fails_with("in float x; [numthreads(1,1,1)] void main() {}", "E0402");
    fails_with(
        "static static float x; [numthreads(1,1,1)] void main() {}",
        "E0406",
    );
    // DXC warns and ignores a groupshared initializer.
    let (text, failed) = diagnose(
        "groupshared float x = 1; RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = x; }",
    );
    assert!(!failed && text.contains("W0402"), "{text}");
    let m = lower(
        "groupshared float x = 1; RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = x; }",
    );
    assert!(global(&m, "x").init.is_none());
    fails_with(
        "[numthreads(1,1,1)] void main() { const float x; }",
        "E0407",
    );
}

#[test]
fn groupshared_outside_compute_is_an_error() {
    let mut o = common::options_for("ps_6_0");
    o.entry = "main".into();
    let (text, failed) = diagnose_with(
        "groupshared float x; float4 main() : SV_Target { return x; }",
        &o,
    );
    assert!(failed && text.contains("E0404"), "{text}");
}

#[test]
fn groupshared_budget_is_32k() {
    fails_with(
        "groupshared float4 a[2048]; groupshared float b[1]; [numthreads(1,1,1)] void main() { a[0] = b[0]; }",
        "E0405",
    );
    lower(
        "groupshared float4 a[1024]; groupshared float b[4096]; RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { o[0] = a[0].x + b[0]; }",
    );
    let (text, _) = diagnose(
        "groupshared float4 a[2048]; groupshared uint b[16]; [numthreads(1,1,1)] void main() {}",
    );
    assert!(
        text.contains("32768")
            && text.contains("`a` takes 32768 bytes")
            && text.contains("64 bytes"),
        "{text}"
    );
}

#[test]
fn writes_to_read_only_things_are_errors() {
    fails_with(
        "float u; [numthreads(1,1,1)] void main() { u = 1; }",
        "E0408",
    );
    fails_with(
        "cbuffer C { float k; }; [numthreads(1,1,1)] void main() { k = 1; }",
        "E0408",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { const int c = 1; c += 1; }",
        "E0408",
    );
    fails_with(
        "StructuredBuffer<float> s; [numthreads(1,1,1)] void main() { s[0] = 1; }",
        "E0408",
    );
    fails_with(
        "static const float k = 1; [numthreads(1,1,1)] void main() { k = 2; }",
        "E0408",
    );
}

/// The interpolation and sampling decorations of a stage variable.
fn io_modes(m: &Module, name: &str) -> (Option<ir::Interpolation>, Option<ir::Sampling>) {
    match global(m, name).io {
        Some(ir::Binding::Location {
            interpolation,
            sampling,
            ..
        }) => (interpolation, sampling),
        ref other => panic!("`{name}` is not a location variable: {other:?}"),
    }
}

#[test]
fn vertex_outputs_carry_interpolation_modifiers() {
    // DXC decorates vertex shader outputs like the pixel shader inputs they
    // feed (SPIR-V.rst, "Interpolation modes"); they were left bare.
    let src = "
        struct VSOut {
            float4 pos : SV_Position;
            noperspective float a : A;
            nointerpolation float2 b : B;
            centroid float c : C;
            uint d : D;
            float e : E;
        };
        VSOut main(out sample float f : F) { f = 0; return (VSOut)0; }
    ";
    let mut o = common::options_for("vs_6_0");
    o.target_env = TargetEnv::Vulkan1_0;
    let m = lower_with(src, &o);
    use ir::{Interpolation as I, Sampling as S};
    assert_eq!(io_modes(&m, "out.var.A"), (Some(I::NoPerspective), None));
    assert_eq!(io_modes(&m, "out.var.B"), (Some(I::Flat), None));
    assert_eq!(io_modes(&m, "out.var.C"), (None, Some(S::Centroid)));
    // Integers are flat, as for pixel shader inputs.
    assert_eq!(io_modes(&m, "out.var.D"), (Some(I::Flat), None));
    assert_eq!(io_modes(&m, "out.var.E"), (None, None));
    assert_eq!(io_modes(&m, "out.var.F"), (None, Some(S::Sample)));
}

#[test]
fn pixel_outputs_have_no_interpolation_modes() {
    // VUID-StandaloneSpirv-Flat-06202: no Flat on fragment outputs.
    let src = "int4 main() : SV_Target { return 1; }";
    let m = lower_with(src, &common::options_for("ps_6_0"));
    assert_eq!(io_modes(&m, "out.var.SV_Target"), (None, None));
}
