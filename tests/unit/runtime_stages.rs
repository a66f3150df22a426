//! Geometry and tessellation runtime tests: the shaders of one file of
//! `tests/in/runtime_stages/` (entry points `VSMain`, `GSMain` or
//! `HSMain`/`DSMain`, `PSMain`), compiled by hlslc, validated, drawn on
//! Vulkan (lavapipe by default; `HLSLC_VK_DEVICE=NVIDIA` picks the GPU)
//! into 16×16 float targets for two target environments, every pixel
//! compared with a reference computed here.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, Draw, Resource};
use ash::vk as avk;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2];
const W: u32 = 16;
const H: u32 = 16;

fn compile(name: &str, entry: &str, profile: &str, env: TargetEnv) -> Vec<u32> {
    let rel = std::path::PathBuf::from(format!("tests/in/runtime_stages/{name}.hlsl"));
    let mut o = common::options_for(profile);
    o.target_env = env;
    o.entry = entry.to_string();
    let c = crate::compile(&rel, &common::RootedLoader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("{name}:{entry} ({env:?}) failed to compile:\n{text}");
    };
    let flags: &[&str] = if env == TargetEnv::Vulkan1_0 {
        &["--relax-block-layout"]
    } else {
        &[]
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), flags) {
        panic!(
            "{name}:{entry} ({env:?}): invalid SPIR-V: {e}\n{}",
            common::spirv_dis(&a.spirv)
        );
    }
    a.spirv
}

/// Which stages a test draws with.
#[derive(Clone, Copy, PartialEq)]
enum Stages {
    Geometry,
    Tessellation,
}

/// Draws `name` in each environment: `setup` adjusts the draw, `make` gives
/// fresh resources, `check` gets the targets (layer by layer).
fn run(
    name: &str,
    stages: Stages,
    setup: impl Fn(&mut Draw),
    make: impl Fn() -> Vec<Resource>,
    check: impl Fn(&[Vec<f32>], TargetEnv),
) {
    for env in ENVS {
        let vs = compile(name, "VSMain", "vs_6_0", env);
        let ps = compile(name, "PSMain", "ps_6_0", env);
        let (gs, hs, ds) = match stages {
            Stages::Geometry => (Some(compile(name, "GSMain", "gs_6_0", env)), None, None),
            Stages::Tessellation => (
                None,
                Some(compile(name, "HSMain", "hs_6_0", env)),
                Some(compile(name, "DSMain", "ds_6_0", env)),
            ),
        };
        let mut draw = Draw::new(&vs, "VSMain", &ps, "PSMain");
        draw.width = W;
        draw.height = H;
        draw.gs = gs.as_deref().map(|g| (g, "GSMain"));
        draw.hs = hs.as_deref().map(|h| (h, "HSMain"));
        draw.ds = ds.as_deref().map(|d| (d, "DSMain"));
        setup(&mut draw);
        let mut res = make();
        let runner = vk::shared();
        match runner.draw(&draw, &mut res) {
            Ok(targets) => check(&targets, env),
            Err(e) => {
                let dis =
                    |m: &Option<Vec<u32>>| m.as_deref().map(common::spirv_dis).unwrap_or_default();
                panic!(
                    "{name} ({env:?}): draw failed: {e}\nGS:\n{}\nHS:\n{}\nDS:\n{}",
                    dis(&gs),
                    dis(&hs),
                    dis(&ds)
                )
            }
        }
    }
}

/// Compares every pixel of `target` with `want(x, y)` within `tol`.
fn check_pixels(target: &[f32], what: &str, tol: f32, want: impl Fn(u32, u32) -> [f32; 4]) {
    assert_eq!(target.len(), (W * H * 4) as usize, "{what}: size");
    for y in 0..H {
        for x in 0..W {
            let at = ((y * W + x) * 4) as usize;
            let got = &target[at..at + 4];
            let w = want(x, y);
            let same = got
                .iter()
                .zip(&w)
                .all(|(g, w)| g == w || (g - w).abs() <= tol);
            assert!(same, "{what}: pixel ({x}, {y}): got {got:?}, want {w:?}");
        }
    }
}

/// NDC of a pixel centre.
fn ndc(p: u32, size: u32) -> f32 {
    (p as f32 + 0.5) / size as f32 * 2.0 - 1.0
}

#[test]
fn geometry_shader_expands_points_to_quads() {
    // The squares' top-left pixels (VSMain), 4 pixels wide.
    let squares = [(1u32, 2u32), (9, 1), (3, 10), (10, 9)];
    run(
        "sprites",
        Stages::Geometry,
        |d| {
            d.topology = avk::PrimitiveTopology::POINT_LIST;
            d.vertex_count = 4;
            d.clear = [-1.0; 4];
        },
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("sprites {env:?}"), 1e-5, |x, y| {
                for (i, &(sx, sy)) in squares.iter().enumerate() {
                    if (sx..sx + 4).contains(&x) && (sy..sy + 4).contains(&y) {
                        // uv runs 0..1 across the square.
                        let u = (x - sx) as f32 / 4.0 + 0.125;
                        let v = (y - sy) as f32 / 4.0 + 0.125;
                        return [u, v, (i + 1) as f32, 10.0 * i as f32];
                    }
                }
                [-1.0; 4]
            });
        },
    );
}

#[test]
fn geometry_instances_write_their_layers() {
    run(
        "layers",
        Stages::Geometry,
        |d| {
            d.layers = 2;
            d.clear = [-1.0; 4];
        },
        Vec::new,
        |t, env| {
            assert_eq!(t.len(), 2, "one target of two layers");
            for (layer, target) in t.iter().enumerate() {
                check_pixels(target, &format!("layer {layer} {env:?}"), 0.0, |x, y| {
                    [
                        x as f32 + 0.5,
                        y as f32 + 0.5,
                        100.0 + 11.0 * layer as f32,
                        1.0,
                    ]
                });
            }
        },
    );
}

#[test]
fn only_stream_zero_is_rasterized() {
    let runner = vk::shared();
    let info = runner.info();
    // Several streams need geometryStreams (VK_EXT_transform_feedback);
    // points written from a geometry shader take their PointSize with
    // shaderTessellationAndGeometryPointSize.
    if !vk::on(info.transform_feedback.geometry_streams)
        || !vk::on(info.features.shader_tessellation_and_geometry_point_size)
    {
        eprintln!(
            "skipped: {} has no geometryStreams or geometry point size",
            info.name
        );
        return;
    }
    run(
        "streams",
        Stages::Geometry,
        |d| {
            d.topology = avk::PrimitiveTopology::POINT_LIST;
            d.vertex_count = 8 * 16;
            d.clear = [-1.0; 4];
        },
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("streams {env:?}"), 0.0, |x, y| {
                if x < 8 {
                    [x as f32 + 0.5, y as f32 + 0.5, 3.0, 4.0]
                } else {
                    [-1.0; 4]
                }
            });
        },
    );
}

#[test]
fn primitive_id_through_geometry_and_pixel_shaders() {
    run(
        "primitive_id",
        Stages::Geometry,
        |d| d.vertex_count = 12,
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("primitive id {env:?}"), 0.0, |x, y| {
                // Each quad is 8 pixels wide; its first triangle is the one
                // below the diagonal from its top-left to bottom-right
                // corner (y < 2x in the quad's pixels).
                let quad = x / 8;
                let (lx, ly) = ((x % 8) as f32 + 0.5, y as f32 + 0.5);
                let prim = quad * 2 + u32::from(ly > 2.0 * lx);
                [(prim * 10 + 3) as f32, 0.0, 0.0, 1.0]
            });
        },
    );
}

#[test]
fn quad_patch_tessellated_by_cbuffer_factors_with_heights() {
    const N: usize = 4;
    // Row j of the grid at this NDC height; column i at x = 2(i/N)² - 1.
    let heights = [-1.0f32, -0.6, 0.1, 0.5, 1.0];
    let col_x = |i: usize| {
        let u = i as f32 / N as f32;
        2.0 * u * u - 1.0
    };
    // The piecewise-linear inverse of a monotonic grid placement.
    let inverse = |pos: f32, at: &dyn Fn(usize) -> f32| -> f32 {
        for i in 0..N {
            let (a, b) = (at(i), at(i + 1));
            if pos >= a && pos < b {
                return (i as f32 + (pos - a) / (b - a)) / N as f32;
            }
        }
        panic!("{pos} outside the grid");
    };
    // The patch constant: sum over control points of (i + 1) * the hull
    // shader's output (10 * (i, 2i) + 1), plus 1 in y per input point, and
    // the domain shader adds control point 3's output.
    let mut sum = [0.0f32; 2];
    for i in 0..4 {
        sum[0] += (i + 1) as f32 * (10.0 * i as f32 + 1.0);
        sum[1] += (i + 1) as f32 * (20.0 * i as f32 + 1.0) + 1.0;
    }
    let sum = [sum[0] + 31.0, sum[1] + 61.0];
    run(
        "tess_quad",
        Stages::Tessellation,
        |d| {
            d.topology = avk::PrimitiveTopology::PATCH_LIST;
            d.patch_control_points = 4;
            d.vertex_count = 4;
            d.clear = [-1.0; 4];
        },
        || {
            vec![
                Resource::uniform(0, 0, vk::f32_bytes(&[N as f32, N as f32, 0.0, 0.0])),
                Resource::storage(0, 1, vk::f32_bytes(&heights)),
            ]
        },
        |t, env| {
            // Interpolation precision is the implementation's (Vulkan,
            // "Interpolation"): NVIDIA's differs from the reference by up
            // to 3e-5; a wrong mesh moves values by 1/8 or more.
            check_pixels(&t[0], &format!("quad patch {env:?}"), 1e-4, |x, y| {
                let u = inverse(ndc(x, W), &col_x);
                let v = inverse(ndc(y, H), &|j| heights[j]);
                [u, v, sum[0], sum[1]]
            });
        },
    );
}

#[test]
fn triangle_patch_tessellated_into_six_triangles() {
    // Pixel coordinates of the patch corners (VSMain).
    let corners = [[-1.0f32, -1.0], [40.0, -1.0], [-1.0, 40.0]];
    // Integer spacing, every factor 2: the outer edges split in two, the
    // inner triangle collapses to the centre; six triangles fan around it.
    // Barycentric vertices of the six triangles.
    let c = [1.0 / 3.0; 3];
    let e = |i: usize| {
        let mut b = [0.0f32; 3];
        b[i] = 1.0;
        b
    };
    let mid = |i: usize, j: usize| {
        let mut b = [0.0f32; 3];
        b[i] = 0.5;
        b[j] = 0.5;
        b
    };
    let fan = [
        [c, e(0), mid(0, 1)],
        [c, mid(0, 1), e(1)],
        [c, e(1), mid(1, 2)],
        [c, mid(1, 2), e(2)],
        [c, e(2), mid(2, 0)],
        [c, mid(2, 0), e(0)],
    ];
    let value = |b: [f32; 3]| [b[0] * b[0], b[1] * b[2] * 4.0];
    let to_xy = |b: [f32; 3]| {
        [
            b[0] * corners[0][0] + b[1] * corners[1][0] + b[2] * corners[2][0],
            b[0] * corners[0][1] + b[1] * corners[1][1] + b[2] * corners[2][1],
        ]
    };
    run(
        "tess_tri",
        Stages::Tessellation,
        |d| {
            d.topology = avk::PrimitiveTopology::PATCH_LIST;
            d.patch_control_points = 3;
            d.vertex_count = 3;
            d.clear = [-1.0; 4];
        },
        || {
            vec![Resource::uniform(
                0,
                0,
                vk::f32_bytes(&[2.0, 0.0, 0.0, 0.0]),
            )]
        },
        |t, env| {
            // Interpolation precision is the implementation's (Vulkan,
            // "Interpolation"): NVIDIA's differs from the reference by up
            // to 3e-5; a wrong mesh moves values by 1/8 or more.
            check_pixels(&t[0], &format!("triangle patch {env:?}"), 1e-4, |x, y| {
                let p = [x as f32 + 0.5, y as f32 + 0.5];
                for tri in &fan {
                    let [a, b, c] = tri.map(to_xy);
                    let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
                    let l1 = ((b[0] - p[0]) * (c[1] - p[1]) - (c[0] - p[0]) * (b[1] - p[1])) / area;
                    let l2 = ((c[0] - p[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (c[1] - p[1])) / area;
                    let l3 = 1.0 - l1 - l2;
                    if l1 >= -1e-6 && l2 >= -1e-6 && l3 >= -1e-6 {
                        let [va, vb, vc] = tri.map(value);
                        return [
                            l1 * va[0] + l2 * vb[0] + l3 * vc[0],
                            l1 * va[1] + l2 * vb[1] + l3 * vc[1],
                            0.0,
                            1.0,
                        ];
                    }
                }
                panic!("pixel ({x}, {y}) is outside the patch");
            });
        },
    );
}
