//! Reflection of compiled HLSL: layouts under each rule, counters, the
//! pixel-shader interface, JSON snapshots of two samples, `-Fre`.

use crate::options::{LayoutRule, Options};
use crate::reflect::{Reflection, ResourceKind};
use crate::tests::common::{self, RootedLoader, check_or_bless, root, single_file};

/// Compiles `text` as `main.hlsl` with `options` (reflection on) and
/// returns the reflection.
fn reflect_hlsl(text: &str, options: Options) -> Reflection {
    let (loader, path) = single_file(text);
    let o = Options {
        reflect: true,
        ..options
    };
    let c = crate::compile(&path, &loader, &o);
    let report = crate::diag::render_to_string(
        &c.diagnostics.list,
        &c.source_map,
        crate::diag::DiagnosticFormat::Short,
    );
    assert!(!c.has_errors(), "{report}");
    c.artifact
        .and_then(|a| a.reflection)
        .unwrap_or_else(|| panic!("no reflection; {report}"))
}

fn cs_options(layout: LayoutRule) -> Options {
    Options {
        profile: crate::options::Profile::parse("cs_6_0"),
        layout,
        ..common::verified_options()
    }
}

const LAYOUT_CBUFFER: &str = "
cbuffer Params : register(b0) {
    float    a;
    float3   b;
    float2   c;
    float    d[2];
    float3x3 m;
    float    e;
};
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void main() { Out[0] = a + b.x + c.x + d[1] + m[0][0] + e; }
";

/// (name, offset, size) of the members of a resource's block.
fn offsets(r: &Reflection, resource: &str) -> Vec<(String, u32, u32)> {
    r.resource(resource)
        .and_then(|r| r.block.as_ref())
        .map(|b| {
            b.members
                .iter()
                .map(|m| (m.name.clone().unwrap_or_default(), m.offset, m.size))
                .collect()
        })
        .unwrap_or_default()
}

fn owned(v: &[(&str, u32, u32)]) -> Vec<(String, u32, u32)> {
    v.iter().map(|(n, o, s)| (n.to_string(), *o, *s)).collect()
}

#[test]
fn cbuffer_offsets_under_each_layout_rule() {
    // DXC's default: vector-relaxed std140. `b` packs after `a` (it does not
    // cross a 16-byte boundary); arrays and matrices start a new 16 bytes;
    // a matrix spans all its columns (3 x 16), so `e` follows at 112.
    let r = reflect_hlsl(LAYOUT_CBUFFER, cs_options(LayoutRule::Relaxed));
    assert_eq!(r.layout_rule, "relaxed");
    assert_eq!(
        offsets(&r, "Params"),
        owned(&[
            ("a", 0, 4),
            ("b", 4, 12),
            ("c", 16, 8),
            ("d", 32, 20),
            ("m", 64, 44),
            ("e", 112, 4)
        ])
    );
    let m = r.resource("Params").unwrap().block.as_ref().unwrap();
    let mm = m.member("m").unwrap().matrix.as_ref().unwrap();
    assert_eq!((mm.stride, mm.major.as_str()), (16, "column_major"));
    assert_eq!(m.member("d").unwrap().array.as_ref().unwrap()[0].stride, 16);

    // fxc's packing: a scalar after a matrix fills its last register.
    let r = reflect_hlsl(LAYOUT_CBUFFER, cs_options(LayoutRule::Dx));
    assert_eq!(
        offsets(&r, "Params"),
        owned(&[
            ("a", 0, 4),
            ("b", 4, 12),
            ("c", 16, 8),
            ("d", 32, 20),
            ("m", 64, 44),
            ("e", 108, 4)
        ])
    );

    // Strict std140: a float3 is 16-byte aligned.
    let r = reflect_hlsl(LAYOUT_CBUFFER, cs_options(LayoutRule::Gl));
    assert_eq!(
        offsets(&r, "Params"),
        owned(&[
            ("a", 0, 4),
            ("b", 16, 12),
            ("c", 32, 8),
            ("d", 48, 20),
            ("m", 80, 44),
            ("e", 128, 4)
        ])
    );

    // Scalar layout: everything aligned to its component.
    let r = reflect_hlsl(LAYOUT_CBUFFER, cs_options(LayoutRule::Scalar));
    assert_eq!(
        offsets(&r, "Params"),
        owned(&[
            ("a", 0, 4),
            ("b", 4, 12),
            ("c", 16, 8),
            ("d", 24, 8),
            ("m", 32, 36),
            ("e", 68, 4)
        ])
    );
    let m = r.resource("Params").unwrap().block.as_ref().unwrap();
    assert_eq!(m.member("d").unwrap().array.as_ref().unwrap()[0].stride, 4);
    assert_eq!(m.member("m").unwrap().matrix.as_ref().unwrap().stride, 12);
}

#[test]
fn structured_buffers_with_counters() {
    let r = reflect_hlsl(
        "
struct Item { float3 p; uint id; };
StructuredBuffer<Item> Input : register(t0);
AppendStructuredBuffer<uint> Visible : register(u1);
RWStructuredBuffer<Item> Pool : register(u2);
RWByteAddressBuffer Raw : register(u4);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Item it = Input[id.x];
    if (it.id != 0) Visible.Append(id.x);
    uint slot = Pool.IncrementCounter();
    Pool[slot] = it;
    Raw.Store(0, slot);
}
",
        cs_options(LayoutRule::Relaxed),
    );
    let input = r.resource("Input").unwrap();
    assert_eq!(input.kind, ResourceKind::StorageBuffer);
    assert_eq!(input.access.as_deref(), Some("read_only"));
    assert_eq!(input.hlsl_type.as_deref(), Some("StructuredBuffer<Item>"));
    assert!(input.counter.is_none());
    let element = &input.block.as_ref().unwrap().members[0];
    assert_eq!(element.type_name, "Item[]");
    assert_eq!(element.array.as_ref().unwrap()[0].stride, 16);
    assert_eq!(element.member("id").unwrap().offset, 12);

    for (name, hlsl) in [
        ("Visible", "AppendStructuredBuffer<uint>"),
        ("Pool", "RWStructuredBuffer<Item>"),
    ] {
        let b = r.resource(name).unwrap();
        assert_eq!(b.hlsl_type.as_deref(), Some(hlsl));
        assert_eq!(b.access.as_deref(), Some("read_write"));
        let counter = b
            .counter
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has a counter"));
        let c = r
            .resource(counter.name.as_deref().unwrap())
            .expect("the counter is a resource");
        assert_eq!(c.counter_for.as_deref(), Some(name));
        assert_eq!((c.set, c.binding), (counter.set, counter.binding));
        assert_ne!((c.set, c.binding), (b.set, b.binding));
        assert_eq!(c.kind, ResourceKind::StorageBuffer);
        assert_eq!(c.block.as_ref().unwrap().size, 4);
        assert!(c.used);
    }
    assert!(r.resource("Raw").unwrap().counter.is_none());
    assert_eq!(
        r.resource("Raw").unwrap().hlsl_type.as_deref(),
        Some("RWByteAddressBuffer")
    );
    // No two descriptors share a binding.
    let mut bindings: Vec<_> = r
        .resources
        .iter()
        .filter(|r| r.set.is_some())
        .map(|r| (r.set, r.binding))
        .collect();
    let n = bindings.len();
    bindings.sort();
    bindings.dedup();
    assert_eq!(bindings.len(), n, "{:?}", r.resources);
    let ep = &r.entry_points[0];
    assert_eq!(ep.workgroup_size, Some([64, 1, 1]));
    assert_eq!(ep.inputs[0].builtin.as_deref(), Some("GlobalInvocationId"));
}

#[test]
fn pixel_shader_interface_and_images() {
    let r = reflect_hlsl(
        "
Texture2D<float4> Albedo : register(t0);
Texture2DArray<float> Layers : register(t1);
SamplerState Linear : register(s2);
SamplerComparisonState Shadow : register(s3);
RWTexture2D<float4> Debug : register(u4);
struct PSIn {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation uint material : MATERIAL;
    noperspective float3 n : NORMAL;
};
float4 main(PSIn i) : SV_Target0 {
    Debug[uint2(i.pos.xy)] = 1;
    return Albedo.Sample(Linear, i.uv) * Layers.SampleCmp(Shadow, float3(i.uv, i.material), 0.5) + i.n.x;
}
",
        Options {
            profile: crate::options::Profile::parse("ps_6_0"),
            ..common::verified_options()
        },
    );
    let ep = &r.entry_points[0];
    assert_eq!(ep.stage, "pixel");
    assert_eq!(ep.workgroup_size, None);
    assert!(ep.execution_modes.iter().any(|m| m == "OriginUpperLeft"));
    let by_semantic = |s: &str| {
        ep.inputs
            .iter()
            .find(|v| v.semantic.as_deref() == Some(s))
            .unwrap_or_else(|| panic!("input {s} in {:?}", ep.inputs))
    };
    let uv = by_semantic("TEXCOORD0");
    assert_eq!((uv.type_name.as_str(), uv.component_count), ("float2", 2));
    assert_eq!(uv.interpolation.as_deref(), Some("perspective"));
    assert_eq!(
        by_semantic("MATERIAL").interpolation.as_deref(),
        Some("flat")
    );
    assert_eq!(
        by_semantic("NORMAL").interpolation.as_deref(),
        Some("noperspective")
    );
    let locations: Vec<u32> = ep.inputs.iter().filter_map(|v| v.location).collect();
    let mut sorted = locations.clone();
    sorted.sort();
    assert_eq!(locations, sorted, "inputs by location");
    assert!(
        ep.inputs
            .iter()
            .any(|v| v.builtin.as_deref() == Some("FragCoord"))
    );
    assert_eq!(ep.outputs.len(), 1);
    assert_eq!(ep.outputs[0].location, Some(0));
    assert_eq!(ep.outputs[0].type_name, "float4");

    let albedo = r.resource("Albedo").unwrap();
    assert_eq!(albedo.kind, ResourceKind::SampledImage);
    assert_eq!(albedo.hlsl_type.as_deref(), Some("Texture2D<float>"));
    let layers = r.resource("Layers").unwrap().image.as_ref().unwrap();
    assert!(layers.arrayed && !layers.multisampled);
    assert_eq!(r.resource("Shadow").unwrap().comparison, Some(true));
    assert_eq!(r.resource("Linear").unwrap().comparison, Some(false));
    let debug = r.resource("Debug").unwrap();
    assert_eq!(debug.kind, ResourceKind::StorageImage);
    assert_eq!(
        debug.image.as_ref().unwrap().format.as_deref(),
        Some("rgba32f"),
        "DXC infers the format from float4"
    );
}

/// The JSON of a sample, compiled with its own command line.
fn sample_json(file: &str, args: &[&str]) -> String {
    let o = Options {
        reflect: true,
        ..common::options_from_args(args).unwrap()
    };
    let path = std::path::PathBuf::from("samples").join(file);
    let c = crate::compile(&path, &RootedLoader, &o);
    let report = crate::diag::render_to_string(
        &c.diagnostics.list,
        &c.source_map,
        crate::diag::DiagnosticFormat::Short,
    );
    assert!(!c.has_errors(), "{report}");
    c.artifact.unwrap().reflection.unwrap().to_json()
}

#[test]
fn sample_snapshots() {
    for (name, file, args) in [
        (
            "particles",
            "particles.hlsl",
            &["-T", "cs_6_0", "-E", "main"],
        ),
        ("skinning", "skinning.hlsl", &["-T", "vs_6_0", "-E", "main"]),
    ] {
        let json = sample_json(file, args);
        // Stable: the same input gives the same bytes.
        assert_eq!(json, sample_json(file, args));
        let expected = root().join("tests/in/reflect").join(format!("{name}.json"));
        if let Err(e) = check_or_bless(&expected, &json) {
            panic!("{e}");
        }
    }
}
