//! UI tests: `tests/in/diag/NAME.hlsl` compiled, its rendered diagnostics
//! compared with `NAME.stderr` (rustc's tests/ui style).
//!
//! The first line of a case may be `// args: -T cs_6_0 -E main` to compile
//! with those flags; without it the case is run as `-fsyntax-only`. Other
//! files in `tests/in/diag/` (headers, `.hlsli`) can be included by cases.

use crate::common;
use hlslc::Options;
use hlslc::diag::{DiagnosticFormat, render_to_string};

fn options_from_header(text: &str) -> (Options, bool) {
    let mut o = common::verified_options();
    let Some(args) = text.lines().next().and_then(|l| l.strip_prefix("// args:")) else {
        return (o, true);
    };
    let mut it = args.split_whitespace();
    while let Some(a) = it.next() {
        match a {
            "-T" => o.profile = it.next().and_then(hlslc::options::Profile::parse),
            "-E" => o.entry = it.next().unwrap_or("main").to_string(),
            "-HV" => {
                o.hlsl_version = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("a numeric -HV in test header")
            }
            a if a.starts_with("-D") => {
                let d = &a[2..];
                o.defines.push(match d.split_once('=') {
                    Some((n, v)) => (n.into(), Some(v.into())),
                    None => (d.into(), None),
                });
            }
            a if a.starts_with("-fspv-target-env=") => {
                o.target_env =
                    hlslc::options::TargetEnv::parse(&a[17..]).expect("valid env in test header");
            }
            a if a.starts_with("-O") => o.opt_level = a[2..].parse().unwrap_or(0),
            other => panic!("unknown flag in test header: {other}"),
        }
    }
    (o, false)
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
        let (options, syntax_only) = options_from_header(&text);
        let c = if syntax_only {
            hlslc::check_syntax(rel, &loader, &options)
        } else {
            hlslc::compile(rel, &loader, &options)
        };
        let rendered =
            render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
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
