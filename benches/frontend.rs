//! Front-end throughput: preprocess + parse of every shader in `samples/`
//! (`hlslc::check_syntax`), and preprocessing alone
//! (`hlslc::preprocess_to_string`, which also prints the tokens as text),
//! in bytes of the entry files per second. The parser's share is the
//! difference.
//!
//! `cargo bench --bench frontend`. With `FRONTEND_ITERS=N` the binary
//! instead parses the samples N times and prints the throughput (for
//! `perf stat`, or a machine without cargo); `HLSLC_SAMPLES=dir` reads the
//! samples from `dir`.

use criterion::{Criterion, Throughput, criterion_group};
use hlslc::{MemoryLoader, Options};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// Every `samples/*.hlsl` (the entry files) and `.hlsli` (their includes).
fn samples() -> (MemoryLoader, Vec<PathBuf>, u64) {
    let dir = std::env::var_os("HLSLC_SAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"));
    let mut loader = MemoryLoader::new();
    let mut mains = Vec::new();
    let mut bytes = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("samples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let ext = path.extension().and_then(|e| e.to_str());
        if !matches!(ext, Some("hlsl" | "hlsli")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable sample");
        // Includes are named relative to the including file.
        let name = PathBuf::from(path.file_name().expect("a file name"));
        if ext == Some("hlsl") {
            bytes += text.len() as u64;
            mains.push(name.clone());
        }
        loader.add(name, text);
    }
    (loader, mains, bytes)
}

fn check_syntax(loader: &MemoryLoader, main: &Path, options: &Options) {
    let c = hlslc::check_syntax(main, loader, options);
    debug_assert!(!c.has_errors(), "{}", main.display());
    black_box(c);
}

fn preprocess(loader: &MemoryLoader, main: &Path, options: &Options) {
    black_box(hlslc::preprocess_to_string(main, loader, options));
}

fn frontend(c: &mut Criterion) {
    let (loader, mains, bytes) = samples();
    let options = Options::default();
    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("preprocess+parse samples", |b| {
        b.iter(|| {
            for main in &mains {
                check_syntax(&loader, main, &options);
            }
        })
    });
    group.bench_function("preprocess samples", |b| {
        b.iter(|| {
            for main in &mains {
                preprocess(&loader, main, &options);
            }
        })
    });
    group.finish();
}

/// `FRONTEND_ITERS=N`: both measurements, N rounds each, without criterion.
fn fixed_rounds(n: u32) {
    let (loader, mains, bytes) = samples();
    let options = Options::default();
    let mbps = |t: std::time::Duration| (bytes * u64::from(n)) as f64 / t.as_secs_f64() / 1e6;
    for (what, run) in [
        (
            "preprocess+parse",
            check_syntax as fn(&MemoryLoader, &Path, &Options),
        ),
        ("preprocess", preprocess),
    ] {
        let start = std::time::Instant::now();
        for _ in 0..n {
            for main in &mains {
                run(&loader, main, &options);
            }
        }
        println!("{what}: {:.1} MB/s", mbps(start.elapsed()));
    }
}

criterion_group!(benches, frontend);

fn main() {
    if let Some(n) = std::env::var("FRONTEND_ITERS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        fixed_rounds(n);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
