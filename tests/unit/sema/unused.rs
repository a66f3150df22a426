//! What the entry point does not use is left out of the module, as DXC
//! leaves it out: resources, push constant blocks, `$Globals`, counters,
//! stage inputs and built-ins; `-fspv-preserve-bindings` keeps the
//! resources with a binding, `-fspv-preserve-interface` the stage
//! variables. Reflection lists exactly what the module declares.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::tests::common;

/// Compiles `main` of `src` for `profile` with `args` (DXC's flags),
/// validates it and returns the disassembly and the reflection JSON.
fn compile(profile: &str, args: &[&str], src: &str) -> (String, String) {
    let mut all = vec!["-T", profile, "-E", "main", "--verify-ir"];
    all.extend(args);
    let mut o = crate::Options::from_args(all).expect("options");
    o.reflect = true;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed:\n{text}");
    };
    if let Err(e) = common::spirv_val(&a.spirv, "vulkan1.0") {
        panic!("invalid SPIR-V: {e}\n{}", common::spirv_dis(&a.spirv));
    }
    let json = a.reflection.expect("reflection").to_json();
    (common::spirv_dis(&a.spirv), json)
}

/// Whether the disassembly declares a variable named `name`.
fn declares(asm: &str, name: &str) -> bool {
    asm.contains(&format!("%{name} = OpVariable"))
}

const RESOURCES: &str = "
Texture2DMS<float4> gbuffer : register(t0);
SamplerState gbufferSampler : register(s0);   // never used: Load needs none
Texture2D<float4> unusedTexture : register(t1);
SamplerState unusedSampler : register(s2);
struct Push { float4 tint; };
[[vk::push_constant]] Push unusedPush;
RWStructuredBuffer<uint> counted : register(u3);
float unusedGlobal;
float4 main(float4 pos : SV_Position) : SV_Target {
    counted[0] = 1;
    return gbuffer.Load(int2(pos.xy), 0);
}
";

#[test]
fn unused_resources_and_push_constants_are_left_out() {
    let (asm, json) = compile("ps_6_0", &[], RESOURCES);
    assert!(
        declares(&asm, "gbuffer") && declares(&asm, "counted"),
        "{asm}"
    );
    for unused in [
        "gbufferSampler",
        "unusedTexture",
        "unusedSampler",
        "unusedPush",
        "_Globals",
        "counter_var_counted",
    ] {
        assert!(!declares(&asm, unused), "{unused} declared:\n{asm}");
    }
    // No sampler at the texture's binding: the application created none.
    assert_eq!(asm.matches("Binding 0").count(), 1, "{asm}");
    assert!(!asm.contains("PushConstant"), "{asm}");
    for unused in ["gbufferSampler", "unusedTexture", "unusedPush", "$Globals"] {
        assert!(
            !json.contains(&format!("\"{unused}\"")),
            "{unused}:\n{json}"
        );
    }
}

#[test]
fn preserve_bindings_keeps_every_resource_with_a_binding() {
    let (asm, json) = compile("ps_6_0", &["-fspv-preserve-bindings"], RESOURCES);
    for kept in [
        "gbufferSampler",
        "unusedTexture",
        "unusedSampler",
        "_Globals",
    ] {
        assert!(declares(&asm, kept), "{kept} left out:\n{asm}");
    }
    assert!(json.contains("\"used\": false"), "{json}");
    // A push constant block has no binding: still left out, as spirv-opt's
    // preserve-bindings leaves it.
    assert!(!declares(&asm, "unusedPush"), "{asm}");
}

const INPUTS: &str = "
float4 main(float2 a : A, float3 unusedB : B, float2 c : C, uint prim : SV_PrimitiveID) : SV_Target {
    return float4(a, c);
}
";

#[test]
fn unread_pixel_inputs_are_left_out_unless_the_interface_is_preserved() {
    let (asm, json) = compile("ps_6_0", &[], INPUTS);
    assert!(
        asm.contains("OpEntryPoint Fragment %main \"main\" %in_var_A %in_var_C %out_var_SV_Target"),
        "{asm}"
    );
    assert!(
        !declares(&asm, "in_var_B") && !declares(&asm, "gl_PrimitiveID"),
        "{asm}"
    );
    // The locations stay where the signature puts them.
    assert!(asm.contains("OpDecorate %in_var_C Location 2"), "{asm}");
    assert!(!json.contains("\"B\""), "{json}");

    let (asm, json) = compile("ps_6_0", &["-fspv-preserve-interface"], INPUTS);
    assert!(
        asm.contains(
            "OpEntryPoint Fragment %main \"main\" %in_var_A %in_var_B %in_var_C %gl_PrimitiveID %out_var_SV_Target"
        ),
        "{asm}"
    );
    assert!(asm.contains("OpDecorate %in_var_B Location 1"), "{asm}");
    assert!(asm.contains("OpDecorate %gl_PrimitiveID Flat"), "{asm}");
    assert!(json.contains("\"B\""), "{json}");
}

#[test]
fn a_hull_shader_that_never_reads_its_primitive_id_declares_none() {
    let src = "
struct CP { float4 pos : POSITION; };
struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };
PC patch_constants(InputPatch<CP, 3> ip, uint id : SV_PrimitiveID) {
    PC pc;
    pc.edges[0] = pc.edges[1] = pc.edges[2] = 1;
    pc.inside = 1;
    return pc;
}
[domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")]
[outputcontrolpoints(3)] [patchconstantfunc(\"patch_constants\")]
CP main(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID, uint id : SV_PrimitiveID) {
    return ip[i];
}
";
    let (asm, _) = compile("hs_6_0", &[], src);
    assert!(!asm.contains("BuiltIn PrimitiveId"), "{asm}");
    assert!(asm.contains("BuiltIn InvocationId"), "{asm}");
    let (asm, _) = compile("hs_6_0", &["-fspv-preserve-interface"], src);
    assert!(asm.contains("BuiltIn PrimitiveId"), "{asm}");
}
