//! Mesh and amplification shaders compiled from HLSL: execution modes,
//! built-ins, per-primitive decorations and the stores into the output
//! arrays, in the validated disassembly (SPV_EXT_mesh_shader).

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;

fn asm(profile: &str, src: &str) -> String {
    asm_for(profile, src, TargetEnv::Vulkan1_2, &[])
}

/// The validated disassembly of `main` compiled for `env`, with
/// `-fspv-extension` for each of `extensions`.
pub(super) fn asm_for(profile: &str, src: &str, env: TargetEnv, extensions: &[&str]) -> String {
    let mut o = common::options_for(profile);
    o.entry = "main".into();
    o.target_env = env;
    o.allowed_extensions = extensions.iter().map(|e| e.to_string()).collect();
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed:\n{text}");
    };
    if let Err(e) = common::spirv_val(&a.spirv, env.name()) {
        panic!("invalid SPIR-V: {e}\n{}", common::spirv_dis(&a.spirv));
    }
    common::spirv_dis(&a.spirv)
}

/// Asserts that `asm` has each of `wants`. Mesh execution modes and
/// decorations have two names for one value (`OutputLinesNV` is
/// `OutputLinesEXT`, `PerPrimitiveNV` is `PerPrimitiveEXT`), and
/// spirv-dis prints the NV one before SPIRV-Tools 2024 and the EXT one
/// after: either spelling matches.
pub(super) fn has_all(asm: &str, wants: &[&str]) {
    let one_name = |s: &str| {
        [
            "OutputLines",
            "OutputTriangles",
            "OutputPrimitives",
            "PerPrimitive",
        ]
        .iter()
        .fold(s.to_string(), |s, m| {
            s.replace(&format!("{m}NV"), &format!("{m}EXT"))
        })
    };
    let text = one_name(asm);
    for w in wants {
        assert!(text.contains(&one_name(w)), "missing `{w}` in:\n{asm}");
    }
}

/// Lines of per-vertex and per-primitive outputs: built-ins, locations
/// after the vertex ones, `PerPrimitiveEXT` on every primitive variable,
/// `CullPrimitiveEXT` as an array of `bool`, and partial writes (a
/// swizzle, a clip distance) going straight to the element's variable.
#[test]
fn line_mesh_outputs_and_per_primitive_decorations() {
    let src = "struct V { float4 pos : SV_Position; float2 uv : UV; float clip : SV_ClipDistance0; };\n\
               struct P { float3 color : COLOR; uint layer : SV_RenderTargetArrayIndex;\n\
                          uint vp : SV_ViewportArrayIndex; bool cull : SV_CullPrimitive; };\n\
               [outputtopology(\"line\")] [numthreads(2, 1, 1)]\n\
               void main(uint i : SV_GroupIndex, out vertices V verts[2],\n\
                         out indices uint2 lines[1], out primitives P prims[1]) {\n\
                 SetMeshOutputCounts(2, 1);\n\
                 verts[i].pos = float4(i, 0, 0, 1);\n\
                 verts[i].pos.zw = float2(0.5, 1);\n\
                 verts[i].uv[1] = 2;\n\
                 verts[i].clip = 1;\n\
                 if (i == 0) {\n\
                   lines[0] = uint2(0, 1);\n\
                   P p; p.color = 1; p.layer = 2; p.vp = 0; p.cull = false;\n\
                   prims[0] = p;\n\
                 }\n\
               }";
    let a = asm("ms_6_5", src);
    has_all(
        &a,
        &[
            "OpCapability MeshShadingEXT",
            "OpExtension \"SPV_EXT_mesh_shader\"",
            "OpEntryPoint MeshEXT %main",
            "OpExecutionMode %main LocalSize 2 1 1",
            "OpExecutionMode %main OutputLinesNV",
            "OpExecutionMode %main OutputVertices 2",
            "OpExecutionMode %main OutputPrimitivesNV 1",
            "BuiltIn PrimitiveLineIndicesEXT",
            "OpDecorate %out_var_UV Location 0",
            "OpDecorate %out_var_COLOR Location 1",
            "OpDecorate %out_var_COLOR PerPrimitiveNV",
            "OpDecorate %gl_Layer PerPrimitiveNV",
            "OpDecorate %gl_ViewportIndex PerPrimitiveNV",
            "BuiltIn CullPrimitiveEXT",
            "%gl_CullPrimitiveEXT = OpVariable %_ptr_Output__arr_bool_uint_1 Output",
            "%gl_ClipDistance = OpVariable %_ptr_Output__arr__arr_float_uint_1_uint_2 Output",
            "OpSetMeshOutputsEXT %uint_2 %uint_1",
        ],
    );
    // The vertices are not per-primitive.
    assert!(!a.contains("OpDecorate %gl_Position PerPrimitive"), "{a}");
    assert!(!a.contains("OpDecorate %out_var_UV PerPrimitive"), "{a}");
}

/// Several `SV_ClipDistanceN` fields of the vertex struct share one
/// `ClipDistance` array per vertex, each at its own offset (ordered by N),
/// as in the other stages: `SV_ClipDistance3` (two floats) takes elements
/// 0 and 1 and `SV_ClipDistance4` (three) elements 2 to 4. They used to
/// overlap in an array of three.
#[test]
fn mesh_clip_distances_of_several_semantics_share_one_array() {
    let src = "struct V { float4 pos : SV_Position; float3 c4 : SV_ClipDistance4;\n\
                          float2 c3 : SV_ClipDistance3; float k : SV_CullDistance1; };\n\
               [outputtopology(\"point\")] [numthreads(1, 1, 1)]\n\
               void main(out vertices V verts[1], out indices uint pts[1]) {\n\
                 SetMeshOutputCounts(1, 1);\n\
                 verts[0].pos = 0; verts[0].c4.z = 4; verts[0].c3.y = 1; verts[0].k = 2;\n\
                 pts[0] = 0;\n\
               }";
    let a = asm("ms_6_5", src);
    has_all(
        &a,
        &[
            "%gl_ClipDistance = OpVariable %_ptr_Output__arr__arr_float_uint_5_uint_1 Output",
            "%gl_CullDistance = OpVariable %_ptr_Output__arr__arr_float_uint_1_uint_1 Output",
            "OpAccessChain %_ptr_Output_float %gl_ClipDistance %int_0 %uint_4",
            "OpAccessChain %_ptr_Output_float %gl_ClipDistance %int_0 %uint_1",
        ],
    );
}

/// A mesh shader's `in payload` is its `TaskPayloadWorkgroupEXT`
/// variable; the amplification shader's groupshared payload is one too,
/// written in place and handed to `OpEmitMeshTasksEXT` after a barrier.
#[test]
fn payload_lives_in_task_payload_memory() {
    let ms = asm(
        "ms_6_5",
        "struct Pl { float4 offset; uint n; };\n\
         struct V { float4 pos : SV_Position; };\n\
         [outputtopology(\"point\")] [numthreads(1, 1, 1)]\n\
         void main(in payload Pl pl, out vertices V verts[1], out indices uint pts[1]) {\n\
           SetMeshOutputCounts(pl.n, pl.n);\n\
           verts[0].pos = pl.offset;\n\
           pts[0] = 0;\n\
         }",
    );
    has_all(
        &ms,
        &[
            "%pl = OpVariable %_ptr_TaskPayloadWorkgroupEXT_Pl TaskPayloadWorkgroupEXT",
            "BuiltIn PrimitivePointIndicesEXT",
            "OpExecutionMode %main OutputPoints",
        ],
    );
    let task = asm(
        "as_6_5",
        "struct Pl { float4 offset; uint n; };\n\
         groupshared Pl pl;\n\
         [numthreads(8, 1, 1)]\n\
         void main(uint i : SV_GroupIndex) {\n\
           if (i == 0) { pl.n = 3; pl.offset = 1; }\n\
           DispatchMesh(2, 1, 1, pl);\n\
         }",
    );
    has_all(
        &task,
        &[
            "OpEntryPoint TaskEXT %main",
            "%pl = OpVariable %_ptr_TaskPayloadWorkgroupEXT_Pl TaskPayloadWorkgroupEXT",
            "OpControlBarrier %uint_2 %uint_2 %uint_264",
            "OpEmitMeshTasksEXT %uint_2 %uint_1 %uint_1 %pl",
        ],
    );
}

/// `[[vk::builtin("PointSize")]]` and `[[vk::builtin("ViewportMaskNV")]]`
/// on fields of the vertex and primitive structs are arrays of those
/// built-ins, the mask per primitive.
#[test]
fn vk_builtin_fields_of_mesh_outputs() {
    let a = asm(
        "ms_6_5",
        "struct V { float4 pos : SV_Position; [[vk::builtin(\"PointSize\")]] float size : PSIZE; };\n\
         struct P { [[vk::builtin(\"ViewportMaskNV\")]] int mask[1] : VMASK; };\n\
         [outputtopology(\"point\")] [numthreads(1, 1, 1)]\n\
         void main(out vertices V verts[2], out indices uint pts[2], out primitives P prims[2]) {\n\
           SetMeshOutputCounts(2, 2);\n\
           verts[1].pos = 0;\n\
           verts[1].size = 3;\n\
           prims[1].mask[0] = 1;\n\
           pts[1] = 1;\n\
         }",
    );
    has_all(
        &a,
        &[
            "OpDecorate %gl_PointSize BuiltIn PointSize",
            "%gl_PointSize = OpVariable %_ptr_Output__arr_float_uint_2 Output",
            "OpDecorate %gl_ViewportMaskNV BuiltIn ViewportMaskNV",
            "OpDecorate %gl_ViewportMaskNV PerPrimitive",
            "OpCapability ShaderViewportMaskNV",
        ],
    );
    assert!(!a.contains("PSIZE"), "{a}");
}
