//! Front-end throughput: preprocess + parse of every shader in `samples/`,
//! and parse alone (input preprocessed once, outside the timing), in bytes
//! of the entry files per second.
//!
//! `cargo bench --bench frontend`. With `FRONTEND_ITERS=N` the binary
//! instead parses the samples N times and prints the throughput (for
//! `perf stat`, or a machine without cargo); `HLSLC_SAMPLES=dir` reads the
//! samples from `dir`.

use criterion::{Criterion, Throughput, criterion_group};
use hlslc::diag::Diagnostics;
use hlslc::front::lexer::PpToken;
use hlslc::front::{parser, preprocess};
use hlslc::source::{MemoryLoader, SourceMap};
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

/// Each sample preprocessed once: the parser's input.
fn preprocessed(loader: &MemoryLoader, mains: &[PathBuf]) -> Vec<(SourceMap, Vec<PpToken>)> {
    let options = preprocess::PreprocessOptions::default();
    mains
        .iter()
        .map(|m| {
            let mut sm = SourceMap::new();
            let mut diags = Diagnostics::new();
            let pp = preprocess::preprocess(m, loader, &options, &mut sm, &mut diags);
            assert!(!diags.has_errors(), "{}: {:?}", m.display(), diags.list);
            (sm, pp.tokens)
        })
        .collect()
}

fn frontend(c: &mut Criterion) {
    let (loader, mains, bytes) = samples();
    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(bytes));

    let options = preprocess::PreprocessOptions::default();
    group.bench_function("preprocess+parse samples", |b| {
        b.iter(|| {
            for main in &mains {
                let mut sm = SourceMap::new();
                let mut diags = Diagnostics::new();
                let parsed =
                    hlslc::front::parse_program(main, &loader, &options, &mut sm, &mut diags);
                black_box(parsed.unit);
            }
        })
    });

    // The parser alone, on input preprocessed once.
    let inputs = preprocessed(&loader, &mains);
    group.bench_function("parse samples", |b| {
        b.iter(|| {
            for (_, toks) in &inputs {
                let mut diags = Diagnostics::new();
                black_box(parser::parse(toks, &mut diags));
            }
        })
    });
    group.finish();
}

/// `FRONTEND_ITERS=N`: both measurements, N rounds each, without criterion.
fn fixed_rounds(n: u32) {
    let (loader, mains, bytes) = samples();
    let options = preprocess::PreprocessOptions::default();
    let start = std::time::Instant::now();
    for _ in 0..n {
        for main in &mains {
            let mut sm = SourceMap::new();
            let mut diags = Diagnostics::new();
            black_box(
                hlslc::front::parse_program(main, &loader, &options, &mut sm, &mut diags).unit,
            );
        }
    }
    let mbps = |t: std::time::Duration| (bytes * u64::from(n)) as f64 / t.as_secs_f64() / 1e6;
    println!("preprocess+parse: {:.1} MB/s", mbps(start.elapsed()));
    let inputs = preprocessed(&loader, &mains);
    let start = std::time::Instant::now();
    for _ in 0..n {
        for (_, toks) in &inputs {
            let mut diags = Diagnostics::new();
            black_box(parser::parse(toks, &mut diags));
        }
    }
    println!("parse: {:.1} MB/s", mbps(start.elapsed()));
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
