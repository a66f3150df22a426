//! The intrinsics of issue 23 run on the device (lavapipe by default,
//! `HLSLC_VK_DEVICE=NVIDIA` on the GPU machine): every result compared with
//! the value computed here.
//!
//! - arithmetic (`msad4`, `isnormal`, `lit`, `dst`, `frexp`, `dot2add`,
//!   `dot4add_*8packed`, byte packing, `D3DCOLORtoUBYTE4`): 64 cases of
//!   pseudo-random words and floats whose products are exact (so a driver
//!   fusing a multiply and an add gives the same bits);
//! - `WaveMultiPrefixCountBits` over partitions built with ballots (every
//!   device with subgroup ballots);
//! - `WaveMatch` and the other `WaveMultiPrefix*` (devices with
//!   VK_NV_shader_subgroup_partitioned: NVIDIA, not lavapipe).
//!
//! Wave results are checked against the lanes each thread reports, so no
//! wave size is assumed.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, Resource};

const CASES: usize = 64;
/// Output words per arithmetic case.
const STRIDE: usize = 40;

fn compile(src: &str, profile: &str, env: TargetEnv) -> Vec<u32> {
    let mut o = common::options_for(profile);
    o.target_env = env;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("does not compile:\n{text}");
    };
    // `HLSLC_NO_SPIRV_TOOLS=1`: the GPU machine has no spirv-val (the same
    // modules are validated here).
    if std::env::var_os("HLSLC_NO_SPIRV_TOOLS").is_none()
        && let Err(e) = common::spirv_val(&a.spirv, env.name())
    {
        panic!("invalid SPIR-V: {e}\n{}", common::spirv_dis(&a.spirv));
    }
    a.spirv
}

fn lcg(seed: u32, n: usize) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            s
        })
        .collect()
}

const ARITHMETIC: &str = r#"
StructuredBuffer<uint4> words;
StructuredBuffer<float4> floats;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint i : SV_DispatchThreadID) {
    uint4 w = words[i];
    float4 a = floats[2 * i];
    float4 b = floats[2 * i + 1];
    uint k = i * 40;
    uint4 m = msad4(w.x, w.yz, uint4(w.w & 0xffff, w.w >> 16, i, 7));
    o[k + 0] = m.x; o[k + 1] = m.y; o[k + 2] = m.z; o[k + 3] = m.w;
    o[k + 4] = dot(uint4(isnormal(a)), uint4(1, 2, 4, 8));
    float4 l = lit(b.x, b.y, b.z);
    o[k + 5] = asuint(l.x); o[k + 6] = asuint(l.y); o[k + 7] = asuint(l.z); o[k + 8] = asuint(l.w);
    float4 d = dst(b, b.wzyx);
    o[k + 9] = asuint(d.x); o[k + 10] = asuint(d.y); o[k + 11] = asuint(d.z); o[k + 12] = asuint(d.w);
    float e;
    float mant = frexp(b.w, e);
    o[k + 13] = asuint(mant); o[k + 14] = asuint(e);
    o[k + 15] = asuint(dot2add(b.xy, b.zy, b.z));
    o[k + 16] = dot4add_u8packed(w.x, w.y, w.z);
    o[k + 17] = asuint(dot4add_i8packed(w.x, w.y, int(w.z)));
    int4 v = int4(w % 600) - 300;
    o[k + 18] = pack_u8(v); o[k + 19] = pack_s8(v);
    o[k + 20] = pack_clamp_u8(v); o[k + 21] = pack_clamp_s8(v);
    int4 s = unpack_s8s32(w.x);
    uint4 u = unpack_u8u32(w.x);
    o[k + 22] = asuint(s.x); o[k + 23] = asuint(s.y); o[k + 24] = asuint(s.z); o[k + 25] = asuint(s.w);
    o[k + 26] = u.x; o[k + 27] = u.y; o[k + 28] = u.z; o[k + 29] = u.w;
    int4 c = D3DCOLORtoUBYTE4(saturate(b));
    o[k + 30] = asuint(c.x); o[k + 31] = asuint(c.y); o[k + 32] = asuint(c.z); o[k + 33] = asuint(c.w);
}
"#;

/// `msad4` as Direct3D defines it: alignment k compares the reference's
/// non-zero bytes with bytes k..k+3 of the 8-byte source.
fn msad4(reference: u32, source: [u32; 2], accum: [u32; 4]) -> [u32; 4] {
    let src = (u64::from(source[1]) << 32) | u64::from(source[0]);
    let mut out = accum;
    for (k, o) in out.iter_mut().enumerate() {
        for j in 0..4 {
            let r = (reference >> (8 * j)) & 0xff;
            let s = ((src >> (8 * (k + j))) & 0xff) as u32;
            if r != 0 {
                *o = o.wrapping_add(r.abs_diff(s));
            }
        }
    }
    out
}

fn is_normal(x: f32) -> bool {
    x.is_normal()
}

/// GLSL frexp of a finite value: mantissa in [0.5, 1) and exponent; zero
/// gives zeros.
fn frexp(x: f32) -> (f32, i32) {
    if x == 0.0 {
        return (x, 0);
    }
    let mut e = 0;
    let mut m = x;
    while m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}

fn dot4(a: u32, b: u32, signed: bool) -> i64 {
    (0..4)
        .map(|j| {
            let (x, y) = ((a >> (8 * j)) & 0xff, (b >> (8 * j)) & 0xff);
            if signed {
                i64::from(x as u8 as i8) * i64::from(y as u8 as i8)
            } else {
                i64::from(x) * i64::from(y)
            }
        })
        .sum()
}

fn pack(v: [i32; 4], clamp: Option<(i32, i32)>) -> u32 {
    v.iter().enumerate().fold(0, |acc, (j, &x)| {
        let x = clamp.map_or(x, |(lo, hi)| x.clamp(lo, hi));
        acc | ((x as u32 & 0xff) << (8 * j))
    })
}

/// The values one arithmetic case must give.
fn expected(w: [u32; 4], a: [f32; 4], b: [f32; 4], i: u32) -> Vec<u32> {
    let mut out = vec![0u32; STRIDE];
    let m = msad4(w[0], [w[1], w[2]], [w[3] & 0xffff, w[3] >> 16, i, 7]);
    out[0..4].copy_from_slice(&m);
    out[4] = (0..4).map(|j| u32::from(is_normal(a[j])) << j).sum();
    // lit.z (a `pow`) is compared with a tolerance by the caller.
    let specular = if b[0].min(b[1]) < 0.0 {
        0.0
    } else {
        b[1].powf(b[2])
    };
    let l = [1.0, b[0].max(0.0), specular, 1.0];
    let d = [1.0, b[1] * b[2], b[2], b[0]];
    for j in 0..4 {
        out[5 + j] = f32::to_bits(l[j]);
        out[9 + j] = f32::to_bits(d[j]);
    }
    let (mant, e) = frexp(b[3]);
    out[13] = mant.to_bits();
    out[14] = (e as f32).to_bits();
    out[15] = ((b[0] * b[2] + b[1] * b[1]) + b[2]).to_bits();
    out[16] = (dot4(w[0], w[1], false) as u32).wrapping_add(w[2]);
    out[17] = (dot4(w[0], w[1], true) as i32).wrapping_add(w[2] as i32) as u32;
    let v = w.map(|x| (x % 600) as i32 - 300);
    out[18] = pack(v, None);
    out[19] = pack(v, None);
    out[20] = pack(v, Some((0, 255)));
    out[21] = pack(v, Some((-128, 127)));
    for j in 0..4 {
        let byte = (w[0] >> (8 * j)) & 0xff;
        out[22 + j] = i32::from(byte as u8 as i8) as u32;
        out[26 + j] = byte;
    }
    let bgra = [b[2], b[1], b[0], b[3]];
    for j in 0..4 {
        out[30 + j] = ((bgra[j].clamp(0.0, 1.0) * 255.002f32) as i32) as u32;
    }
    out
}

/// Floats with few significant bits (`k / 8`; `w` scaled by a power of
/// two for `frexp`), so every product and sum the kernel forms of x, y and
/// z is exact: drivers may fuse and reassociate (lavapipe does).
fn exact_floats(seed: u32, n: usize) -> Vec<f32> {
    lcg(seed, n)
        .iter()
        .enumerate()
        .map(|(j, &r)| {
            let k = (r >> 8) % 129;
            let v = (k as f32 - 64.0) / 8.0;
            if j % 4 == 3 {
                v * 2f32.powi((r % 41) as i32 - 20)
            } else {
                v
            }
        })
        .collect()
}

/// Values `isnormal` tells apart: zeros, denormals, infinities, NaN,
/// the smallest normal, the largest finite, ordinary numbers.
const SPECIALS: [u32; 12] = [
    0x0000_0000,
    0x8000_0000,
    0x0040_0000,
    0x8000_0001,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x0080_0000,
    0x7f7f_ffff,
    0x3fc0_0000,
    0xc000_0000,
    0x0080_0001,
];

#[test]
fn arithmetic_intrinsics_match_the_cpu() {
    let runner = vk::shared();
    if !vk::on(runner.info().features13.shader_integer_dot_product) {
        eprintln!("skipped: the device has no shaderIntegerDotProduct");
        return;
    }
    let words = lcg(0x1234_5678, CASES * 4);
    let b = exact_floats(0x9abc_def0, CASES * 4);
    let a: Vec<f32> = (0..CASES * 4)
        .map(|j| f32::from_bits(SPECIALS[(j * 7) % SPECIALS.len()]))
        .collect();
    let mut floats = Vec::with_capacity(CASES * 8);
    for i in 0..CASES {
        floats.extend_from_slice(&a[4 * i..4 * i + 4]);
        floats.extend_from_slice(&b[4 * i..4 * i + 4]);
    }
    // Vulkan 1.3: OpSDot/OpUDot are core SPIR-V 1.6.
    let spirv = compile(ARITHMETIC, "cs_6_6", TargetEnv::Vulkan1_3);
    let mut res = vec![
        Resource::storage(0, 0, vk::u32_bytes(&words)),
        Resource::storage(0, 1, vk::f32_bytes(&floats)),
        Resource::storage(0, 2, vec![0u8; 4 * STRIDE * CASES]),
    ];
    if let Err(e) = runner.run_compute(&spirv, "main", &mut res, &[], [1, 1, 1]) {
        panic!("dispatch failed: {e}");
    }
    let got = vk::to_u32s(&res[2].data);
    let names = [
        "msad4.x",
        "msad4.y",
        "msad4.z",
        "msad4.w",
        "isnormal",
        "lit.x",
        "lit.y",
        "lit.z",
        "lit.w",
        "dst.x",
        "dst.y",
        "dst.z",
        "dst.w",
        "frexp mantissa",
        "frexp exponent",
        "dot2add",
        "dot4add_u8packed",
        "dot4add_i8packed",
        "pack_u8",
        "pack_s8",
        "pack_clamp_u8",
        "pack_clamp_s8",
        "unpack_s8s32.x",
        "unpack_s8s32.y",
        "unpack_s8s32.z",
        "unpack_s8s32.w",
        "unpack_u8u32.x",
        "unpack_u8u32.y",
        "unpack_u8u32.z",
        "unpack_u8u32.w",
        "D3DCOLORtoUBYTE4.x",
        "D3DCOLORtoUBYTE4.y",
        "D3DCOLORtoUBYTE4.z",
        "D3DCOLORtoUBYTE4.w",
    ];
    let mut bad = Vec::new();
    for i in 0..CASES {
        let w: [u32; 4] = words[4 * i..4 * i + 4].try_into().unwrap();
        let av: [f32; 4] = a[4 * i..4 * i + 4].try_into().unwrap();
        let bv: [f32; 4] = b[4 * i..4 * i + 4].try_into().unwrap();
        let want = expected(w, av, bv, i as u32);
        for (j, name) in names.iter().enumerate() {
            let g = got[i * STRIDE + j];
            if j == 7 {
                // pow(n_dot_h, m): Vulkan's pow is exp2(m * log2(n_dot_h)),
                // within a few ULP of exp2's argument; pow(0, m <= 0) is
                // undefined.
                let (gf, wf) = (f32::from_bits(g), f32::from_bits(want[j]));
                let undefined = bv[1] == 0.0 && bv[2] <= 0.0 && bv[0] >= 0.0;
                if !(undefined || gf == wf || (gf - wf).abs() <= 1e-4 * wf.abs()) {
                    bad.push(format!("case {i} {name}: got {gf}, want {wf} (b {bv:?})"));
                }
                continue;
            }
            if g != want[j] {
                bad.push(format!(
                    "case {i} {name}: got {g:#010x}, want {:#010x} (w {w:x?}, a {av:?}, b {bv:?})",
                    want[j]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{} wrong:\n{}", bad.len(), bad.join("\n"));
}

/// The wave kernel: each thread's key picks its partition; `PARTITIONS`
/// builds the masks from ballots, or with `WaveMatch`.
fn wave_kernel(partitioned: bool) -> String {
    let extra = if partitioned {
        "uint4 match = WaveMatch(key);\n\
         o[k + 4] = all(match == mask) ? 1 : 0;\n\
         o[k + 5] = WaveMultiPrefixSum(v, mask);\n\
         o[k + 6] = WaveMultiPrefixProduct(v, mask);\n\
         o[k + 7] = WaveMultiPrefixBitAnd(v, mask);\n\
         o[k + 8] = WaveMultiPrefixBitOr(v, mask);\n\
         o[k + 9] = WaveMultiPrefixBitXor(v, mask);"
    } else {
        ""
    };
    format!(
        "RWStructuredBuffer<uint> o;\n\
         [numthreads(64, 1, 1)]\n\
         void main(uint i : SV_GroupIndex) {{\n\
         uint key = (i * 5 + i / 7) % 3;\n\
         uint v = (i * 2654435761u) ^ 0x5bd1e995u;\n\
         uint4 b0 = WaveActiveBallot(key == 0);\n\
         uint4 b1 = WaveActiveBallot(key == 1);\n\
         uint4 b2 = WaveActiveBallot(key == 2);\n\
         uint4 mask = key == 0 ? b0 : (key == 1 ? b1 : b2);\n\
         uint k = i * 10;\n\
         o[k + 0] = WaveGetLaneIndex();\n\
         o[k + 1] = WaveReadLaneFirst(i);\n\
         o[k + 2] = key;\n\
         o[k + 3] = WaveMultiPrefixCountBits(i % 2 == 0, mask);\n\
         {extra}\n\
         }}"
    )
}

fn run_waves(partitioned: bool) {
    let runner = vk::shared();
    let spirv = compile(&wave_kernel(partitioned), "cs_6_5", TargetEnv::Vulkan1_1);
    let mut res = vec![Resource::storage(0, 0, vec![0u8; 4 * 10 * 64])];
    if let Err(e) = runner.run_compute(&spirv, "main", &mut res, &[], [1, 1, 1]) {
        panic!("dispatch failed: {e}");
    }
    let out = vk::to_u32s(&res[0].data);
    let rec = |i: usize| &out[i * 10..i * 10 + 10];
    let v = |i: usize| (i as u32).wrapping_mul(2_654_435_761) ^ 0x5bd1_e995;
    for i in 0..64 {
        let r = rec(i);
        // The threads of this one's partition below it: same wave (same
        // first thread), same key, lower lane.
        let below: Vec<usize> = (0..64)
            .filter(|&t| rec(t)[1] == r[1] && rec(t)[2] == r[2] && rec(t)[0] < r[0])
            .collect();
        let count = below.iter().filter(|&&t| t % 2 == 0).count() as u32;
        assert_eq!(r[3], count, "thread {i}: WaveMultiPrefixCountBits");
        if !partitioned {
            continue;
        }
        assert_eq!(r[4], 1, "thread {i}: WaveMatch differs from the ballots");
        let vs: Vec<u32> = below.iter().map(|&t| v(t)).collect();
        let want = [
            vs.iter().fold(0u32, |a, &x| a.wrapping_add(x)),
            vs.iter().fold(1u32, |a, &x| a.wrapping_mul(x)),
            vs.iter().fold(!0u32, |a, &x| a & x),
            vs.iter().fold(0u32, |a, &x| a | x),
            vs.iter().fold(0u32, |a, &x| a ^ x),
        ];
        let names = ["Sum", "Product", "BitAnd", "BitOr", "BitXor"];
        for j in 0..5 {
            assert_eq!(r[5 + j], want[j], "thread {i}: WaveMultiPrefix{}", names[j]);
        }
    }
}

#[test]
fn wave_multiprefix_count_bits_counts_within_the_partition() {
    run_waves(false);
}

#[test]
fn wave_match_and_multiprefix_on_partitioning_devices() {
    if !vk::shared()
        .info()
        .has_extension("VK_NV_shader_subgroup_partitioned")
    {
        eprintln!("skipped: the device has no VK_NV_shader_subgroup_partitioned");
        return;
    }
    run_waves(true);
}
