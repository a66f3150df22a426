//! Ray tracing and ray query runtime tests: the shaders of
//! `tests/in/runtime_raytracing/` compiled by hlslc, validated with
//! spirv-val, run over one bottom-level structure of two triangles and one
//! instance of it (`tests/unit/vk/accel.rs`), and every ray's record
//! compared with a CPU ray–triangle intersection (Möller–Trumbore).
//!
//! lavapipe (Mesa 22.3) has neither ray tracing pipelines nor ray queries:
//! those tests are ignored there and run on the GPU
//! (`HLSLC_VK_DEVICE=NVIDIA … --include-ignored`), where each still skips,
//! saying why, when the device lacks the extensions. The H200 (NVIDIA
//! 580) runs the pipeline (every ray matched: distances exact, barycentrics
//! within 2e-7) but offers no VK_KHR_ray_query.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, HitGroup, Instance, RayTracing, Resource, Scene};

/// The grid of rays (query.hlsl's GRID).
const W: u32 = 32;
const H: u32 = 24;
/// Words per record (scene.hlsli's `Record`: 48 bytes).
const RECORD_WORDS: usize = 12;
/// What the shaders find in words they do not write.
const UNTOUCHED: u32 = 0xffff_ffff;
const MISS_COLOUR: [f32; 4] = [0.25, 0.5, 0.75, 1.0];
/// The instance's custom index (`InstanceID()`): all 24 bits used.
const CUSTOM_INDEX: u32 = 0xab_cdef;
/// Rays that pass this close to a triangle's edge (in barycentric terms)
/// are not compared: hit or miss, and which triangle, is up to rounding.
const EDGE: f32 = 1e-3;

/// Two triangles: 0 at z = 0 over x + y <= 0, 1 at z = 0.5 over
/// x + y >= -0.5, so that in the band between them triangle 0 is in front
/// (the closest hit must pick it); placed by a scaling, translating
/// instance.
fn scene() -> Scene {
    Scene {
        vertices: vec![
            [-1.0, -1.0, 0.0],
            [1.0, -1.0, 0.0],
            [-1.0, 1.0, 0.0],
            [1.5, -2.0, 0.5],
            [1.5, 1.5, 0.5],
            [-2.0, 1.5, 0.5],
        ],
        indices: vec![0, 1, 2, 3, 4, 5],
        opaque: true,
        instances: vec![Instance::new(
            [
                [1.5, 0.0, 0.0, 0.25],
                [0.0, 1.0, 0.0, -0.125],
                [0.0, 0.0, 1.0, 4.0],
            ],
            CUSTOM_INDEX,
            0x0f,
        )],
    }
}

/// scene.hlsli's `grid_ray`: (origin, direction, t_min, t_max).
fn grid_ray(x: u32, y: u32) -> ([f32; 3], [f32; 3], f32, f32) {
    let cx = (x as f32 + 0.5) / W as f32;
    let cy = (y as f32 + 0.5) / H as f32;
    let lerp = |a: f32, b: f32, s: f32| a + s * (b - a);
    (
        [lerp(-3.5, 3.5, cx), lerp(-2.5, 2.5, cy), 0.0],
        [0.05, 0.1, 1.0],
        0.001,
        100.0,
    )
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Möller–Trumbore, in f64 for a reference: where the ray's line meets the
/// triangle's plane, as (t, u, v) with u and v the weights of vertices 1
/// and 2, whether inside the triangle or not; `None` when parallel.
fn intersect(origin: [f32; 3], dir: [f32; 3], tri: [[f32; 3]; 3]) -> Option<(f32, f32, f32)> {
    let e1 = sub(tri[1], tri[0]);
    let e2 = sub(tri[2], tri[0]);
    let p = cross(dir, e2);
    let det = f64::from(dot(e1, p));
    if det.abs() < 1e-12 {
        return None;
    }
    let s = sub(origin, tri[0]);
    let q = cross(s, e1);
    let u = f64::from(dot(s, p)) / det;
    let v = f64::from(dot(dir, q)) / det;
    let t = f64::from(dot(e2, q)) / det;
    Some((t as f32, u as f32, v as f32))
}

/// What a ray should find.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Hit {
        t: f32,
        u: f32,
        v: f32,
        primitive: u32,
    },
    Miss,
    /// Too close to an edge to say.
    Unsure,
}

/// The CPU's answer for ray (x, y): the nearest triangle of the scene's
/// one instance that the ray meets within [t_min, t_max].
fn reference(scene: &Scene, x: u32, y: u32) -> Expect {
    let (origin, dir, t_min, t_max) = grid_ray(x, y);
    let mut best = Expect::Miss;
    for (primitive, tri) in scene.world_triangles(0).into_iter().enumerate() {
        let Some((t, u, v)) = intersect(origin, dir, tri) else {
            continue;
        };
        if t < t_min || t > t_max {
            continue;
        }
        let margin = u.min(v).min(1.0 - u - v);
        if margin.abs() < EDGE {
            return Expect::Unsure;
        }
        let nearer = match best {
            Expect::Hit { t: bt, .. } => t < bt,
            _ => true,
        };
        if margin > 0.0 && nearer {
            best = Expect::Hit {
                t,
                u,
                v,
                primitive: primitive as u32,
            };
        }
    }
    best
}

/// The largest differences from the reference, and how many rays of each
/// kind were compared.
#[derive(Debug, Default)]
struct Figures {
    hits: [usize; 2],
    misses: usize,
    unsure: usize,
    max_t_error: f32,
    max_barycentric_error: f32,
}

/// Compares every record with the reference; `payload` checks the word
/// the run writes per ray besides the hit (`Some(prim)` for a hit, `None`
/// for a miss). Returns the figures or every mismatch (the first 20).
fn compare(
    scene: &Scene,
    words: &[u32],
    payload: impl Fn(Option<u32>, f32) -> bool,
) -> Result<Figures, String> {
    let mut f = Figures::default();
    let mut bad = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let slot = (y * W + x) as usize;
            let r = &words[slot * RECORD_WORDS..(slot + 1) * RECORD_WORDS];
            let float = |i: usize| f32::from_bits(r[i]);
            let colour = [float(8), float(9), float(10), float(11)];
            let expect = reference(scene, x, y);
            let mut problems = Vec::new();
            if r[6] != slot as u32 {
                problems.push(format!("launch {} (not {slot})", r[6]));
            }
            match expect {
                Expect::Unsure => f.unsure += 1,
                Expect::Miss => {
                    f.misses += 1;
                    if r[7] != 2 || colour != MISS_COLOUR {
                        problems.push(format!("a miss expected; kind {}, colour {colour:?}", r[7]));
                    }
                    if r[..5].iter().any(|&w| w != UNTOUCHED) {
                        problems.push(format!("a miss wrote hit words {:x?}", &r[..5]));
                    }
                    if !payload(None, float(5)) {
                        problems.push(format!("payload {} after a miss", float(5)));
                    }
                }
                Expect::Hit { t, u, v, primitive } => {
                    f.hits[primitive as usize] += 1;
                    let (gt, gu, gv) = (float(0), float(1), float(2));
                    let t_error = (gt - t).abs();
                    let b_error = (gu - u).abs().max((gv - v).abs());
                    // NaN errors (words left untouched) must fail too.
                    f.max_t_error = f.max_t_error.max(t_error);
                    f.max_barycentric_error = f.max_barycentric_error.max(b_error);
                    if r[7] != 1 || r[3] != primitive || r[4] != CUSTOM_INDEX {
                        problems.push(format!(
                            "a hit of triangle {primitive} expected; kind {}, primitive {}, instance {:#x}",
                            r[7], r[3], r[4]
                        ));
                    }
                    if t_error.is_nan() || t_error > 1e-4 * t || b_error.is_nan() || b_error > 1e-4
                    {
                        problems.push(format!(
                            "t {gt} u {gu} v {gv}; the reference: t {t} u {u} v {v}"
                        ));
                    }
                    let want = [1.0 - gu - gv, gu, gv, 1.0];
                    if colour.iter().zip(want).any(|(c, w)| (c - w).abs() > 1e-6) {
                        problems.push(format!("colour {colour:?}, not {want:?}"));
                    }
                    if !payload(Some(primitive), float(5)) {
                        problems.push(format!("payload {} after a hit of {primitive}", float(5)));
                    }
                }
            }
            if !problems.is_empty() {
                bad.push(format!("ray ({x}, {y}): {}", problems.join("; ")));
            }
        }
    }
    // Every kind of ray must occur for the comparison to mean something.
    if f.hits.contains(&0) || f.misses == 0 || f.unsure * 10 > (W * H) as usize {
        bad.push(format!("the grid does not test enough: {f:?}"));
    }
    if bad.is_empty() {
        Ok(f)
    } else {
        let n = bad.len();
        bad.truncate(20);
        Err(format!("{n} rays differ:\n{}", bad.join("\n")))
    }
}

/// Compiles `tests/in/runtime_raytracing/NAME.hlsl` with `profile` (and
/// `entry`, for non-library profiles) for Vulkan 1.2 and validates it.
fn compile(name: &str, profile: &str, entry: &str) -> Vec<u32> {
    let rel = std::path::PathBuf::from(format!("tests/in/runtime_raytracing/{name}.hlsl"));
    let mut o = common::options_for(profile);
    o.target_env = TargetEnv::Vulkan1_2;
    o.entry = entry.to_string();
    let c = crate::compile(&rel, &common::RootedLoader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("{name} ({profile}) failed to compile:\n{text}");
    };
    if let Err(e) = common::spirv_val(&a.spirv, TargetEnv::Vulkan1_2.name()) {
        panic!(
            "{name} ({profile}): invalid SPIR-V: {e}\n{}",
            common::spirv_dis(&a.spirv)
        );
    }
    a.spirv
}

/// The acceleration structure and a record buffer of untouched words.
fn resources(scene: Scene) -> Vec<Resource> {
    let records = vec![UNTOUCHED; (W * H) as usize * RECORD_WORDS];
    vec![
        Resource::acceleration_structure(0, 0, scene),
        Resource::storage(0, 1, vk::u32_bytes(&records)),
    ]
}

/// Compares the records a run left (`res[1]`) with the reference and
/// prints the figures; `payload` as for [`compare`].
fn check_records(
    runner: &vk::Runner,
    what: &str,
    res: &[Resource],
    payload: impl Fn(Option<u32>, f32) -> bool,
) {
    let records = vk::to_u32s(&res[1].data);
    match compare(&scene(), &records, payload) {
        Ok(f) => println!("{what} on {}: {f:?}", runner.info().name),
        Err(e) => panic!("{what}: {e}"),
    }
}

/// The shared runner, or `None` (after saying why) when it has no
/// `feature` ("ray tracing pipelines", "ray queries").
fn runner_with(
    feature: &str,
    has: impl Fn(&vk::DeviceInfo) -> bool,
) -> Option<std::sync::Arc<vk::Runner>> {
    let runner = vk::shared();
    if has(runner.info()) {
        return Some(runner);
    }
    println!(
        "skipped: {} offers no {feature}; {}",
        runner.info().name,
        runner
            .info()
            .ray_tracing
            .report(vk::on(runner.info().features12.buffer_device_address))
    );
    None
}

/// Raygen, closest-hit and miss shaders of one library: hit distance,
/// barycentrics, PrimitiveIndex, InstanceID and the payload of every ray
/// of the grid, against the CPU.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_KHR_ray_tracing_pipeline; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn ray_tracing_pipeline_matches_cpu_intersection() {
    let Some(runner) = runner_with("ray tracing pipelines", |i| {
        i.ray_tracing
            .pipelines(vk::on(i.features12.buffer_device_address))
    }) else {
        return;
    };
    let words = compile("trace", "lib_6_3", "");
    let mut rt = RayTracing::new(&words, "RayGen", [W, H, 1]);
    rt.miss = vec!["Miss"];
    rt.hit_groups = vec![HitGroup::closest("ClosestHit")];
    let mut res = resources(scene());
    if let Err(e) = runner.trace_rays(&rt, &mut res) {
        panic!("trace failed: {e}\n{}", common::spirv_dis(&words));
    }
    // The payload back in raygen: 10 + the primitive hit, -1 on a miss.
    check_records(&runner, "ray tracing pipeline", &res, |hit, p| match hit {
        Some(prim) => p == 10.0 + prim as f32,
        None => p == -1.0,
    });
}

/// `RayQuery` in a compute shader over the same scene: the Proceed loop
/// commits every (forced non-opaque) candidate, and the committed hit's
/// distance, barycentrics, primitive and instance match the CPU.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_KHR_ray_query; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn ray_queries_match_cpu_intersection() {
    let Some(runner) = runner_with("ray queries", |i| {
        i.ray_tracing
            .ray_queries(vk::on(i.features12.buffer_device_address))
    }) else {
        return;
    };
    let words = compile("query", "cs_6_5", "main");
    let mut res = resources(scene());
    if let Err(e) = runner.run_compute(&words, "main", &mut res, &[], [W / 8, H / 8, 1]) {
        panic!("dispatch failed: {e}\n{}", common::spirv_dis(&words));
    }
    // Candidates seen: at least the committed triangle, none on a miss.
    check_records(&runner, "ray queries", &res, |hit, p| match hit {
        Some(_) => (1.0..=2.0).contains(&p),
        None => p == 0.0,
    });
}

/// The reference itself: a ray through a known point of a triangle.
#[test]
fn reference_intersection_finds_known_points() {
    let tri = [[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [0.0, 1.0, 2.0]];
    let (t, u, v) = intersect([0.25, 0.5, 0.0], [0.0, 0.0, 1.0], tri).unwrap();
    assert_eq!((t, u, v), (2.0, 0.25, 0.5));
    // Outside: the weights say by how much.
    let (_, u, v) = intersect([1.0, 1.0, 0.0], [0.0, 0.0, 2.0], tri).unwrap();
    assert!(1.0 - u - v < 0.0, "{u} {v}");
    assert_eq!(intersect([0.0; 3], [1.0, 0.0, 0.0], tri), None);
    // The grid meets both triangles, the band where both lie (triangle 0
    // in front) and empty space.
    let s = scene();
    let all: Vec<Expect> = (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .map(|(x, y)| reference(&s, x, y))
        .collect();
    for primitive in 0..2 {
        assert!(
            all.iter()
                .any(|e| matches!(e, Expect::Hit { primitive: p, .. } if *p == primitive))
        );
    }
    assert!(all.contains(&Expect::Miss));
    let tri1 = s.world_triangles(0)[1];
    let behind = (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let (o, d, ..) = grid_ray(x, y);
            let hit0 = matches!(reference(&s, x, y), Expect::Hit { primitive: 0, .. });
            hit0 && intersect(o, d, tri1).is_some_and(|(_, u, v)| u > 0.0 && v > 0.0 && u + v < 1.0)
        })
        .count();
    assert!(behind > 0, "no ray meets triangle 1 behind triangle 0");
}

/// An acceleration structure is built wherever the device has the
/// extension (bound to a compute run that does not read it), and is a
/// clear error where it has not (lavapipe).
#[test]
fn acceleration_structures_build_or_say_why_not() {
    let runner = vk::shared();
    let n = 64;
    let mut res = vec![
        Resource::storage(0, 0, vk::f32_bytes(&vec![1.5; n])),
        Resource::storage(0, 1, vk::f32_bytes(&vec![0.0; n])),
        Resource::acceleration_structure(0, 2, scene()),
    ];
    let run = runner.run_compute(&vk::probe::DOUBLE_WORDS, "main", &mut res, &[], [1, 1, 1]);
    let info = runner.info();
    if runner.info().has_extension("VK_KHR_acceleration_structure")
        && vk::on(info.features12.buffer_device_address)
    {
        run.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(vk::to_f32s(&res[1].data), vec![3.0; n]);
    } else {
        let e = run.expect_err("an acceleration structure without the extension");
        assert!(
            e.contains("VK_KHR_acceleration_structure") && e.contains("set=0 binding=2"),
            "{e}"
        );
    }
}

/// Both test shaders compile and validate on any machine (lavapipe runs
/// this; the GPU tests run them): the library holds its three entry points
/// with their payload and attribute variables, and the compute shader's ray
/// query is initialised and stepped.
#[test]
fn ray_tracing_shaders_compile_everywhere() {
    let has = |words: &[u32], wants: &[&str]| {
        let a = common::spirv_dis(words);
        for w in wants {
            assert!(a.contains(w), "missing `{w}` in:\n{a}");
        }
    };
    has(
        &compile("trace", "lib_6_3", ""),
        &[
            // Debian's spirv-dis names the shared values with NV names.
            "OpEntryPoint RayGeneration",
            "OpEntryPoint ClosestHit",
            "OpEntryPoint Miss",
            "OpTraceRayKHR",
            "IncomingRayPayload",
            "HitAttribute",
        ],
    );
    has(
        &compile("query", "cs_6_5", "main"),
        &[
            "OpTypeRayQueryKHR",
            "OpRayQueryInitializeKHR",
            "OpRayQueryProceedKHR",
        ],
    );
}
