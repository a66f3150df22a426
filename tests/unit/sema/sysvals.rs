//! System values of one stage or extension each: the built-in each becomes,
//! its decorations, the capabilities, extensions and execution modes it
//! brings, per target environment; and the errors for a wrong type or
//! stage.

use super::*;

/// Compiles `src` for `profile` and `env`, validates it, and returns its
/// disassembly.
fn spirv_text(src: &str, profile: &str, env: TargetEnv) -> String {
    let mut o = common::options_for(profile);
    o.target_env = env;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed for {profile} {env:?}:\n{text}");
    };
    let dis = common::spirv_dis(&a.spirv);
    if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), val_flags(env)) {
        panic!("invalid SPIR-V for {profile} {env:?}: {e}\n{dis}");
    }
    dis
}

fn has(dis: &str, needle: &str) -> bool {
    dis.lines()
        .any(|l| l.trim() == needle || l.trim().ends_with(needle))
}

fn assert_has(dis: &str, needles: &[&str]) {
    for n in needles {
        assert!(has(dis, n), "missing `{n}` in:\n{dis}");
    }
}

fn assert_lacks(dis: &str, needles: &[&str]) {
    for n in needles {
        assert!(!dis.contains(n), "unexpected `{n}` in:\n{dis}");
    }
}

const ALL_ENVS: [TargetEnv; 4] = [
    TargetEnv::Vulkan1_0,
    TargetEnv::Vulkan1_1,
    TargetEnv::Vulkan1_2,
    TargetEnv::Vulkan1_3,
];

fn diagnose_profile(src: &str, profile: &str) -> String {
    let (text, failed) = diagnose_with(src, &common::options_for(profile));
    assert!(failed, "expected an error, got success:\n{text}");
    text
}

#[test]
fn barycentrics_pick_the_builtin_by_interpolation_mode() {
    let src = "float4 main(float3 a : SV_Barycentrics0, noperspective centroid float3 b : SV_Barycentrics1) : SV_Target {\n\
                 return float4(a + b, 1);\n\
               }";
    for env in ALL_ENVS {
        let dis = spirv_text(src, "ps_6_1", env);
        assert_has(
            &dis,
            &[
                "OpCapability FragmentBarycentricKHR",
                "OpExtension \"SPV_KHR_fragment_shader_barycentric\"",
                "OpDecorate %gl_BaryCoordEXT BuiltIn BaryCoordKHR",
                "OpDecorate %gl_BaryCoordNoPerspEXT BuiltIn BaryCoordNoPerspKHR",
                "OpDecorate %gl_BaryCoordNoPerspEXT Centroid",
                "%gl_BaryCoordEXT = OpVariable %_ptr_Input_v3float Input",
            ],
        );
        // The interpolated built-ins are not Flat, and only the centroid
        // one is Centroid.
        assert_lacks(
            &dis,
            &[
                "OpDecorate %gl_BaryCoordEXT Flat",
                "OpDecorate %gl_BaryCoordEXT Centroid",
            ],
        );
    }
    let dis = spirv_text(
        "float4 main(sample float3 b : SV_Barycentrics) : SV_Target { return b.xyzz; }",
        "ps_6_1",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &dis,
        &[
            "OpDecorate %gl_BaryCoordEXT Sample",
            "OpCapability SampleRateShading",
        ],
    );
}

#[test]
fn view_id_is_view_index_with_multiview() {
    let ps = "float4 main(uint v : SV_ViewID) : SV_Target { return v; }";
    let vs = "float4 main(int v : SV_ViewID) : SV_Position { return v; }";
    for env in ALL_ENVS {
        for (src, profile) in [(ps, "ps_6_1"), (vs, "vs_6_1")] {
            let dis = spirv_text(src, profile, env);
            assert_has(
                &dis,
                &[
                    "OpCapability MultiView",
                    "OpDecorate %gl_ViewIndex BuiltIn ViewIndex",
                ],
            );
            // Core from SPIR-V 1.3 (Vulkan 1.1).
            let ext = "OpExtension \"SPV_KHR_multiview\"";
            if env == TargetEnv::Vulkan1_0 {
                assert_has(&dis, &[ext]);
            } else {
                assert_lacks(&dis, &[ext]);
            }
        }
    }
}

#[test]
fn coverage_in_and_out_are_sample_mask_arrays() {
    let dis = spirv_text(
        "uint main(uint c : SV_Coverage) : SV_Coverage { return c & 5; }",
        "ps_6_0",
        TargetEnv::Vulkan1_0,
    );
    assert_has(
        &dis,
        &[
            "OpDecorate %gl_SampleMask BuiltIn SampleMask",
            "OpDecorate %gl_SampleMask_0 BuiltIn SampleMask",
            "%gl_SampleMask = OpVariable %_ptr_Input__arr_uint_uint_1 Input",
            "%gl_SampleMask_0 = OpVariable %_ptr_Output__arr_uint_uint_1 Output",
        ],
    );
    // The output is stored through element 0.
    assert!(
        dis.contains("OpAccessChain %_ptr_Output_uint %gl_SampleMask_0"),
        "{dis}"
    );
}

#[test]
fn inner_coverage_is_fully_covered_read_as_uint() {
    let dis = spirv_text(
        "float4 main(uint c : SV_InnerCoverage) : SV_Target { return c; }",
        "ps_6_0",
        TargetEnv::Vulkan1_2,
    );
    assert_has(
        &dis,
        &[
            "OpCapability FragmentFullyCoveredEXT",
            "OpExtension \"SPV_EXT_fragment_fully_covered\"",
            "BuiltIn FullyCoveredEXT",
            "= OpVariable %_ptr_Input_bool Input",
        ],
    );
    assert!(dis.contains("OpSelect %uint"), "{dis}");
}

#[test]
fn shading_rate_in_pixel_and_out_of_vertex_shaders() {
    let ps = spirv_text(
        "float4 main(uint r : SV_ShadingRate) : SV_Target { return r; }",
        "ps_6_4",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &ps,
        &[
            "OpCapability FragmentShadingRateKHR",
            "OpExtension \"SPV_KHR_fragment_shading_rate\"",
            "BuiltIn ShadingRateKHR",
            "OpDecorate %gl_ShadingRateEXT Flat",
        ],
    );
    let vs = spirv_text(
        "float4 main(out uint r : SV_ShadingRate) : SV_Position { r = 4; return 0; }",
        "vs_6_4",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &vs,
        &[
            "OpCapability FragmentShadingRateKHR",
            "BuiltIn PrimitiveShadingRateKHR",
            "= OpVariable %_ptr_Output_uint Output",
        ],
    );
}

#[test]
fn stencil_ref_replaces_the_stencil_reference() {
    let dis = spirv_text(
        "uint main() : SV_StencilRef { return 3; }",
        "ps_6_0",
        TargetEnv::Vulkan1_0,
    );
    assert_has(
        &dis,
        &[
            "OpCapability StencilExportEXT",
            "OpExtension \"SPV_EXT_shader_stencil_export\"",
            "OpDecorate %gl_FragStencilRefARB BuiltIn FragStencilRefEXT",
            "OpExecutionMode %main StencilRefReplacingEXT",
        ],
    );
}

#[test]
fn layer_and_viewport_index_as_pixel_inputs_are_flat() {
    let src = "float4 main(uint l : SV_RenderTargetArrayIndex, uint v : SV_ViewportArrayIndex) : SV_Target { return l + v; }";
    for env in ALL_ENVS {
        let dis = spirv_text(src, "ps_6_0", env);
        assert_has(
            &dis,
            &[
                "OpCapability Geometry",
                "OpCapability MultiViewport",
                "OpDecorate %gl_Layer BuiltIn Layer",
                "OpDecorate %gl_ViewportIndex BuiltIn ViewportIndex",
                "OpDecorate %gl_Layer Flat",
                "OpDecorate %gl_ViewportIndex Flat",
            ],
        );
    }
}

#[test]
fn layer_written_by_a_vertex_shader() {
    let src = "struct O { float4 p : SV_Position; uint layer : SV_RenderTargetArrayIndex; };\n\
               O main(uint id : SV_VertexID) { O o; o.p = 0; o.layer = id & 1; return o; }";
    // SPV_EXT_shader_viewport_index_layer before SPIR-V 1.5, ShaderLayer
    // from it.
    let dis = spirv_text(src, "vs_6_0", TargetEnv::Vulkan1_1);
    assert_has(
        &dis,
        &[
            "OpCapability ShaderViewportIndexLayerEXT",
            "OpExtension \"SPV_EXT_shader_viewport_index_layer\"",
            "BuiltIn Layer",
        ],
    );
    let dis = spirv_text(src, "vs_6_0", TargetEnv::Vulkan1_2);
    assert_has(&dis, &["OpCapability ShaderLayer", "BuiltIn Layer"]);
}

#[test]
fn clip_and_cull_distances_read_by_a_pixel_shader_are_packed() {
    // Sorted by index and packed: clip0 at 0, clip1 (float2) at 1..2;
    // cull0 at 0.
    let src = "struct In { float4 p : SV_Position; float2 c1 : SV_ClipDistance1; float c0 : SV_ClipDistance0; float k : SV_CullDistance0; };\n\
               float4 main(In i) : SV_Target { return float4(i.c0, i.c1, i.k); }";
    let dis = spirv_text(src, "ps_6_0", TargetEnv::Vulkan1_1);
    assert_has(
        &dis,
        &[
            "OpCapability ClipDistance",
            "OpCapability CullDistance",
            "OpDecorate %gl_ClipDistance BuiltIn ClipDistance",
            "OpDecorate %gl_CullDistance BuiltIn CullDistance",
            "%gl_ClipDistance = OpVariable %_ptr_Input__arr_float_uint_3 Input",
            "%gl_CullDistance = OpVariable %_ptr_Input__arr_float_uint_1 Input",
        ],
    );
    // Three loads from ClipDistance (elements 0, 1, 2), one from CullDistance.
    let chains = dis
        .lines()
        .filter(|l| l.contains("OpAccessChain %_ptr_Input_float %gl_ClipDistance"))
        .count();
    assert_eq!(chains, 3, "{dis}");
}

#[test]
fn start_vertex_and_instance_are_base_vertex_and_instance() {
    let src = "float4 main(int v : SV_StartVertexLocation, uint i : SV_StartInstanceLocation) : SV_Position { return float4(v, i, 0, 1); }";
    for env in ALL_ENVS {
        let dis = spirv_text(src, "vs_6_8", env);
        assert_has(
            &dis,
            &[
                "OpCapability DrawParameters",
                "OpDecorate %gl_BaseVertex BuiltIn BaseVertex",
                "OpDecorate %gl_BaseInstance BuiltIn BaseInstance",
                "%gl_BaseVertex = OpVariable %_ptr_Input_int Input",
            ],
        );
        // Core from SPIR-V 1.3.
        let ext = "OpExtension \"SPV_KHR_shader_draw_parameters\"";
        if env == TargetEnv::Vulkan1_0 {
            assert_has(&dis, &[ext]);
        } else {
            assert_lacks(&dis, &[ext]);
        }
    }
}

#[test]
fn is_helper_lane_per_target_environment() {
    let src = "float4 main() : SV_Target { return IsHelperLane() ? 2.0 : 1.0; }";
    for env in [
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_2,
    ] {
        let dis = spirv_text(src, "ps_6_6", env);
        assert_has(
            &dis,
            &[
                "OpCapability DemoteToHelperInvocation",
                "OpExtension \"SPV_EXT_demote_to_helper_invocation\"",
            ],
        );
        assert!(dis.contains("= OpIsHelperInvocationEXT %bool"), "{dis}");
        assert_lacks(&dis, &["BuiltIn HelperInvocation"]);
    }
    // SPIR-V 1.6: the HelperInvocation built-in.
    let dis = spirv_text(src, "ps_6_6", TargetEnv::Vulkan1_3);
    assert_has(
        &dis,
        &[
            "OpDecorate %gl_HelperInvocation BuiltIn HelperInvocation",
            "%gl_HelperInvocation = OpVariable %_ptr_Input_bool Input",
        ],
    );
    assert_lacks(&dis, &["OpIsHelperInvocationEXT", "SPV_EXT_demote"]);
    // No helper lanes outside pixel shaders.
    let dis = spirv_text(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = IsHelperLane() ? 1 : 7; }",
        "cs_6_6",
        TargetEnv::Vulkan1_0,
    );
    assert_lacks(&dis, &["OpIsHelperInvocationEXT", "HelperInvocation"]);
}

#[test]
fn read_lane_at_broadcasts_only_a_constant_lane() {
    let src = "RWStructuredBuffer<uint> o;\n\
               [numthreads(32,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                 uint lane = WaveGetLaneIndex();\n\
                 o[id.x] = WaveReadLaneAt(id.x, lane ^ 2) + WaveReadLaneAt(id.x, 3)\n\
                         + QuadReadLaneAt(id.x, (lane + 1) & 3) + QuadReadLaneAt(id.x, 1);\n\
               }";
    for env in [
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
    ] {
        let dis = spirv_text(src, "cs_6_0", env);
        let count = |op: &str| {
            dis.lines()
                .filter(|l| l.contains(&format!("= {op} ")))
                .count()
        };
        assert_eq!(count("OpGroupNonUniformBroadcast"), 1, "{env:?}\n{dis}");
        assert_eq!(count("OpGroupNonUniformQuadBroadcast"), 1, "{env:?}\n{dis}");
        assert_eq!(count("OpGroupNonUniformShuffle"), 2, "{env:?}\n{dis}");
    }
}

#[test]
fn system_values_with_the_wrong_type_name_the_rule() {
    let t = diagnose_profile(
        "float4 main(float2 b : SV_Barycentrics) : SV_Target { return b.xyxy; }",
        "ps_6_1",
    );
    assert!(
        t.contains("`SV_Barycentrics` cannot have type `float2`"),
        "{t}"
    );
    assert!(
        t.contains("in pixel shaders `SV_Barycentrics` is a `float3`"),
        "{t}"
    );
    let t = diagnose_profile(
        "float4 main(float c : SV_Coverage) : SV_Target { return c; }",
        "ps_6_0",
    );
    assert!(t.contains("`SV_Coverage` cannot have type `float`"), "{t}");
    let t = diagnose_profile(
        "float4 main(float c : SV_InnerCoverage) : SV_Target { return c; }",
        "ps_6_0",
    );
    assert!(t.contains("`SV_InnerCoverage` is a `uint`"), "{t}");
}

#[test]
fn pixel_only_system_values_elsewhere_say_where_they_belong() {
    let t = diagnose_profile(
        "float4 main(float3 b : SV_Barycentrics) : SV_Position { return b.xyzz; }",
        "vs_6_1",
    );
    assert!(
        t.contains("`SV_Barycentrics` is not an input of vertex shaders"),
        "{t}"
    );
    assert!(
        t.contains("`SV_Barycentrics` is an input of pixel shaders"),
        "{t}"
    );
    let t = diagnose_profile(
        "float4 main(out uint s : SV_StencilRef) : SV_Position { s = 1; return 0; }",
        "vs_6_0",
    );
    assert!(
        t.contains("`SV_StencilRef` is an output of pixel shaders"),
        "{t}"
    );
}

/// `GetAttributeAtVertex`: the `nointerpolation` inputs become arrays of
/// three decorated `PerVertexKHR` (not `Flat`), the plain read is vertex
/// 0, a read at a vertex indexes the array (a constant, a function
/// parameter bound to the input, a loop counter); other inputs stay as
/// they were.
#[test]
fn attributes_read_per_vertex_are_arrays_of_three() {
    let src = "struct PIn {\n\
                 float4 pos : SV_Position;\n\
                 nointerpolation float4 c : COLOR;\n\
                 nointerpolation uint key : KEY;\n\
                 float4 smooth : SMOOTH;\n\
               };\n\
               float4 at(nointerpolation float4 v, uint k) { return GetAttributeAtVertex(v, k); }\n\
               cbuffer C { uint pick; };\n\
               float4 main(PIn i, nointerpolation float2 d : DIRECT) : SV_Target {\n\
                 float4 r = i.c + i.smooth + GetAttributeAtVertex(i.c, 2) + at(i.c, pick);\n\
                 return r + GetAttributeAtVertex(i.key, 1) + GetAttributeAtVertex(d, pick).x;\n\
               }";
    for env in ALL_ENVS {
        let dis = spirv_text(src, "ps_6_1", env);
        assert_has(
            &dis,
            &[
                "OpCapability FragmentBarycentricKHR",
                "OpExtension \"SPV_KHR_fragment_shader_barycentric\"",
                "OpDecorate %in_var_COLOR PerVertexKHR",
                "OpDecorate %in_var_KEY PerVertexKHR",
                "OpDecorate %in_var_DIRECT PerVertexKHR",
                "%in_var_COLOR = OpVariable %_ptr_Input__arr_v4float_uint_3 Input",
                "%in_var_KEY = OpVariable %_ptr_Input__arr_uint_uint_3 Input",
                "%in_var_SMOOTH = OpVariable %_ptr_Input_v4float Input",
                "OpAccessChain %_ptr_Input_v4float %in_var_COLOR %uint_0",
                "OpAccessChain %_ptr_Input_v4float %in_var_COLOR %uint_2",
                "OpAccessChain %_ptr_Input_uint %in_var_KEY %uint_1",
            ],
        );
        // The cbuffer's index reaches the input through the function.
        let dynamic = dis.lines().filter(|l| {
            l.contains("OpAccessChain %_ptr_Input_v4float %in_var_COLOR %") && !l.contains("%uint_")
        });
        assert_eq!(dynamic.count(), 1, "one read at a dynamic vertex:\n{dis}");
        assert_lacks(
            &dis,
            &[
                "OpDecorate %in_var_COLOR Flat",
                "OpDecorate %in_var_KEY Flat",
                "OpDecorate %in_var_SMOOTH PerVertexKHR",
            ],
        );
    }
    // Without a call, `nointerpolation` is `Flat` as always.
    let dis = spirv_text(
        "float4 main(nointerpolation float4 c : COLOR) : SV_Target { return c; }",
        "ps_6_1",
        TargetEnv::Vulkan1_1,
    );
    assert_has(&dis, &["OpDecorate %in_var_COLOR Flat"]);
    assert_lacks(&dis, &["PerVertexKHR", "_arr_"]);
}

/// A vertex shader compiled from a file whose pixel shader calls
/// `GetAttributeAtVertex` (the usual one-file VSMain + PSMain): the call is
/// in code the vertex entry does not reach, so it is no error there, as
/// other stage-only calls are not (found on the H200, where the runtime
/// test compiles both entries of one file).
#[test]
fn attributes_read_per_vertex_in_unreached_code_of_another_stage() {
    let src = "struct PIn { float4 pos : SV_Position; nointerpolation float4 c : COLOR; };\n\
               float4 at(nointerpolation float4 v, uint k) { return GetAttributeAtVertex(v, k); }\n\
               float4 VSMain(float4 p : POSITION) : SV_Position { return p; }\n\
               float4 PSMain(PIn i) : SV_Target { return GetAttributeAtVertex(i.c, 1) + at(i.c, 2); }";
    let mut o = common::options_for("vs_6_1");
    o.entry = "VSMain".into();
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short);
    assert!(text.is_empty() && c.artifact.is_some(), "{text}");
}

/// Library checking (no profile: the editor, `-fsyntax-only`) checks
/// `GetAttributeAtVertex` in the pixel shader that calls it, with its
/// per-vertex inputs: no false error, and a real one still found.
#[test]
fn attributes_read_per_vertex_in_library_checking() {
    let check = |src: &str| {
        let (loader, path) = common::single_file(src);
        let c = crate::check(&path, &loader, &crate::Options::default());
        render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short)
    };
    let good = "float4 at(nointerpolation float4 v, uint k) { return GetAttributeAtVertex(v, k); }\n\
                float4 PSMain(nointerpolation float4 c : COLOR) : SV_Target {\n\
                  return GetAttributeAtVertex(c, 1) + at(c, 2);\n\
                }";
    assert_eq!(check(good), "");
    let bad = "float4 PSMain(float4 c : COLOR) : SV_Target { return GetAttributeAtVertex(c, 1); }";
    let text = check(bad);
    assert!(
        text.contains("E0604") && text.contains("nointerpolation"),
        "{text}"
    );
}

#[test]
fn system_values_a_stage_has_no_builtin_for_are_user_semantics_where_d3d_allows() {
    // `SV_Position` as a vertex input and `SV_InstanceID` as a vertex
    // output are ordinary located variables (D3D's "arbitrary" entries).
    let dis = spirv_text(
        "struct O { float4 p : SV_Position; uint i : SV_InstanceID; };\n\
         O main(float4 p : SV_Position, uint i : SV_InstanceID) { O o; o.p = p; o.i = i; return o; }",
        "vs_6_0",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &dis,
        &[
            "OpDecorate %in_var_SV_Position Location 0",
            "OpDecorate %gl_InstanceIndex BuiltIn InstanceIndex",
            "OpDecorate %out_var_SV_InstanceID Location 0",
            "OpDecorate %gl_Position BuiltIn Position",
        ],
    );
    // A pixel shader reads `SV_InstanceID` as a flat user input.
    let dis = spirv_text(
        "float4 main(uint i : SV_InstanceID) : SV_Target { return i; }",
        "ps_6_0",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &dis,
        &[
            "OpDecorate %in_var_SV_InstanceID Location 0",
            "OpDecorate %in_var_SV_InstanceID Flat",
        ],
    );
    // Compute shaders still have no user inputs.
    let t = diagnose_profile(
        "[numthreads(1,1,1)] void main(float4 p : SV_Position) {}",
        "cs_6_0",
    );
    assert!(
        t.contains("`SV_Position` is not an input of compute shaders"),
        "{t}"
    );
}

#[test]
fn conservative_depth_outputs_set_the_depth_modes() {
    for (sem, mode) in [
        ("SV_DepthGreaterEqual", "DepthGreater"),
        ("SV_DepthLessEqual", "DepthLess"),
    ] {
        let dis = spirv_text(
            &format!("float main(float4 p : SV_Position) : {sem} {{ return p.z; }}"),
            "ps_6_0",
            TargetEnv::Vulkan1_1,
        );
        assert_has(
            &dis,
            &[
                "OpDecorate %gl_FragDepth BuiltIn FragDepth",
                &format!("OpExecutionMode %main {mode}"),
                "OpExecutionMode %main DepthReplacing",
            ],
        );
    }
}

#[test]
fn arrays_of_clip_distances_fill_consecutive_elements() {
    // foo: 4 × float2 at 0..8, bar: 2 × float3 at 8..14.
    let dis = spirv_text(
        "struct O { float4 p : SV_Position; float2 foo[4] : SV_ClipDistance0; float3 bar[2] : SV_ClipDistance1; };\n\
         O main(float x : X) { O o = (O)x; o.foo[3].y = 7; o.bar[1].z = 9; return o; }",
        "vs_6_0",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &dis,
        &["%gl_ClipDistance = OpVariable %_ptr_Output__arr_float_uint_14 Output"],
    );
    let stores = dis
        .lines()
        .filter(|l| l.contains("OpAccessChain %_ptr_Output_float %gl_ClipDistance"))
        .count();
    assert_eq!(stores, 14, "{dis}");
    // A pixel shader reads them back as arrays.
    let dis = spirv_text(
        "float4 main(float4 p : SV_Position, float2 c[2] : SV_ClipDistance) : SV_Target { return float4(c[0], c[1]); }",
        "ps_6_0",
        TargetEnv::Vulkan1_1,
    );
    assert_has(
        &dis,
        &["%gl_ClipDistance = OpVariable %_ptr_Input__arr_float_uint_4 Input"],
    );
}
