//! Graphics runtime tests: a vertex and a pixel shader from one file of
//! `tests/in/runtime_graphics/` (entry points `VSMain` and `PSMain`),
//! compiled by hlslc, validated with spirv-val, drawn on Vulkan (lavapipe by
//! default, see `tests/unit/vk/graphics.rs`) into 16×16 float targets for two
//! target environments, with every pixel compared against a reference
//! computed here.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, Draw, Resource};

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2];
const W: u32 = 16;
const H: u32 = 16;

/// Compiles entry `entry` of `tests/in/runtime_graphics/NAME.hlsl` with
/// `profile` for `env` and validates it.
fn compile(name: &str, entry: &str, profile: &str, env: TargetEnv) -> Vec<u32> {
    compile_in("runtime_graphics", name, entry, profile, env)
}

/// Compiles entry `entry` of `tests/in/DIR/NAME.hlsl` with `profile` for
/// `env` and validates it.
pub(crate) fn compile_in(
    dir: &str,
    name: &str,
    entry: &str,
    profile: &str,
    env: TargetEnv,
) -> Vec<u32> {
    let rel = std::path::PathBuf::from(format!("tests/in/{dir}/{name}.hlsl"));
    let mut o = common::options_for(profile);
    o.target_env = env;
    o.entry = entry.to_string();
    let c = crate::compile(&rel, &common::RootedLoader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("{name}:{entry} ({env:?}) failed to compile:\n{text}");
    };
    // Vulkan 1.0 needs VK_KHR_relaxed_block_layout for DXC's default
    // layouts (core from 1.1).
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

/// Draws `name` in each environment: `setup` adjusts the draw, `make` gives
/// fresh resources, `check` gets the targets.
fn run(
    name: &str,
    setup: impl Fn(&mut Draw),
    make: impl Fn() -> Vec<Resource>,
    check: impl Fn(&[Vec<f32>], TargetEnv),
) {
    for env in ENVS {
        let vs = compile(name, "VSMain", "vs_6_0", env);
        let ps = compile(name, "PSMain", "ps_6_0", env);
        let mut draw = Draw::new(&vs, "VSMain", &ps, "PSMain");
        draw.width = W;
        draw.height = H;
        setup(&mut draw);
        let mut res = make();
        let runner = vk::shared();
        match runner.draw(&draw, &mut res) {
            Ok(targets) => check(&targets, env),
            Err(e) => panic!(
                "{name} ({env:?}): draw failed: {e}\nVS:\n{}\nPS:\n{}",
                common::spirv_dis(&vs),
                common::spirv_dis(&ps)
            ),
        }
    }
}

/// Compares every pixel of `target` with `want(x, y)` within `tol`
/// (0 for exact), reporting the first difference.
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

#[test]
fn fullscreen_triangle_writes_pixel_centres() {
    run(
        "fullscreen",
        |_| {},
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("fullscreen {env:?}"), 0.0, |x, y| {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                // SV_Position.z is the depth (0), .w is 1/w_clip (1).
                [px, py, px * 16.0 + py, 1.0]
            });
        },
    );
}

#[test]
fn varyings_interpolated_flat_and_two_targets() {
    run(
        "varyings",
        |d| {
            d.targets = 2;
            d.clear = [-7.0; 4];
        },
        Vec::new,
        |t, env| {
            // NDC of the pixel centre, interpolated: a few ulps of error.
            check_pixels(&t[0], &format!("varyings color {env:?}"), 1e-5, |x, y| {
                let nx = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
                let ny = (y as f32 + 0.5) / H as f32 * 2.0 - 1.0;
                [nx, ny, 0.5, 1.0]
            });
            // Flat: the provoking (first) vertex's values, exactly.
            check_pixels(&t[1], &format!("varyings extra {env:?}"), 0.0, |x, _| {
                [100.0, 1.5, -2.25, x as f32 + 0.5]
            });
        },
    );
}

/// A 4×4 matrix with distinct, non-symmetric entries: m[r][c].
fn matrix(seed: f32) -> [[f32; 4]; 4] {
    let mut m = [[0.0; 4]; 4];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, e) in row.iter_mut().enumerate() {
            *e = seed + (r * 4 + c) as f32 * 0.5 - (r as f32) * (c as f32) * 0.25;
        }
    }
    m
}

/// HLSL `mul(m, v)` with `m` of `rows` rows: a column vector.
fn mul_mv(m: &[[f32; 4]; 4], rows: usize, v: [f32; 4]) -> [f32; 4] {
    let mut out = [0.0; 4];
    for r in 0..rows {
        out[r] = (0..4).map(|c| m[r][c] * v[c]).sum();
    }
    out
}

/// HLSL `mul(v, m)`: a row vector.
fn mul_vm(v: [f32; 4], m: &[[f32; 4]; 4]) -> [f32; 4] {
    let mut out = [0.0; 4];
    for (c, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|r| v[r] * m[r][c]).sum();
    }
    out
}

#[test]
fn cbuffer_matrix_layouts_and_mul_order_in_vertex_shader() {
    // rowM maps uv in 0..2 to clip space (x * 2 - 1) plus distinct values
    // in rows 2 and 3 that do not touch the position's xy.
    let mut row_m = matrix(1.0);
    row_m[0] = [2.0, 0.0, 0.0, -1.0];
    row_m[1] = [0.0, 2.0, 0.0, -1.0];
    let col_m = matrix(-3.0);
    let def_m = matrix(0.75);
    let r34 = matrix(2.0); // rows 0..3 used
    let c34 = matrix(-1.5); // rows 0..3 used
    let v = [1.0f32, -2.0, 0.5, 3.0];
    let mut cb = vec![0f32; 80];
    for r in 0..4 {
        for c in 0..4 {
            cb[r * 4 + c] = row_m[r][c]; // row_major: rows in memory
            cb[16 + c * 4 + r] = col_m[r][c]; // column_major: columns
            cb[32 + c * 4 + r] = def_m[r][c];
        }
    }
    for r in 0..3 {
        for c in 0..4 {
            cb[48 + r * 4 + c] = r34[r][c]; // 3 rows of float4
            cb[60 + c * 4 + r] = c34[r][c]; // 4 columns of float3, 16-byte stride
        }
    }
    cb[76..80].copy_from_slice(&v);
    let wants = [
        mul_mv(&row_m, 4, v),
        mul_vm(v, &col_m),
        mul_mv(&def_m, 4, v),
        mul_mv(&r34, 3, v),
        mul_mv(&c34, 3, v),
    ];
    run(
        "matrices",
        |d| {
            d.targets = 5;
            d.clear = [-9.0; 4];
        },
        || vec![Resource::uniform(0, 0, vk::f32_bytes(&cb))],
        |t, env| {
            for (i, want) in wants.iter().enumerate() {
                // Sums of four products of short binary fractions: exact.
                check_pixels(&t[i], &format!("matrices t{i} {env:?}"), 0.0, |_, _| *want);
            }
        },
    );
}

#[test]
fn discard_and_clip_keep_the_clear_colour() {
    let clear = [0.25, -0.5, 0.75, -1.0];
    run(
        "discard",
        |d| d.clear = clear,
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("discard {env:?}"), 0.0, |x, y| {
                if x < 8 || (x + y) % 2 == 1 {
                    clear
                } else {
                    [x as f32 + 0.5, y as f32 + 0.5, 1.0, 2.0]
                }
            });
        },
    );
}

#[test]
fn instance_id_and_front_face() {
    run(
        "instances",
        |d| {
            d.vertex_count = 6;
            d.instance_count = 2;
        },
        Vec::new,
        |t, env| {
            // Instance 0's quad is clockwise in framebuffer coordinates
            // (negative area, Vulkan spec "Basic Polygon Rasterization"):
            // a back face for a counter-clockwise front face. Instance 1 is
            // its mirror image.
            check_pixels(&t[0], &format!("instances {env:?}"), 0.0, |x, _| {
                if x < 8 {
                    [0.0, 0.0, 3.0, 4.0]
                } else {
                    [1.0, 1.0, 3.0, 4.0]
                }
            });
        },
    );
}

#[test]
fn texture_sample_with_point_sampler() {
    // A 4×4 texture, texel (x, y) = (x, y, 4x + y, 1).
    let mut texels = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            texels.extend([x as f32, y as f32, (4 * x + y) as f32, 1.0]);
        }
    }
    let scale = [1.0f32, 2.0, 0.5, -1.0];
    run(
        "texture",
        |_| {},
        || {
            vec![
                Resource::sampled_image(
                    0,
                    0,
                    vk::ImageDesc::d2(vk::TARGET_FORMAT, 4, 4),
                    vk::f32_bytes(&texels),
                ),
                Resource::sampler(0, 1, vk::SamplerDesc::default()),
                Resource::uniform(0, 2, vk::f32_bytes(&scale)),
            ]
        },
        |t, env| {
            // Pixel x samples u = (x + 0.5) / 16 at texel u * 4, a quarter
            // of a texel or more from any texel edge.
            check_pixels(&t[0], &format!("texture {env:?}"), 0.0, |x, y| {
                let (tx, ty) = (x / 4, y / 4);
                let texel = [tx as f32, ty as f32, (4 * tx + ty) as f32, 1.0];
                [0, 1, 2, 3].map(|i| texel[i] * scale[i])
            });
        },
    );
}

#[test]
fn vertex_buffer_attributes_at_member_order_locations() {
    // pos: float2, color: float4, tag: uint — 28 bytes a vertex.
    let positions = [[-1.0f32, -1.0], [3.0, -1.0], [-1.0, 3.0]];
    let mut data = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let color = [0.5f32 + i as f32, 0.25, -1.0, 2.0];
        data.extend(vk::f32_bytes(p));
        data.extend(vk::f32_bytes(&color));
        data.extend(vk::u32_bytes(&[5 + 10 * i as u32]));
    }
    run(
        "vertex_input",
        |d| {
            d.vertex_buffer = Some(vk::VertexBuffer {
                data: data.clone(),
                stride: 28,
                attributes: vec![
                    (0, ash::vk::Format::R32G32_SFLOAT, 0),
                    (1, ash::vk::Format::R32G32B32A32_SFLOAT, 8),
                    (2, ash::vk::Format::R32_UINT, 24),
                ],
            });
        },
        Vec::new,
        |t, env| {
            // The provoking (first) vertex's color and tag.
            check_pixels(&t[0], &format!("vertex_input {env:?}"), 0.0, |_, _| {
                [0.5, 0.25, -1.0, 7.0]
            });
        },
    );
}

#[test]
fn interpolation_modes_with_varying_w() {
    // Vertex i has clip w = 1 + i and attribute a = 1 + 4i; in framebuffer
    // coordinates the vertices are (0,0), (16,0), (0,16).
    let w = [1.0f64, 2.0, 3.0];
    let a = [1.0f64, 5.0, 9.0];
    let clear = [-1.0f32; 4];
    run(
        "interpolation",
        |d| d.clear = clear,
        Vec::new,
        |t, env| {
            for y in 0..H {
                for x in 0..W {
                    let at = ((y * W + x) * 4) as usize;
                    let got = &t[0][at..at + 4];
                    // Pixel centres on the long edge (x + y = 15) belong
                    // to the triangle or not by the tie-breaking rule.
                    if x + y == 15 {
                        continue;
                    }
                    if x + y > 15 {
                        assert_eq!(got, clear, "interpolation {env:?}: ({x}, {y}) outside");
                        continue;
                    }
                    let b1 = (x as f64 + 0.5) / 16.0;
                    let b2 = (y as f64 + 0.5) / 16.0;
                    let b = [1.0 - b1 - b2, b1, b2];
                    let screen: f64 = (0..3).map(|i| b[i] * a[i]).sum();
                    let inv_w: f64 = (0..3).map(|i| b[i] / w[i]).sum();
                    let persp = (0..3).map(|i| b[i] * a[i] / w[i]).sum::<f64>() / inv_w;
                    // SV_Position.w is 1/w, interpolated linearly in screen space.
                    let want = [persp, screen, 1.0, inv_w];
                    let ok = (0..4).all(|c| (f64::from(got[c]) - want[c]).abs() <= 1e-4);
                    assert!(
                        ok,
                        "interpolation {env:?}: ({x}, {y}): got {got:?}, want {want:?}"
                    );
                }
            }
        },
    );
}

#[test]
fn clip_distances_from_two_semantics() {
    let clear = [-1.0; 4];
    run(
        "clip_distance",
        |d| d.clear = clear,
        Vec::new,
        |t, env| {
            // Kept where x >= 0 and y >= 0 in clip space: pixels 8..15.
            check_pixels(&t[0], &format!("clip_distance {env:?}"), 0.0, |x, y| {
                if x >= 8 && y >= 8 {
                    [x as f32 + 0.5, y as f32 + 0.5, 5.0, 6.0]
                } else {
                    clear
                }
            });
        },
    );
}

#[test]
fn out_parameters_and_push_constants_in_both_stages() {
    let mut push = vk::f32_bytes(&[0.5, -1.5, 2.25, 8.0]);
    push.extend(vk::u32_bytes(&[3]));
    run(
        "entry_forms",
        |d| {
            d.targets = 2;
            d.push_constants = push.clone();
        },
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("entry_forms a {env:?}"), 0.0, |_, _| {
                [0.5, -1.5, 2.25, 8.0]
            });
            check_pixels(&t[1], &format!("entry_forms b {env:?}"), 0.0, |x, y| {
                [x as f32 + 0.5, y as f32 + 0.5, 3.0, -1.0]
            });
        },
    );
}

#[test]
fn derivatives_in_pixel_shader() {
    run(
        "derivatives",
        |_| {},
        Vec::new,
        |t, env| {
            // uv is interpolated: its differences are 1 within rounding.
            check_pixels(&t[0], &format!("derivatives {env:?}"), 1e-4, |_, _| {
                [1.0, 1.0, 1.0, 1.0]
            });
        },
    );
}

#[test]
fn arrays_matrices_and_int_vectors_as_varyings() {
    run(
        "aggregates",
        |d| d.targets = 3,
        Vec::new,
        |t, env| {
            let wants = [
                [1.0, 2.0, 3.0, 4.0],
                [5.0, 6.0, 7.0, 8.0],
                [9.0, 10.0, -5.0, -7.0],
            ];
            for (i, want) in wants.iter().enumerate() {
                check_pixels(&t[i], &format!("aggregates t{i} {env:?}"), 0.0, |_, _| {
                    *want
                });
            }
        },
    );
}

/// The device can run pixel shaders reading `SV_Barycentrics`
/// (VK_KHR_fragment_shader_barycentric).
fn has_barycentrics() -> bool {
    vk::on(vk::shared().info().barycentric.fragment_shader_barycentric)
}

/// `SV_Barycentrics` as colours, perspective-correct and not, every pixel
/// against the weights computed here.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_KHR_fragment_shader_barycentric; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn barycentrics_as_colours() {
    assert!(
        has_barycentrics(),
        "the device ({}) has no fragmentShaderBarycentric (VK_KHR_fragment_shader_barycentric): \
         run this test on a GPU that has it, e.g. HLSLC_VK_DEVICE=NVIDIA",
        vk::shared().info().name
    );
    run(
        "barycentrics",
        |d| {
            d.targets = 2;
            d.clear = [-1.0; 4];
        },
        Vec::new,
        |t, env| {
            // Screen-space weights of (-1,-1), (3,-1), (-1,3) at the centre.
            let screen = |x: u32, y: u32| {
                let nx = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
                let ny = (y as f32 + 0.5) / H as f32 * 2.0 - 1.0;
                let (b1, b2) = ((nx + 1.0) / 4.0, (ny + 1.0) / 4.0);
                [1.0 - b1 - b2, b1, b2]
            };
            check_pixels(&t[1], &format!("noperspective {env:?}"), 1e-5, |x, y| {
                let s = screen(x, y);
                [s[0], s[1], s[2], 1.0]
            });
            // Perspective-correct: each weight over its vertex's w (1, 1, 2),
            // renormalised.
            check_pixels(&t[0], &format!("perspective {env:?}"), 1e-5, |x, y| {
                let s = screen(x, y);
                let p = [s[0], s[1], s[2] / 2.0];
                let sum = p[0] + p[1] + p[2];
                [p[0] / sum, p[1] / sum, p[2] / sum, 1.0]
            });
        },
    );
}

/// `GetAttributeAtVertex`: the three vertices' `nointerpolation` values
/// read per vertex (a constant vertex, a function parameter, a loop
/// index), the plain read being vertex 0's, and the barycentric sum of the
/// per-vertex values equal to the interpolated one.
#[test]
#[ignore = "lavapipe (Mesa 22.3) has no VK_KHR_fragment_shader_barycentric; run with HLSLC_VK_DEVICE=NVIDIA and --ignored"]
fn attributes_read_per_vertex() {
    assert!(
        has_barycentrics(),
        "the device ({}) has no fragmentShaderBarycentric (VK_KHR_fragment_shader_barycentric): \
         run this test on a GPU that has it, e.g. HLSLC_VK_DEVICE=NVIDIA",
        vk::shared().info().name
    );
    run(
        "vertex_attributes",
        |d| {
            d.targets = 4;
            d.clear = [-1.0; 4];
        },
        Vec::new,
        |t, env| {
            let vertex = |id: f32| [id * 10.0 + 1.0, id * 10.0 + 2.0, id * 10.0 + 3.0];
            let [a, b, c] = vertex(0.0);
            check_pixels(&t[0], &format!("vertex 0 {env:?}"), 0.0, |_, _| {
                [a, b, c, 100.0]
            });
            let [a, b, c] = vertex(1.0);
            check_pixels(&t[1], &format!("vertex 1 {env:?}"), 0.0, |_, _| {
                [a, b, c, 101.0]
            });
            let [a, b, c] = vertex(2.0);
            check_pixels(&t[2], &format!("vertex 2 {env:?}"), 0.0, |_, _| {
                [a, b, c, 0.5]
            });
            check_pixels(&t[3], &format!("rebuilt {env:?}"), 1e-3, |_, _| [0.0; 4]);
        },
    );
}

/// `IsHelperLane()` seen through a derivative, `SV_Coverage` read (one
/// sample: 1) and written (0 drops the pixel), in every target
/// environment (OpIsHelperInvocationEXT before Vulkan 1.3, the
/// HelperInvocation built-in from it).
#[test]
fn helper_lanes_and_coverage() {
    let covered = |x: u32, y: u32| (x + y) as f32 + 1.0 < 14.3;
    for env in [
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
    ] {
        let vs = compile("helper_coverage", "VSMain", "vs_6_0", env);
        let ps = compile("helper_coverage", "PSMain", "ps_6_6", env);
        let mut draw = Draw::new(&vs, "VSMain", &ps, "PSMain");
        draw.clear = [-1.0; 4];
        let t = vk::shared()
            .draw(&draw, &mut [])
            .unwrap_or_else(|e| panic!("helper_coverage ({env:?}): draw failed: {e}"));
        check_pixels(&t[0], &format!("helper_coverage {env:?}"), 0.0, |x, y| {
            if !covered(x, y) || x % 2 == 1 {
                return [-1.0; 4];
            }
            // x is even: the right neighbour of the quad is a helper when
            // it is not covered.
            let d = if covered(x + 1, y) { 0.0 } else { 1.0 };
            [0.0, d, 1.0, 1.0]
        });
    }
}

/// `SV_ClipDistanceN`/`SV_CullDistanceN` read by the pixel shader: the
/// interpolated distances the vertex shader wrote, each from its place in
/// the packed arrays.
#[test]
fn clip_and_cull_distances_as_pixel_inputs() {
    run(
        "clip_inputs",
        |_| {},
        Vec::new,
        |t, env| {
            check_pixels(&t[0], &format!("clip_inputs {env:?}"), 1e-5, |x, y| {
                let nx = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
                let ny = (y as f32 + 0.5) / H as f32 * 2.0 - 1.0;
                [nx + 2.0, ny + 2.0, 7.0, 0.5]
            });
        },
    );
}

#[test]
fn sampled_texture_is_one_combined_image_sampler_descriptor() {
    // A 4×4 texture, texel (x, y) = (x, y, 4x + y, 1), with its own point
    // sampler in one combined image sampler descriptor at binding 0.
    let mut texels = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            texels.extend([x as f32, y as f32, (4 * x + y) as f32, 1.0]);
        }
    }
    run(
        "sampled_texture",
        |_| {},
        || {
            vec![Resource::combined(
                0,
                0,
                vk::ImageDesc::d2(vk::TARGET_FORMAT, 4, 4),
                vk::SamplerDesc::default(),
                vk::f32_bytes(&texels),
            )]
        },
        |t, env| {
            // Sample: texel (x / 4, y / 4); Load(3, 0): (3, 0, 12, 1);
            // GetDimensions: 4 × 4.
            check_pixels(&t[0], &format!("sampled_texture {env:?}"), 0.0, |x, y| {
                let (tx, ty) = ((x / 4) as f32, (y / 4) as f32);
                [
                    tx * 2.0 + 3.0,
                    ty * 2.0,
                    (4.0 * tx + ty) * 2.0 + 12.0,
                    1.0 + 44.0,
                ]
            });
        },
    );
}

#[test]
fn combined_image_sampler_attribute_pair_is_one_descriptor() {
    // As `sampled_texture_is_one_combined_image_sampler_descriptor`, with
    // a Texture2D and a SamplerState made one descriptor by
    // [[vk::combinedImageSampler]]: the pipeline layout has only the
    // combined image sampler at binding 0, so a second descriptor would
    // fail to bind.
    let mut texels = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            texels.extend([x as f32, y as f32, (4 * x + y) as f32, 1.0]);
        }
    }
    run(
        "combined_attr",
        |_| {},
        || {
            vec![Resource::combined(
                0,
                0,
                vk::ImageDesc::d2(vk::TARGET_FORMAT, 4, 4),
                vk::SamplerDesc::default(),
                vk::f32_bytes(&texels),
            )]
        },
        |t, env| {
            check_pixels(&t[0], &format!("combined_attr {env:?}"), 0.0, |x, y| {
                let (tx, ty) = ((x / 4) as f32, (y / 4) as f32);
                [
                    tx * 2.0 + 3.0,
                    ty * 2.0,
                    (4.0 * tx + ty) * 2.0 + 12.0,
                    1.0 + 44.0,
                ]
            });
        },
    );
}

#[test]
fn subpass_inputs_read_the_first_subpass_colour_and_depth() {
    for env in ENVS {
        let vs = compile("subpass", "VSMain", "vs_6_0", env);
        let first = compile("subpass", "PSFirst", "ps_6_0", env);
        let second = compile("subpass", "PSSecond", "ps_6_0", env);
        let mut draw = vk::subpass::SubpassDraw::new(
            (&vs, "VSMain"),
            (&first, "PSFirst"),
            (&second, "PSSecond"),
        );
        draw.width = W;
        draw.height = H;
        let out = match vk::shared().draw_subpasses(&draw) {
            Ok(out) => out,
            Err(e) => panic!(
                "subpass ({env:?}): draw failed: {e}\nPSSecond:\n{}",
                common::spirv_dis(&second)
            ),
        };
        // Colour (x, y, 16x + y, 7) and depth (16y + x) / 256, both exact.
        check_pixels(&out, &format!("subpass {env:?}"), 0.0, |x, y| {
            let (x, y) = (x as f32, y as f32);
            [x * 2.0, y + 100.0, x * 16.0 + y - 7.0, y * 16.0 + x]
        });
    }
}
