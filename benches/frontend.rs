//! Front-end throughput: preprocess + parse of every shader in `samples/`,
//! and parse alone (tokens lexed once, outside the timing), in bytes of
//! source per second.
//!
//! `cargo bench --bench frontend`. With `FRONTEND_ITERS=N` the binary
//! instead parses the samples N times and prints the throughput (for
//! `perf stat`, or a machine without cargo); `HLSLC_SAMPLES=dir` reads the
//! samples from `dir`.

use criterion::{Criterion, Throughput, criterion_group};
use hlslc::diag::Diagnostics;
use hlslc::front::lexer::{self, PpToken, Token, flags};
use hlslc::front::{parser, preprocess};
use hlslc::intern::Symbol;
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

/// Lexes one file straight into parser input (no macros, no includes).
fn tokens(text: &str, sm: &mut SourceMap) -> Vec<PpToken> {
    let file = sm
        .add_file("bench.hlsl", "bench.hlsl", text.to_string(), None)
        .expect("room for the file");
    let mut out = Vec::new();
    let mut line_start = true;
    let mut in_directive = false;
    for t in lexer::lex(text).0 {
        if t.kind == Token::Newline {
            line_start = true;
            in_directive = false;
            continue;
        }
        let text = &text[t.start as usize..t.end as usize];
        // Directive lines are the preprocessor's business.
        if (t.kind == Token::Hash && line_start) || in_directive {
            in_directive = true;
            line_start = false;
            continue;
        }
        out.push(PpToken {
            kind: t.kind,
            sym: Symbol::intern(text),
            span: sm.span(file, t.start..t.end),
            flags: if line_start { flags::LINE_START } else { 0 },
        });
        line_start = false;
    }
    out
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

    // The parser alone, on input lexed once.
    let inputs: Vec<(SourceMap, Vec<PpToken>)> = mains
        .iter()
        .map(|m| {
            let mut sm = SourceMap::new();
            let text = hlslc::source::FileLoader::read(&loader, m).expect("loaded");
            let toks = tokens(&text, &mut sm);
            let mut diags = Diagnostics::new();
            parser::parse(&toks, &sm, &mut diags);
            assert!(diags.list.len() <= 1, "{}: {:?}", m.display(), diags.list);
            (sm, toks)
        })
        .collect();
    group.bench_function("parse samples", |b| {
        b.iter(|| {
            for (sm, toks) in &inputs {
                let mut diags = Diagnostics::new();
                black_box(parser::parse(toks, sm, &mut diags));
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
    let inputs: Vec<(SourceMap, Vec<PpToken>)> = mains
        .iter()
        .map(|m| {
            let mut sm = SourceMap::new();
            let text = hlslc::source::FileLoader::read(&loader, m).expect("loaded");
            let toks = tokens(&text, &mut sm);
            (sm, toks)
        })
        .collect();
    let start = std::time::Instant::now();
    for _ in 0..n {
        for (sm, toks) in &inputs {
            let mut diags = Diagnostics::new();
            black_box(parser::parse(toks, sm, &mut diags));
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
