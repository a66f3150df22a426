//! DXC's options that change what a module binds or how it counts: each
//! one's effect on the SPIR-V, validated.

use super::*;

/// Compiles `src` with the command-line `args`, validates it for Vulkan
/// 1.1, and returns its disassembly.
fn dis(src: &str, args: &[&str]) -> String {
    let mut all = vec!["-fspv-target-env=vulkan1.1"];
    all.extend_from_slice(args);
    let o = Options::from_args(all).unwrap();
    common::spirv_dis(&compile_valid_words_with(src, &o))
}

#[test]
fn auto_binding_space_is_the_set_of_resources_that_name_none() {
    let src = "SamplerState s0;\n\
               [[vk::binding(8)]] SamplerState s1;\n\
               SamplerState s2 : register(s3);\n\
               SamplerState s3 : register(s1, space9);\n\
               Texture2D t;\n\
               float4 g;\n\
               float4 main(float2 uv : UV) : SV_Target {\n\
                 return t.Sample(s0, uv) + t.Sample(s1, uv) + t.Sample(s2, uv) + t.Sample(s3, uv) + g;\n\
               }";
    let d = dis(
        src,
        &["-T", "ps_6_0", "-E", "main", "-auto-binding-space", "77"],
    );
    for (name, set) in [
        ("s0", 77),
        ("s1", 77),
        ("s2", 77),
        ("s3", 9),
        ("t", 77),
        ("_Globals", 77),
    ] {
        assert!(
            d.contains(&format!("OpDecorate %{name} DescriptorSet {set}")),
            "{name} in set {set}:\n{d}"
        );
    }
    assert!(d.contains("OpDecorate %s1 Binding 8"), "{d}");
    assert!(d.contains("OpDecorate %s2 Binding 3"), "{d}");
    // Without the option, the same resources are in set 0.
    let d = dis(src, &["-T", "ps_6_0", "-E", "main"]);
    assert!(d.contains("OpDecorate %s0 DescriptorSet 0"), "{d}");
}

#[test]
fn nonzero_base_vertex_and_instance_subtract_the_draw_base() {
    let src =
        "uint2 main(uint v : SV_VertexID, uint i : SV_InstanceID) : IDS { return uint2(v, i); }";
    let d = dis(
        src,
        &[
            "-T",
            "vs_6_0",
            "-E",
            "main",
            "-fvk-support-nonzero-base-vertex",
            "-fvk-support-nonzero-base-instance",
        ],
    );
    for needle in [
        "OpCapability DrawParameters",
        "OpDecorate %gl_BaseVertex BuiltIn BaseVertex",
        "OpDecorate %gl_BaseInstance BuiltIn BaseInstance",
    ] {
        assert!(d.contains(needle), "{needle}:\n{d}");
    }
    assert_eq!(d.matches("OpISub %uint").count(), 2, "{d}");
    // Vulkan's numbering by default.
    let d = dis(src, &["-T", "vs_6_0", "-E", "main"]);
    assert!(!d.contains("BaseVertex") && !d.contains("OpISub"), "{d}");
}

#[test]
fn stage_io_order_alpha_numbers_user_semantics_by_name() {
    let src = "struct O { float c : C; float4 p : SV_Position; float a : A; float b : B; };\n\
               O main(float n : N, float m : M, float e : E) { O o = (O)(n + m + e); return o; }";
    let d = dis(
        src,
        &["-T", "vs_6_0", "-E", "main", "-fvk-stage-io-order=alpha"],
    );
    for needle in [
        "OpDecorate %in_var_E Location 0",
        "OpDecorate %in_var_M Location 1",
        "OpDecorate %in_var_N Location 2",
        "OpDecorate %out_var_A Location 0",
        "OpDecorate %out_var_B Location 1",
        "OpDecorate %out_var_C Location 2",
    ] {
        assert!(d.contains(needle), "{needle}:\n{d}");
    }
    // Declaration order by default.
    let d = dis(src, &["-T", "vs_6_0", "-E", "main"]);
    assert!(d.contains("OpDecorate %in_var_N Location 0"), "{d}");
    assert!(d.contains("OpDecorate %out_var_C Location 0"), "{d}");
}

#[test]
fn maximal_reconvergence_marks_the_entry_point() {
    let src = "[numthreads(1,1,1)] void main() {}";
    let d = dis(
        src,
        &[
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "-fspv-enable-maximal-reconvergence",
        ],
    );
    assert!(
        d.contains("OpExtension \"SPV_KHR_maximal_reconvergence\""),
        "{d}"
    );
    assert!(
        d.contains("OpExecutionMode %main MaximallyReconvergesKHR"),
        "{d}"
    );
    let d = dis(src, &["-T", "cs_6_0", "-E", "main"]);
    assert!(!d.contains("MaximallyReconverges"), "{d}");
}

#[test]
fn descriptor_heaps_go_where_the_command_line_puts_them() {
    let src = "cbuffer a { float4 value; }\n\
               float4 main() : SV_Target {\n\
                 RWStructuredBuffer<float4> buffer = ResourceDescriptorHeap[1];\n\
                 SamplerState s = SamplerDescriptorHeap[2];\n\
                 Texture2D t = ResourceDescriptorHeap[3];\n\
                 buffer[buffer.IncrementCounter()] = value;\n\
                 return t.Sample(s, value.xy);\n\
               }";
    let d = dis(
        src,
        &[
            "-T",
            "ps_6_6",
            "-E",
            "main",
            "-fvk-bind-resource-heap",
            "6",
            "7",
            "-fvk-bind-sampler-heap",
            "0",
            "0",
            "-fvk-bind-counter-heap",
            "8",
            "9",
        ],
    );
    // The cbuffer takes the first binding the sampler heap leaves free.
    assert!(d.contains("OpDecorate %a DescriptorSet 0"), "{d}");
    assert!(d.contains("OpDecorate %a Binding 1"), "{d}");
    let sets: Vec<&str> = d
        .lines()
        .filter(|l| l.contains("DescriptorSet") || l.contains("Binding"))
        .collect();
    let heap = |set: u32, binding: u32| {
        sets.iter()
            .any(|l| l.ends_with(&format!("DescriptorSet {set}")))
            && sets
                .iter()
                .any(|l| l.ends_with(&format!("Binding {binding}")))
    };
    assert!(heap(7, 6), "{d}");
    assert!(heap(9, 8), "{d}");
    assert!(heap(0, 0), "{d}");
}

#[test]
fn flattened_resource_arrays_take_one_binding_per_element() {
    // MyTextures[5] cannot fit below t3, so it takes 4..8; MyTextures2
    // fills 0 and 1, the samplers 2 and 9.
    let src = "Texture2D MyTextures[5];\n\
               Texture2D AnotherTexture : register(t3);\n\
               Texture2D MyTextures2[2];\n\
               SamplerState MySampler;\n\
               SamplerState MySampler2;\n\
               float4 pick(Texture2D t, float2 uv) { return t.Sample(MySampler2, uv); }\n\
               float4 main(float2 uv : UV) : SV_Target {\n\
                 return MyTextures[0].Sample(MySampler, uv) + MyTextures[4].Sample(MySampler, uv)\n\
                   + MyTextures2[1].Sample(MySampler2, uv) + pick(MyTextures2[0], uv)\n\
                   + AnotherTexture.Sample(MySampler, uv);\n\
               }";
    for level in ["-O0", "-O3"] {
        let d = dis(
            src,
            &[
                "-T",
                "ps_6_0",
                "-E",
                "main",
                level,
                "-fspv-flatten-resource-arrays",
            ],
        );
        for (name, binding) in [
            ("MyTextures_0_", 4),
            ("MyTextures_4_", 8),
            ("AnotherTexture", 3),
            ("MyTextures2_0_", 0),
            ("MyTextures2_1_", 1),
            ("MySampler", 2),
            ("MySampler2", 9),
        ] {
            assert!(
                d.contains(&format!("OpDecorate %{name} Binding {binding}")),
                "{level}: {name} at {binding}:\n{d}"
            );
        }
        assert!(d.contains("OpName %MyTextures_4_ \"MyTextures[4]\""), "{d}");
        // The samples read the elements' own variables.
        assert!(d.contains(" %MyTextures_4_\n"), "{d}");
        assert!(
            d.lines()
                .any(|l| l.contains("OpLoad") && l.ends_with("%MyTextures_4_")),
            "{d}"
        );
    }
}

#[test]
fn flattened_resource_arrays_need_constant_elements() {
    let src = "Texture2D t[3];\nSamplerState s;\n\
               float4 main(uint i : I, float2 uv : UV) : SV_Target { return t[i].Sample(s, uv); }";
    let o = Options::from_args([
        "-T",
        "ps_6_0",
        "-E",
        "main",
        "-fspv-flatten-resource-arrays",
    ])
    .unwrap();
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    assert!(c.diagnostics.has_errors(), "{text}");
    assert!(
        text.contains("`t` is flattened (-fspv-flatten-resource-arrays): each use must pick a constant element"),
        "{text}"
    );
    assert!(
        text.contains("main.hlsl:3:62"),
        "the error points at the use:\n{text}"
    );
}

/// `-fspv-extension` limits the extensions the backend may derive: one left
/// out is an error at the line that needs it; `KHR` allows every Khronos
/// extension; names hlslc does not know are refused.
#[test]
fn extensions_come_only_from_the_allowed_list() {
    let src = "RWStructuredBuffer<uint> o;\n[numthreads(4, 1, 1)]\nvoid main(uint i : SV_GroupIndex) {\n\
               uint x = i;\n    o[i] = WaveMatch(x).x;\n}";
    let diags = |ext: &str| {
        let o = Options::from_args([
            "-T",
            "cs_6_5",
            "-E",
            "main",
            "-fspv-target-env=vulkan1.1",
            ext,
        ])
        .unwrap();
        let (loader, path) = common::single_file(src);
        let c = crate::compile(&path, &loader, &o);
        let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
        (c.diagnostics.has_errors(), text)
    };
    let (failed, text) = diags("-fspv-extension=KHR");
    assert!(failed, "{text}");
    assert!(
        text.contains("error[E0804]: SPIR-V extension `SPV_NV_shader_subgroup_partitioned` is needed for capability GroupNonUniformPartitioned"),
        "{text}"
    );
    // At the call that needs it.
    assert!(text.contains("main.hlsl:5:12"), "{text}");
    let (failed, text) = diags("-fspv-extension=SPV_NV_shader_subgroup_partitioned");
    assert!(!failed, "{text}");
    // KHR allows the Khronos extension a capability needs (multiview).
    let a = dis(
        "float4 main(uint v : SV_ViewID) : SV_Target { return v; }",
        &[
            "-T",
            "ps_6_1",
            "-E",
            "main",
            "-fspv-target-env=vulkan1.0",
            "-fspv-extension=KHR",
        ],
    );
    assert!(a.contains("OpExtension \"SPV_KHR_multiview\""), "{a}");
    let err = Options::from_args(["-T", "ps_6_0", "-fspv-extension=MyExtension"])
        .expect_err("an unknown extension is refused");
    let err = format!("{err:?}");
    assert!(err.contains("unknown SPIR-V extension 'MyExtension'"), "{err}");
    assert!(err.contains("KHR (every Khronos one)"), "{err}");
    assert!(err.contains("SPV_KHR_ray_query"), "{err}");
}

#[test]
fn bind_register_places_every_resource_globals_and_heaps() {
    let src = "Texture2D t : register(t5);\n\
               SamplerState s : register(s3, space1);\n\
               [[vk::binding(4, 6)]] Texture2D fixed_place;\n\
               float4 g;\n\
               float4 main(float2 uv : UV) : SV_Target {\n\
                 Texture2D h = ResourceDescriptorHeap[2];\n\
                 return t.Sample(s, uv) + h.Sample(s, uv) + fixed_place.Load(int3(0, 0, 0)) + g;\n\
               }";
    let d = dis(
        src,
        &[
            "-T",
            "ps_6_6",
            "-E",
            "main",
            "-fvk-bind-register",
            "t5",
            "0",
            "1",
            "2",
            "-vkbr",
            "s3",
            "1",
            "3",
            "4",
            "-fvk-bind-globals",
            "7",
            "8",
            "-fvk-bind-resource-heap",
            "9",
            "10",
        ],
    );
    for (name, binding, set) in [
        ("t", 1, 2),
        ("s", 3, 4),
        ("fixed_place", 4, 6),
        ("_Globals", 7, 8),
        ("ResourceDescriptorHeap", 9, 10),
    ] {
        assert!(
            d.contains(&format!("OpDecorate %{name} DescriptorSet {set}"))
                && d.contains(&format!("OpDecorate %{name} Binding {binding}")),
            "{name} at binding {binding} of set {set}:\n{d}"
        );
    }
}
