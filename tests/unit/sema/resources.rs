//! Layouts, bindings and resources as compile-time values.

use super::*;

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
        (crate::options::RegisterClass::T, 10, Some(0)),
        (crate::options::RegisterClass::T, 20, Some(1)),
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
    o.profile = crate::options::Profile::parse("cs_6_6");
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
    // `+` is not commutative here, so the values say which operand is
    // `this`; `auto` takes the type of its initializer (a `V`, an `int`).
    let out = run_float_outputs(
        "struct V { float x; V operator+(V o) { V r; r.x = x + 2 * o.x; return r; }\n\
                    float operator[](uint i) { return x * 10 + i; } };\n\
         struct F { float k; float operator()(float v) { return v * k - 1; } };\n\
         RWStructuredBuffer<float> o;\n\
         [numthreads(1,1,1)] void main() {\n\
           V a; a.x = 1; V b; b.x = 2; auto c = a + b; F f; f.k = 3; auto n = 7 / 2;\n\
           o[0] = c.x; o[1] = (b + a).x; o[2] = c[2]; o[3] = f(4); o[4] = n / 2;\n\
         }",
        5,
    );
    // a + b = 1 + 2 * 2, b + a = 2 + 2 * 1, c[2] = 5 * 10 + 2, f(4) = 4 * 3 - 1,
    // and n = 7 / 2 is an `int`: n / 2 = 1.
    assert_eq!(out, [5.0, 4.0, 52.0, 11.0, 1.0]);
}

#[test]
fn constant_conditions_keep_one_branch() {
    let src = "static const bool USE_A = true; RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() { if (USE_A) o[0] = 1; else o[0] = 2; }";
    let m = lower(src);
    let f = function(&m, "src.main");
    assert_eq!(
        count_stmts(&f.body, &|s| matches!(s, Statement::If { .. })),
        0
    );
    // The branch kept is the one the condition takes.
    assert_eq!(run_outputs(src, 1), [1]);
}

#[test]
fn derivatives_in_compute_pick_a_group_mode() {
    let mut o = options();
    o.profile = crate::options::Profile::parse("cs_6_6");
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

// --- texture reads ----------------------------------------------------------

#[test]
fn status_arguments_make_sparse_reads() {
    let src = "Texture2D<float4> tex; SamplerState smp; RWTexture2D<float> img; Buffer<uint> texels;\n\
         RWStructuredBuffer<float4> o;\n\
         [numthreads(8,8,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           uint s0, s1, s2, s3;\n\
           float4 a = tex.SampleLevel(smp, id.xy / 8.0, 0, int2(1, 0), s0);\n\
           float b = img.Load(id.xy, s1);\n\
           uint c = texels.Load(id.x, s2);\n\
           float4 d = tex.GatherRed(smp, id.xy / 8.0, int2(0, 0), int2(1, 0), int2(0, 1), int2(1, 1), s3);\n\
           bool all = CheckAccessFullyMapped(s0) && CheckAccessFullyMapped(s1)\n\
             && CheckAccessFullyMapped(s2) && CheckAccessFullyMapped(s3);\n\
           o[id.x] = all ? a + b + c + d : 0;\n\
         }";
    let m = lower(src);
    let f = function(&m, "src.main");
    let sparse = count_exprs(f, &|e| {
        matches!(e, Expression::ImageLoad { sparse: true, .. })
            || matches!(e, Expression::ImageSample(s) if s.sparse)
    });
    // SampleLevel, Load, Load, and one gather: its four constant offsets
    // are one ConstOffsets operand.
    assert_eq!(sparse, 4);
    // The four checks.
    assert_eq!(
        count_exprs(f, &|e| matches!(e, Expression::SparseTexelsResident { .. })),
        4
    );
    compile_valid(src, &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2]);
}

#[test]
fn comparison_gathers_and_sampling() {
    let src = "Texture2D<float> depth; SamplerComparisonState cmp; RWStructuredBuffer<float4> o;\n\
         [numthreads(8,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           float2 uv = id.xy / 8.0;\n\
           float4 g = depth.GatherCmpRed(cmp, uv, 0.5, int2(1, 1));\n\
           float s = depth.SampleCmpLevelZero(cmp, uv, 0.5);\n\
           o[id.x] = g + s;\n\
         }";
    let m = lower(src);
    let f = function(&m, "src.main");
    assert_eq!(
        count_exprs(f, &|e| matches!(
            e,
            Expression::ImageSample(s) if matches!(
                **s,
                ir::ImageSampling {
                    gather: Some(0),
                    depth_ref: Some(_),
                    ..
                }
            )
        )),
        1
    );
    compile_valid(src, &[TargetEnv::Vulkan1_2]);
    let e = fails_with(
        "Texture2D<float> depth; SamplerComparisonState cmp; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = depth.GatherCmpGreen(cmp, 0.5, 0.5); }",
        "E0608",
    );
    assert!(e.contains("no Vulkan equivalent"), "{e}");
}

#[test]
fn functions_return_elements_of_resource_arrays() {
    let src = "RWTexture2D<float4> images[4]; cbuffer K { uint which; };\n\
         RWTexture2D<float4> pick(uint i) { return images[i]; }\n\
         [numthreads(8,8,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           pick(which)[id.xy] = float4(1, 2, 3, 4);\n\
           RWTexture2D<float4> t = pick(2);\n\
           t[id.xy] += 1;\n\
         }";
    let m = lower(src);
    // The function returns the index; the caller indexes the array.
    let f = function(&m, "pick");
    assert!(f.result.is_some());
    compile_valid(src, &[TargetEnv::Vulkan1_2]);
    // On Vulkan: image k starts as (10 k, k, 0, 1) in every texel; `which`
    // is 1. Only images 1 (written) and 2 (incremented) change.
    let start = |k: usize| [10.0 * k as f32, k as f32, 0.0, 1.0];
    let mut resources: Vec<Resource> = (0..4)
        .map(|k| {
            let texels: Vec<f32> = (0..64).flat_map(|_| start(k)).collect();
            Resource::storage_image(
                0,
                0,
                vk::ImageDesc::d2(ash::vk::Format::R32G32B32A32_SFLOAT, 8, 8),
                vk::f32_bytes(&texels),
            )
            .at(k as u32)
        })
        .collect();
    resources.push(Resource::uniform(0, 1, vk::u32_bytes(&[1, 0, 0, 0])));
    let after = run_on_vulkan(src, TargetEnv::Vulkan1_0, resources);
    let want = [
        start(0),
        [1.0, 2.0, 3.0, 4.0],
        [21.0, 3.0, 1.0, 2.0],
        start(3),
    ];
    for (k, want) in want.iter().enumerate() {
        let got = vk::to_f32s(&after[k].data);
        for (texel, v) in got.chunks(4).enumerate() {
            assert_eq!(v, want, "images[{k}], texel {texel}");
        }
    }
}

#[test]
fn methods_of_structs_holding_resources_are_specialized() {
    let m = lower(
        "RWStructuredBuffer<uint> a; RWStructuredBuffer<uint> b;\n\
         struct Acc { RWStructuredBuffer<uint> buf; uint n; void add(uint v) { buf[n] += v; n++; } };\n\
         [numthreads(1,1,1)] void main() {\n\
           Acc x; x.buf = a; x.n = 0; x.add(1);\n\
           Acc y; y.buf = b; y.n = 5; y.add(2); y.add(3);\n\
         }",
    );
    // One instance per object's buffer; the data member is passed by pointer.
    let adds: Vec<&ir::Function> = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.name.starts_with("Acc::add"))
        .collect();
    assert_eq!(
        adds.len(),
        2,
        "{:?}",
        adds.iter().map(|f| &f.name).collect::<Vec<_>>()
    );
    for f in adds {
        assert_eq!(f.arguments.len(), 2);
    }
}

#[test]
fn mip_and_sample_element_access() {
    let src = "Texture2D<float4> tex; Texture2DMS<float4> ms; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() {\n\
           o[0] = tex.mips[2][int2(1, 1)] + tex[uint2(0, 0)];\n\
           o[1] = ms.sample[3][int2(4, 5)] + ms[int2(0, 0)];\n\
         }";
    let m = lower(src);
    let f = function(&m, "src.main");
    let level2 = count_exprs(f, &|e| {
        matches!(
            e,
            Expression::ImageLoad {
                level: Some(_),
                sample: None,
                ..
            }
        )
    });
    let sampled = count_exprs(f, &|e| {
        matches!(
            e,
            Expression::ImageLoad {
                level: None,
                sample: Some(_),
                ..
            }
        )
    });
    assert_eq!((level2, sampled), (2, 2));
    compile_valid(src, &[TargetEnv::Vulkan1_0]);
}

#[test]
fn arrays_of_constant_and_texture_buffers() {
    let src = "struct P { float4 v; float s; };\n\
         ConstantBuffer<P> cbs[4];\n\
         TextureBuffer<P> tbs[2] : register(t0, space1);\n\
         RWStructuredBuffer<float4> o;\n\
         [numthreads(4,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           o[id.x] = cbs[id.x].v + cbs[1].s + tbs[id.x % 2].v;\n\
           P copy = cbs[2]; o[5] = copy.v;\n\
         }";
    let m = lower(src);
    let g = global(&m, "cbs");
    assert!(matches!(
        m.types[g.ty].inner,
        TypeInner::Array {
            size: ir::ArraySize::Constant(4),
            ..
        }
    ));
    assert_eq!(binding(&m, "tbs"), (1, 0));
    compile_valid(src, &[TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2]);
    fails_with(
        "struct P { float4 v; }; ConstantBuffer<P> cbs[2]; RWStructuredBuffer<float4> o;\n\
         [numthreads(1,1,1)] void main() { cbs[0].v = 1; }",
        "E0408",
    );
}

#[test]
fn byte_address_matrices_are_column_major_unless_row_major_is_asked_for() {
    let src = "RWByteAddressBuffer b : register(u0);\n\
               [numthreads(1,1,1)] void main() {\n\
                 uint2x3 m = uint2x3(1, 2, 3, 4, 5, 6);\n\
                 b.Store<uint2x3>(0, m);\n\
                 uint2x3 n = b.Load<uint2x3>(0);\n\
                 b.Store(24, n._m01 * 10 + n._m10);\n\
               }";
    // DXC's order: the default `column_major` stores column by column.
    assert_eq!(run_outputs(src, 7), [1, 4, 2, 5, 3, 6, 24]);
    // `-Zpr` and DXC's legacy order store row by row.
    for flag in ["-Zpr", "-fspv-use-legacy-buffer-matrix-order"] {
        let o = Options::from_args(["-T", "cs_6_2", "-E", "main", flag]).unwrap();
        let words = compile_valid_words_with(src, &o);
        let mut res = vec![Resource::storage(0, 0, vec![0u8; 28])];
        vk::shared()
            .run_compute(&words, "main", &mut res, &[], [1, 1, 1])
            .unwrap();
        assert_eq!(vk::to_u32s(&res[0].data), [1, 2, 3, 4, 5, 6, 24], "{flag}");
    }
}

#[test]
fn constant_buffers_as_values_are_copies_of_their_struct() {
    // A ConstantBuffer<S> local, parameter and return: Function variables
    // and values of S, filled by loading the whole Uniform block.
    let src = "struct S { float a; float b; };\n\
               ConstantBuffer<S> buffer;\n\
               TextureBuffer<S> tb;\n\
               RWStructuredBuffer<float> o;\n\
               float f(ConstantBuffer<S> p) { return p.b; }\n\
               float g(TextureBuffer<S> t) { return t.a; }\n\
               ConstantBuffer<S> h() { return buffer; }\n\
               [numthreads(1,1,1)] void main() {\n\
                 ConstantBuffer<S> local = buffer;\n\
                 local = buffer;\n\
                 S copy = local;\n\
                 o[0] = f(buffer) + g(tb) + h().a + copy.b;\n\
               }";
    let words = compile_valid_words(src, TargetEnv::Vulkan1_1);
    let spv = common::Spv {
        module: rspirv::dr::load_words(&words).expect("rspirv reads the module"),
    };
    use rspirv::dr::Operand;
    use spirv::{Op, StorageClass};
    // The whole block is loaded (its value is copied into S).
    let block_loads = spv
        .all(Op::Load)
        .iter()
        .filter(|l| {
            let Operand::IdRef(p) = l.operands[0] else {
                return false;
            };
            let d = spv.def(p);
            d.class.opcode == Op::Variable
                && matches!(
                    d.operands[0],
                    Operand::StorageClass(StorageClass::Uniform | StorageClass::StorageBuffer)
                )
                && spv.def(l.result_type.expect("typed")).class.opcode == Op::TypeStruct
        })
        .count();
    assert!(block_loads >= 2, "{}", common::spirv_dis(&words));
}
