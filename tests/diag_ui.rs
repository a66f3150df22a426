//! UI tests: `tests/in/diag/NAME.hlsl` compiled, its rendered diagnostics
//! compared with `NAME.stderr` (rustc's tests/ui style).
//!
//! The first line of a case may be `// args: -T cs_6_0 -E main` to compile
//! with those flags (any of `hlslc`'s, read by the library's parser; when
//! they are wrong, the parser's errors are the output); without it the
//! case is run as `-fsyntax-only`. Other
//! files in `tests/in/diag/` (headers, `.hlsli`) can be included by cases.

use crate::common;
use hlslc::Options;
use hlslc::diag::{DiagnosticFormat, render_to_string};

/// The options of a case: its `// args:` line read by the library's
/// parser (`Err`: the parser's errors, which are then the case's
/// output), or `None` for a syntax-only case.
fn options_from_header(text: &str) -> Option<Result<Options, Vec<hlslc::diag::Diagnostic>>> {
    let args = text.lines().next()?.strip_prefix("// args:")?;
    let args = std::iter::once("--verify-ir").chain(args.split_whitespace());
    Some(Options::from_args(args))
}

#[test]
fn diagnostics_render_as_expected() {
    let dir = common::root().join("tests/in/diag");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/in/diag exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    cases.sort();
    let mut failures = Vec::new();
    // Paths relative to the repository root keep the output machine-independent.
    let loader = common::RootedLoader;
    for case in &cases {
        let rel = case.strip_prefix(common::root()).expect("case under root");
        let text = std::fs::read_to_string(case).expect("readable case");
        let rendered = match options_from_header(&text) {
            Some(Err(errors)) => render_to_string(
                &errors,
                &hlslc::source::SourceMap::new(),
                DiagnosticFormat::Human,
            ),
            header => {
                let c = match header {
                    Some(Ok(options)) => hlslc::compile(rel, &loader, &options),
                    _ => hlslc::check_syntax(rel, &loader, &common::verified_options()),
                };
                render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human)
            }
        };
        if rendered.is_empty() {
            failures.push(format!("{}: produced no diagnostics", rel.display()));
            continue;
        }
        if let Err(e) = common::check_or_bless(&case.with_extension("stderr"), &rendered) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
