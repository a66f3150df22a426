//! Mesh and amplification shaders compiled to SPV_NV_mesh_shader (below
//! SPIR-V 1.4, or when `-fspv-extension` asks for it): the flat index
//! array written index by index, the primitive and task counts, and the
//! payload as `PerTaskNV` variables; and helpers that write a mesh
//! shader's output arrays.

use super::mesh::{asm_for, has_all};
use crate::options::TargetEnv;

const NV: &[&str] = &["SPV_NV_mesh_shader"];

/// The stores into `gl_PrimitiveIndicesNV`: (element, stored value), as
/// the disassembly names them (`uint_5`), in order.
fn index_stores(asm: &str) -> Vec<(String, String)> {
    let mut chains = std::collections::HashMap::new();
    let mut out = Vec::new();
    for line in asm.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w[..] {
            [id, "=", "OpAccessChain", _, "%gl_PrimitiveIndicesNV", at] => {
                chains.insert(id.to_string(), at.trim_start_matches('%').to_string());
            }
            ["OpStore", ptr, value] => {
                if let Some(at) = chains.get(ptr) {
                    out.push((at.clone(), value.trim_start_matches('%').to_string()));
                }
            }
            _ => {}
        }
    }
    out
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Vulkan 1.1 gives SPIR-V 1.3, so the mesh shader is `MeshNV`: its
/// triangles' indices are one `uint[3 * 4]` array, a whole element is
/// three stores, a swizzle or an index only the components it names, and
/// `SetMeshOutputCounts` stores the primitive count.
#[test]
fn nv_mesh_writes_flat_indices_and_the_primitive_count() {
    let src = "struct V { float4 pos : SV_Position; };\n\
               struct P { uint layer : SV_RenderTargetArrayIndex; };\n\
               [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]\n\
               void main(out vertices V verts[3], out indices uint3 tris[4], out primitives P prims[4]) {\n\
                 SetMeshOutputCounts(3, 4);\n\
                 verts[0].pos = 1;\n\
                 tris[0] = uint3(7, 8, 9);\n\
                 tris[1].zy = uint2(10, 11);\n\
                 tris[2][1] = 12;\n\
                 tris[3].b = 13;\n\
                 prims[1].layer = 2;\n\
               }";
    let a = asm_for("ms_6_5", src, TargetEnv::Vulkan1_1, &[]);
    has_all(
        &a,
        &[
            "OpCapability MeshShadingNV",
            "OpExtension \"SPV_NV_mesh_shader\"",
            "OpEntryPoint MeshNV %main",
            "OpExecutionMode %main OutputTrianglesNV",
            "OpExecutionMode %main OutputVertices 3",
            "OpExecutionMode %main OutputPrimitivesNV 4",
            "OpDecorate %gl_PrimitiveIndicesNV BuiltIn PrimitiveIndicesNV",
            "%gl_PrimitiveIndicesNV = OpVariable %_ptr_Output__arr_uint_uint_12 Output",
            "OpDecorate %gl_Layer PerPrimitiveNV",
            "OpStore %gl_PrimitiveCountNV %uint_4",
        ],
    );
    assert!(!a.contains("OpSetMeshOutputsEXT"), "{a}");
    assert_eq!(
        index_stores(&a),
        pairs(&[
            ("uint_0", "uint_7"),
            ("uint_1", "uint_8"),
            ("uint_2", "uint_9"),
            ("uint_5", "uint_10"),
            ("uint_4", "uint_11"),
            ("uint_7", "uint_12"),
            ("uint_11", "uint_13"),
        ]),
        "{a}"
    );
}

/// A compound assignment to one index reads and writes that index only.
#[test]
fn nv_compound_assignment_touches_one_index() {
    let src = "struct V { float4 pos : SV_Position; };\n\
               [outputtopology(\"line\")] [numthreads(2, 1, 1)]\n\
               void main(uint i : SV_GroupIndex, out vertices V verts[2], out indices uint2 lines[1]) {\n\
                 SetMeshOutputCounts(2, 1);\n\
                 verts[i].pos = 0;\n\
                 if (i == 0) lines[0].y += 1;\n\
               }";
    let a = asm_for("ms_6_5", src, TargetEnv::Vulkan1_2, NV);
    has_all(
        &a,
        &[
            "OpEntryPoint MeshNV %main",
            "%gl_PrimitiveIndicesNV = OpVariable %_ptr_Output__arr_uint_uint_2 Output",
            "OpExecutionMode %main OutputLinesNV",
        ],
    );
    let stores = index_stores(&a);
    assert_eq!(stores.len(), 1, "{a}");
    assert_eq!(stores[0].0, "uint_1", "{a}");
}

/// The amplification shader's groupshared payload stays in Workgroup
/// memory; `DispatchMesh` copies each member into a `PerTaskNV` output at
/// its offset, stores `x * y * z` into `TaskCountNV` and returns. The mesh
/// shader reads the members from `PerTaskNV` inputs at the same offsets.
#[test]
fn nv_payload_goes_through_per_task_variables() {
    let payload = "struct Pl { uint n; float4 offset; uint cells[3]; };\n";
    let task = asm_for(
        "as_6_5",
        &format!(
            "{payload}groupshared Pl pl;\n\
             [numthreads(4, 1, 1)]\n\
             void main(uint i : SV_GroupIndex) {{\n\
               if (i == 0) {{ pl.n = 3; pl.offset = 1; }}\n\
               pl.cells[i % 3] = i;\n\
               DispatchMesh(2, 3, 4, pl);\n\
             }}"
        ),
        TargetEnv::Vulkan1_2,
        NV,
    );
    has_all(
        &task,
        &[
            "OpCapability MeshShadingNV",
            "OpEntryPoint TaskNV %main",
            "%pl = OpVariable %_ptr_Workgroup_Pl Workgroup",
            "OpDecorate %out_var_n PerTaskNV",
            "OpDecorate %out_var_n Offset 0",
            "OpDecorate %out_var_offset Offset 16",
            "OpDecorate %out_var_cells Offset 32",
            "OpControlBarrier %uint_2 %uint_2 %uint_264",
            "OpStore %gl_TaskCountNV %uint_24",
            "OpDecorate %gl_TaskCountNV BuiltIn TaskCountNV",
        ],
    );
    assert!(!task.contains("OpEmitMeshTasksEXT"), "{task}");
    assert!(!task.contains("TaskPayloadWorkgroupEXT"), "{task}");
    let barrier = task.find("OpControlBarrier").unwrap_or(0);
    let count = task.find("OpStore %gl_TaskCountNV").unwrap_or(0);
    assert!(barrier < count, "the barrier comes first:\n{task}");
    let mesh = asm_for(
        "ms_6_5",
        &format!(
            "{payload}struct V {{ float4 pos : SV_Position; }};\n\
             [outputtopology(\"point\")] [numthreads(1, 1, 1)]\n\
             void main(in payload Pl pl, out vertices V verts[1], out indices uint pts[1]) {{\n\
               SetMeshOutputCounts(pl.n, pl.n);\n\
               verts[0].pos = pl.offset + pl.cells[2];\n\
               pts[0] = 0;\n\
             }}"
        ),
        TargetEnv::Vulkan1_2,
        NV,
    );
    has_all(
        &mesh,
        &[
            "OpEntryPoint MeshNV %main",
            "OpDecorate %in_var_n PerTaskNV",
            "OpDecorate %in_var_offset Offset 16",
            "OpDecorate %in_var_cells Offset 32",
            "%in_var_cells = OpVariable %_ptr_Input__arr_uint_uint_3 Input",
            "OpExecutionMode %main OutputPoints",
        ],
    );
}

/// A helper declared with `out vertices`/`out indices` parameters writes
/// the mesh shader's own output variables, for both extensions.
#[test]
fn helpers_write_the_mesh_outputs() {
    let src = "struct V { float4 pos : SV_Position; float3 color : COLOR0; };\n\
               void corner(uint i, out vertices V vs[3]) { vs[i].pos = float4(i, 0, 0, 1); vs[i].color = 1; }\n\
               void emit(out indices uint3 ts[1], out vertices V vs[3]) {\n\
                 ts[0] = uint3(0, 1, 2);\n\
                 for (uint i = 0; i < 3; i++) corner(i, vs);\n\
               }\n\
               [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]\n\
               void main(out indices uint3 tris[1], out vertices V verts[3]) {\n\
                 SetMeshOutputCounts(3, 1);\n\
                 emit(tris, verts);\n\
               }";
    let ext = asm_for("ms_6_5", src, TargetEnv::Vulkan1_2, &[]);
    has_all(
        &ext,
        &[
            "OpEntryPoint MeshEXT %main",
            "OpAccessChain %_ptr_Output_v4float %gl_Position",
            "OpAccessChain %_ptr_Output_v3float %out_var_COLOR0",
            "OpAccessChain %_ptr_Output_v3uint %gl_PrimitiveTriangleIndicesEXT",
        ],
    );
    let nv = asm_for("ms_6_5", src, TargetEnv::Vulkan1_1, &[]);
    has_all(
        &nv,
        &[
            "OpEntryPoint MeshNV %main",
            "OpAccessChain %_ptr_Output_v4float %gl_Position",
        ],
    );
    assert_eq!(
        index_stores(&nv),
        pairs(&[
            ("uint_0", "uint_0"),
            ("uint_1", "uint_1"),
            ("uint_2", "uint_2")
        ]),
        "{nv}"
    );
}
