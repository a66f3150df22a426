//! Mesh pipelines on Vulkan: the meshlets of `tests/in/runtime_mesh/`
//! compiled by hlslc (SPV_EXT_mesh_shader), drawn with
//! `vkCmdDrawMeshTasksEXT` into a 64×64 float target, and every pixel
//! compared with the grid computed here. lavapipe has no mesh shaders:
//! these tests run on a GPU that offers VK_EXT_mesh_shader and skip, saying
//! so, on a device without it.

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

fn compile(name: &str, entry: &str, profile: &str) -> Vec<u32> {
    compile_in("runtime_mesh", name, entry, profile, ENV)
}

/// The shared runner when its device has task and mesh shaders; `None`,
/// after printing why, when it has not.
fn mesh_runner() -> Option<std::sync::Arc<vk::Runner>> {
    let runner = vk::shared();
    let f = runner.info().mesh_shader;
    if f.mesh_shader != ash::vk::TRUE || f.task_shader != ash::vk::TRUE {
        println!(
            "skipped: the device ({}) has no VK_EXT_mesh_shader task and mesh shaders",
            runner.info().name
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
    let runner = mesh_runner().expect("checked by the caller");
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

/// A mesh shader draws a 4×4 grid of meshlets, one group each: every
/// pixel shows its triangle's per-primitive colour and primitive id.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_EXT_mesh_shader; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn mesh_shader_draws_a_grid_of_meshlets() {
    if mesh_runner().is_none() {
        return;
    }
    let ms = compile("meshlets", "MSGrid", "ms_6_5");
    let ps = compile("pixel", "PSMain", "ps_6_0");
    let stages = MeshStages {
        task: None,
        mesh: (&ms, "MSGrid"),
        groups: [CELLS, CELLS, 1],
    };
    let t = draw(stages, &ps);
    let covered = check_grid(&t, "grid", |_| true);
    println!(
        "mesh grid on {}: {covered} of {} pixels drawn, all as expected",
        vk::shared().info().name,
        SIZE * SIZE
    );
    assert!(covered > 0);
}

/// An amplification shader keeps the meshlets of the even cells (x + y
/// even) and passes their numbers to the mesh shader in its payload: the
/// kept cells are drawn, the culled ones keep the clear colour.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_EXT_mesh_shader; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn amplification_shader_culls_half_the_meshlets() {
    if mesh_runner().is_none() {
        return;
    }
    let task = compile("meshlets", "ASCull", "as_6_5");
    let ms = compile("meshlets", "MSCulled", "ms_6_5");
    let ps = compile("pixel", "PSMain", "ps_6_0");
    let stages = MeshStages {
        task: Some((&task, "ASCull")),
        mesh: (&ms, "MSCulled"),
        groups: [1, 1, 1],
    };
    let t = draw(stages, &ps);
    let kept = |cell: u32| (cell % CELLS + cell / CELLS).is_multiple_of(2);
    let covered = check_grid(&t, "culled grid", kept);
    println!(
        "amplification culling on {}: {covered} of {} pixels drawn, culled cells empty",
        vk::shared().info().name,
        SIZE * SIZE
    );
    assert!(covered > 0);
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
}
