//! Runtime tests: HLSL compute kernels (`tests/in/runtime/*.hlsl`) compiled
//! by hlslc, validated with spirv-val, run on Vulkan (lavapipe by default,
//! see `tests/unit/vk`) for two target environments, with every output element
//! compared against a reference computed here in Rust.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, ImageDesc, Resource};
use ash::vk as ashvk;

const ENVS: [TargetEnv; 2] = [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2];

/// DXC's default layouts are vector-relaxed: Vulkan 1.0 needs
/// VK_KHR_relaxed_block_layout for them (core from 1.1).
fn val_flags(env: TargetEnv) -> &'static [&'static str] {
    if env == TargetEnv::Vulkan1_0 {
        &["--relax-block-layout"]
    } else {
        &[]
    }
}

/// Compiles `tests/in/runtime/NAME.hlsl` for `env` and validates it.
fn compile(name: &str, env: TargetEnv) -> Vec<u32> {
    let rel = std::path::PathBuf::from(format!("tests/in/runtime/{name}.hlsl"));
    let mut o = common::options_for("cs_6_0");
    o.target_env = env;
    // A kernel that starts with `// enable-16bit-types` is compiled for
    // SM 6.2 with 16-bit types.
    let text = std::fs::read_to_string(common::root().join(&rel)).unwrap_or_default();
    if text.starts_with("// enable-16bit-types") {
        o = common::options_for("cs_6_2");
        o.target_env = env;
        o.enable_16bit_types = true;
    }
    let c = crate::compile(&rel, &common::RootedLoader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("{name} ({env:?}) failed to compile:\n{text}");
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), val_flags(env)) {
        panic!(
            "{name} ({env:?}): invalid SPIR-V: {e}\n{}",
            common::spirv_dis(&a.spirv)
        );
    }
    a.spirv
}

/// Runs the kernel in each environment with fresh resources from `make`,
/// handing the resources after the dispatch to `check`.
fn run_envs(
    name: &str,
    envs: &[TargetEnv],
    make: impl Fn() -> Vec<Resource>,
    push: &[u8],
    groups: [u32; 3],
    check: impl Fn(&[Resource], TargetEnv),
) {
    for &env in envs {
        let words = compile(name, env);
        let mut res = make();
        let runner = vk::shared();
        if let Err(e) = runner.run_compute(&words, "main", &mut res, push, groups) {
            panic!(
                "{name} ({env:?}): dispatch failed: {e}\n{}",
                common::spirv_dis(&words)
            );
        }
        check(&res, env);
    }
}

fn run(
    name: &str,
    make: impl Fn() -> Vec<Resource>,
    groups: [u32; 3],
    check: impl Fn(&[Resource], TargetEnv),
) {
    run_envs(name, &ENVS, make, &[], groups, check);
}

fn f32s(r: &Resource) -> Vec<f32> {
    vk::to_f32s(&r.data)
}
fn u32s(r: &Resource) -> Vec<u32> {
    vk::to_u32s(&r.data)
}
fn i32s(r: &Resource) -> Vec<i32> {
    vk::to_i32s(&r.data)
}

/// Deterministic pseudo-random numbers.
fn lcg(seed: u32, n: usize) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            s
        })
        .collect()
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    let d = (a - b).abs();
    d <= tol || d <= tol * a.abs().max(b.abs())
}

fn assert_close(got: &[f32], want: &[f32], tol: f32, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, *w, tol), "{what}[{i}]: got {g}, want {w}");
    }
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    vk::f32_bytes(v)
}
fn bytes_u32(v: &[u32]) -> Vec<u8> {
    vk::u32_bytes(v)
}
fn bytes_i32(v: &[i32]) -> Vec<u8> {
    vk::i32_bytes(v)
}

/// A little-endian byte buffer built field by field at given offsets.
struct Bytes(Vec<u8>);
impl Bytes {
    fn new(n: usize) -> Self {
        Bytes(vec![0; n])
    }
    fn f32(&mut self, off: usize, v: f32) -> &mut Self {
        self.0[off..off + 4].copy_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(&mut self, off: usize, v: u32) -> &mut Self {
        self.0[off..off + 4].copy_from_slice(&v.to_le_bytes());
        self
    }
    fn i32(&mut self, off: usize, v: i32) -> &mut Self {
        self.0[off..off + 4].copy_from_slice(&v.to_le_bytes());
        self
    }
}

fn rd_f32(b: &[u8], off: usize) -> f32 {
    f32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}
fn rd_u32(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}
fn rd_i32(b: &[u8], off: usize) -> i32 {
    i32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}

// ---------------------------------------------------------------------------

#[test]
fn saxpy() {
    let n = 100usize;
    let x: Vec<f32> = (0..128).map(|i| i as f32 * 0.25 - 3.0).collect();
    let y: Vec<f32> = (0..128).map(|i| 10.0 - i as f32).collect();
    let a = 1.5f32;
    run(
        "saxpy",
        || {
            let mut cb = Bytes::new(16);
            cb.f32(0, a).u32(4, n as u32);
            vec![
                Resource::uniform(0, 0, cb.0.clone()),
                Resource::storage(0, 1, bytes_f32(&x)),
                Resource::storage(0, 2, bytes_f32(&y)),
            ]
        },
        [2, 1, 1],
        |r, env| {
            let got = f32s(&r[2]);
            let want: Vec<f32> = (0..128)
                .map(|i| if i < n { a * x[i] + y[i] } else { y[i] })
                .collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn constant_and_texture_buffers_as_values() {
    // Params { Inner { float2 v } inner; float scale; uint count; }:
    // v = (3, 5) at 0, then (the struct rounded up to 16 bytes) scale 2
    // at 16 and count 7 at 20. Table { float entry[2]; } in a
    // TextureBuffer (std430): 11, 13.
    run(
        "buffer_values",
        || {
            let mut cb = Bytes::new(32);
            cb.f32(0, 3.0).f32(4, 5.0).f32(16, 2.0).u32(20, 7);
            vec![
                Resource::uniform(0, 0, cb.0.clone()),
                Resource::storage(0, 1, bytes_f32(&[11.0, 13.0])),
                Resource::storage(0, 2, bytes_f32(&[0.0; 5])),
            ]
        },
        [1, 1, 1],
        |r, env| {
            assert_eq!(f32s(&r[2]), vec![6.0, 13.0, 12.0, 7.0, 7.0], "{env:?}");
        },
    );
}

#[test]
fn math_float() {
    let input: Vec<f32> = [
        -3.75, -2.5, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5, 3.5, 7.25,
        100.125,
    ]
    .iter()
    .chain(
        [
            -0.1, 0.1, 0.9, -0.9, 2.0, -2.0, 4.5, -4.5, 5.5, 6.5, -6.5, 12.0, 0.6, -0.6, 1.25, 3.0,
        ]
        .iter(),
    )
    .copied()
    .collect();
    let reference = |v: f32| -> [f32; 16] {
        let round_even = |x: f32| {
            let r = x.round();
            if (x - x.trunc()).abs() == 0.5 {
                2.0 * (x / 2.0).round()
            } else {
                r
            }
        };
        [
            v.abs(),
            v.floor(),
            v.ceil(),
            v - v.floor(),
            round_even(v),
            v.trunc(),
            v.clamp(0.0, 1.0),
            v.clamp(-1.5, 2.25),
            v.min(0.5),
            v.max(0.5),
            v + (10.0 - v) * 0.25,
            if v >= 0.0 { 1.0 } else { 0.0 },
            v % 1.5,
            if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else {
                0.0
            },
            v.abs().sqrt(),
            v * 2.0 + 1.0,
        ]
    };
    run(
        "math_float",
        || {
            vec![
                Resource::storage(0, 0, bytes_f32(&input)),
                Resource::storage(0, 1, vec![0u8; 4 * 16 * 32]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[1]);
            let want: Vec<f32> = input.iter().flat_map(|&v| reference(v)).collect();
            assert_close(&got, &want, 1e-6, &format!("math_float {env:?}"));
        },
    );
}

#[test]
fn math_transcendental() {
    let input: Vec<f32> = (0..16).map(|i| i as f32 * 0.37 - 2.9).collect();
    run(
        "math_transcendental",
        || {
            vec![
                Resource::storage(0, 0, bytes_f32(&input)),
                Resource::storage(0, 1, vec![0u8; 16 * 16 * 3]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[1]);
            let mut want = Vec::new();
            for &v in &input {
                let p = v.abs() + 0.5;
                want.extend([v.sin(), v.cos(), (v * 0.25).tan(), v.atan()]);
                want.extend([(v * 0.5).exp(), v.exp2(), p.ln(), p.log2()]);
                want.extend([p.log10(), p.powf(1.5), 1.0 / p.sqrt(), v.atan2(2.0)]);
            }
            assert_close(&got, &want, 2e-4, &format!("math_transcendental {env:?}"));
        },
    );
}

#[test]
fn math_int() {
    let mut input = lcg(7, 32);
    input[0] = 0;
    input[1] = 1;
    input[2] = 0x8000_0001;
    input[3] = 0xffff_fffe;
    // Keep the bit patterns away from NaNs (asfloat round trip).
    for v in input.iter_mut() {
        if (*v >> 23) & 0xff == 0xff {
            *v &= !(1 << 23);
        }
    }
    let reference = |u: u32| -> [u32; 12] {
        let s = u as i32;
        [
            u.count_ones(),
            u.reverse_bits(),
            if u == 0 {
                u32::MAX
            } else {
                31 - u.leading_zeros()
            },
            if u == 0 { u32::MAX } else { u.trailing_zeros() },
            s.wrapping_abs() as u32,
            s.min(7) as u32,
            u.max(100),
            s.clamp(-50, 50) as u32,
            u ^ (u >> 3) ^ (u << 5),
            !u & 0xffff,
            (s >> 2) as u32,
            u,
        ]
    };
    run(
        "math_int",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&input)),
                Resource::storage(0, 1, vec![0u8; 4 * 12 * 32]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[1]);
            let want: Vec<u32> = input.iter().flat_map(|&u| reference(u)).collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn vector_math() {
    let a: Vec<[f32; 3]> = (0..8)
        .map(|i| [i as f32 + 1.0, 2.0 - i as f32, 0.5 * i as f32])
        .collect();
    let b: Vec<[f32; 3]> = (0..8)
        .map(|i| [1.0, i as f32 * 0.5, 3.0 - i as f32])
        .collect();
    // float3 in a structured buffer: stride 16 (vector-relaxed std430).
    let pack = |v: &[[f32; 3]]| -> Vec<u8> {
        bytes_f32(
            &v.iter()
                .flat_map(|x| [x[0], x[1], x[2], 0.0])
                .collect::<Vec<_>>(),
        )
    };
    run(
        "vector_math",
        || {
            vec![
                Resource::storage(0, 0, pack(&a)),
                Resource::storage(0, 1, pack(&b)),
                Resource::storage(0, 2, vec![0u8; 16 * 24]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[2]);
            let mut want = Vec::new();
            for i in 0..8 {
                let (x, y) = (a[i], b[i]);
                let dot = |p: [f32; 3], q: [f32; 3]| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
                let len = |p: [f32; 3]| dot(p, p).sqrt();
                let cross = [
                    x[1] * y[2] - x[2] * y[1],
                    x[2] * y[0] - x[0] * y[2],
                    x[0] * y[1] - x[1] * y[0],
                ];
                want.extend([cross[0], cross[1], cross[2], dot(x, y)]);
                let lx = len(x);
                want.extend([x[0] / lx, x[1] / lx, x[2] / lx, len(y)]);
                let ly = len(y);
                let n = [y[0] / ly, y[1] / ly, y[2] / ly];
                let d = dot(n, x);
                let refl = [
                    x[0] - 2.0 * d * n[0],
                    x[1] - 2.0 * d * n[1],
                    x[2] - 2.0 * d * n[2],
                ];
                let dist = len([x[0] - y[0], x[1] - y[1], x[2] - y[2]]);
                want.extend([refl[0], refl[1], refl[2], dist]);
            }
            assert_close(&got, &want, 1e-5, &format!("vector_math {env:?}"));
        },
    );
}

#[test]
fn matrices() {
    // HLSL matrices as [row][column].
    let m: [[f32; 4]; 4] =
        std::array::from_fn(|i| std::array::from_fn(|j| (i * 4 + j) as f32 * 0.5 - 2.0));
    let rm: [[f32; 4]; 4] =
        std::array::from_fn(|i| std::array::from_fn(|j| ((i + 2 * j) % 5) as f32 - 1.0));
    let v: Vec<[f32; 4]> = (0..4)
        .map(|k| [k as f32 + 1.0, 2.0, -1.0, 0.5 * k as f32])
        .collect();
    let mut cb = Bytes::new(128);
    for i in 0..4 {
        for j in 0..4 {
            cb.f32(j * 16 + i * 4, m[i][j]); // column-major: columns are contiguous
            cb.f32(64 + i * 16 + j * 4, rm[i][j]); // row-major
        }
    }
    let mat_vec = |a: &[[f32; 4]; 4], x: [f32; 4]| -> [f32; 4] {
        std::array::from_fn(|i| (0..4).map(|j| a[i][j] * x[j]).sum())
    };
    let vec_mat = |x: [f32; 4], a: &[[f32; 4]; 4]| -> [f32; 4] {
        std::array::from_fn(|j| (0..4).map(|i| x[i] * a[i][j]).sum())
    };
    let p: [[f32; 4]; 4] =
        std::array::from_fn(|i| std::array::from_fn(|j| (0..4).map(|k| m[i][k] * rm[k][j]).sum()));
    run(
        "matrices",
        || {
            vec![
                Resource::uniform(0, 0, cb.0.clone()),
                Resource::storage(
                    0,
                    1,
                    bytes_f32(&v.iter().flatten().copied().collect::<Vec<_>>()),
                ),
                Resource::storage(0, 2, vec![0u8; 16 * 24]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[2]);
            let mut want = Vec::new();
            for (k, &x) in v.iter().enumerate() {
                want.extend(mat_vec(&m, x));
                want.extend(vec_mat(x, &m));
                want.extend(mat_vec(&rm, x));
                want.extend(vec_mat(x, &m)); // transpose(m) * x == x * m
                let s = [[x[0], x[1]], [x[2], x[3]]];
                let s2_row1 = [
                    s[1][0] * s[0][0] + s[1][1] * s[1][0],
                    s[1][0] * s[0][1] + s[1][1] * s[1][1],
                ];
                want.extend([s2_row1[0], s2_row1[1], x[0] * x[3] - x[1] * x[2], 1.0]);
                want.extend([p[0][1], p[2][3], p[3][3], m[k][3 - k]]);
            }
            assert_close(&got, &want, 1e-5, &format!("matrices {env:?}"));
        },
    );
}

#[test]
fn loops() {
    run(
        "loops",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 4 * 16])],
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[0]);
            let mut want = Vec::new();
            for n in 0u32..16 {
                let s: u32 = (0..n).filter(|i| i % 3 != 1).sum();
                let w: u32 = (1..=n).map(|k| k * k).sum();
                let mut d = 0;
                let mut j = 0;
                loop {
                    d += j;
                    j += 2;
                    if j >= n {
                        break;
                    }
                }
                let mut nested = 0;
                for a in 0..4u32 {
                    for b in 0..3u32 {
                        if a == b {
                            continue;
                        }
                        if a + b > n {
                            break;
                        }
                        nested += a * 10 + b;
                    }
                }
                want.extend([s, w, d, nested]);
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn switch_fall_through() {
    let classify = |x: i32| -> i32 {
        match x % 6 {
            0 => 11,
            1 => 10,
            2 => 1000,
            3 => 10,
            -1 => -7,
            _ => 1100,
        }
    };
    run(
        "switch",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 16])],
        [1, 1, 1],
        |r, env| {
            let got = i32s(&r[0]);
            let want: Vec<i32> = (0..16).map(|i| classify(i - 3)).collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn out_params() {
    run(
        "out_params",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 6 * 8])],
        [1, 1, 1],
        |r, env| {
            let got = i32s(&r[0]);
            let mut want = Vec::new();
            for id in 0..8i32 {
                let v = id * 7 + 3;
                let mut arr = [1, 2];
                let k = (id % 2) as usize;
                arr[k] *= 2;
                let rr = arr[k] + 1;
                want.extend([
                    v / 10,
                    v % 10,
                    2 * v,
                    rr * 100 + arr[0] * 10 + arr[1],
                    (v + 1) % 10,
                    (v + 1) / 10,
                ]);
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn structs() {
    // Particle in std430: pos at 0, inner.v at 16, inner.k at 24, mass at 32; stride 48.
    let masses = [1.0f32, 2.5, -1.0, 4.0];
    let make_particles = || {
        let mut b = Bytes::new(48 * 4);
        for (i, &m) in masses.iter().enumerate() {
            let o = i * 48;
            b.f32(o, i as f32).f32(o + 4, 1.0).f32(o + 8, 2.0);
            b.f32(o + 16, 0.5 * i as f32).f32(o + 20, 1.0);
            b.i32(o + 24, i as i32).i32(o + 28, 3);
            b.f32(o + 32, m);
        }
        b.0
    };
    run(
        "structs",
        || {
            vec![
                Resource::storage(0, 0, make_particles()),
                Resource::storage(0, 1, vec![0u8; 32 * 4]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let out = f32s(&r[1]);
            let pb = &r[0].data;
            for (i, &m) in masses.iter().enumerate() {
                let v = [0.5 * i as f32 + 1.0, 3.0];
                let energy = 0.5 * m * (v[0] * v[0] + v[1] * v[1]);
                let q_energy = 0.5 * 2.0 * (2.0 * m * m);
                let want = [
                    i as f32,
                    1.0,
                    2.0,
                    energy,
                    v[0],
                    v[1],
                    (i as i32 + 30) as f32,
                    q_energy,
                ];
                assert_close(
                    &out[i * 8..i * 8 + 8],
                    &want,
                    1e-6,
                    &format!("structs out {env:?}"),
                );
                let o = i * 48;
                let x = m;
                assert_eq!(
                    [
                        rd_f32(pb, o),
                        rd_f32(pb, o + 4),
                        rd_f32(pb, o + 8),
                        rd_f32(pb, o + 16),
                        rd_f32(pb, o + 20),
                        rd_f32(pb, o + 32)
                    ],
                    [x, x + 1.0, x + 2.0, x, -x, 2.0],
                    "particle {i} {env:?}"
                );
                assert_eq!(
                    [rd_i32(pb, o + 24), rd_i32(pb, o + 28)],
                    [x as i32, -(x as i32)]
                );
            }
        },
    );
}

#[test]
fn groupshared_reduce() {
    let input: Vec<u32> = lcg(3, 128).iter().map(|v| v % 1000).collect();
    run(
        "groupshared_reduce",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&input)),
                Resource::storage(0, 1, vec![0u8; 8]),
            ]
        },
        [2, 1, 1],
        |r, env| {
            let got = u32s(&r[1]);
            let want: Vec<u32> = input.chunks(64).map(|c| c.iter().sum()).collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn atomics_groupshared() {
    run(
        "atomics_groupshared",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 68])],
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[0]);
            let mut want = vec![1u32; 64];
            want.extend([2016, 189, 5, u32::MAX]);
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn atomics_buffer() {
    let mut counters = vec![0u32; 72];
    counters[1] = u32::MAX;
    for i in 0..33 {
        counters[3 + i] = 1000 + i as u32;
    }
    counters[36] = 5;
    run(
        "atomics_buffer",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&counters)),
                Resource::storage(0, 1, bytes_i32(&[0, 0])),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[0]);
            let mut want = counters.clone();
            want[0] = 64;
            want[1] = 0;
            want[2] = u32::MAX;
            for i in 0..32 {
                want[3 + i] = i as u32 * 3;
                want[40 + i] = 1000 + i as u32;
            }
            // Thread 33 would be needed to touch counters[35]; thread 33 does not exist.
            want[35] = 1032;
            want[36] = 105;
            assert_eq!(got, want, "{env:?}");
            assert_eq!(i32s(&r[1]), vec![-20, 11], "{env:?}");
        },
    );
}

#[test]
fn byte_address() {
    let mut src = vec![0u32; 32];
    for (k, w) in src.iter_mut().enumerate() {
        *w = if k % 8 == 6 {
            (k as f32 * 0.5).to_bits()
        } else {
            k as u32 * 3 + 1
        };
    }
    run(
        "byte_address",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&src)),
                Resource::storage(0, 1, vec![0u8; 4 * 33]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[1]);
            let mut want = vec![0u32; 33];
            for t in 0..4 {
                let b = t * 8;
                want[b] = src[b] + 1;
                want[b + 1] = src[b + 1] * 2;
                want[b + 2] = src[b + 2] * 2;
                want[b + 3] = src[b + 3] + 1;
                want[b + 4] = src[b + 4] + 2;
                want[b + 5] = src[b + 5] + 3;
                want[b + 6] = (f32::from_bits(src[b + 6]) * 2.0).to_bits();
                want[b + 7] = src[b + 7] * 2;
            }
            want[32] = 128;
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn push_constants() {
    let mut pc = Bytes::new(16);
    pc.f32(0, 0.5).u32(4, 3).f32(8, 10.0).f32(12, 1.0);
    run_envs(
        "push_constants",
        &ENVS,
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 16])],
        &pc.0,
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[0]);
            let want: Vec<f32> = (0..16).map(|i| (i + 3) as f32 * 0.5 + 10.0 - 1.0).collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn static_variables() {
    run(
        "static_vars",
        || {
            vec![
                Resource::storage(0, 0, vec![0u8; 4 * 32]),
                Resource::storage(0, 1, bytes_u32(&[7, 0])),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[0]);
            let table = [3u32, 1, 4, 1, 5];
            let mut want = Vec::new();
            for id in 0..8u32 {
                want.extend([1_020_203, table[(id % 5) as usize] * 7, 3, 4 * (id + 1)]);
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn templates() {
    run(
        "templates",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 12])],
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[0]);
            let want: Vec<f32> = (0..4)
                .flat_map(|i| {
                    [
                        1.5 + i as f32,
                        (3 + i * i) as f32,
                        (i as f32 + 0.5) * (i as f32 + 0.5),
                    ]
                })
                .collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn inheritance() {
    run(
        "inheritance",
        || vec![Resource::storage(0, 0, vec![0u8; 16 * 4])],
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[0]);
            let want: Vec<f32> = (0..4)
                .flat_map(|i| {
                    let w = 3.0 + i as f32;
                    [w * w, i as f32, w + 2.0, 0.0]
                })
                .collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn short_circuit() {
    run(
        "short_circuit",
        || {
            vec![
                Resource::storage(0, 0, vec![0u8; 4 * 12]),
                Resource::storage(0, 1, vec![0u8; 4]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            assert_eq!(u32s(&r[1]), vec![102], "{env:?}");
            assert_eq!(
                u32s(&r[0]),
                vec![0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0],
                "{env:?}"
            );
        },
    );
}

#[test]
fn int_division() {
    let pairs: Vec<[i32; 2]> = vec![
        [7, 2],
        [-7, 2],
        [7, -2],
        [-7, -2],
        [100, 7],
        [-1, 3],
        [i32::MAX, 5],
        [12345, -100],
    ];
    run(
        "int_division",
        || {
            vec![
                Resource::storage(
                    0,
                    0,
                    bytes_i32(&pairs.iter().flatten().copied().collect::<Vec<_>>()),
                ),
                Resource::storage(0, 1, vec![0u8; 4 * 6 * 8]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = i32s(&r[1]);
            let mut want = Vec::new();
            for (id, p) in pairs.iter().enumerate() {
                let (ua, ub) = (p[0] as u32, p[1] as u32);
                let id = id as u32;
                want.extend([
                    p[0] / p[1],
                    p[0] % p[1],
                    (ua / ub) as i32,
                    (ua % ub) as i32,
                    p[0].wrapping_shl((id + 30) & 31),
                    (ua >> ((id + 28) & 31)) as i32,
                ]);
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

/// Vulkan leaves OpSRem/OpSMod undefined when an operand is negative, and
/// NVIDIA's driver returned 1 for -7 % 2 (the `int_division` kernel on an
/// H200): signed `%` must be built from OpUMod of the magnitudes.
#[test]
fn signed_remainder_avoids_op_s_rem() {
    let dis = common::spirv_dis(&compile("int_division", TargetEnv::Vulkan1_2));
    assert!(!dis.contains("OpSRem") && !dis.contains("OpSMod"), "{dis}");
    assert!(dis.contains("OpUMod"), "{dis}");
}

#[test]
fn conversions() {
    let input = [-2.75f32, -0.5, 0.0, 0.25, 1.5, 2.5, 3.99, 100.1];
    run(
        "conversions",
        || {
            vec![
                Resource::storage(0, 0, bytes_f32(&input)),
                Resource::storage(0, 1, vec![0u8; 4 * 48]),
                Resource::storage(0, 2, vec![0u8; 4 * 24]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let ints = i32s(&r[1]);
            let floats = f32s(&r[2]);
            for (id, &f) in input.iter().enumerate() {
                let i = f as i32;
                let b = f != 0.0;
                let want_i = [
                    i,
                    f.abs() as u32 as i32,
                    b as i32,
                    (f * 2.0) as i32,
                    1,
                    (f > 0.0) as i32 + 1,
                ];
                assert_eq!(&ints[id * 6..id * 6 + 6], &want_i, "ints {id} {env:?}");
                let want_f = [i as f32 + b as i32 as f32, i as f32 / 2.0, 6.5];
                assert_eq!(&floats[id * 3..id * 3 + 3], &want_f, "floats {id} {env:?}");
            }
        },
    );
}

#[test]
fn swizzles() {
    run(
        "swizzles",
        || vec![Resource::storage(0, 0, vec![0u8; 16 * 8])],
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[0]);
            let mut want = Vec::new();
            for id in 0..2 {
                let k = id as f32;
                let mut v = [1.0 + k, 2.0 + k, 3.0 + k, 4.0 + k];
                let (x, w) = (v[0], v[3]);
                v[3] = x;
                v[0] = w;
                v[1] += 10.0;
                v[2] += 20.0;
                want.extend(v);
                want.extend([5.0, 5.0, 5.0, v[0]]);
                want.extend([1.0, 20.0, 30.0, 104.0]);
                want.extend([v[2], v[2], v[1], v[0]]);
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn arrays() {
    run(
        "arrays",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 24])],
        [1, 1, 1],
        |r, env| {
            let got = i32s(&r[0]);
            let mut want = Vec::new();
            for i in 0..4usize {
                let mut a = [5, 6, 7, 8];
                let mut grid = [[1, 2, 3], [4, 5, 6]];
                a[i] *= 10;
                grid[i % 2][i % 3] = -1;
                let b = grid[1];
                let mut c = a;
                c[0] = 99;
                let pts = [[1, 2], [3, 4]];
                want.extend([
                    a[i],
                    a[(i + 1) % 4],
                    grid[1][i % 3],
                    b.iter().sum::<i32>(),
                    c[0] + a[0],
                    pts[i % 2][1],
                ]);
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn counter_compaction() {
    let input: Vec<u32> = lcg(11, 64).iter().map(|v| v % 500).collect();
    run(
        "counter",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&input)),
                Resource::storage(0, 1, vec![0u8; 4 * 64]),
                Resource::storage(0, 2, vec![0u8; 4]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let mut want: Vec<u32> = input.iter().copied().filter(|v| v % 3 == 0).collect();
            want.sort();
            let count = u32s(&r[2])[0] as usize;
            assert_eq!(count, want.len(), "{env:?}");
            let mut got = u32s(&r[1])[..count].to_vec();
            got.sort();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn append_consume() {
    let items: Vec<(u32, f32)> = (0..16).map(|i| (i * 7, i as f32 * 0.5)).collect();
    run(
        "append_consume",
        || {
            let mut src = Bytes::new(8 * 16);
            for (i, (k, v)) in items.iter().enumerate() {
                src.u32(i * 8, *k).f32(i * 8 + 4, *v);
            }
            vec![
                Resource::storage(0, 0, src.0.clone()),
                Resource::storage(0, 1, bytes_u32(&[16])),
                Resource::storage(0, 2, vec![0u8; 8 * 16]),
                Resource::storage(0, 3, bytes_u32(&[0])),
            ]
        },
        [1, 1, 1],
        |r, env| {
            assert_eq!(u32s(&r[1]), vec![0], "source counter {env:?}");
            assert_eq!(u32s(&r[3]), vec![16], "sink counter {env:?}");
            let mut got: Vec<(u32, u32)> = (0..16)
                .map(|i| {
                    (
                        rd_u32(&r[2].data, i * 8),
                        rd_f32(&r[2].data, i * 8 + 4).to_bits(),
                    )
                })
                .collect();
            got.sort();
            let mut want: Vec<(u32, u32)> = items
                .iter()
                .map(|(k, v)| (k + 1000, (v * 2.0).to_bits()))
                .collect();
            want.sort();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn enums_and_namespaces() {
    run(
        "enums_namespaces",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 16])],
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[0]);
            let want: Vec<f32> = (0..4)
                .flat_map(|i| {
                    let x = i as f32;
                    [
                        x * x + 4.0,
                        3.0 * x * x,
                        11.0,
                        if i % 2 == 0 { 3.0 + x } else { 3.0 * x },
                    ]
                })
                .collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn storage_image() {
    let init: Vec<f32> = (0..16).flat_map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
    run(
        "rwtexture",
        || {
            vec![
                Resource::storage_image(
                    0,
                    0,
                    ImageDesc::d2(ashvk::Format::R32G32B32A32_SFLOAT, 4, 4),
                    bytes_f32(&init),
                ),
                Resource::storage(0, 1, vec![0u8; 8]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[0]);
            let want: Vec<f32> = (0..16)
                .flat_map(|i| [(i % 4) as f32, (i / 4) as f32, i as f32 + 1.0, 1.0])
                .collect();
            assert_eq!(got, want, "{env:?}");
            assert_eq!(u32s(&r[1]), vec![4, 4], "{env:?}");
        },
    );
}

#[test]
fn typed_buffers() {
    let lookup: Vec<f32> = (0..4)
        .flat_map(|i| [0.0, i as f32 * 10.0, 0.0, 0.0])
        .collect();
    let values: Vec<u32> = (0..8).map(|i| i * 3).collect();
    run(
        "typed_buffers",
        || {
            vec![
                Resource::uniform_texel(
                    0,
                    0,
                    ashvk::Format::R32G32B32A32_SFLOAT,
                    bytes_f32(&lookup),
                ),
                Resource::storage_texel(0, 1, ashvk::Format::R32_UINT, bytes_u32(&values)),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[1]);
            let want: Vec<u32> = (0..8)
                .map(|i| values[i] * 2 + (i as u32 % 4) * 10)
                .collect();
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn bitwise_vectors() {
    let input: Vec<u32> = lcg(5, 16)
        .iter()
        .enumerate()
        .map(|(i, v)| if i == 3 { 7 } else { v % 300 })
        .collect();
    run(
        "bitwise_vectors",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&input)),
                Resource::storage(0, 1, vec![0u8; 16 * 16]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = u32s(&r[1]);
            let mut want = Vec::new();
            for v in input.chunks(4) {
                let v = [v[0], v[1], v[2], v[3]];
                let m = [1u32, 2, 4, 8];
                let rev = [v[3], v[2], v[1], v[0]];
                want.extend(v.map(|x| x & 0xff));
                want.extend((0..4).map(|i| (v[i] | m[i]) ^ rev[i]));
                want.extend((0..4).map(|i| (v[i] << (i + 1)) >> 1));
                want.extend(v.map(|x| (x > 100) as u32 + (x != 7) as u32 * 2));
            }
            assert_eq!(got, want, "{env:?}");
        },
    );
}

#[test]
fn precise_and_mad() {
    let a: Vec<f32> = (0..8)
        .map(|i| 1.0 / (i as f32 + 3.0) + 1e7 * (i % 2) as f32)
        .collect();
    run(
        "precise_mad",
        || {
            vec![
                Resource::storage(0, 0, bytes_f32(&a)),
                Resource::storage(0, 1, vec![0u8; 4 * 24]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[1]);
            for (i, &x) in a.iter().enumerate() {
                // precise: x * 3 rounded, then + 1 rounded: never fused.
                assert_eq!(got[i * 3], x * 3.0 + 1.0, "precise {i} {env:?}");
                assert!(
                    close(got[i * 3 + 1], x.mul_add(3.0, 1.0), 1e-6),
                    "mad {i} {env:?}"
                );
                assert_eq!(got[i * 3 + 2], x * x, "{env:?}");
            }
        },
    );
}

#[test]
fn cbuffer_layout() {
    let mut cb = Bytes::new(160);
    cb.f32(0, 1.5); // time
    cb.f32(4, 0.1).f32(8, 0.2).f32(12, 0.3); // tint at 4
    cb.f32(16, 5.0).f32(20, 6.0).f32(32, 7.0).f32(36, 8.0); // offs[2] at 16, stride 16
    cb.f32(48, 0.0).f32(52, 0.7).f32(56, 0.0).f32(60, 9.0); // light at 48
    for i in 0..2 {
        for j in 0..3 {
            cb.f32(64 + i * 16 + j * 4, (10 * i + j) as f32); // rm: rows
            cb.f32(96 + j * 16 + i * 4, (100 + 10 * i + j) as f32); // cm: columns
        }
    }
    cb.u32(144, 42);
    run(
        "cbuffer_layout",
        || {
            vec![
                Resource::uniform(0, 0, cb.0.clone()),
                Resource::storage(0, 1, vec![0u8; 40]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[1]);
            assert_eq!(
                got,
                vec![1.5, 0.3, 8.0, 0.7, 9.0, 12.0, 112.0, 1.0, 110.0, 42.0],
                "{env:?}"
            );
        },
    );
}

#[test]
fn globals_in_a_uniform_block() {
    let mut g = Bytes::new(32);
    g.f32(0, 2.0)
        .i32(4, -3)
        .f32(16, 1.0)
        .f32(20, 2.0)
        .f32(24, 3.0)
        .f32(28, 4.0);
    run(
        "globals_uniforms",
        || {
            vec![
                Resource::uniform(0, 0, g.0.clone()),
                Resource::storage(0, 1, vec![0u8; 16]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            assert_eq!(f32s(&r[1]), vec![-1.0, 1.0, 3.0, 5.0], "{env:?}");
        },
    );
}

#[test]
fn wave_operations() {
    run_envs(
        "wave_ops",
        &[TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2],
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 4 * 64])],
        &[],
        [1, 1, 1],
        |r, env| {
            assert_eq!(u32s(&r[0]), vec![1u32; 4 * 64], "{env:?}");
        },
    );
}

/// `WaveReadLaneAt(x, WaveGetLaneIndex() ^ 2)`: every lane reads another
/// lane's value (a broadcast would give every lane one lane's value), in
/// every target environment, whatever the wave size.
#[test]
fn wave_read_lane_at_reads_each_lanes_own_choice() {
    run_envs(
        "wave_read_lane",
        &[
            TargetEnv::Vulkan1_1,
            TargetEnv::Vulkan1_2,
            TargetEnv::Vulkan1_3,
        ],
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 4 * 64])],
        &[],
        [1, 1, 1],
        |r, env| {
            let out = u32s(&r[0]);
            let rec: Vec<&[u32]> = out.chunks(4).collect();
            // The thread of lane `lane` in the wave whose first thread is `first`.
            let find = |first: u32, lane: u32| {
                rec.iter()
                    .position(|t| t[1] == first && t[0] == lane)
                    .unwrap_or_else(|| panic!("{env:?}: no lane {lane} in wave {first}"))
                    as u32
            };
            for (t, x) in rec.iter().enumerate() {
                let (lane, first) = (x[0], x[1]);
                let other = find(first, lane ^ 2);
                assert_eq!(x[2], other * 10 + 1, "{env:?}: thread {t} WaveReadLaneAt");
                let quad = find(first, (lane & !3) + ((lane + 1) & 3));
                assert_eq!(x[3], quad * 10 + 1, "{env:?}: thread {t} QuadReadLaneAt");
            }
        },
    );
}

#[test]
fn helper_functions() {
    let data: Vec<f32> = (0..9).map(|i| (i * i) as f32).collect();
    run(
        "functions_resources",
        || {
            vec![
                Resource::storage(0, 0, bytes_f32(&data)),
                Resource::storage(0, 1, vec![0u8; 4 * 16]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[1]);
            let mut want = Vec::new();
            for i in 0..8 {
                let avg = (data[i] + data[i + 1]) * 0.5;
                let lerp = |w: f32| data[i] + (avg - data[i]) * w;
                want.extend([lerp(0.5), lerp(1.0)]);
            }
            assert_close(&got, &want, 1e-6, &format!("helper_functions {env:?}"));
        },
    );
}

#[test]
fn bit_fields() {
    // Units: [lo:4 mid:12] (uint), [sgn:5] (int), f, [hi:3] (uint).
    let units: Vec<[u32; 4]> = (0..4)
        .map(|i| {
            let r = lcg(21 + i, 3);
            [r[0], r[1], (i as f32 * 1.5).to_bits(), r[2]]
        })
        .collect();
    run(
        "bitfields",
        || {
            vec![
                Resource::storage(
                    0,
                    0,
                    bytes_u32(&units.iter().flatten().copied().collect::<Vec<_>>()),
                ),
                Resource::storage(0, 1, vec![0u8; 4 * 20]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let out = i32s(&r[1]);
            let buf = u32s(&r[0]);
            for (i, u) in units.iter().enumerate() {
                let lo = u[0] & 0xf;
                let mid = (u[0] >> 4) & 0xfff;
                let sgn = ((u[1] << 27) as i32) >> 27;
                let hi = u[3] & 7;
                assert_eq!(
                    &out[i * 5..i * 5 + 5],
                    &[lo as i32, mid as i32, sgn, hi as i32, -3 + 20 + 500],
                    "reads {i} {env:?}"
                );
                let id = i as u32;
                let u0 = (u[0] & !0xffff) | ((id + 3) & 0xf) | (((mid + 100) & 0xfff) << 4);
                let u1 = (u[1] & !0x1f) | ((id.wrapping_neg()) & 0x1f);
                let u3 = (u[3] & !7) | ((7 - id) & 7);
                assert_eq!(
                    &buf[i * 4..i * 4 + 4],
                    &[u0, u1, u[2], u3],
                    "writes {i} {env:?}"
                );
            }
        },
    );
}

#[test]
fn resources_as_values() {
    let a: Vec<u32> = (0..8).map(|i| i * 5 + 1).collect();
    let b: Vec<u32> = (0..8).map(|i| 1000 - i).collect();
    run(
        "resource_values",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&a)),
                Resource::storage(0, 1, bytes_u32(&b)),
                Resource::storage(0, 2, vec![0u8; 4 * 16]),
                Resource::storage(0, 3, vec![0u8; 4 * 8]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let out_a = u32s(&r[2]);
            let out_b = u32s(&r[3]);
            let want_a: Vec<u32> = (0..16)
                .map(|k| if k < 8 { a[k] * 3 } else { a[k - 8] + 100 })
                .collect();
            let want_b: Vec<u32> = (0..8)
                .map(|i| if i % 2 == 0 { b[i] + 1 } else { a[i] + 2 })
                .collect();
            assert_eq!(out_a, want_a, "{env:?}");
            assert_eq!(out_b, want_b, "{env:?}");
        },
    );
}

#[test]
fn resource_struct_methods() {
    let first: Vec<u32> = (0..8).map(|i| i * 100).collect();
    let second: Vec<u32> = (0..8).map(|i| 7 + i).collect();
    run(
        "resource_struct_methods",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&first)),
                Resource::storage(0, 1, bytes_u32(&second)),
                Resource::storage(0, 2, vec![0u8; 4 * 16]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let want_first: Vec<u32> = (0..8).map(|i| first[i] + (i as u32 + 1) + 20).collect();
            let want_second: Vec<u32> = (0..8).map(|i| second[i] + 6 * i as u32 + 1).collect();
            let want_totals: Vec<u32> = (0..16)
                .map(|k| {
                    let i = (k / 2) as u32;
                    if k % 2 == 0 {
                        i + 1 + 20
                    } else {
                        5 + 6 * i + 1
                    }
                })
                .collect();
            assert_eq!(u32s(&r[0]), want_first, "{env:?}");
            assert_eq!(u32s(&r[1]), want_second, "{env:?}");
            assert_eq!(u32s(&r[2]), want_totals, "{env:?}");
        },
    );
}

#[test]
fn resource_returns() {
    let evens: Vec<u32> = (0..8).map(|i| 2 * i).collect();
    let odds: Vec<u32> = (0..8).map(|i| 2 * i + 1).collect();
    run(
        "resource_returns",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&evens)),
                Resource::storage(0, 1, bytes_u32(&odds)),
                Resource::storage(0, 2, vec![0u8; 4 * 8]),
                Resource::storage(0, 3, vec![0u8; 4 * 8]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let low: Vec<u32> = (0..8).map(|i| evens[i] + odds[i]).collect();
            let high: Vec<u32> = (0..8).map(|i| odds[i] * 3 + 10 * i as u32).collect();
            assert_eq!(u32s(&r[2]), low, "{env:?}");
            assert_eq!(u32s(&r[3]), high, "{env:?}");
        },
    );
}

#[test]
fn spec_constants() {
    run(
        "spec_constants",
        || vec![Resource::storage(0, 0, vec![0u8; 4 * 8])],
        [1, 1, 1],
        |r, env| {
            let want: Vec<f32> = (0..8)
                .map(|i| if i < 6 { (i as f32 - 3.0) * 2.5 } else { -1.0 })
                .collect();
            assert_eq!(f32s(&r[0]), want, "{env:?}");
        },
    );
}

#[test]
fn resource_arrays() {
    // Params[k] = (k + 1, 10 (k + 1), 0, 0).
    let params: Vec<Vec<f32>> = (0..3)
        .map(|k| vec![(k + 1) as f32, 10.0 * (k + 1) as f32, 0.0, 0.0])
        .collect();
    run(
        "resource_arrays",
        || {
            let mut r: Vec<Resource> = params
                .iter()
                .enumerate()
                .map(|(k, p)| Resource::uniform(0, 0, bytes_f32(p)).at(k as u32))
                .collect();
            r.push(Resource::storage(0, 1, vec![0u8; 4 * 24]).at(0));
            r.push(Resource::storage(0, 1, vec![0u8; 4 * 24]).at(1));
            r
        },
        [3, 1, 1],
        |r, env| {
            for (which, res) in r[3..5].iter().enumerate() {
                // Workgroup g writes elements 8g..8g+8 of outputs[g & 1].
                let want: Vec<f32> = (0..24)
                    .map(|i| {
                        let g = i / 8;
                        if g % 2 == which {
                            params[g][0] + params[2][1]
                        } else {
                            0.0
                        }
                    })
                    .collect();
                assert_eq!(f32s(res), want, "outputs[{which}] {env:?}");
            }
        },
    );
}

#[test]
fn non_uniform_index() {
    // inputs[k][i] = 100 k + i.
    let inputs: Vec<Vec<f32>> = (0..3)
        .map(|k| (0..8).map(|i| (100 * k + i) as f32).collect())
        .collect();
    // Descriptor indexing is core in Vulkan 1.2.
    run_envs(
        "non_uniform_index",
        &[TargetEnv::Vulkan1_2],
        || {
            let mut r: Vec<Resource> = inputs
                .iter()
                .enumerate()
                .map(|(k, v)| Resource::storage(0, 0, bytes_f32(v)).at(k as u32))
                .collect();
            r.push(Resource::storage(0, 1, vec![0u8; 4 * 8]).at(0));
            r.push(Resource::storage(0, 1, vec![0u8; 4 * 8]).at(1));
            r
        },
        &[],
        [1, 1, 1],
        |r, env| {
            for (which, res) in r[3..5].iter().enumerate() {
                let want: Vec<f32> = (0..8)
                    .map(|i| {
                        if i % 2 == which {
                            inputs[i % 3][i]
                        } else {
                            0.0
                        }
                    })
                    .collect();
                assert_eq!(f32s(res), want, "outputs[{which}] {env:?}");
            }
        },
    );
}

#[test]
fn bit_widths() {
    let input: Vec<u32> = vec![
        0x0000_8001,
        0xffff_fffe,
        0x1234_5678,
        0x0000_0010,
        0xffff_0000,
        0x8000_0000,
        0x0000_0000,
        0x0000_ffff,
        0x0000_0001,
        0x7fff_ffff,
        0xdead_beef,
        0xcafe_f00d,
        0x0f0f_0f0f,
        0xf0f0_f0f0,
        0x0000_4000,
        0x0000_0003,
    ];
    run(
        "bit_widths",
        || {
            vec![
                Resource::storage(0, 0, bytes_u32(&input)),
                Resource::storage(0, 1, vec![0u8; 4 * 64]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let out = u32s(&r[1]);
            for i in 0..8 {
                let (a, b) = (input[2 * i], input[2 * i + 1]);
                let h = a as u16;
                let s = b as u16 as i16;
                let w = ((b as u64) << 32) | a as u64;
                let fbh = |x: u16| {
                    if x == 0 {
                        u32::MAX
                    } else {
                        15 - x.leading_zeros()
                    }
                };
                let fbl = |x: i16| if x == 0 { u32::MAX } else { x.trailing_zeros() };
                let rw = w.reverse_bits();
                let want = [
                    h.count_ones(),
                    (s as u16).count_ones(),
                    fbh(h),
                    fbl(s),
                    h.reverse_bits() as u32,
                    w.count_ones(),
                    rw as u32,
                    (rw >> 32) as u32,
                ];
                assert_eq!(
                    &out[i * 8..i * 8 + 8],
                    &want,
                    "thread {i} ({a:#x}, {b:#x}) {env:?}"
                );
            }
        },
    );
}

#[test]
fn texture_reads() {
    // Mip 0 (4x4): texel (x, y) = (x + 10y, 100 + x, 200 + y, 1);
    // mip 1 (2x2): (1000 + x + 10y, 0, 0, 1).
    let t0 = |x: usize, y: usize| [(x + 10 * y) as f32, (100 + x) as f32, (200 + y) as f32, 1.0];
    let t1 = |x: usize, y: usize| [(1000 + x + 10 * y) as f32, 0.0, 0.0, 1.0];
    let mut texels: Vec<f32> = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            texels.extend(t0(x, y));
        }
    }
    for y in 0..2 {
        for x in 0..2 {
            texels.extend(t1(x, y));
        }
    }
    let mut desc = ImageDesc::d2(ashvk::Format::R32G32B32A32_SFLOAT, 4, 4);
    desc.mip_levels = 2;
    run(
        "texture_reads",
        || {
            vec![
                Resource::sampled_image(0, 0, desc.clone(), bytes_f32(&texels)),
                Resource::sampler(0, 1, vk::SamplerDesc::default()),
                Resource::storage(0, 2, vec![0u8; 16 * 6 * 16]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[2]);
            let clamp = |v: usize| v.min(3);
            for y in 0..4 {
                for x in 0..4 {
                    let i = y * 4 + x;
                    let want: [[f32; 4]; 6] = [
                        t0(x, y),
                        t1(x / 2, y / 2),
                        t0(x, y),
                        t0(clamp(x + 1), y),
                        // Gather order: (i0, j1), (i1, j1), (i1, j0), (i0, j0).
                        [
                            t0(x, clamp(y + 1))[0],
                            t0(clamp(x + 1), clamp(y + 1))[0],
                            t0(clamp(x + 1), y)[0],
                            t0(x, y)[0],
                        ],
                        [4.0, 4.0, 2.0, 0.0],
                    ];
                    for (k, w) in want.iter().enumerate() {
                        let at = (i * 6 + k) * 4;
                        assert_eq!(&got[at..at + 4], w, "thread ({x}, {y}) read {k} {env:?}");
                    }
                }
            }
        },
    );
}

#[test]
fn expressions() {
    let input: Vec<i32> = vec![-7, 5, 0, -1, 9, -4, 13, 2];
    run(
        "expressions",
        || {
            vec![
                Resource::storage(0, 0, bytes_i32(&input)),
                Resource::storage(0, 1, vec![0u8; 4 * 64]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = i32s(&r[1]);
            for t in 0..4usize {
                let (a, b) = (input[t], input[t + 4]);
                let c = b + 3;
                let d = c * 2;
                let i = ((a as f32) + 1.75) as i32;
                let f = a as f32 / 2.0;
                let (vx, vy, old) = (a + 1 - 1, b + 1, a + 1);
                let mut arr = [a, b, 7];
                arr[t % 3] += 5;
                arr[1] += 1;
                let want = [
                    3 * (a + 1),
                    c * 100 + d,
                    i,
                    (f * 4.0) as i32,
                    vx * 1000 + vy * 10 + old,
                    arr[0] + arr[1] * 100 + arr[2] * 10000,
                    2 * 100 + (1 << 3),
                    b,
                    (a < 0 && a as u32 > 3) as i32,
                    ((b as u32) / 2) as i32,
                    a >> t,
                    b.wrapping_shl(1 + t as u32),
                    a % 3,
                    b / -2,
                    a.min(b) * a.max(b),
                    (a > b) as i32 + 2 + (a != b) as i32 * 4,
                ];
                assert_eq!(
                    &got[t * 16..t * 16 + 16],
                    &want,
                    "thread {t} (a {a}, b {b}) {env:?}"
                );
            }
        },
    );
}

#[test]
fn casts() {
    let rows: Vec<f32> = (1..=16).map(|i| i as f32).collect();
    run(
        "casts",
        || {
            vec![
                Resource::storage(0, 0, bytes_f32(&rows)),
                Resource::storage(0, 1, vec![0u8; 16 * 8]),
            ]
        },
        [1, 1, 1],
        |r, env| {
            let got = f32s(&r[1]);
            let row = |i: usize| &rows[i * 4..i * 4 + 4];
            let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
            let want: [[f32; 4]; 8] = [
                [r0[0], r0[1], r0[2], r2[2]],
                [0.0; 4],
                [r0[0], r1[0], r1[1], r2[3]],
                [r0[0], r1[0], r1[1], r2[3]],
                [r3[0], r3[1], r3[2], r3[3]],
                [r1[3], r1[1], r1[2], r1[0]],
                [(r0[0] + 0.5).trunc(), (-r0[0] - 0.5).trunc(), 2.0, -2.0],
                [1.0, -2.0, (1.0f32.to_bits() >> 23) as f32, 1.0],
            ];
            for (k, w) in want.iter().enumerate() {
                assert_eq!(&got[k * 4..k * 4 + 4], w, "row {k} {env:?}");
            }
        },
    );
}
