//! Mesh pipelines on Vulkan: the meshlets of `tests/in/runtime_mesh/`
//! compiled by hlslc (SPV_EXT_mesh_shader for Vulkan 1.2, SPV_NV_mesh_shader
//! for Vulkan 1.1), drawn with `vkCmdDrawMeshTasksEXT`/`NV` into a 64×64
//! float target, and every pixel compared with the grid computed here.
//! lavapipe has no mesh shaders: these tests run on a GPU that offers
//! VK_EXT_mesh_shader (VK_NV_mesh_shader) and skip, saying so, on a device
//! without it.

use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::runtime_graphics::compile_in;
use crate::tests::vk::{self, Draw, MeshStages};

const SIZE: u32 = 64;
const CELLS: u32 = 4;
const CELL: u32 = SIZE / CELLS;
/// The quads are inset this many pixels into their cells.
const INSET: u32 = 2;
const CLEAR: [f32; 4] = [-1.0; 4];
const ENV: TargetEnv = TargetEnv::Vulkan1_2;
/// SPIR-V 1.3: below the 1.4 of SPV_EXT_mesh_shader, so hlslc emits
/// SPV_NV_mesh_shader, as DXC does.
const ENV_NV: TargetEnv = TargetEnv::Vulkan1_1;

fn compile(name: &str, entry: &str, profile: &str) -> Vec<u32> {
    compile_in("runtime_mesh", name, entry, profile, ENV)
}

fn compile_nv(name: &str, entry: &str, profile: &str) -> Vec<u32> {
    compile_in("runtime_mesh", name, entry, profile, ENV_NV)
}

/// The shared runner when its device has task and mesh shaders of the EXT
/// (or, `nv`, the NV) extension; `None`, after printing why, when it has
/// not.
fn mesh_runner_for(nv: bool) -> Option<std::sync::Arc<vk::Runner>> {
    let runner = vk::shared();
    let f = runner.info().mesh_enabled(nv);
    if !f.mesh || !f.task {
        println!(
            "skipped: the device ({}) has no {} task and mesh shaders",
            runner.info().name,
            if nv {
                "VK_NV_mesh_shader"
            } else {
                "VK_EXT_mesh_shader"
            }
        );
        return None;
    }
    Some(runner)
}

/// What pixel (x, y) shows when the cells for which `drawn` holds are
/// drawn: the colour of its triangle (red and green the cell's column and
/// row / 4, blue the triangle, alpha the primitive id), `None` on a
/// triangle's diagonal edge (either colour may win), else the clear colour.
fn expected(x: u32, y: u32, drawn: impl Fn(u32) -> bool) -> Option<[f32; 4]> {
    let (cx, cy) = (x / CELL, y / CELL);
    let cell = cy * CELLS + cx;
    let (lx, ly) = (x % CELL, y % CELL);
    let inside = (INSET..CELL - INSET).contains(&lx) && (INSET..CELL - INSET).contains(&ly);
    if !inside || !drawn(cell) {
        return Some(CLEAR);
    }
    // Local coordinates of the pixel centre, in units of the quad side.
    let side = (CELL - 2 * INSET) as f32;
    let u = (lx - INSET) as f32 + 0.5;
    let v = (ly - INSET) as f32 + 0.5;
    let tri = if u + v < side {
        0
    } else if u + v > side {
        1
    } else {
        return None;
    };
    Some([
        cx as f32 * 0.25,
        cy as f32 * 0.25,
        tri as f32,
        (cell * 2 + tri) as f32,
    ])
}

/// Compares every pixel with `expected`; counts the drawn pixels.
fn check_grid(target: &[f32], what: &str, drawn: impl Fn(u32) -> bool) -> usize {
    assert_eq!(target.len(), (SIZE * SIZE * 4) as usize, "{what}: size");
    let mut covered = 0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let at = ((y * SIZE + x) * 4) as usize;
            let got = &target[at..at + 4];
            if got != CLEAR {
                covered += 1;
            }
            let Some(want) = expected(x, y, &drawn) else {
                continue;
            };
            assert_eq!(got, want, "{what}: pixel ({x}, {y})");
        }
    }
    covered
}

fn draw(stages: MeshStages, ps: &[u32]) -> Vec<f32> {
    let runner = mesh_runner_for(stages.nv).expect("checked by the caller");
    let mut d = Draw::new(&[], "", ps, "PSMain");
    d.width = SIZE;
    d.height = SIZE;
    d.clear = CLEAR;
    d.mesh = Some(stages);
    match runner.draw(&d, &mut []) {
        Ok(mut t) => t.remove(0),
        Err(e) => panic!("mesh draw failed: {e}"),
    }
}

/// One mesh draw of `meshlets.hlsl`: the entries `task` (if any) and
/// `mesh`, compiled for SPV_NV_mesh_shader when `nv`, launched as
/// `groups`; every pixel is checked against the grid of the cells for
/// which `drawn` holds.
fn draw_and_check(
    what: &str,
    nv: bool,
    task: Option<&str>,
    mesh: &str,
    groups: [u32; 3],
    drawn: impl Fn(u32) -> bool,
) {
    if mesh_runner_for(nv).is_none() {
        return;
    }
    let build = |name: &str, entry: &str, profile: &str| {
        if nv {
            compile_nv(name, entry, profile)
        } else {
            compile(name, entry, profile)
        }
    };
    let task_words = task.map(|t| build("meshlets", t, "as_6_5"));
    let ms = build("meshlets", mesh, "ms_6_5");
    let ps = build("pixel", "PSMain", "ps_6_0");
    let stages = MeshStages {
        task: task_words.as_deref().zip(task),
        mesh: (&ms, mesh),
        groups,
        nv,
    };
    let t = draw(stages, &ps);
    let covered = check_grid(&t, what, drawn);
    println!(
        "{what} on {}: {covered} of {} pixels drawn, each as expected",
        vk::shared().info().name,
        SIZE * SIZE
    );
    assert!(covered > 0);
}

/// The cells an amplification shader keeps: those whose x + y is even.
fn even_cell(cell: u32) -> bool {
    (cell % CELLS + cell / CELLS).is_multiple_of(2)
}

/// A mesh shader draws a 4×4 grid of meshlets, one group each: every
/// pixel shows its triangle's per-primitive colour and primitive id.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_EXT_mesh_shader; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn mesh_shader_draws_a_grid_of_meshlets() {
    draw_and_check(
        "mesh grid",
        false,
        None,
        "MSGrid",
        [CELLS, CELLS, 1],
        |_| true,
    );
}

/// An amplification shader keeps the meshlets of the even cells (x + y
/// even) and passes their numbers to the mesh shader in its payload: the
/// kept cells are drawn, the culled ones keep the clear colour.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_EXT_mesh_shader; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn amplification_shader_culls_half_the_meshlets() {
    let (task, mesh) = (Some("ASCull"), "MSCulled");
    draw_and_check(
        "amplification culling",
        false,
        task,
        mesh,
        [1, 1, 1],
        even_cell,
    );
}

/// SPV_NV_mesh_shader: a row of 16 mesh groups, each writing its quad
/// through a helper function, draws the same grid.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_NV_mesh_shader; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn nv_mesh_shader_draws_the_grid() {
    let groups = [CELLS * CELLS, 1, 1];
    draw_and_check("NV mesh grid", true, None, "MSRow", groups, |_| true);
}

/// SPV_NV_mesh_shader: the amplification shader's payload reaches the mesh
/// shaders through `PerTaskNV` variables, and its task count is the
/// number of kept cells.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_NV_mesh_shader; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn nv_amplification_shader_culls_half_the_meshlets() {
    let (task, mesh) = (Some("ASCull"), "MSCulled");
    draw_and_check(
        "NV amplification culling",
        true,
        task,
        mesh,
        [1, 1, 1],
        even_cell,
    );
}

/// The meshlet shaders compile to valid SPIR-V on every machine, with the
/// mesh pipeline's instructions and decorations.
#[test]
fn meshlet_shaders_compile() {
    let has = |words: &[u32], wants: &[&str]| {
        let a = common::spirv_dis(words);
        for w in wants {
            assert!(a.contains(w), "missing `{w}` in:\n{a}");
        }
    };
    has(
        &compile("meshlets", "MSGrid", "ms_6_5"),
        &[
            "OpEntryPoint MeshEXT %MSGrid",
            "OpExecutionMode %MSGrid OutputVertices 4",
            "OpSetMeshOutputsEXT %uint_4 %uint_2",
            "BuiltIn PrimitiveTriangleIndicesEXT",
        ],
    );
    has(
        &compile("meshlets", "ASCull", "as_6_5"),
        &[
            "OpEntryPoint TaskEXT %ASCull",
            "%kept = OpVariable %_ptr_TaskPayloadWorkgroupEXT_Payload TaskPayloadWorkgroupEXT",
            "OpEmitMeshTasksEXT",
        ],
    );
    has(
        &compile_nv("meshlets", "MSRow", "ms_6_5"),
        &[
            "OpEntryPoint MeshNV %MSRow",
            "BuiltIn PrimitiveIndicesNV",
            "OpStore %gl_PrimitiveCountNV %uint_2",
        ],
    );
    has(
        &compile_nv("meshlets", "ASCull", "as_6_5"),
        &[
            "OpEntryPoint TaskNV %ASCull",
            "OpDecorate %out_var_cells PerTaskNV",
            "BuiltIn TaskCountNV",
        ],
    );
}
