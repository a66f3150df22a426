//! Whole compiles whose SPIR-V must pass spirv-val.

use super::*;

// --- end to end: valid SPIR-V -----------------------------------------------

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
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let entry = text
            .lines()
            .find_map(|l| l.strip_prefix("// entry:").map(|s| s.trim().to_string()))
            .unwrap_or_else(|| "main".into());
        let mut o = options();
        o.entry = entry;
        o.profile = crate::options::Profile::parse("cs_6_0");
        let rel = std::path::PathBuf::from(format!("samples/{name}.hlsl"));
        // Wave intrinsics need Vulkan 1.1.
        let first = if text.contains("Wave") {
            TargetEnv::Vulkan1_1
        } else {
            TargetEnv::Vulkan1_0
        };
        for env in [first, TargetEnv::Vulkan1_2] {
            o.target_env = env;
            let c = crate::compile(&rel, &common::RootedLoader, &o);
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

#[test]
fn group_wave_builtins_declare_their_capability() {
    let mut o = common::options_for("cs_6_10");
    o.target_env = TargetEnv::Vulkan1_1;
    let (loader, path) = common::single_file(
        "RWStructuredBuffer<uint> o;\n\
         [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           o[id.x] = GetGroupWaveCount() * 100 + GetGroupWaveIndex();\n\
         }",
    );
    let c = crate::compile(&path, &loader, &o);
    let a = c.artifact.expect("compiles");
    let dis = common::spirv_dis(&a.spirv);
    assert!(dis.contains("BuiltIn NumSubgroups"), "{dis}");
    assert!(dis.contains("BuiltIn SubgroupId"), "{dis}");
    common::spirv_val(&a.spirv, "vulkan1.1").unwrap();
}

#[test]
fn bool_stage_variables_are_uints() {
    let mut o = common::options_for("vs_6_0");
    o.entry = "main".into();
    let (loader, path) = common::single_file(
        "float4 main(bool flag : FLAG, float4 p : POSITION, out bool2 mask : MASK) : SV_Position {\n\
           mask = bool2(flag, !flag);\n\
           return flag ? p : -p;\n\
         }",
    );
    let c = crate::compile(&path, &loader, &o);
    let a = c.artifact.expect("compiles");
    let dis = common::spirv_dis(&a.spirv);
    assert!(
        dis.contains("%in_var_FLAG = OpVariable %_ptr_Input_uint Input"),
        "{dis}"
    );
    assert!(
        dis.contains("%out_var_MASK = OpVariable %_ptr_Output_v2uint Output"),
        "{dis}"
    );
    common::spirv_val(&a.spirv, "vulkan1.0").unwrap();
}

#[test]
fn spec_constants_are_not_folded() {
    let (loader, path) = common::single_file(
        "[[vk::constant_id(7)]] const bool Flag = true;\n\
         [[vk::constant_id(8)]] const uint N = 4;\n\
         RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() { if (Flag) o[0] = N * 2; o[1] = uint2(N, 1).x; }",
    );
    let c = crate::compile(&path, &loader, &options());
    let a = c.artifact.expect("compiles");
    let dis = common::spirv_dis(&a.spirv);
    assert!(dis.contains("OpDecorate %Flag SpecId 7"), "{dis}");
    assert!(dis.contains("%Flag = OpSpecConstantTrue %bool"), "{dis}");
    assert!(dis.contains("OpDecorate %N SpecId 8"), "{dis}");
    assert!(dis.contains("%N = OpSpecConstant %uint 4"), "{dis}");
    // The branch and the product stay in the code.
    assert!(dis.contains("OpBranchConditional %Flag"), "{dis}");
    assert!(dis.contains(" %uint %N "), "{dis}");
    common::spirv_val(&a.spirv, "vulkan1.0").unwrap();
}

#[test]
fn constant_arguments_reach_texture_offsets() {
    // A parameter the function never changes is its argument's value, so
    // that after inlining the offset is a constant (Vulkan allows only
    // ConstOffset outside gathers).
    let src = "Texture2D<float> depth; SamplerState smp; RWStructuredBuffer<float> o;\n\
         float tap(float2 uv, int2 offset) { return depth.SampleLevel(smp, uv, 0, offset); }\n\
         float fetch(int2 p, int2 offset) { return depth.Load(int3(p, 0), offset); }\n\
         [numthreads(4,4,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           int2 p = id.xy + 1;\n\
           float2 uv = (p + 0.5) / 6.0;\n\
           uint i = 3 * (id.y * 4 + id.x);\n\
           o[i] = tap(uv, int2(1, 0)); o[i + 1] = tap(uv, int2(0, 1)); o[i + 2] = fetch(p, int2(-1, 0));\n\
         }";
    let words = compile_valid_words(src, TargetEnv::Vulkan1_2);
    let dis = common::spirv_dis(&words);
    assert_eq!(dis.matches("ConstOffset").count(), 3, "{dis}");
    // On Vulkan: a 6×6 texture holding x + 10 y, point-sampled at texel
    // centres, so each read is one texel and its offset shows.
    let texels: Vec<f32> = (0..36).map(|i| (i % 6 + 10 * (i / 6)) as f32).collect();
    let after = run_on_vulkan(
        src,
        TargetEnv::Vulkan1_0,
        vec![
            Resource::sampled_image(
                0,
                0,
                vk::ImageDesc::d2(ash::vk::Format::R32_SFLOAT, 6, 6),
                vk::f32_bytes(&texels),
            ),
            Resource::sampler(0, 1, vk::SamplerDesc::default()),
            Resource::storage(0, 2, vec![0u8; 4 * 48]),
        ],
    );
    let got = vk::to_f32s(&after[2].data);
    let texel = |x: u32, y: u32| (x + 10 * y) as f32;
    for y in 0..4 {
        for x in 0..4 {
            let (px, py) = (x + 1, y + 1);
            let i = 3 * (y * 4 + x) as usize;
            assert_eq!(
                got[i..i + 3],
                [texel(px + 1, py), texel(px, py + 1), texel(px - 1, py)],
                "thread ({x}, {y})"
            );
        }
    }
}

#[test]
fn non_uniform_indices_decorate_what_reaches_the_resource() {
    let src = "Texture2D tex[8]; SamplerState smp[]; RWStructuredBuffer<float4> outs[4];\n\
         [numthreads(8,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           uint i = id.x;\n\
           float4 c = tex[NonUniformResourceIndex(i)].SampleLevel(smp[NonUniformResourceIndex(i + 1)], id.xy / 8.0, 0);\n\
           outs[NonUniformResourceIndex(i % 4)][i] = c;\n\
         }";
    let m = lower(src);
    let f = function(&m, "src.main");
    assert_eq!(
        count_exprs(f, &|e| matches!(e, Expression::NonUniform { .. })),
        3
    );
    for env in [TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2] {
        let mut o = options();
        o.target_env = env;
        let (loader, path) = common::single_file(src);
        let c = crate::compile(&path, &loader, &o);
        let a = c.artifact.expect("compiles");
        let dis = common::spirv_dis(&a.spirv);
        for cap in [
            "ShaderNonUniform",
            "SampledImageArrayNonUniformIndexing",
            "StorageBufferArrayNonUniformIndexing",
        ] {
            assert!(dis.contains(&format!("OpCapability {cap}")), "{cap}\n{dis}");
        }
        assert_eq!(
            dis.contains("OpExtension \"SPV_EXT_descriptor_indexing\""),
            env == TargetEnv::Vulkan1_1,
            "{dis}"
        );
        // Three copies, three access chains, image and sampler loads and
        // the sampled image: nine decorations.
        assert_eq!(dis.matches(" NonUniform\n").count(), 9, "{dis}");
        common::spirv_val(&a.spirv, env.name()).unwrap();
    }
}

/// Compiles a pixel shader for Vulkan 1.0, validates it and returns the
/// disassembly.
fn pixel_asm(src: &str) -> String {
    stage_asm("ps_6_0", src)
}

/// Compiles `main` for `profile` and Vulkan 1.0, validates it and returns
/// the disassembly.
fn stage_asm(profile: &str, src: &str) -> String {
    let mut o = common::options_for(profile);
    o.entry = "main".into();
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed:\n{text}");
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, "vulkan1.0", &["--relax-block-layout"]) {
        panic!("invalid SPIR-V: {e}\n{}", common::spirv_dis(&a.spirv));
    }
    common::spirv_dis(&a.spirv)
}

#[test]
fn unused_builtin_parameter_is_left_out_unless_the_interface_is_preserved() {
    let src = "float4 main(uint sample : SV_SampleIndex, float4 tint : COLOR) : SV_Target { return tint * 0.5; }";
    // As DXC: nothing reads it, so no variable and no capability.
    let asm = pixel_asm(src);
    assert!(!asm.contains("BuiltIn SampleId"), "{asm}");
    assert!(!asm.contains("OpCapability SampleRateShading"), "{asm}");
    // `-fspv-preserve-interface`: the variable is decorated `BuiltIn
    // SampleId` though nothing reads it, in the entry point's interface,
    // with its capability.
    let mut o = common::options_for("ps_6_0");
    o.entry = "main".into();
    o.preserve_interface = true;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let a = c.artifact.expect("compiles");
    common::spirv_val(&a.spirv, "vulkan1.0").unwrap();
    let asm = common::spirv_dis(&a.spirv);
    assert!(asm.contains("OpCapability SampleRateShading"), "{asm}");
    assert!(
        asm.contains("OpEntryPoint Fragment %main \"main\" %gl_SampleID %in_var_COLOR"),
        "{asm}"
    );
    assert!(asm.contains("OpDecorate %gl_SampleID Flat"), "{asm}");
}

#[test]
fn arrays_of_empty_structs_step_by_their_alignment() {
    // A cbuffer array of empty structs: stride 16 (a zero stride breaks the
    // block layout rules), as DXC lays it out.
    let asm = pixel_asm(
        "cbuffer Params { struct {} pad[2]; float4 tint; };\n\
         float4 main() : SV_Target { return tint; }",
    );
    assert!(asm.contains("ArrayStride 16"), "{asm}");
    assert!(
        asm.contains("Offset 32"),
        "tint follows the two 16-byte elements:\n{asm}"
    );
}

#[test]
fn pixel_entry_attributes_become_execution_modes() {
    let asm = pixel_asm(
        "[earlydepthstencil] float4 main() : SV_Target { return float4(0.25, 0.5, 0.75, 1); }",
    );
    assert!(
        asm.contains("OpExecutionMode %main EarlyFragmentTests"),
        "{asm}"
    );
    let asm = pixel_asm(
        "[[vk::post_depth_coverage]] float4 main() : SV_Target { return float4(1, 0.5, 0.25, 1); }",
    );
    assert!(
        asm.contains("OpExecutionMode %main PostDepthCoverage")
            && asm.contains("OpCapability SampleMaskPostDepthCoverage")
            && asm.contains("OpExtension \"SPV_KHR_post_depth_coverage\""),
        "{asm}"
    );
    let asm = pixel_asm(
        "[[vk::early_and_late_tests]] [[vk::depth_unchanged]]\n\
         [[vk::stencil_ref_less_equal_back]] [[vk::stencil_ref_unchanged_front]]\n\
         float4 main() : SV_Target { return 1; }",
    );
    for want in [
        "OpExecutionMode %main EarlyAndLateFragmentTestsAMD",
        "OpExecutionMode %main DepthUnchanged",
        "OpExecutionMode %main StencilRefLessBackAMD",
        "OpExecutionMode %main StencilRefUnchangedFrontAMD",
        "OpCapability StencilExportEXT",
        "OpExtension \"SPV_AMD_shader_early_and_late_fragment_tests\"",
    ] {
        assert!(asm.contains(want), "{want}:\n{asm}");
    }
}

#[test]
fn vk_location_places_stage_variables() {
    let asm = stage_asm(
        "vs_6_0",
        "struct VSOut { float4 pos : SV_Position; [[vk::location(5)]] float3 n : NORMAL;\n\
                        [[vk::location(2)]] float2 uv : TEXCOORD0; };\n\
         VSOut main([[vk::location(3)]] float3 p : POSITION) {\n\
           VSOut o; o.pos = float4(p, 1); o.n = p; o.uv = p.xy; return o; }",
    );
    for want in [
        "OpDecorate %in_var_POSITION Location 3",
        "OpDecorate %out_var_NORMAL Location 5",
        "OpDecorate %out_var_TEXCOORD0 Location 2",
    ] {
        assert!(asm.contains(want), "{want}:\n{asm}");
    } // Before the function, it places the result.
    let asm = stage_asm(
        "vs_6_0",
        "[[vk::location(2)]] float main([[vk::location(0)]] uint id : INSTANCEDATA,\n\
           [[vk::location(1)]] out float fog : FOG, out float4 pos : SV_Position) : SHADE {\n\
           fog = id * 0.25; pos = float4(id, 0, 0, 1); return 0.5; }",
    );
    for want in [
        "OpDecorate %in_var_INSTANCEDATA Location 0",
        "OpDecorate %out_var_SHADE Location 2",
        "OpDecorate %out_var_FOG Location 1",
    ] {
        assert!(asm.contains(want), "{want}:\n{asm}");
    }
}

#[test]
fn vk_index_gives_dual_source_blending_outputs() {
    let asm = pixel_asm(
        "struct PSOut { [[vk::location(0), vk::index(0)]] float4 a : SV_Target0;\n\
                        [[vk::location(0), vk::index(1)]] float4 b : SV_Target1; };\n\
         PSOut main() { PSOut o; o.a = 1; o.b = 2; return o; }",
    );
    for want in [
        "OpDecorate %out_var_SV_Target0 Location 0",
        "OpDecorate %out_var_SV_Target0 Index 0",
        "OpDecorate %out_var_SV_Target1 Location 0",
        "OpDecorate %out_var_SV_Target1 Index 1",
    ] {
        assert!(asm.contains(want), "{want}:\n{asm}");
    }
}

#[test]
fn helper_lane_attribute_asks_nothing_outside_pixel_shaders() {
    // Only pixel shaders have helper lanes: a vertex shader compiles, and
    // gets none of the quad-control modes.
    let asm = stage_asm(
        "vs_6_0",
        "[WaveOpsIncludeHelperLanes] float4 main() : SV_Position { return 0; }",
    );
    assert!(!asm.contains("RequireFullQuadsKHR"), "{asm}");
}

#[test]
fn clip_distances_pack_into_one_array_by_semantic_index() {
    // Sorted by N and packed: N = 1 at 0..1, N = 3 at 2, N = 4 at 3..5 of a
    // float[6]; the cull distance has an array of its own.
    let asm = stage_asm(
        "vs_6_0",
        "struct Edge { float2 sides : SV_ClipDistance1; };\n\
         struct Planes { float3 far : SV_ClipDistance4; float fade : SV_CullDistance2; };\n\
         float4 main(out Planes planes, out float near : SV_ClipDistance3, out Edge edge) : SV_Position {\n\
           edge.sides = float2(10, 11); near = 20; planes.far = float3(50, 51, 52);\n\
           planes.fade = 7; return 0; }",
    );
    for want in [
        "OpDecorate %gl_ClipDistance BuiltIn ClipDistance",
        "OpDecorate %gl_CullDistance BuiltIn CullDistance",
        "OpCapability ClipDistance",
        "OpCapability CullDistance",
        "_arr_float_uint_6",
    ] {
        assert!(asm.contains(want), "{want}:\n{asm}");
    }
    // Each value lands at its packed element.
    for (elem, value) in [(0, "10"), (1, "11"), (2, "20"), (3, "50"), (5, "52")] {
        let chain = asm
            .lines()
            .find(|l| {
                l.contains(&format!(
                    "OpAccessChain %_ptr_Output_float %gl_ClipDistance %uint_{elem}"
                ))
            })
            .unwrap_or_else(|| panic!("no store to element {elem}:\n{asm}"));
        let id = chain.split('=').next().unwrap().trim();
        assert!(
            asm.contains(&format!("OpStore {id} %float_{value}")),
            "element {elem} should get {value}:\n{asm}"
        );
    }
}

/// `vk::ext_builtin_input(N)` on a `static const` global reads the
/// built-in N (23: HelperInvocation) from an Input variable on the entry's
/// interface; `vk::ext_builtin_output(N)` (1: PointSize) writes an Output.
#[test]
fn ext_builtin_attributes_declare_builtin_variables() {
    let a = pixel_asm(
        "[[vk::ext_builtin_input(23)]] static const bool Helper;\n\
         float4 main() : SV_Target { return Helper ? 0 : 1; }",
    );
    for want in [
        "OpDecorate %Helper BuiltIn HelperInvocation",
        "%Helper = OpVariable %_ptr_Input_bool Input",
    ] {
        assert!(a.contains(want), "missing `{want}` in:\n{a}");
    }
    let entry = a
        .lines()
        .find(|l| l.contains("OpEntryPoint"))
        .unwrap_or_default();
    assert!(entry.contains("%Helper"), "{entry}");
    let v = stage_asm(
        "vs_6_0",
        "[[vk::ext_builtin_output(1)]] static float Size;\n\
         float4 main() : SV_Position { Size = 2; return 0; }",
    );
    for want in [
        "OpDecorate %Size BuiltIn PointSize",
        "%Size = OpVariable %_ptr_Output_float Output",
    ] {
        assert!(v.contains(want), "missing `{want}` in:\n{v}");
    }
}

#[test]
fn atomics_on_the_only_component_of_a_texel() {
    // `t[i].r` of a scalar texel names the texel itself.
    let words = compile_valid_words(
        "RWTexture3D<uint> t : register(u1);\n\
         [numthreads(1,1,1)] void main(uint3 id : SV_DispatchThreadID) { InterlockedAdd(t[id].r, 1); }",
        TargetEnv::Vulkan1_1,
    );
    let dis = common::spirv_dis(&words);
    assert!(
        dis.contains("OpImageTexelPointer %_ptr_Image_uint %t"),
        "{dis}"
    );
    assert!(dis.contains("OpAtomicIAdd %uint"), "{dis}");
}
