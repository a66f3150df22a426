//! Sema tests: HLSL snippets lowered to IR, with assertions on the IR facts
//! sema decides — address spaces, bindings, layouts, precise flags,
//! overload choices, conversions, the entry point wrapper — and on the
//! storage-class rules.

use crate::common;
use hlslc::diag::{DiagnosticFormat, render_to_string};
use hlslc::ir::{self, AddressSpace, Expression, Module, Statement, TypeInner};
use hlslc::options::{LayoutRule, Options, TargetEnv};

fn options() -> Options {
    common::options_for("cs_6_0")
}

/// Lowers `src`; panics with the rendered diagnostics if it fails.
fn lower_with(src: &str, o: &Options) -> Module {
    let (loader, path) = common::single_file(src);
    let (c, m) = hlslc::compile_to_ir(&path, &loader, o);
    match m {
        Some(m) => m,
        None => panic!(
            "lowering failed:\n{}",
            render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human)
        ),
    }
}

fn lower(src: &str) -> Module {
    lower_with(src, &options())
}

/// The rendered diagnostics of `src`, and whether it failed.
fn diagnose_with(src: &str, o: &Options) -> (String, bool) {
    let (loader, path) = common::single_file(src);
    let (c, m) = hlslc::compile_to_ir(&path, &loader, o);
    (
        render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human),
        m.is_none(),
    )
}

fn diagnose(src: &str) -> (String, bool) {
    diagnose_with(src, &options())
}

/// Asserts that `src` fails with diagnostic `code`.
fn fails_with(src: &str, code: &str) -> String {
    let (text, failed) = diagnose(src);
    assert!(failed, "expected an error {code}, got success:\n{text}");
    assert!(text.contains(code), "expected {code} in:\n{text}");
    text
}

fn global<'m>(m: &'m Module, name: &str) -> &'m ir::GlobalVariable {
    m.globals
        .iter()
        .map(|(_, g)| g)
        .find(|g| g.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no global `{name}`"))
}

fn has_global(m: &Module, name: &str) -> bool {
    m.globals
        .iter()
        .any(|(_, g)| g.name.as_deref() == Some(name))
}

fn binding(m: &Module, name: &str) -> (u32, u32) {
    let b = global(m, name)
        .binding
        .unwrap_or_else(|| panic!("`{name}` has no binding"));
    (b.set, b.binding)
}

/// Offsets of a struct type's members.
fn offsets(m: &Module, ty: ir::Handle<ir::Type>) -> Vec<u32> {
    match &m.types[ty].inner {
        TypeInner::Struct { members, .. } => members
            .iter()
            .map(|m| m.offset.unwrap_or(u32::MAX))
            .collect(),
        other => panic!("not a struct: {other:?}"),
    }
}

fn function<'m>(m: &'m Module, name: &str) -> &'m ir::Function {
    m.functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == name)
        .unwrap_or_else(|| {
            let names: Vec<_> = m.functions.iter().map(|(_, f)| f.name.clone()).collect();
            panic!("no function `{name}` in {names:?}")
        })
}

fn count_stmts(b: &[Statement], pred: &dyn Fn(&Statement) -> bool) -> usize {
    let mut n = 0;
    for s in b {
        if pred(s) {
            n += 1;
        }
        n += match s {
            Statement::Block(b) => count_stmts(b, pred),
            Statement::If { accept, reject, .. } => {
                count_stmts(accept, pred) + count_stmts(reject, pred)
            }
            Statement::Loop {
                body, continuing, ..
            } => count_stmts(body, pred) + count_stmts(continuing, pred),
            Statement::Switch { cases, .. } => {
                cases.iter().map(|c| count_stmts(&c.body, pred)).sum()
            }
            _ => 0,
        };
    }
    n
}

fn count_exprs(f: &ir::Function, pred: &dyn Fn(&Expression) -> bool) -> usize {
    f.expressions.iter().filter(|(_, e)| pred(e)).count()
}

const MAIN: &str = "[numthreads(1,1,1)] void main() {}";

// --- storage classes ---------------------------------------------------

#[test]
fn static_globals_are_private_with_constant_initializers() {
    let m = lower(&format!(
        "static float a = 2.5; static int b; static const float3 c = float3(1, 2, 3);\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() {{ o[0] = a + b + c.y; }}"
    ));
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
    fails_with(
        "groupshared float x = 1; [numthreads(1,1,1)] void main() {}",
        "E0403",
    );
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

// --- layouts -------------------------------------------------------------

#[test]
fn cbuffer_layout_and_packoffset() {
    let m = lower(
        "cbuffer Params : register(b0) { float a; float3 b; float2 c; float4x4 m; float d : packoffset(c20.y); };\n\
         RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { o[0] = a + b.x + c.y + m[0].x + d; }",
    );
    let g = global(&m, "Params");
    assert_eq!(g.space, AddressSpace::Uniform);
    assert_eq!(offsets(&m, g.ty), vec![0, 4, 16, 32, 324]);
    assert_eq!(binding(&m, "Params"), (0, 0));
}

#[test]
fn structured_buffer_strides_follow_the_layout_option() {
    let src = "struct S { float3 p; float w; float2 uv; }; RWStructuredBuffer<S> b; RWStructuredBuffer<float3> v;\n\
               [numthreads(1,1,1)] void main() { b[0].w = v[0].x; }";
    let stride = |m: &Module, name: &str| -> (u32, Vec<u32>) {
        let g = global(m, name);
        let arr = match &m.types[g.ty].inner {
            TypeInner::Struct { members, .. } => members[0].ty,
            _ => panic!(),
        };
        match m.types[arr].inner {
            TypeInner::Array {
                stride: Some(s),
                base,
                ..
            } => (
                s,
                match &m.types[base].inner {
                    TypeInner::Struct { members, .. } => {
                        members.iter().map(|m| m.offset.unwrap()).collect()
                    }
                    _ => vec![],
                },
            ),
            _ => panic!(),
        }
    };
    let m = lower(src);
    assert_eq!(stride(&m, "b"), (32, vec![0, 12, 16]));
    assert_eq!(stride(&m, "v").0, 16);
    let mut o = options();
    o.layout = LayoutRule::Scalar;
    let m = lower_with(src, &o);
    assert_eq!(stride(&m, "b"), (24, vec![0, 12, 16]));
    assert_eq!(stride(&m, "v").0, 12);
}

#[test]
fn buffer_block_types_are_distinct_and_named() {
    let m = lower(
        "struct S { float a; }; StructuredBuffer<S> r; RWStructuredBuffer<S> w; ByteAddressBuffer bab;\n\
         [numthreads(1,1,1)] void main() { w[0].a = r[0].a + asfloat(bab.Load(0)); }",
    );
    let name = |n: &str| m.types[global(&m, n).ty].name.clone().unwrap_or_default();
    assert_eq!(name("r"), "type.StructuredBuffer.S");
    assert_eq!(name("w"), "type.RWStructuredBuffer.S");
    assert_eq!(name("bab"), "type.ByteAddressBuffer");
    assert_eq!(
        global(&m, "r").space,
        AddressSpace::Storage { writable: false }
    );
    assert_eq!(
        global(&m, "w").space,
        AddressSpace::Storage { writable: true }
    );
}

#[test]
fn bools_in_buffers_are_uints() {
    let m = lower(
        "struct S { bool flag; float x; }; RWStructuredBuffer<S> b;\n\
         [numthreads(1,1,1)] void main() { if (b[0].flag) b[0].x = 1; b[1].flag = true; }",
    );
    let g = global(&m, "b");
    let arr = match &m.types[g.ty].inner {
        TypeInner::Struct { members, .. } => members[0].ty,
        _ => panic!(),
    };
    let elem = match m.types[arr].inner {
        TypeInner::Array { base, .. } => base,
        _ => panic!(),
    };
    match &m.types[elem].inner {
        TypeInner::Struct { members, .. } => {
            assert_eq!(
                m.types[members[0].ty].inner,
                TypeInner::Scalar(ir::Scalar::U32)
            );
        }
        _ => panic!(),
    }
}

// --- bindings --------------------------------------------------------------

#[test]
fn bindings_follow_dxc_precedence() {
    let mut o = options();
    o.register_shifts = vec![
        (hlslc::options::RegisterClass::T, 10, Some(0)),
        (hlslc::options::RegisterClass::T, 20, Some(1)),
    ];
    let m = lower_with(
        "struct S { float4 f; };\n\
         ConstantBuffer<S> cb1 : register(b0);\n\
         Texture2D<float4> t1 : register(t0);\n\
         Texture2D<float4> t2 : register(t1, space1);\n\
         SamplerState s1;\n\
         [[vk::binding(3)]] RWBuffer<float4> rw : register(u5, space2);\n\
         RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = cb1.f + t1.SampleLevel(s1, 0.5, 0) + t2.SampleLevel(s1, 0.5, 0) + rw[0]; }",
        &o,
    );
    assert_eq!(binding(&m, "rw"), (0, 3));
    assert_eq!(binding(&m, "cb1"), (0, 0));
    assert_eq!(binding(&m, "t1"), (0, 10));
    assert_eq!(binding(&m, "t2"), (1, 21));
    assert_eq!(binding(&m, "s1"), (0, 1));
    assert_eq!(binding(&m, "o"), (0, 2));
}

#[test]
fn counters_get_their_own_bindings() {
    let m = lower(
        "struct S { float4 f; }; AppendStructuredBuffer<S> a; RWStructuredBuffer<S> w; RWStructuredBuffer<S> plain;\n\
         [numthreads(1,1,1)] void main() { S s; s.f = 1; a.Append(s); uint n = w.IncrementCounter(); plain[n] = s; }",
    );
    assert_eq!(binding(&m, "a"), (0, 0));
    assert_eq!(binding(&m, "counter.var.a"), (0, 1));
    assert_eq!(binding(&m, "w"), (0, 2));
    assert_eq!(binding(&m, "plain"), (0, 3));
    // The RW counter is made on use, so it comes after every declared resource.
    assert_eq!(binding(&m, "counter.var.w"), (0, 4));
    assert!(!has_global(&m, "counter.var.plain"));
    assert!(global(&m, "w").counter.is_some());
}

// --- entry point -----------------------------------------------------------

#[test]
fn compute_entry_wrapper_loads_builtins() {
    let m = lower(
        "RWStructuredBuffer<uint> o;\n\
         [numthreads(8, 4, 2)] void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint2 g : SV_GroupID) { o[gi] = id.x + g.y; }",
    );
    assert_eq!(m.entry_points.len(), 1);
    let ep = &m.entry_points[0];
    assert_eq!(ep.workgroup_size, [8, 4, 2]);
    assert_eq!(m.functions[ep.function].name, "main");
    assert!(m.functions[ep.function].arguments.is_empty());
    let gid = global(&m, "gl_GlobalInvocationID");
    assert_eq!(gid.space, AddressSpace::Input);
    assert_eq!(
        gid.io,
        Some(ir::Binding::BuiltIn(spirv::BuiltIn::GlobalInvocationId))
    );
    assert_eq!(
        global(&m, "gl_LocalInvocationIndex").io,
        Some(ir::Binding::BuiltIn(spirv::BuiltIn::LocalInvocationIndex))
    );
    assert!(has_global(&m, "gl_WorkGroupID"));
    assert_eq!(function(&m, "src.main").arguments.len(), 3);
}

#[test]
fn entry_point_errors() {
    fails_with("void main() {}", "E0602");
    fails_with("[numthreads(0,1,1)] void main() {}", "E0603");
    fails_with("[numthreads(64,32,1)] void main() {}", "E0603");
    fails_with("[numthreads(1,1,65)] void main() {}", "E0603");
    let t = fails_with(
        "[numthreads(1,1,1)] void other() {} void helper() {}",
        "E0601",
    );
    assert!(t.contains("helper, other"), "{t}");
    fails_with("[numthreads(1,1,1)] void main(uint3 id) {}", "E0604");
    fails_with(
        "[numthreads(1,1,1)] void main(float4 id : SV_DispatchThreadID) {}",
        "E0605",
    );
    fails_with(
        "[numthreads(1,1,1)] void main(uint id : TEXCOORD0) {}",
        "E0604",
    );
}

#[test]
fn struct_entry_parameters_are_assembled() {
    let m = lower(
        "struct In { uint3 id : SV_DispatchThreadID; uint gi : SV_GroupIndex; };\n\
         RWStructuredBuffer<uint> o; [numthreads(4,1,1)] void main(In i) { o[i.gi] = i.id.x; }",
    );
    assert!(has_global(&m, "gl_GlobalInvocationID"));
    assert!(has_global(&m, "gl_LocalInvocationIndex"));
}

// --- names, types, overloads ------------------------------------------------

#[test]
fn overloads_pick_the_best_conversion() {
    let m = lower(
        "RWStructuredBuffer<float> o;\n\
         float f(int x) { return 1; } float f(float x) { return 2; } float f(float2 x) { return 3; }\n\
         [numthreads(1,1,1)] void main() { o[0] = f(1) + f(1.5) + f(float2(1, 2)) + f(1u); }",
    );
    // All three overloads are used.
    let n = m.functions.iter().filter(|(_, f)| f.name == "f").count();
    assert_eq!(n, 3);
}

#[test]
fn ambiguous_and_missing_overloads_are_errors() {
    fails_with(
        "void f(int x, float y) {} void f(float x, int y) {} [numthreads(1,1,1)] void main() { f(1u, 1u); }",
        "E0310",
    );
    fails_with(
        "void f(float3 x) {} [numthreads(1,1,1)] void main() { f(float2(1, 2)); }",
        "E0309",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { float x = sqrt(1, 2); }",
        "E0309",
    );
}

#[test]
fn templates_instantiate_per_use() {
    let m = lower(
        "template<typename T> T twice(T x) { return x + x; }\n\
         template<typename T, int N> struct Arr { T v[N]; };\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { Arr<float, 3> a; a.v[2] = 1; o[0] = twice(2.0f) + twice(3) + twice<float>(1) + a.v[2]; }",
    );
    assert!(m.functions.iter().any(|(_, f)| f.name == "twice<float>"));
    assert!(m.functions.iter().any(|(_, f)| f.name == "twice<int>"));
}

#[test]
fn namespaces_enums_typedefs_and_methods() {
    lower(
        "namespace ns { static const int K = 4; float g(float x) { return x * K; } namespace inner { typedef float4 V; } }\n\
         using namespace ns;\n\
         enum Color { Red, Green = 5, Blue };\n\
         enum class Mode : uint { A = 1, B };\n\
         struct Counter { uint n; void add(uint k) { n += k; } uint get() { return n; } static uint twice(uint x) { return 2 * x; } };\n\
         struct Derived : Counter { uint extra; uint total() { return get() + extra; } };\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() {\n\
            ns::inner::V v = 1; Counter c; c.n = 0; c.add(3); Derived d; d.n = 1; d.extra = 2;\n\
            float arr[K]; arr[0] = 1;\n\
            o[0] = g(v.x) + ns::g(1) + Blue + (uint)Mode::B + c.get() + Counter::twice(2) + d.total() + arr[0];\n\
         }",
    );
}

#[test]
fn unknown_names_and_types_are_errors() {
    fails_with("[numthreads(1,1,1)] void main() { x = 1; }", "E0301");
    fails_with(
        "StructuredBuffer<Foo> b; [numthreads(1,1,1)] void main() {}",
        "E0302",
    );
    fails_with(
        "struct S { float a; }; [numthreads(1,1,1)] void main() { S s; s.b = 1; }",
        "E0305",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { float2 v = 0; v.z = 1; }",
        "E0306",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { float3 v = float2(1, 2); }",
        "E0304",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { int a[2] = {1, 2, 3}; }",
        "E0315",
    );
    fails_with("[numthreads(1,1,1)] void main() { int a[4 / 0]; }", "E0701");
}

#[test]
fn implicit_truncation_warns() {
    let (text, failed) = diagnose(
        "RWStructuredBuffer<float2> o; [numthreads(1,1,1)] void main() { float4 v = 1; o[0] = v; }",
    );
    assert!(!failed, "{text}");
    assert!(
        text.contains("W0301") && text.contains("implicit truncation of vector type"),
        "{text}"
    );
}

#[test]
fn recursion_is_an_error_showing_the_cycle() {
    let t = fails_with(
        "uint a(uint x); uint b(uint x) { return a(x); } uint a(uint x) { return x == 0 ? 0 : b(x - 1); }\n\
         RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = a(3); }",
        "E0501",
    );
    assert!(
        t.contains("a -> b -> a") || t.contains("b -> a -> b"),
        "{t}"
    );
}

// --- expressions and statements --------------------------------------------

#[test]
fn short_circuit_operators_branch_in_hlsl_2021() {
    let m = lower(
        "RWStructuredBuffer<uint> o; bool side(uint i) { o[i] = 1; return true; }\n\
         [numthreads(1,1,1)] void main() { bool x = o[0] > 0 && side(1); bool y = o[0] > 0 || side(2); uint z = o[3] > 0 ? o[4] : side(5); }",
    );
    let f = function(&m, "src.main");
    let ifs = count_stmts(&f.body, &|s| matches!(s, Statement::If { .. }));
    assert_eq!(
        ifs, 3,
        "each operator evaluates its right side conditionally"
    );
}

#[test]
fn vector_conditions_in_2021_are_errors_and_select_works() {
    fails_with(
        "[numthreads(1,1,1)] void main() { float2 a = 1; bool2 c = a > 0 && a < 1; }",
        "E0307",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { float2 a = 1; float2 c = a > 0 ? a : 1; }",
        "E0307",
    );
    lower(
        "RWStructuredBuffer<float2> o; [numthreads(1,1,1)] void main() { float2 a = o[0]; o[1] = select(a > 0, a, 1); o[2] = any(and(a > 0, a < 1)) ? 1 : 0; }",
    );
}

#[test]
fn swizzle_stores_write_each_component() {
    let m = lower(
        "RWStructuredBuffer<float4> o; [numthreads(1,1,1)] void main() { o[0].zx = float2(1, 2); }",
    );
    let f = function(&m, "src.main");
    let stores = count_stmts(&f.body, &|s| matches!(s, Statement::Store { .. }));
    assert_eq!(stores, 2);
}

#[test]
fn out_and_inout_parameters_copy_back() {
    let m = lower(
        "RWStructuredBuffer<float> o;\n\
         void f(out float a, inout float b) { a = b; b = 2 * b; }\n\
         [numthreads(1,1,1)] void main() { float x; float y = 3; f(x, y); o[0] = x + y; }",
    );
    let f = function(&m, "f");
    assert!(matches!(
        m.types[f.arguments[0].ty].inner,
        TypeInner::Pointer {
            space: AddressSpace::Function,
            ..
        }
    ));
    assert!(matches!(
        m.types[f.arguments[1].ty].inner,
        TypeInner::Pointer { .. }
    ));
    fails_with(
        "void f(out float a) { a = 1; } [numthreads(1,1,1)] void main() { f(1.0); }",
        "E0508",
    );
}

#[test]
fn loops_and_switch_lower_to_structured_statements() {
    let m = lower(
        "RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() {\n\
           uint s = 0;\n\
           [unroll] for (uint i = 0; i < 4; i++) { if (i == 2) continue; s += i; }\n\
           uint j = 0; do { j++; } while (j < 3);\n\
           while (true) { if (s > 100) break; s *= 2; }\n\
           switch (s) { case 0: s = 1; case 1: s = 2; break; default: s = 3; break; }\n\
           o[0] = s + j;\n\
         }",
    );
    let f = function(&m, "src.main");
    let loops = count_stmts(&f.body, &|s| matches!(s, Statement::Loop { .. }));
    assert_eq!(loops, 3);
    let unrolled = count_stmts(&f.body, &|s| {
        matches!(
            s,
            Statement::Loop {
                control: ir::LoopControl::Unroll(None),
                ..
            }
        )
    });
    assert_eq!(unrolled, 1);
    let do_while = count_stmts(&f.body, &|s| {
        matches!(
            s,
            Statement::Loop {
                break_if: Some(_),
                ..
            }
        )
    });
    assert_eq!(do_while, 1);
    count_stmts(&f.body, &|s| {
        if let Statement::Switch { cases, .. } = s {
            assert_eq!(cases.len(), 3);
            assert!(cases[0].fall_through);
            assert!(!cases[1].fall_through);
        }
        false
    });
}

#[test]
fn statement_errors() {
    fails_with("[numthreads(1,1,1)] void main() { break; }", "E0502");
    fails_with("[numthreads(1,1,1)] void main() { continue; }", "E0503");
    fails_with(
        "int f() { return; } [numthreads(1,1,1)] void main() { f(); }",
        "E0504",
    );
    fails_with(
        "[numthreads(1,1,1)] void main() { switch (1) { case 1: break; case 1: break; } }",
        "E0505",
    );
    fails_with(
        "void f(); [numthreads(1,1,1)] void main() { f(); }",
        "E0506",
    );
    fails_with("[numthreads(1,1,1)] void main() { discard; }", "E0507");
}

#[test]
fn matrix_access_and_mul() {
    let m = lower(
        "RWStructuredBuffer<float4> o; cbuffer C { float4x4 m; row_major float3x4 r; };\n\
         [numthreads(1,1,1)] void main() { float4 v = o[0]; float4x4 a = m; a._m00_m11 = float2(1, 2); a[2][3] = 4;\n\
           o[1] = mul(v, a) + mul(a, v) + mul(r, v).xyzz + a._11 + mul(2, v).x + mul(v, v); }",
    );
    let f = function(&m, "src.main");
    let matmuls = count_exprs(f, &|e| {
        matches!(
            e,
            Expression::Binary {
                op: ir::BinaryOperator::MatMul,
                ..
            }
        )
    });
    assert_eq!(matmuls, 3);
    let g = global(&m, "C");
    match &m.types[g.ty].inner {
        TypeInner::Struct { members, .. } => {
            assert_eq!(
                members[0].matrix_layout,
                Some(ir::MatrixLayout {
                    row_major: false,
                    stride: 16
                })
            );
            assert_eq!(
                members[1].matrix_layout,
                Some(ir::MatrixLayout {
                    row_major: true,
                    stride: 16
                })
            );
            assert_eq!(members[1].offset, Some(64));
        }
        _ => panic!(),
    }
}

#[test]
fn pack_matrix_pragma_and_zpr_change_the_default() {
    let src = "cbuffer C { float2x3 a; };\n#pragma pack_matrix(row_major)\ncbuffer D { float2x3 b; };\n\
               RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { o[0] = a[0].x + b[0].x; }";
    let m = lower(src);
    let major = |m: &Module, n: &str| match &m.types[global(m, n).ty].inner {
        TypeInner::Struct { members, .. } => members[0].matrix_layout.unwrap().row_major,
        _ => panic!(),
    };
    assert!(!major(&m, "C"));
    assert!(major(&m, "D"));
    let mut o = options();
    o.matrix_layout = hlslc::options::MatrixLayout::RowMajor;
    let m = lower_with(
        "cbuffer C { float2x3 a; }; RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { o[0] = a[0].x; }",
        &o,
    );
    assert!(major(&m, "C"));
}

#[test]
fn literals_adapt_to_context() {
    let m = lower(
        "RWStructuredBuffer<uint> o; RWStructuredBuffer<half> h;\n\
         [numthreads(1,1,1)] void main() { uint u = o[0]; o[1] = u + 1; o[2] = (u << 33) ; h[0] = h[1] * 0.5; }",
    );
    let f = function(&m, "src.main");
    // `u + 1` adds two uints: no conversion of the literal at run time.
    let converts = count_exprs(f, &|e| {
        matches!(
            e,
            Expression::As {
                convert: Some(_),
                ..
            }
        )
    });
    assert_eq!(converts, 0, "literals take the other operand's type");
    // The shift amount is masked to 31.
    let masked = f
        .expressions
        .iter()
        .any(|(_, e)| matches!(e, Expression::Literal(ir::Literal::U32(31))));
    assert!(masked);
}

#[test]
fn sixteen_bit_types_with_the_option() {
    let mut o = options();
    o.enable_16bit_types = true;
    let m = lower_with(
        "RWStructuredBuffer<half> h; [numthreads(1,1,1)] void main() { h[0] = h[1] * 0.5; }",
        &o,
    );
    let g = global(&m, "h");
    let arr = match &m.types[g.ty].inner {
        TypeInner::Struct { members, .. } => members[0].ty,
        _ => panic!(),
    };
    match m.types[arr].inner {
        TypeInner::Array { base, stride, .. } => {
            assert_eq!(m.types[base].inner, TypeInner::Scalar(ir::Scalar::F16));
            assert_eq!(stride, Some(2));
        }
        _ => panic!(),
    }
}

// --- end to end: valid SPIR-V -----------------------------------------------

/// DXC's default layouts are vector-relaxed: Vulkan 1.0 needs
/// VK_KHR_relaxed_block_layout for them (core from 1.1).
fn val_flags(env: TargetEnv) -> &'static [&'static str] {
    if env == TargetEnv::Vulkan1_0 {
        &["--relax-block-layout"]
    } else {
        &[]
    }
}

/// Compiles to SPIR-V and validates it for each environment.
fn compile_valid(src: &str, envs: &[TargetEnv]) {
    for &env in envs {
        let mut o = options();
        o.target_env = env;
        let (loader, path) = common::single_file(src);
        let c = hlslc::compile(&path, &loader, &o);
        let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
        let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
            panic!("compile failed for {env:?}:\n{text}");
        };
        if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), val_flags(env)) {
            panic!(
                "invalid SPIR-V for {env:?}: {e}\n{}",
                common::spirv_dis(&a.spirv)
            );
        }
    }
}

#[test]
fn samples_compile_to_valid_spirv() {
    for name in [
        "reduce_sum",
        "prefix_sum",
        "histogram",
        "matmul",
        "blur",
        "particles",
        "cull_instances",
    ] {
        let path = common::root().join(format!("samples/{name}.hlsl"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let entry = text
            .lines()
            .find_map(|l| l.strip_prefix("// entry:").map(|s| s.trim().to_string()))
            .unwrap_or_else(|| "main".into());
        let mut o = options();
        o.entry = entry;
        o.profile = hlslc::options::Profile::parse("cs_6_0");
        let rel = std::path::PathBuf::from(format!("samples/{name}.hlsl"));
        // Wave intrinsics need Vulkan 1.1.
        let first = if text.contains("Wave") {
            TargetEnv::Vulkan1_1
        } else {
            TargetEnv::Vulkan1_0
        };
        for env in [first, TargetEnv::Vulkan1_2] {
            o.target_env = env;
            let c = hlslc::compile(&rel, &common::RootedLoader, &o);
            let diag =
                render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
            let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
                panic!("{name} failed for {env:?}:\n{diag}");
            };
            if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), val_flags(env)) {
                panic!("{name}: invalid SPIR-V for {env:?}: {e}");
            }
        }
    }
}

#[test]
fn compute_features_validate() {
    compile_valid(MAIN, &[TargetEnv::Vulkan1_0]);
    compile_valid(
        "struct P { float3 pos; float w; }; RWStructuredBuffer<P> ps; ByteAddressBuffer raw; RWByteAddressBuffer out_raw;\n\
         cbuffer K { float dt; uint count; };\n\
         groupshared uint total;\n\
         [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) {\n\
           if (gi == 0) total = 0; GroupMemoryBarrierWithGroupSync();\n\
           if (id.x >= count) return;\n\
           P p = ps[id.x]; p.pos += dt * float3(1, 2, 3); ps[id.x] = p;\n\
           InterlockedAdd(total, 1);\n\
           uint4 v = raw.Load4(id.x * 16); out_raw.Store4(id.x * 16, v * 2);\n\
           uint old; out_raw.InterlockedMax(0, id.x, old);\n\
         }",
        &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2],
    );
}

// --- resources as compile-time values --------------------------------------

#[test]
fn functions_taking_resources_are_specialized() {
    let m = lower(
        "StructuredBuffer<float> a; StructuredBuffer<float> b; RWStructuredBuffer<float> o;\n\
         float first(StructuredBuffer<float> s) { return s[0]; }\n\
         RWStructuredBuffer<float> target() { return o; }\n\
         [numthreads(1,1,1)] void main() { target()[0] = first(a) + first(b) + first(a); }",
    );
    // One instance per resource, none taking a pointer argument.
    let names: Vec<&str> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    assert!(
        names.contains(&"first(a)") && names.contains(&"first(b)"),
        "{names:?}"
    );
    assert_eq!(names.iter().filter(|n| n.starts_with("first")).count(), 2);
    assert!(function(&m, "first(a)").arguments.is_empty());
    assert!(function(&m, "target").result.is_none());
}

#[test]
fn resource_locals_and_structs_holding_resources() {
    lower(
        "struct Pair { StructuredBuffer<uint> src; RWStructuredBuffer<uint> dst; uint offset; };\n\
         StructuredBuffer<uint> g0; StructuredBuffer<uint> g1; RWStructuredBuffer<uint> out0;\n\
         static RWStructuredBuffer<uint> alias = out0;\n\
         [numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {\n\
           StructuredBuffer<uint> pick;\n\
           if (i > 3) { pick = g0; alias[i] = pick[i]; } else { pick = g1; alias[i] = pick[i]; }\n\
           Pair p = { g0, out0, 2 };\n\
           p.dst[p.offset] = p.src[1];\n\
           Pair q = p; q.src = g1; q.dst[0] = q.src[0];\n\
         }",
    );
    let t = fails_with(
        "StructuredBuffer<uint> g; [numthreads(1,1,1)] void main() { StructuredBuffer<uint> s; uint x = s[0]; }",
        "E0609",
    );
    assert!(t.contains("used before a resource is assigned"), "{t}");
}

#[test]
fn descriptor_heaps_bind_after_everything_else() {
    let mut o = options();
    o.profile = hlslc::options::Profile::parse("cs_6_6");
    let m = lower_with(
        "[[vk::binding(0)]] RWStructuredBuffer<uint> fixed;\n\
         [numthreads(1,1,1)] void main() {\n\
           Buffer<uint> src = ResourceDescriptorHeap[0];\n\
           RWBuffer<uint> dst = ResourceDescriptorHeap[1];\n\
           RWStructuredBuffer<uint> counted = ResourceDescriptorHeap[2];\n\
           dst[0] = src[1] + counted.IncrementCounter(); fixed[0] = 1;\n\
         }",
        &o,
    );
    let heaps: Vec<_> = m
        .globals
        .iter()
        .filter(|(_, g)| g.name.as_deref() == Some("ResourceDescriptorHeap"))
        .map(|(_, g)| g.binding.expect("heap binding"))
        .collect();
    assert_eq!(heaps.len(), 3, "one runtime array per resource type");
    assert!(
        heaps.iter().all(|b| b.set == 0 && b.binding == 1),
        "{heaps:?}"
    );
    assert_eq!(binding(&m, "counter.var.ResourceDescriptorHeap"), (0, 2));
}

#[test]
fn bit_fields_share_storage_units() {
    let m = lower(
        "struct B { uint a : 3; uint b : 5; int c : 4; float f; uint d : 30; uint e : 3; };\n\
         RWStructuredBuffer<B> o; [numthreads(1,1,1)] void main() { B x = o[0]; x.c = -1; x.e = x.a; o[1] = x; }",
    );
    let s = m
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("B") && matches!(&t.inner, TypeInner::Struct { members, .. } if members.iter().all(|m| m.offset.is_none())))
        .expect("struct B");
    match &s.1.inner {
        // a+b share a uint; c its own int; f; d; e does not fit after d.
        TypeInner::Struct { members, .. } => assert_eq!(members.len(), 5),
        _ => unreachable!(),
    }
}

#[test]
fn operator_overloading_and_auto() {
    lower(
        "struct V { float x; V operator+(V o) { V r; r.x = x + o.x; return r; } float operator[](uint i) { return x * i; } };\n\
         struct F { float k; float operator()(float v) { return v * k; } };\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { V a; a.x = 1; V b; b.x = 2; auto c = a + b; F f; f.k = 3; o[0] = c.x + c[2] + f(4); }",
    );
}

#[test]
fn constant_conditions_keep_one_branch() {
    let m = lower(
        "static const bool USE_A = true; RWStructuredBuffer<uint> a; RWStructuredBuffer<uint> b;\n\
         [numthreads(1,1,1)] void main() { if (USE_A) a[0] = 1; else b[0] = 1; }",
    );
    let f = function(&m, "src.main");
    assert_eq!(
        count_stmts(&f.body, &|s| matches!(s, Statement::If { .. })),
        0
    );
}

#[test]
fn derivatives_in_compute_pick_a_group_mode() {
    let mut o = options();
    o.profile = hlslc::options::Profile::parse("cs_6_6");
    let m = lower_with(
        "Texture2D t; SamplerState s; RWStructuredBuffer<float4> o;\n\
         [numthreads(8,8,1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = t.Sample(s, id.xy / 8.0); }",
        &o,
    );
    assert!(
        m.entry_points[0]
            .execution_modes
            .iter()
            .any(|(e, _)| *e == spirv::ExecutionMode::DerivativeGroupQuadsKHR)
    );
    let m = lower_with(
        "RWStructuredBuffer<float> o; [numthreads(12,1,1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = ddx((float)id.x); }",
        &o,
    );
    assert!(
        m.entry_points[0]
            .execution_modes
            .iter()
            .any(|(e, _)| *e == spirv::ExecutionMode::DerivativeGroupLinearKHR)
    );
}
