//! Reflection JSON (`crate::reflect`): on IR modules built by hand (written
//! and validated by the SPIR-V backend first, so that what is reflected is
//! a real module) here, and on compiled HLSL in `compiled`.

mod compiled;

use crate::ir::{
    self, AddressSpace, AtomicFunction, Expression, ImageClass, ImageDim, ImageFormat, Literal,
    MatrixLayout, Scalar, Statement, TypeInner,
};
use crate::options::{LayoutRule, Options, Stage, TargetEnv};
use crate::reflect::{ArrayDim, Reflection, ResourceKind, reflect};
use crate::tests::back_spv::{
    FunctionBuilder, ModuleBuilder, Written, member, options, write_valid, write_valid_with,
};

fn column_major(stride: u32) -> Option<MatrixLayout> {
    Some(MatrixLayout {
        row_major: false,
        stride,
    })
}

/// ```hlsl
/// struct Inner { float2 uv; float w; };
/// [[vk::binding(0, 0)]] cbuffer Params {
///     float3 dir; float scale; float4x3 xf; float weights[3]; Inner inner[2];
/// };
/// struct Particle { float3 pos; float life; row_major float2x2 m; };
/// [[vk::binding(1, 0)]] RWStructuredBuffer<Particle> particles; // counter at (0, 2)
/// [[vk::binding(3, 0)]] [[vk::image_format("r32f")]] RWTexture2D<float> result;
/// [[vk::binding(4, 0)]] Buffer<uint> lut;
/// [[vk::binding(0, 1)]] Texture2D<float4> textures[];
/// [[vk::binding(1, 1)]] SamplerComparisonState shadow;
/// [[vk::push_constant]] struct { uint count; } pc;
/// groupshared float tmp[64];
/// [numthreads(8, 8, 1)] void main() {
///     particles[particles.IncrementCounter()].life = scale;
///     particles[…].life = pc.count;
/// }
/// ```
/// Compiled with `-fspv-preserve-bindings` ([`compute_options`]), so that
/// the resources `main` does not use are declared too.
fn compute_module() -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let u32_ty = mb.u32();
    let i32_ty = mb.i32();
    let vec2 = mb.vec(2, Scalar::F32);
    let vec3 = mb.vec(3, Scalar::F32);
    let vec4 = mb.vec(4, Scalar::F32);
    let m43 = mb.mat(4, 3);
    let m22 = mb.mat(2, 2);

    let inner = mb.named(
        "Inner",
        TypeInner::Struct {
            members: vec![
                member(Some("uv"), vec2, Some(0)),
                member(Some("w"), f32_ty, Some(8)),
            ],
            size: 16,
        },
    );
    let weights = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(3),
        stride: Some(16),
    });
    let inners = mb.ty(TypeInner::Array {
        base: inner,
        size: ir::ArraySize::Constant(2),
        stride: Some(16),
    });
    let params = mb.named(
        "type.Params",
        TypeInner::Struct {
            members: vec![
                member(Some("dir"), vec3, Some(0)),
                member(Some("scale"), f32_ty, Some(12)),
                ir::StructMember {
                    matrix_layout: column_major(16),
                    ..member(Some("xf"), m43, Some(16))
                },
                member(Some("weights"), weights, Some(64)),
                member(Some("inner"), inners, Some(112)),
            ],
            size: 144,
        },
    );
    let cb = mb.resource("Params", AddressSpace::Uniform, params, 0, 0);

    let particle = mb.named(
        "Particle",
        TypeInner::Struct {
            members: vec![
                member(Some("pos"), vec3, Some(0)),
                member(Some("life"), f32_ty, Some(12)),
                ir::StructMember {
                    matrix_layout: Some(MatrixLayout {
                        row_major: true,
                        stride: 8,
                    }),
                    ..member(Some("m"), m22, Some(16))
                },
            ],
            size: 32,
        },
    );
    let particles_ty = mb.structured_buffer("type.RWStructuredBuffer.Particle", particle, 32);
    let counter_ty = mb.named(
        "type.ACSBuffer.counter",
        TypeInner::Struct {
            members: vec![member(None, i32_ty, Some(0))],
            size: 4,
        },
    );
    let storage = AddressSpace::Storage { writable: true };
    let particles = mb.resource("particles", storage, particles_ty, 0, 1);
    let counter = mb.resource("counter.var.particles", storage, counter_ty, 0, 2);
    mb.m.globals[particles].counter = Some(counter);

    let image = |dim, class, sampled| TypeInner::Image {
        dim,
        arrayed: false,
        multisampled: false,
        sampled,
        class,
    };
    let result_ty = mb.ty(image(
        ImageDim::D2,
        ImageClass::Storage {
            format: ImageFormat::R32f,
        },
        Scalar::F32,
    ));
    mb.resource("result", AddressSpace::Handle, result_ty, 0, 3);
    let lut_ty = mb.ty(image(ImageDim::Buffer, ImageClass::Sampled, Scalar::U32));
    mb.resource("lut", AddressSpace::Handle, lut_ty, 0, 4);
    let tex_ty = mb.ty(image(ImageDim::D2, ImageClass::Sampled, Scalar::F32));
    let textures_ty = mb.ty(TypeInner::Array {
        base: tex_ty,
        size: ir::ArraySize::Runtime,
        stride: None,
    });
    mb.resource("textures", AddressSpace::Handle, textures_ty, 1, 0);
    let shadow_ty = mb.ty(TypeInner::Sampler { comparison: true });
    mb.resource("shadow", AddressSpace::Handle, shadow_ty, 1, 1);
    let pc_ty = mb.named(
        "type.PushConstant.PC",
        TypeInner::Struct {
            members: vec![member(Some("count"), u32_ty, Some(0))],
            size: 4,
        },
    );
    let pc = mb.global("pc", AddressSpace::PushConstant, pc_ty);
    let tmp_ty = mb.ty(TypeInner::Array {
        base: f32_ty,
        size: ir::ArraySize::Constant(64),
        stride: None,
    });
    mb.global("tmp", AddressSpace::Workgroup, tmp_ty);
    let _ = vec4;

    let cb_ptr = mb.ptr(params, AddressSpace::Uniform);
    let uf_ptr = mb.ptr(f32_ty, AddressSpace::Uniform);
    let pb_ptr = mb.ptr(particles_ty, storage);
    let parr_ty = match mb.m.types[particles_ty].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let parr_ptr = mb.ptr(parr_ty, storage);
    let p_ptr = mb.ptr(particle, storage);
    let sf_ptr = mb.ptr(f32_ty, storage);
    let counter_ptr = mb.ptr(counter_ty, storage);
    let int_ptr = mb.ptr(i32_ty, storage);
    let pc_ptr = mb.ptr(pc_ty, AddressSpace::PushConstant);
    let pc_u32_ptr = mb.ptr(u32_ty, AddressSpace::PushConstant);

    let mut f = FunctionBuilder::new("main");
    let gcb = f.global(cb, cb_ptr);
    let sp = f.index(gcb, 1, uf_ptr);
    let scale = f.load(sp, f32_ty);
    let gc = f.global(counter, counter_ptr);
    let cp = f.index(gc, 0, int_ptr);
    let slot = f.add(Expression::AtomicResult, i32_ty);
    let one = f.lit(Literal::I32(1), i32_ty);
    f.stmt(Statement::Atomic {
        pointer: cp,
        fun: AtomicFunction::Add,
        value: Some(one),
        compare: None,
        result: Some(slot),
    });
    let gp = f.global(particles, pb_ptr);
    let arr = f.index(gp, 0, parr_ptr);
    let p = f.access(arr, slot, p_ptr);
    let life = f.index(p, 1, sf_ptr);
    f.store(life, scale);
    let gpc = f.global(pc, pc_ptr);
    let count = f.index(gpc, 0, pc_u32_ptr);
    let count = f.load(count, u32_ty);
    let lp = f.index(p, 1, sf_ptr);
    let count = f.emit(
        Expression::As {
            expr: count,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    f.store(lp, count);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [8, 8, 1]);
    mb.m
}

fn compute_options() -> Options {
    Options {
        profile: crate::options::Profile::parse("cs_6_0"),
        reflect: true,
        preserve_bindings: true,
        ..Options::default()
    }
}

/// Writes `m` as `o` asks (its target and what it keeps unused), and
/// validates it.
fn write_for(m: &ir::Module, o: &Options) -> Written {
    let spv_options = crate::back::spv::Options {
        keep_unused: o.writer_options().keep_unused,
        ..options(o.target_env)
    };
    write_valid_with(m, &spv_options, &[])
}

fn reflect_valid(m: &ir::Module, o: &Options) -> Reflection {
    let w = write_for(m, o);
    reflect(m, &o.reflect_options(), &w.words)
}

#[test]
fn compute_entry_point_and_header() {
    let r = reflect_valid(&compute_module(), &compute_options());
    assert_eq!(r.schema, 1);
    assert_eq!(r.target_env, "vulkan1.0");
    assert_eq!(r.spirv_version, "1.0");
    assert_eq!(r.profile.as_deref(), Some("cs_6_0"));
    assert_eq!(r.layout_rule, "relaxed");
    assert_eq!(r.capabilities[0], "Shader");
    assert!(
        r.capabilities.iter().any(|c| c == "RuntimeDescriptorArray"),
        "{:?}",
        r.capabilities
    );
    assert!(
        r.extensions
            .iter()
            .any(|e| e == "SPV_EXT_descriptor_indexing"),
        "{:?}",
        r.extensions
    );
    assert_eq!(r.entry_points.len(), 1);
    let ep = &r.entry_points[0];
    assert_eq!(ep.name, "main");
    assert_eq!(ep.stage, "compute");
    assert_eq!(ep.workgroup_size, Some([8, 8, 1]));
    assert_eq!(ep.execution_modes, vec!["LocalSize 8 8 1"]);
    assert!(ep.inputs.is_empty() && ep.outputs.is_empty());
}

#[test]
fn resources_are_classified_and_sorted() {
    let r = reflect_valid(&compute_module(), &compute_options());
    type Row<'a> = (Option<&'a str>, Option<u32>, Option<u32>, ResourceKind);
    let listed: Vec<Row> = r
        .resources
        .iter()
        .map(|r| (r.name.as_deref(), r.set, r.binding, r.kind))
        .collect();
    use ResourceKind as K;
    assert_eq!(
        listed,
        vec![
            (Some("Params"), Some(0), Some(0), K::UniformBuffer),
            (Some("particles"), Some(0), Some(1), K::StorageBuffer),
            (
                Some("counter.var.particles"),
                Some(0),
                Some(2),
                K::StorageBuffer
            ),
            (Some("result"), Some(0), Some(3), K::StorageImage),
            (Some("lut"), Some(0), Some(4), K::UniformTexelBuffer),
            (Some("textures"), Some(1), Some(0), K::SampledImage),
            (Some("shadow"), Some(1), Some(1), K::Sampler),
            (Some("pc"), None, None, K::PushConstant),
        ],
        "groupshared `tmp` is not a resource"
    );

    let particles = r.resource("particles").unwrap();
    assert_eq!(particles.access.as_deref(), Some("read_write"));
    assert_eq!(
        particles.hlsl_type.as_deref(),
        Some("RWStructuredBuffer<Particle>")
    );
    let counter = particles.counter.as_ref().expect("a counter");
    assert_eq!(
        (counter.name.as_deref(), counter.set, counter.binding),
        (Some("counter.var.particles"), Some(0), Some(2))
    );
    let c = r.resource("counter.var.particles").unwrap();
    assert_eq!(c.counter_for.as_deref(), Some("particles"));
    assert!(c.used);

    let result = r.resource("result").unwrap();
    let img = result.image.as_ref().unwrap();
    assert_eq!(
        (
            img.dim.as_str(),
            img.format.as_deref(),
            img.sampled_type.as_str()
        ),
        ("2d", Some("r32f"), "float")
    );
    assert_eq!(result.access.as_deref(), Some("read_write"));
    assert_eq!(result.hlsl_type.as_deref(), Some("RWTexture2D<float>"));
    let lut = r.resource("lut").unwrap();
    assert_eq!(lut.image.as_ref().unwrap().dim, "buffer");
    assert_eq!(lut.image.as_ref().unwrap().sampled_type, "uint");
    assert_eq!(lut.hlsl_type.as_deref(), Some("Buffer<uint>"));

    let textures = r.resource("textures").unwrap();
    assert!(textures.runtime_array);
    assert_eq!(textures.count, 0);
    assert!(textures.image.as_ref().unwrap().format.is_none());
    assert_eq!(r.resource("shadow").unwrap().comparison, Some(true));
    assert_eq!(
        r.resource("shadow").unwrap().hlsl_type.as_deref(),
        Some("SamplerComparisonState")
    );
    assert_eq!(r.resource("Params").unwrap().count, 1);

    // Static use: only the cbuffer, the buffer and its counter.
    let used: Vec<&str> = r
        .resources
        .iter()
        .filter(|r| r.used)
        .filter_map(|r| r.name.as_deref())
        .collect();
    assert_eq!(
        used,
        vec!["Params", "particles", "counter.var.particles", "pc"]
    );

    let pc = r.resource("pc").unwrap();
    let block = pc.block.as_ref().unwrap();
    assert_eq!(block.size, 4);
    assert_eq!(block.member("count").unwrap().type_name, "uint");
    assert_eq!(pc.hlsl_type.as_deref(), Some("PC"));
    assert_eq!(c.hlsl_type, None);
}

#[test]
fn cbuffer_layout_with_matrices_arrays_and_structs() {
    let r = reflect_valid(&compute_module(), &compute_options());
    let params = r.resource("Params").unwrap();
    assert_eq!(params.hlsl_type.as_deref(), Some("cbuffer"));
    let b = params.block.as_ref().unwrap();
    assert_eq!(b.type_name.as_deref(), Some("type.Params"));
    assert_eq!(b.size, 144);
    let summary: Vec<(&str, &str, u32, u32)> = b
        .members
        .iter()
        .map(|m| {
            (
                m.name.as_deref().unwrap(),
                m.type_name.as_str(),
                m.offset,
                m.size,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("dir", "float3", 0, 12),
            ("scale", "float", 12, 4),
            // Three columns of four floats, 16 bytes apart.
            ("xf", "float4x3", 16, 48),
            // The last element is not padded: a following scalar could sit at 100.
            ("weights", "float[3]", 64, 36),
            ("inner", "Inner[2]", 112, 32),
        ]
    );
    let xf = b.member("xf").unwrap().matrix.as_ref().unwrap();
    assert_eq!((xf.rows, xf.columns, xf.stride), (4, 3, 16));
    assert_eq!(xf.major, "column_major");
    assert_eq!(
        b.member("weights").unwrap().array,
        Some(vec![ArrayDim {
            count: 3,
            stride: 16
        }])
    );
    let inner = b.member("inner").unwrap();
    assert_eq!(inner.member("uv").unwrap().offset, 0);
    assert_eq!(inner.member("w").unwrap().offset, 8);
    assert_eq!(inner.member("w").unwrap().size, 4);
    assert!(b.member("dir").unwrap().array.is_none());
    assert!(b.member("dir").unwrap().matrix.is_none());
}

#[test]
fn structured_buffer_element_layout() {
    let r = reflect_valid(&compute_module(), &compute_options());
    let b = r.resource("particles").unwrap().block.as_ref().unwrap();
    assert_eq!(b.members.len(), 1);
    let data = &b.members[0];
    assert_eq!(data.type_name, "Particle[]");
    assert_eq!(
        data.array,
        Some(vec![ArrayDim {
            count: 0,
            stride: 32
        }])
    );
    assert_eq!(data.size, 0, "runtime-sized");
    let m = data.member("m").unwrap();
    assert_eq!(
        (m.offset, m.size, m.type_name.as_str()),
        (16, 16, "float2x2")
    );
    let mm = m.matrix.as_ref().unwrap();
    assert_eq!((mm.stride, mm.major.as_str()), (8, "row_major"));
}

/// Without `-fspv-preserve-bindings` the module declares, and reflection
/// lists, only what `main` uses (as DXC leaves the rest out).
#[test]
fn unused_resources_are_left_out_unless_preserved() {
    let o = Options {
        preserve_bindings: false,
        ..compute_options()
    };
    let m = compute_module();
    let w = write_for(&m, &o);
    let r = reflect(&m, &o.reflect_options(), &w.words);
    let listed: Vec<&str> = r
        .resources
        .iter()
        .filter_map(|r| r.name.as_deref())
        .collect();
    assert_eq!(
        listed,
        vec!["Params", "particles", "counter.var.particles", "pc"]
    );
    assert!(r.resources.iter().all(|r| r.used));
    for unused in ["result", "lut", "textures", "shadow", "tmp"] {
        assert!(
            !w.text.contains(&format!("\"{unused}\"")),
            "{unused} declared:\n{}",
            w.text
        );
    }
    assert!(
        !r.capabilities.iter().any(|c| c == "RuntimeDescriptorArray"),
        "{:?}",
        r.capabilities
    );
    // The preserving compile declares them all.
    let kept = write_for(&m, &compute_options());
    for name in ["result", "lut", "textures", "shadow"] {
        assert!(kept.text.contains(&format!("\"{name}\"")), "{}", kept.text);
    }
}

#[test]
fn json_is_deterministic_and_round_trips() {
    let o = compute_options();
    let m = compute_module();
    let words = write_for(&m, &o).words;
    let a = reflect(&m, &o.reflect_options(), &words).to_json();
    let b = reflect(&m, &o.reflect_options(), &words).to_json();
    assert_eq!(a, b);
    // Documented field order, not alphabetical.
    assert!(
        a.starts_with("{\n  \"schema\": 1,\n  \"target_env\": \"vulkan1.0\",\n  \"spirv_version\""),
        "{a}"
    );
    let name_at = a.find("\"name\": \"Params\"").unwrap();
    let set_at = a[name_at..].find("\"set\"").unwrap();
    let kind_at = a[name_at..].find("\"kind\"").unwrap();
    assert!(set_at < kind_at);
    // Optional fields are left out, not null.
    assert!(!a.contains("\"counter_for\": null"));
    assert!(a.ends_with("}\n"));
    let back: Reflection = serde_json::from_str(&a).unwrap();
    assert_eq!(back, reflect(&m, &o.reflect_options(), &words));
}

#[test]
fn target_env_and_layout_rule_are_reported() {
    let o = Options {
        target_env: TargetEnv::Vulkan1_2,
        layout: LayoutRule::Scalar,
        ..compute_options()
    };
    let m = compute_module();
    let w = write_for(&m, &o);
    let r = reflect(&m, &o.reflect_options(), &w.words);
    assert_eq!(r.target_env, "vulkan1.2");
    assert_eq!(r.spirv_version, "1.5");
    assert_eq!(r.layout_rule, "scalar");
    // Descriptor indexing is core in SPIR-V 1.5: no extension.
    assert!(
        !r.extensions
            .iter()
            .any(|e| e == "SPV_EXT_descriptor_indexing")
    );
}

/// A vertex and a pixel entry point in one module:
/// ```hlsl
/// void VSMain(float4 pos : POSITION, row_major float4x4 inst : INSTANCE,
///             out float4 opos : SV_Position, out uint oid : ID) { … }
/// float4 PSMain(centroid float4 uv : TEXCOORD0, uint id : ID,
///               float4 frag : SV_Position) : SV_Target0 { … }
/// ```
fn graphics_module() -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let vec4 = mb.vec(4, Scalar::F32);
    let u32_ty = mb.u32();
    let m44 = mb.mat(4, 4);
    let vs_pos = mb.location("in.var.POSITION", AddressSpace::Input, vec4, 0);
    let vs_inst = mb.location("in.var.INSTANCE", AddressSpace::Input, m44, 1);
    let vs_opos = mb.builtin(
        "out.var.SV_Position",
        AddressSpace::Output,
        vec4,
        spirv::BuiltIn::Position,
    );
    let vs_oid = mb.location("out.var.ID", AddressSpace::Output, u32_ty, 0);
    let ps_frag = mb.builtin(
        "in.var.SV_Position",
        AddressSpace::Input,
        vec4,
        spirv::BuiltIn::FragCoord,
    );
    let ps_id = mb.location("in.var.ID", AddressSpace::Input, u32_ty, 1);
    let ps_uv = mb.location("in.var.TEXCOORD0", AddressSpace::Input, vec4, 0);
    if let Some(ir::Binding::Location { sampling, .. }) = &mut mb.m.globals[ps_uv].io {
        *sampling = Some(ir::Sampling::Centroid);
    }
    let ps_out = mb.location("out.var.SV_Target0", AddressSpace::Output, vec4, 0);
    for (g, s) in [
        (vs_pos, "POSITION"),
        (vs_inst, "INSTANCE"),
        (vs_opos, "SV_Position"),
        (vs_oid, "ID"),
        (ps_frag, "SV_Position"),
        (ps_id, "ID"),
        (ps_uv, "TEXCOORD0"),
        (ps_out, "SV_Target0"),
    ] {
        mb.m.globals[g].semantic = Some(s.to_string());
    }
    let in4 = mb.ptr(vec4, AddressSpace::Input);
    let in_m = mb.ptr(m44, AddressSpace::Input);
    let in_u = mb.ptr(u32_ty, AddressSpace::Input);
    let out4 = mb.ptr(vec4, AddressSpace::Output);
    let out_u = mb.ptr(u32_ty, AddressSpace::Output);

    let mut f = FunctionBuilder::new("VSMain");
    let p = f.global(vs_pos, in4);
    let i = f.global(vs_inst, in_m);
    let op = f.global(vs_opos, out4);
    let oid = f.global(vs_oid, out_u);
    let pv = f.load(p, vec4);
    let iv = f.load(i, m44);
    let t = f.binary(ir::BinaryOperator::MatMul, iv, pv, vec4);
    f.store(op, t);
    let seven = f.lit(Literal::U32(7), u32_ty);
    f.store(oid, seven);
    let vs = mb.add_function(f);
    mb.entry("VSMain", Stage::Vertex, vs, [0; 3]);

    let mut f = FunctionBuilder::new("PSMain");
    let fr = f.global(ps_frag, in4);
    let id = f.global(ps_id, in_u);
    let uv = f.global(ps_uv, in4);
    let out = f.global(ps_out, out4);
    let frv = f.load(fr, vec4);
    let _ = f.load(id, u32_ty);
    let uvv = f.load(uv, vec4);
    let s = f.binary(ir::BinaryOperator::Add, frv, uvv, vec4);
    f.store(out, s);
    let ps = mb.add_function(f);
    mb.entry("PSMain", Stage::Pixel, ps, [0; 3]);
    mb.m.entry_points[1]
        .execution_modes
        .push((spirv::ExecutionMode::OriginUpperLeft, Vec::new()));
    mb.m
}

#[test]
fn stage_inputs_and_outputs_per_entry_point() {
    let o = Options {
        profile: crate::options::Profile::parse("lib_6_3"),
        ..Options::default()
    };
    let m = graphics_module();
    let words = write_valid(&m, TargetEnv::Vulkan1_0).words;
    let r = reflect(&m, &o.reflect_options(), &words);
    assert_eq!(r.entry_points.len(), 2);
    let (vs, ps) = (&r.entry_points[0], &r.entry_points[1]);
    assert_eq!((vs.name.as_str(), vs.stage.as_str()), ("VSMain", "vertex"));
    assert_eq!(vs.workgroup_size, None);
    let names = |v: &[crate::reflect::StageVariable]| -> Vec<String> {
        v.iter()
            .map(|v| v.semantic.clone().unwrap_or_default())
            .collect()
    };
    // Each entry point sees only its own variables.
    assert_eq!(names(&vs.inputs), vec!["POSITION", "INSTANCE"]);
    assert_eq!(names(&vs.outputs), vec!["ID", "SV_Position"]);
    assert_eq!(names(&ps.inputs), vec!["TEXCOORD0", "ID", "SV_Position"]);
    assert_eq!(names(&ps.outputs), vec!["SV_Target0"]);

    let inst = &vs.inputs[1];
    assert_eq!(inst.type_name, "float4x4");
    assert_eq!((inst.location, inst.locations), (Some(1), Some(4)));
    assert_eq!(
        (inst.component_type.as_str(), inst.component_count),
        ("float", 4)
    );
    assert_eq!(vs.inputs[0].locations, None, "one location");

    let frag = &ps.inputs[2];
    assert_eq!(frag.builtin.as_deref(), Some("FragCoord"));
    assert_eq!(frag.location, None);
    assert_eq!(frag.interpolation, None);
    let uv = &ps.inputs[0];
    assert_eq!(uv.interpolation.as_deref(), Some("perspective"));
    assert_eq!(uv.sampling.as_deref(), Some("centroid"));
    assert_eq!(uv.name.as_deref(), Some("in.var.TEXCOORD0"));
    // An integer input is flat even though the HLSL did not say so.
    assert_eq!(ps.inputs[1].interpolation.as_deref(), Some("flat"));
    assert_eq!(ps.inputs[1].component_type, "uint");
    assert!(ps.execution_modes.iter().any(|m| m == "OriginUpperLeft"));
}

#[test]
fn entry_point_name_comes_from_the_module() {
    let m = compute_module();
    let o = Options {
        entrypoint_name: Some("renamed".into()),
        ..compute_options()
    };
    let spv_options = crate::back::spv::Options {
        entry_point_name: Some("renamed".into()),
        ..options(TargetEnv::Vulkan1_0)
    };
    let words = crate::back::spv::write(&m, &spv_options).unwrap();
    let r = reflect(&m, &o.reflect_options(), &words);
    assert_eq!(r.entry_points[0].name, "renamed");
    assert_eq!(r.entry_points[0].execution_modes, vec!["LocalSize 8 8 1"]);
}
