//! Fused or separately rounded `a * b + c`, on a real Vulkan device.
//!
//! With a = b = 1 + 2^-12 and c = -(1 + 2^-11), a * b = 1 + 2^-11 + 2^-24
//! exactly; rounded to binary32 that is 1 + 2^-11 (a tie, to even), so a
//! separately rounded multiply and add give +0, while a fused multiply-add
//! keeps the 2^-24: 0x33800000. Each variant of the kernel reads its own
//! copy of the inputs, so the driver cannot merge two variants.
//!
//! What must hold on every device: every `precise` variant (a precise
//! local, a precise out parameter, a precise value computed in a called
//! function, a precise struct field) is +0 at every optimisation level —
//! its multiply and add carry NoContraction. What depends on the device:
//! the variants the SPIR-V computes with GLSL.std.450 `Fma` (a plain
//! `a * b + c` at -O1 and above, `mad()`) are 2^-24 on a device whose fma
//! is fused — asserted on NVIDIA — while lavapipe lowers fma to a multiply
//! and an add (+0); a plain `a * b + c` at -O0 is two instructions the
//! driver may or may not contract, and a precise `mad()` (an Fma decorated
//! NoContraction, as DXC emits it) may be either: those are recorded in the
//! table, not asserted.
//!
//! The HLSL is compiled in-process (`crate::compile`); nothing but Vulkan is
//! needed at run time (no spirv-tools: `precise_spirv::fma_probe_is_valid`
//! validates the same modules where spirv-val is installed). To run it on
//! the NVIDIA machine, build here and carry the test binary:
//!
//! ```sh
//! cargo test --release --lib --no-run   # prints target/release/deps/hlslc-<hash>
//! # on the GPU machine, with the Vulkan loader on LD_LIBRARY_PATH
//! # (VULKAN-NOTES.md):
//! export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
//! export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
//! HLSLC_VK_DEVICE=NVIDIA ./hlslc-<hash> tests::runtime_fma --nocapture
//! ```

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, Resource};

/// The kernel: variant `v` reads `inputs[3v..3v+3]` and writes
/// `outputs[v]`.
pub const KERNEL: &str = r#"
StructuredBuffer<float> inputs : register(t0);
RWStructuredBuffer<float> outputs : register(u1);

struct Pair {
    precise float exact;
    float fast;
};

float mad3(float a, float b, float c) {
    return a * b + c;
}

void mad_out(out precise float r, float a, float b, float c) {
    r = a * b + c;
}

float A(uint v) { return inputs[3 * v + 0]; }
float B(uint v) { return inputs[3 * v + 1]; }
float C(uint v) { return inputs[3 * v + 2]; }

[numthreads(1, 1, 1)]
void main() {
    precise float p = A(0) * B(0) + C(0);
    outputs[0] = p;

    float r;
    mad_out(r, A(1), B(1), C(1));
    outputs[1] = r;

    precise float q = mad3(A(2), B(2), C(2));
    outputs[2] = q;

    Pair s;
    s.exact = A(3) * B(3) + C(3);
    s.fast = A(3) * B(3) + 1.0f;
    outputs[3] = s.exact;
    outputs[8] = s.fast;

    outputs[4] = A(4) * B(4) + C(4);
    outputs[5] = mad(A(5), B(5), C(5));
    precise float m = mad(A(6), B(6), C(6));
    outputs[6] = m;
    outputs[7] = mad3(A(7), B(7), C(7));
}
"#;

/// How a variant is computed and what must come out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    /// NoContraction on the multiply and the add: +0 on every device.
    Separate,
    /// An undecorated GLSL.std.450 Fma: 2^-24 where fma is fused.
    Fma,
    /// Up to the driver (recorded only).
    Either,
}

struct Variant {
    name: &'static str,
    /// What each level (-O0, -O2, -O3) must give.
    expect: [Expect; 3],
}

const VARIANTS: [Variant; 8] = {
    use Expect::*;
    [
        Variant {
            name: "precise local",
            expect: [Separate; 3],
        },
        Variant {
            name: "precise out parameter",
            expect: [Separate; 3],
        },
        Variant {
            name: "precise value from a call",
            expect: [Separate; 3],
        },
        Variant {
            name: "precise struct field",
            expect: [Separate; 3],
        },
        Variant {
            name: "plain a * b + c",
            expect: [Either, Fma, Fma],
        },
        Variant {
            name: "mad(a, b, c)",
            expect: [Fma; 3],
        },
        Variant {
            name: "precise mad(a, b, c)",
            expect: [Either; 3],
        },
        Variant {
            name: "plain, from a call",
            expect: [Either, Fma, Fma],
        },
    ]
};

pub const LEVELS: [u8; 3] = [0, 2, 3];

const FUSED: u32 = 0x3380_0000;

/// Compiles the kernel at `level` (in-process, no tools).
pub fn compile(level: u8) -> Vec<u32> {
    let mut loader = crate::MemoryLoader::new();
    loader.add("fma.hlsl", KERNEL);
    let options = crate::Options {
        profile: crate::options::Profile::parse("cs_6_0"),
        opt_level: level,
        target_env: TargetEnv::Vulkan1_1,
        ..common::verified_options()
    };
    let c = crate::compile(std::path::Path::new("fma.hlsl"), &loader, &options);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short);
    match c.artifact.filter(|_| !c.diagnostics.has_errors()) {
        Some(a) => a.spirv,
        None => panic!("-O{level}: the FMA kernel does not compile:\n{text}"),
    }
}

/// GLSL.std.450 Fma instructions of a module, and how many carry
/// NoContraction (read in-process with rspirv).
fn fma_counts(words: &[u32]) -> (usize, usize) {
    let m = rspirv::dr::load_words(words).expect("rspirv reads the module");
    let std = m
        .ext_inst_imports
        .iter()
        .find(|i| matches!(&i.operands[0], rspirv::dr::Operand::LiteralString(s) if s == "GLSL.std.450"))
        .and_then(|i| i.result_id);
    let fmas: Vec<u32> = m
        .functions
        .iter()
        .flat_map(|f| f.all_inst_iter())
        .filter(|i| {
            i.class.opcode == spirv::Op::ExtInst
                && i.operands[0] == rspirv::dr::Operand::IdRef(std.unwrap_or(0))
                && i.operands[1] == rspirv::dr::Operand::LiteralExtInstInteger(50)
        })
        .filter_map(|i| i.result_id)
        .collect();
    let decorated = m
        .annotations
        .iter()
        .filter(|i| {
            i.operands.get(1)
                == Some(&rspirv::dr::Operand::Decoration(
                    spirv::Decoration::NoContraction,
                ))
                && fmas.contains(&i.operands[0].unwrap_id_ref())
        })
        .count();
    (fmas.len(), decorated)
}

fn show(bits: u32) -> String {
    match bits {
        0 => "+0".into(),
        FUSED => "2^-24 (fused)".into(),
        b => format!("{:e} (0x{b:08x})", f32::from_bits(b)),
    }
}

#[test]
fn fused_and_separate_rounding_per_variant() {
    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    // The probe values do what they should in this process's arithmetic.
    assert_eq!((a * a + c).to_bits(), 0, "separate rounding");
    assert_eq!(a.mul_add(a, c).to_bits(), FUSED, "fused");
    let n = VARIANTS.len();
    let inputs: Vec<f32> = (0..n).flat_map(|_| [a, a, c]).collect();

    let runner = vk::shared();
    let info = runner.info();
    let fuses = info.is_nvidia();
    let mut results = vec![[0u32; 3]; n];
    for (li, &level) in LEVELS.iter().enumerate() {
        let words = compile(level);
        // The SPIR-V: mad and precise mad at every level, plus the two
        // plain variants and `s.fast` from -O1 on; only the precise mad is
        // decorated.
        let (fmas, decorated) = fma_counts(&words);
        let want = if level == 0 { 2 } else { 5 };
        assert_eq!((fmas, decorated), (want, 1), "-O{level}: Fma count");
        let mut res = [
            Resource::storage(0, 0, vk::f32_bytes(&inputs)),
            Resource::storage(0, 1, vec![0xffu8; 4 * (n + 1)]),
        ];
        if let Err(e) = runner.run_compute(&words, "main", &mut res, &[], [1, 1, 1]) {
            panic!("-O{level}: dispatch failed: {e}");
        }
        let out = vk::to_u32s(&res[1].data);
        for v in 0..n {
            results[v][li] = out[v];
        }
        // The plain twin of the precise struct field: a * b + 1.
        let fast = f32::from_bits(out[n]);
        assert!(
            (fast - (a * a + 1.0)).abs() < 1e-6,
            "-O{level}: s.fast = {fast}"
        );
    }

    // The table.
    let mut table = format!(
        "runtime_fma on {} ({:?}; fma fused: {})\n{:<28}",
        info.name,
        info.driver_id,
        if fuses { "expected" } else { "not expected" },
        "variant"
    );
    for level in LEVELS {
        table += &format!(" {:<16}", format!("-O{level}"));
    }
    table.push('\n');
    for (v, variant) in VARIANTS.iter().enumerate() {
        table += &format!("{:<28}", variant.name);
        for bits in results[v] {
            table += &format!(" {:<16}", show(bits));
        }
        table.push('\n');
    }
    println!("{table}");

    let mut failures = Vec::new();
    for (v, variant) in VARIANTS.iter().enumerate() {
        for (li, &level) in LEVELS.iter().enumerate() {
            let got = results[v][li];
            let what = format!("{} at -O{level}: {}", variant.name, show(got));
            // Whatever the device: one of the two roundings.
            if got != 0 && got != FUSED {
                failures.push(format!("{what}: neither +0 nor 2^-24"));
            }
            match variant.expect[li] {
                Expect::Separate if got != 0 => {
                    failures.push(format!("{what}: precise must be rounded twice (+0)"))
                }
                Expect::Fma if fuses && got != FUSED => {
                    failures.push(format!("{what}: an Fma must be fused on this device"))
                }
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}\n{table}", failures.join("\n"));
}
