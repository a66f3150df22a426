//! UI tests: `tests/in/diag/NAME.hlsl` compiled, its rendered diagnostics
//! compared with `NAME.stderr` (rustc's tests/ui style).
//!
//! The first line of a case may be `// args: -T cs_6_0 -E main` to compile
//! with those flags (any of `hlslc`'s, read by the library's parser; when
//! they are wrong, the parser's errors are the output); with
//! `-fsyntax-only` among them the case is checked as `hlslc -fsyntax-only`
//! checks ([`hlslc::check`]); without the line it is only preprocessed and
//! parsed ([`hlslc::check_syntax`]). Other
//! files in `tests/in/diag/` (headers, `.hlsli`) can be included by cases.

use crate::common;
use hlslc::Options;
use hlslc::diag::{DiagnosticFormat, render_to_string};

/// The options of a case: its `// args:` line read by the library's
/// parser and whether it asks for `-fsyntax-only` (`Err`: the parser's
/// errors, which are then the case's output), or `None` for a case that is
/// only parsed.
#[allow(clippy::type_complexity)]
fn options_from_header(
    text: &str,
) -> Option<Result<(Options, bool), Vec<hlslc::diag::Diagnostic>>> {
    let args = text.lines().next()?.strip_prefix("// args:")?;
    let words: Vec<&str> = args.split_whitespace().collect();
    let syntax_only = words.contains(&"-fsyntax-only");
    let args = std::iter::once("--verify-ir").chain(words.iter().copied());
    Some(Options::from_args(args).map(|o| (o, syntax_only)))
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
                    Some(Ok((options, true))) => hlslc::check(rel, &loader, &options),
                    Some(Ok((options, false))) => hlslc::compile(rel, &loader, &options),
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
