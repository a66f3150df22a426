//! Entry points, names, types, overloads, expressions and statements.

use super::*;

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
    // Likely entry points (with attributes or semantics) come first.
    assert!(t.contains("other, helper"), "{t}");
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
    let src = "namespace ns { static const int K = 4; float g(float x) { return x * K; } namespace inner { typedef float4 V; } }\n\
         using namespace ns;\n\
         enum Color { Red, Green = 5, Blue };\n\
         enum class Mode : uint { A = 1, B };\n\
         struct Counter { uint n; void add(uint k) { n += k; } uint get() { return n; } static uint twice(uint x) { return 2 * x; } };\n\
         struct Derived : Counter { uint extra; uint total() { return get() + extra; } };\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() {\n\
            ns::inner::V v = float4(1, 2, 3, 4); Counter c; c.n = 0; c.add(3); Derived d; d.n = 1; d.extra = 20;\n\
            float arr[K]; arr[K - 1] = 7;\n\
            o[0] = g(v.y); o[1] = ns::g(3); o[2] = Red; o[3] = Green; o[4] = Blue; o[5] = (uint)Mode::B;\n\
            o[6] = c.get(); o[7] = Counter::twice(5); o[8] = d.total(); o[9] = arr[3]; o[10] = v.w;\n\
         }";
    let m = lower(src);
    // `K` sizes the array through the using-directive.
    let main = function(&m, "src.main");
    let arr = main
        .local_variables
        .iter()
        .find(|(_, l)| l.name.as_deref() == Some("arr"))
        .map(|(_, l)| &m.types[l.ty].inner)
        .expect("local `arr`");
    assert!(
        matches!(
            arr,
            TypeInner::Array {
                size: ir::ArraySize::Constant(4),
                ..
            }
        ),
        "{arr:?}"
    );
    let out = run_float_outputs(src, 11);
    // g(2) = 2 K, ns::g(3) = 3 K; the enumerators count on from the last
    // explicit value (Blue = 6, Mode::B = 2); c.add(3) changed `c`; the
    // derived struct's method calls the base's; `V` is a float4.
    assert_eq!(
        out,
        [8.0, 12.0, 0.0, 5.0, 6.0, 2.0, 3.0, 10.0, 21.0, 7.0, 4.0]
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
    o.matrix_layout = crate::options::MatrixLayout::RowMajor;
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
    // The shift amount takes the left operand's type; the IR shift counts
    // it modulo 32 (the backend masks it).
    let shift_by_33 = f.expressions.iter().any(|(_, e)| {
        matches!(e, Expression::Binary { op: ir::BinaryOperator::ShiftLeft, right, .. }
            if matches!(f.expressions[*right], Expression::Literal(ir::Literal::U32(33))))
    });
    assert!(shift_by_33);
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

#[test]
fn unused_functions_are_checked_but_not_emitted() {
    let m = lower(
        "RWStructuredBuffer<float> o; static float counter;\n\
         float helper(float x) { counter += 1; return x * 2; }\n\
         float unused(float x) { return helper(x) + 1; }\n\
         [numthreads(1,1,1)] void main() { o[0] = helper(3); }",
    );
    let names: Vec<&str> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    assert!(names.contains(&"helper"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("unused")), "{names:?}");
    let e = fails_with(
        "RWStructuredBuffer<float> o;\n\
         float unused(float x) { return x + missing; }\n\
         [numthreads(1,1,1)] void main() { o[0] = 1; }",
        "E0301",
    );
    assert!(e.contains("missing"), "{e}");
}

#[test]
fn for_initializers_scope_by_language_version() {
    let src = "RWStructuredBuffer<int> o;\n\
         [numthreads(1,1,1)] void main() { for (int i = 0; i < 3; i++) {} o[0] = i; }";
    let mut o = options();
    o.hlsl_version = 2018;
    lower_with(src, &o);
    let e = fails_with(src, "E0301");
    assert!(e.contains("`i`"), "{e}");
}

#[test]
fn overloads_are_ranked_by_summed_conversion_costs() {
    // One splat costs less than one truncation (DXC's scoring): the float3
    // overload wins although each candidate is better in one argument.
    let m = lower(
        "RWStructuredBuffer<float3> o;\n\
         float3 pick(float a, float b) { return 1; }\n\
         float3 pick(float3 a, float3 b) { return 2; }\n\
         [numthreads(1,1,1)] void main() { o[0] = pick(o[1], 0.5f); }",
    );
    let f = function(&m, "pick");
    assert_eq!(f.arguments.len(), 2);
    assert_eq!(
        m.types[f.arguments[0].ty].inner,
        TypeInner::Vector {
            size: 3,
            scalar: ir::Scalar::F32
        }
    );
}

#[test]
fn sixteen_bit_reinterpretation_and_pasted_type_names() {
    let mut o = options();
    o.enable_16bit_types = true;
    let m = lower_with(
        "#define T16(base) base##16_t\n\
         RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() {\n\
           T16(float) h = asfloat16(asuint16(T16(float)(2.0)));\n\
           T16(uint) bits = asuint16(1.0);\n\
           o[0] = asuint16(h) + bits + asuint16(1);\n\
         }",
        &o,
    );
    let f = function(&m, "src.main");
    let casts = count_exprs(f, &|e| matches!(e, Expression::As { convert: None, .. }));
    assert!(casts >= 2, "bit casts: {casts}");
    let e = diagnose_with(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = asuint16(1.0); }",
        &options(),
    )
    .0;
    assert!(e.contains("-enable-16bit-types"), "{e}");
}

#[test]
fn mul_truncates_a_longer_vector_with_a_warning() {
    let (text, failed) = diagnose(
        "RWStructuredBuffer<float3> o; cbuffer K { float4x4 m; float4 v; };\n\
         [numthreads(1,1,1)] void main() { o[0] = mul((float3x3)m, v) + mul(v, (float3x3)m); }",
    );
    assert!(!failed, "{text}");
    assert!(text.contains("W0301"), "{text}");
    let e = fails_with(
        "RWStructuredBuffer<float4> o; cbuffer K { float4x4 m; float3 v; };\n\
         [numthreads(1,1,1)] void main() { o[0] = mul(m, v); }",
        "E0309",
    );
    assert!(e.contains("cannot multiply"), "{e}");
}

#[test]
fn predefined_ray_tracing_structs_and_user_shadowing() {
    // Written to a buffer, a RayDesc shows its members' order and types:
    // Origin (float3), TMin, Direction (float3), TMax, as DXC declares it.
    let out = run_float_outputs(
        "RWStructuredBuffer<RayDesc> o;\n\
         [numthreads(1,1,1)] void main() { RayDesc r; r.TMax = 8; r.Direction = float3(5, 6, 7);\n\
           r.TMin = 4; r.Origin = float3(1, 2, 3); o[0] = r; }",
        8,
    );
    assert_eq!(out, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    let out = run_float_outputs(
        "RWStructuredBuffer<float2> o;\n\
         float2 bary(BuiltInTriangleIntersectionAttributes a) { return a.barycentrics; }\n\
         [numthreads(1,1,1)] void main() { BuiltInTriangleIntersectionAttributes b;\n\
           b.barycentrics = float2(0.25, 0.5); o[0] = bary(b); }",
        2,
    );
    assert_eq!(out, [0.25, 0.5]);
    // A user struct of the same name wins: RayDesc is that struct.
    let m = lower(
        "struct RayDesc { float a; }; RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() { RayDesc r; r.a = 1; o[0] = r.a; }",
    );
    let ray_descs: Vec<Vec<Option<&str>>> = m
        .types
        .iter()
        .filter(|(_, t)| t.name.as_deref() == Some("RayDesc"))
        .map(|(_, t)| match &t.inner {
            TypeInner::Struct { members, .. } => {
                members.iter().map(|m| m.name.as_deref()).collect()
            }
            other => panic!("RayDesc is {other:?}"),
        })
        .collect();
    assert_eq!(ray_descs, [vec![Some("a")]]);
}

#[test]
fn a_namespace_name_is_one_only_before_scope_resolution() {
    // `Hash` is a namespace and also a function in another namespace;
    // `Normal` is a namespace and a member name; `Hash::Mix` is not the
    // global `Mix`.
    let out = run_outputs(
        "uint Mix(uint x) { return x + 100; }\n\
         namespace Hash { uint Mix(uint x) { return x * 3 + 1; } }\n\
         namespace Sequence { uint Hash(uint x) { return x ^ 7; } }\n\
         namespace Normal { struct Parameters { float w; }; }\n\
         struct Weights { Normal::Parameters Normal; };\n\
         RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() {\n\
           Weights w; w.Normal.w = 2;\n\
           o[0] = Sequence::Hash(Hash::Mix(1)); o[1] = Hash::Mix(Sequence::Hash(1));\n\
           o[2] = (uint)w.Normal.w; o[3] = Mix(1);\n\
         }",
        4,
    );
    // (1 * 3 + 1) ^ 7 = 3; (1 ^ 7) * 3 + 1 = 19.
    assert_eq!(out, [3, 19, 2, 101]);
}

#[test]
fn hlsl_attributes_match_without_case() {
    let m = lower(
        "RWStructuredBuffer<uint> o;\n\
         [NumThreads(4, 2, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           [Unroll] for (int i = 0; i < 2; i++) o[id.x] += i;\n\
         }",
    );
    assert_eq!(m.entry_points[0].workgroup_size, [4, 2, 1]);
}
