//! Whole in-process compile (preprocess, parse, sema, the -O3 pass
//! pipeline, SPIR-V emission: [`hlslc::compile`]) of each sample shader
//! that compiles today, one criterion benchmark per shader and stage.
//!
//! `cargo bench --bench compile` (a filter such as `-- blur` picks some).
//! The samples are read from memory, so no file system time is counted.
//! With `COMPILE_ITERS=N` the binary instead compiles every sample N times
//! and prints the mean time per compile (for `perf record`, or a quick look
//! without criterion's statistics).

use criterion::{Criterion, criterion_group};
use hlslc::MemoryLoader;
use hlslc::options::{Profile, RegisterClass, TargetEnv};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// One compile of the samples README's table: file, profile, entry point
/// and the options its command line sets beyond those.
struct Case {
    file: &'static str,
    profile: &'static str,
    entry: &'static str,
    tweak: fn(&mut hlslc::Options),
}

fn none(_: &mut hlslc::Options) {}

/// The samples' own command lines (samples/README.md). Geometry, hull and
/// domain shaders are left out until hlslc compiles them.
const CASES: &[Case] = &[
    Case {
        file: "blur.hlsl",
        profile: "cs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "reduce_sum.hlsl",
        profile: "cs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "prefix_sum.hlsl",
        profile: "cs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "particles.hlsl",
        profile: "cs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "histogram.hlsl",
        profile: "cs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "matmul.hlsl",
        profile: "cs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "cull_instances.hlsl",
        profile: "cs_6_0",
        entry: "main",
        // Wave operations need SPIR-V 1.3.
        tweak: |o| o.target_env = TargetEnv::Vulkan1_1,
    },
    Case {
        file: "mesh_lit.hlsl",
        profile: "vs_6_0",
        entry: "VSMain",
        tweak: none,
    },
    Case {
        file: "mesh_lit.hlsl",
        profile: "ps_6_0",
        entry: "PSMain",
        tweak: none,
    },
    Case {
        file: "tonemap.hlsl",
        profile: "vs_6_0",
        entry: "FullscreenVS",
        tweak: none,
    },
    Case {
        file: "tonemap.hlsl",
        profile: "ps_6_0",
        entry: "TonemapPS",
        tweak: none,
    },
    Case {
        file: "skinning.hlsl",
        profile: "vs_6_0",
        entry: "main",
        tweak: none,
    },
    Case {
        file: "shadow_pcf.hlsl",
        profile: "ps_6_0",
        entry: "main",
        // -fvk-s-shift 8 0 -fvk-b-shift 16 0
        tweak: |o| {
            o.register_shifts.push((RegisterClass::S, 8, Some(0)));
            o.register_shifts.push((RegisterClass::B, 16, Some(0)));
        },
    },
];

/// Every sample file, in memory, named as the README's commands name them.
fn loader() -> MemoryLoader {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut loader = MemoryLoader::new();
    for entry in std::fs::read_dir(&dir).expect("samples/ exists") {
        let path = entry.expect("a directory entry").path();
        if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("hlsl" | "hlsli")
        ) {
            let text = std::fs::read_to_string(&path).expect("readable sample");
            loader.add(PathBuf::from(path.file_name().expect("a file name")), text);
        }
    }
    loader
}

fn options(case: &Case) -> hlslc::Options {
    let mut o = hlslc::Options {
        profile: Profile::parse(case.profile),
        entry: case.entry.to_string(),
        ..hlslc::Options::default()
    };
    (case.tweak)(&mut o);
    o
}

fn label(case: &Case) -> String {
    format!("{} {}", case.file.trim_end_matches(".hlsl"), case.profile)
}

/// Compiles once, checking that the sample still compiles (a benchmark of
/// a compile that stops at its first error would measure nothing useful).
fn compile(case: &Case, loader: &MemoryLoader, options: &hlslc::Options) -> usize {
    let c = hlslc::compile(Path::new(case.file), loader, options);
    match &c.artifact {
        Some(a) if !c.has_errors() => a.spirv.len(),
        _ => panic!("{} does not compile: {:?}", label(case), c.diagnostics.list),
    }
}

fn compile_samples(c: &mut Criterion) {
    let loader = loader();
    let mut group = c.benchmark_group("compile");
    for case in CASES {
        let options = options(case);
        compile(case, &loader, &options);
        group.bench_function(label(case), |b| {
            b.iter(|| black_box(hlslc::compile(Path::new(case.file), &loader, &options)))
        });
    }
    group.finish();
}

/// `COMPILE_ITERS=N`: N compiles of each case, without criterion.
fn fixed_rounds(n: u32) {
    let loader = loader();
    for case in CASES {
        let options = options(case);
        let words = compile(case, &loader, &options);
        let start = std::time::Instant::now();
        for _ in 0..n {
            black_box(hlslc::compile(Path::new(case.file), &loader, &options));
        }
        let per = start.elapsed() / n;
        println!(
            "{:28} {:>9.1} µs  ({words} words)",
            label(case),
            per.as_secs_f64() * 1e6
        );
    }
}

criterion_group!(benches, compile_samples);

fn main() {
    if let Some(n) = std::env::var("COMPILE_ITERS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        fixed_rounds(n);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
