//! Structs holding resources: global ones flattened into one resource per
//! member (DXC's bindings), passed to functions by their resources, and
//! the errors where a resource is not known at compile time.

use super::*;

#[test]
fn global_struct_of_resources_gives_each_member_a_binding() {
    let m = lower(
        "struct S { Texture2D t; SamplerState s; };\n\
         S g; Texture2D after;\n\
         RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = g.t.SampleLevel(g.s, float2(0, 0), 0) + after.Load(int3(0, 0, 0)); }",
    );
    assert_eq!(global(&m, "g.t").space, AddressSpace::Handle);
    assert_eq!(binding(&m, "g.t"), (0, 0));
    assert_eq!(binding(&m, "g.s"), (0, 1));
    assert_eq!(binding(&m, "after"), (0, 2));
    assert!(!has_global(&m, "g"), "the struct itself is no variable");
}

#[test]
fn arrays_in_and_of_resource_structs_take_a_binding_per_element() {
    // DXC: every element of an array of structs is flattened, and a
    // resource array member takes one binding per element.
    let m = lower(
        "struct T { SamplerState s[3]; };\n\
         struct S { Texture2D t[2]; T tt[2]; };\n\
         S first[2]; S second;\n\
         float4 get(S x) { return x.t[1].SampleLevel(x.tt[1].s[2], float2(0, 0), 0); }\n\
         RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = get(first[0]) + get(first[1]) + get(second); }",
    );
    let want = [
        ("first[0].t", 0),
        ("first[0].tt[1].s", 5),
        ("first[1].t", 8),
        ("first[1].tt[1].s", 13),
        ("second.t", 16),
        ("second.tt[1].s", 21),
    ];
    for (name, b) in want {
        assert_eq!(binding(&m, name), (0, b), "{name}");
    }
    // Unused members keep their places: the next member's binding is after them.
    assert_eq!(binding(&m, "second.tt[0].s"), (0, 18));
}

#[test]
fn struct_of_resources_passed_to_a_function_validates() {
    compile_valid(
        "struct S { Texture2D t; SamplerState s; };\n\
         S g;\n\
         struct P { S inner; float scale; };\n\
         float4 sample(P p, float2 uv) { return p.inner.t.SampleLevel(p.inner.s, uv, 0) * p.scale; }\n\
         RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { P p; p.inner = g; p.scale = 2; o[0] = sample(p, float2(0.5, 0.5)); }",
        &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2],
    );
}

#[test]
fn struct_of_buffers_writes_through_its_members_on_vulkan() {
    // `fill` is made for `P`'s two buffers; `q` is another name for them.
    let src = "struct Pair { RWStructuredBuffer<uint> a; RWStructuredBuffer<uint> b; };\n\
               RWStructuredBuffer<uint> A; RWStructuredBuffer<uint> B;\n\
               void fill(Pair p, uint v, uint k) { p.a[k] = v; p.b[k] = v * 2; }\n\
               [numthreads(1,1,1)] void main() { Pair P; P.a = A; P.b = B; fill(P, 7, 0); Pair q = P; q.b[1] = q.a[0] + 1; }";
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let out = run_on_vulkan(
            src,
            env,
            vec![
                Resource::storage(0, 0, vec![0u8; 8]),
                Resource::storage(0, 1, vec![0u8; 8]),
            ],
        );
        assert_eq!(vk::to_u32s(&out[0].data), vec![7, 0], "{env:?}");
        assert_eq!(vk::to_u32s(&out[1].data), vec![14, 8], "{env:?}");
    }
}

#[test]
fn resource_structs_that_cannot_be_resolved_are_errors() {
    // Which element holds the resource must be known at compile time.
    let t = fails_with(
        "struct S { RWTexture2D<float> t; }; S g[2];\n\
         [numthreads(1,1,1)] void main(uint i : SV_GroupIndex) { g[i].t[uint2(0, 0)] = 1; }",
        "E0609",
    );
    assert!(t.contains("indexed with a constant"), "{t}");
    // A member never assigned a resource.
    let t = fails_with(
        "struct S { RWStructuredBuffer<uint> b; };\n\
         void f(S s) { s.b[0] = 1; }\n\
         [numthreads(1,1,1)] void main() { S l; f(l); }",
        "E0609",
    );
    assert!(
        t.contains("this member is used before a resource is assigned to it"),
        "{t}"
    );
    // Data members beside resources in a global struct are not placed yet.
    let t = fails_with(
        "struct S { RWTexture2D<uint> t; uint n; }; S g;\n\
         [numthreads(1,1,1)] void main() { g.t[uint2(0, 0)] = g.n; }",
        "E0004",
    );
    assert!(t.contains("both resource and data members"), "{t}");
    // DXC rejects buffers in global structs.
    let t = fails_with(
        "struct S { Texture2D t; RWStructuredBuffer<float> rw; }; S g[2];\n\
         [numthreads(1,1,1)] void main() { g[1].rw[0] = 1; }",
        "E0609",
    );
    assert!(t.contains("structured or byte-address buffer"), "{t}");
}

#[test]
fn arrays_of_counted_buffers_have_arrays_of_counters() {
    let src = "RWStructuredBuffer<uint> bufs[4] : register(u0, space1);\n\
               AppendStructuredBuffer<uint> app[2];\n\
               RWStructuredBuffer<uint> o;\n\
               [numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {\n\
                 o[0] = bufs[2].IncrementCounter() + bufs[i].DecrementCounter();\n\
                 app[1].Append(o[0]);\n\
               }";
    let m = lower(src);
    // DXC: the counters are one array of the same length, bound after it.
    for (name, len) in [("counter.var.bufs", 4), ("counter.var.app", 2)] {
        let g = global(&m, name);
        match m.types[g.ty].inner {
            TypeInner::Array {
                size: ir::ArraySize::Constant(n),
                ..
            } => assert_eq!(n, len, "{name}"),
            ref other => panic!("{name} is not an array: {other:?}"),
        }
    }
    // DXC: no counters for arrays of arrays of them.
    let t = fails_with(
        "RWStructuredBuffer<uint> g[2][3];\n\
         [numthreads(1,1,1)] void main() { g[1][2][0] = 1; }",
        "E0609",
    );
    assert!(
        t.contains("multi-dimensional arrays of `RWStructuredBuffer`"),
        "{t}"
    );
    assert_eq!(binding(&m, "bufs"), (1, 0));
    assert_eq!(binding(&m, "counter.var.bufs"), (1, 1));
    compile_valid(src, &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2]);
}

#[test]
fn out_and_inout_resource_parameters_rebind_the_callers_locals() {
    // DXC's legalization: once `pick` and `swap` are inlined, `x` and `y`
    // name `B` and `A`, then `A` and `B` again.
    let src = "RWStructuredBuffer<uint> A; RWStructuredBuffer<uint> B;\n\
               void pick(out RWStructuredBuffer<uint> a, out RWStructuredBuffer<uint> b) { a = B; b = A; }\n\
               void swap(inout RWStructuredBuffer<uint> p, inout RWStructuredBuffer<uint> q) {\n\
                 RWStructuredBuffer<uint> t = p; p = q; q = t;\n\
               }\n\
               [numthreads(1,1,1)] void main() {\n\
                 RWStructuredBuffer<uint> x; RWStructuredBuffer<uint> y;\n\
                 pick(x, y); x[0] = 5; y[1] = 6;\n\
                 swap(x, y); x[2] = 7; y[3] = 8;\n\
               }";
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let out = run_on_vulkan(
            src,
            env,
            vec![
                Resource::storage(0, 0, vec![0u8; 16]),
                Resource::storage(0, 1, vec![0u8; 16]),
            ],
        );
        assert_eq!(vk::to_u32s(&out[0].data), vec![0, 6, 7, 0], "{env:?}");
        assert_eq!(vk::to_u32s(&out[1].data), vec![5, 0, 0, 8], "{env:?}");
    }
    // Textures and samplers handed out through `out` parameters.
    compile_valid(
        "Texture2D<float4> T; SamplerState S; RWStructuredBuffer<float4> o;\n\
         void get(out Texture2D<float4> t, out SamplerState s) { t = T; s = S; }\n\
         [numthreads(1,1,1)] void main() { Texture2D<float4> t; SamplerState s; get(t, s);\n\
           o[0] = t.SampleLevel(s, float2(0.5, 0.5), 0); }",
        &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2],
    );
}

#[test]
fn resource_out_parameters_that_cannot_be_followed_are_errors() {
    // The callee never assigns its `out` parameter.
    let t = fails_with(
        "RWStructuredBuffer<uint> A;\n\
         void none(out RWStructuredBuffer<uint> a) { }\n\
         [numthreads(1,1,1)] void main() { RWStructuredBuffer<uint> x; none(x); x[0] = 1; }",
        "E0609",
    );
    assert!(
        t.contains("`x` is used before a resource is assigned"),
        "{t}"
    );
    // An unassigned local passed for an `in` parameter.
    let t = fails_with(
        "void use(RWStructuredBuffer<uint> a) { a[0] = 1; }\n\
         [numthreads(1,1,1)] void main() { RWStructuredBuffer<uint> x; use(x); }",
        "E0609",
    );
    assert!(t.contains("used before a resource is assigned"), "{t}");
    // Reading the `out` parameter before assigning it.
    let t = fails_with(
        "RWStructuredBuffer<uint> A;\n\
         void early(out RWStructuredBuffer<uint> a) { a[0] = 1; a = A; }\n\
         [numthreads(1,1,1)] void main() { RWStructuredBuffer<uint> x; early(x); }",
        "E0609",
    );
    assert!(
        t.contains("`a` is used before a resource is assigned"),
        "{t}"
    );
}

#[test]
fn methods_and_returns_of_partly_assigned_resource_structs() {
    // Only the members a method uses must hold resources (DXC legalizes
    // the others away); counters follow the members' buffers.
    let src = "struct Bundle { RWStructuredBuffer<uint> rw; AppendStructuredBuffer<uint> app; };\n\
               struct Two { Bundle a; Bundle b;\n\
                 AppendStructuredBuffer<uint> appender() { return a.app; }\n\
                 Bundle second() { return b; } };\n\
               RWStructuredBuffer<uint> R; AppendStructuredBuffer<uint> P;\n\
               [numthreads(1,1,1)] void main() {\n\
                 Two t; t.a.app = P; t.b.rw = R;\n\
                 t.appender().Append(3);\n\
                 Bundle s = t.second(); s.rw[0] = s.rw.IncrementCounter();\n\
               }";
    let m = lower(src);
    assert!(has_global(&m, "counter.var.P"));
    assert!(has_global(&m, "counter.var.R"));
    compile_valid(src, &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2]);
    // Using a member that was never assigned is an error at the use.
    let t = fails_with(
        "struct S { ByteAddressBuffer b; uint n; uint get() { return b.Load(n); } };\n\
         RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() { S s; s.n = 0; o[0] = s.get(); }",
        "E0609",
    );
    assert!(
        t.contains("this member is used before a resource is assigned"),
        "{t}"
    );
}

#[test]
fn globals_passed_to_inout_resource_parameters_that_keep_them() {
    // DXC: the callee only reads them; nothing to rebind.
    compile_valid(
        "Texture2D<float4> T; SamplerState S; RWStructuredBuffer<float4> o;\n\
         float4 get(inout Texture2D<float4> t, inout SamplerState s) { return t.SampleLevel(s, float2(0.5, 0.5), 0); }\n\
         [numthreads(1,1,1)] void main() { o[0] = get(T, S); }",
        &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2],
    );
    // A global the callee replaces cannot be rebound.
    let t = fails_with(
        "RWStructuredBuffer<uint> A; RWStructuredBuffer<uint> B;\n\
         void other(inout RWStructuredBuffer<uint> a) { a = B; }\n\
         [numthreads(1,1,1)] void main() { other(A); }",
        "E0004",
    );
    assert!(t.contains("not a local variable"), "{t}");
}

#[test]
fn buffers_chosen_at_run_time_pass_to_functions_with_their_counters() {
    // DXC: once `bump` is inlined, its counter is the chosen element of
    // `counter.var.bufs`. Here `bump` is made once for `bufs` and takes the
    // index.
    let src = "RWStructuredBuffer<uint> bufs[3];\n\
               RWStructuredBuffer<uint> o;\n\
               uint bump(RWStructuredBuffer<uint> b, uint k) { b[k] = 1; return b.IncrementCounter(); }\n\
               [numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {\n\
                 o[0] = bump(bufs[i + 1], 0) + bump(bufs[i], 1) + bump(bufs[2], 2);\n\
               }";
    let m = lower(src);
    assert!(has_global(&m, "counter.var.bufs"));
    let indexed: Vec<_> = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.name.starts_with("bump"))
        .map(|f| f.arguments.len())
        .collect();
    // One instance for a run-time element (`k` and the index), one for `bufs[2]`.
    assert_eq!(indexed.len(), 2, "{indexed:?}");
    assert!(indexed.contains(&2) && indexed.contains(&1), "{indexed:?}");
    compile_valid(src, &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2]);
}
