//! Syntax errors: recovery (each independent mistake reported once),
//! depth limits (an error, never a stack overflow), and mutated inputs
//! (never a panic).

use super::*;
use crate::front::ast::Item;
use crate::tests::common;

// ---------------------------------------------------------------------------
// Errors and recovery
// ---------------------------------------------------------------------------

#[test]
fn each_broken_statement_is_reported() {
    let e = errors(
        "void main() {
        int a = 1
        a = ;
        f(a,;
        int ok = 2;
        b = ) ;
    }
    float g() { return 1 }",
    );
    assert_eq!(e.len(), 5, "{e:#?}");
    assert_eq!(e[0], "expected one of `;`, `,` or an operator, found `a`");
    assert_eq!(e[1], "expected an expression, found `;`");
}

#[test]
fn each_broken_declaration_is_reported() {
    let p = parse_str(
        "float a = ;
        struct S { float x y; float z; };
        float4 main(float4 p : ) : SV_Target { return p; }
        cbuffer C { float q = ; }
        int ok;",
    );
    let errs: Vec<_> = p.diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errs.len(), 4, "{errs:#?}");
    // Recovery kept the good parts.
    assert!(
        p.unit
            .items
            .iter()
            .any(|i| matches!(i, Item::Struct(s) if s.members.len() == 2))
    );
    assert!(matches!(p.unit.items.last(), Some(Item::Var(_))));
}

/// A NUL byte inside a string literal (as written, or from `\0`) is an
/// error at the string: every HLSL string becomes a SPIR-V string, which
/// ends at its first NUL.
#[test]
fn a_string_cannot_hold_a_nul() {
    for text in ["[[vk::ext_extension(\"a\0b\")]] void f();", "string s = \"a\\0b\";"] {
        let e = errors(text);
        assert_eq!(
            e,
            ["a string cannot hold a NUL character (a SPIR-V string ends at the first one)"],
            "{text:?}"
        );
    }
    assert!(errors("string s = \"a\\\\0b\";").is_empty(), "an escaped backslash, then 0");
}

#[test]
fn missing_closing_brace_at_end_of_file() {
    let p = parse_str("void main() {\n  if (x) {\n    y = 1;\n");
    assert_eq!(p.diags.len(), 1, "{:?}", p.diags);
    let d = &p.diags[0];
    assert_eq!(d.message, "expected `}`, found end of file");
    assert!(d.labels.iter().any(|l| l.message.contains("never closed")));
}

/// Runs `f` on a thread with the default 2 MiB test stack.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no stack overflow or panic");
}

#[test]
fn deep_parentheses_are_an_error_not_a_crash() {
    on_small_stack(|| {
        let n = 200_000;
        let text = format!("float x = {}1{};", "(".repeat(n), ")".repeat(n));
        let start = std::time::Instant::now();
        let e = errors(&text);
        assert_eq!(e, ["brackets nested too deeply"]);
        assert!(start.elapsed().as_secs() < 10);
    });
}

#[test]
fn deep_braces_are_an_error_not_a_crash() {
    on_small_stack(|| {
        let n = 200_000;
        let text = format!("void main() {}{} float ok;", "{".repeat(n), "}".repeat(n));
        let p = parse_str(&text);
        let e: Vec<_> = p.diags.iter().map(|d| d.message.clone()).collect();
        assert_eq!(e, ["brackets nested too deeply"]);
        assert!(
            matches!(p.unit.items.last(), Some(Item::Var(_))),
            "parsing went on: {:?}",
            p.unit
                .items
                .iter()
                .map(|i| match i {
                    Item::Var(_) => "var",
                    Item::Function(_) => "fn",
                    Item::Error => "error",
                    _ => "other",
                })
                .collect::<Vec<_>>()
        );
    });
}

#[test]
fn long_unary_chains_are_an_error_not_a_crash() {
    on_small_stack(|| {
        let text = format!("float x = {}1; float ok;", "- ".repeat(100_000));
        let e = errors(&text);
        assert_eq!(e, ["expression too deeply nested"]);
        let text = format!("float x = {}1;", "!".repeat(100_000));
        assert_eq!(errors(&text), ["expression too deeply nested"]);
    });
}

#[test]
fn long_binary_and_cast_chains_are_bounded() {
    on_small_stack(|| {
        let text = format!("float x = a{};", " + a".repeat(100_000));
        assert_eq!(errors(&text), ["expression too deeply nested"]);
        let text = format!("float x = {}a;", "(float)".repeat(100_000));
        assert_eq!(errors(&text), ["expression too deeply nested"]);
        let text = format!("float x = {}a;", "a ? b : ".repeat(100_000));
        assert_eq!(errors(&text), ["expression too deeply nested"]);
        let text = format!("void main() {{ {} x = 1; }}", "if (a) ".repeat(100_000));
        assert_eq!(errors(&text), ["statements nested too deeply"]);
        let text = format!(
            "void main() {{ if (a) x = 1; {} }}",
            "else if (a) x = 1; ".repeat(100_000)
        );
        assert_eq!(errors(&text), ["statements nested too deeply"]);
        // 256 levels are fine
        let text = format!("float x = {}1{};", "(".repeat(200), ")".repeat(200));
        assert!(errors(&text).is_empty());
    });
}

/// Found by `cargo fuzz run compile` (a timeout): a doubling macro expanded
/// to 2^17 identifiers in a statement is a syntax error at every token, and
/// lalrpop's recovery from each cost tens of microseconds (1.4 s in release,
/// past libFuzzer's 5 s under ASan). The parser now stops after
/// `MAX_RECOVERIES` errors.
#[test]
fn an_error_at_every_token_stops_after_the_recovery_budget() {
    on_small_stack(|| {
        let mut text = String::from("#define D0 x\n");
        for i in 1..=17 {
            text += &format!("#define D{i} D{} D{}\n", i - 1, i - 1);
        }
        text += "void main() {\n  a D17\n}\nfloat never_parsed = ;\n";
        let start = std::time::Instant::now();
        let p = parse_str(&text);
        let elapsed = start.elapsed();
        let codes: Vec<_> = p.diags.iter().map(|d| d.code.0).collect();
        assert_eq!(codes, ["E0201", "E0205"], "{:#?}", p.diags);
        assert_eq!(
            p.diags[1].message,
            "too many syntax errors; parsing stopped here"
        );
        // 1000 recoveries, not 131072: well under a second even unoptimised.
        assert!(elapsed.as_secs() < 5, "took {elapsed:?}");
    });
}

/// Mutated samples (bytes deleted, duplicated, swapped; tokens inserted),
/// with a fixed seed: the front end must report, never panic or overflow.
/// `HLSLC_FUZZ_SEED` and `HLSLC_FUZZ_ROUNDS` (per sample) explore further.
#[test]
fn mutated_samples_never_crash() {
    on_small_stack(|| {
        let dir = common::root().join("samples");
        let mut texts: Vec<String> = std::fs::read_dir(&dir)
            .expect("samples/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .collect();
        texts.sort();
        let pieces = [
            "{",
            "}",
            "(",
            ")",
            "[",
            "]",
            "<",
            ">",
            ">>",
            ";",
            ",",
            "::",
            "template<",
            "struct",
            "cbuffer",
            "typedef",
            "if",
            "else",
            "for(",
            "return",
            "=",
            "?",
            ":",
            "-",
            "\"",
            "'",
            "#define X(",
            "[[vk::",
            "0x",
            "1.",
            ".xyz",
            "sample",
            "vector<",
            "operator",
        ];
        let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        let mut seed: u64 = env("HLSLC_FUZZ_SEED").unwrap_or(0x9E37_79B9_7F4A_7C15) | 1;
        let rounds = env("HLSLC_FUZZ_ROUNDS").unwrap_or(20);
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let mut cases = 0;
        for text in &texts {
            for _ in 0..rounds {
                let mut t = text.as_bytes().to_vec();
                for _ in 0..1 + next(4) {
                    let at = next(t.len());
                    let len = 1 + next(40).min(t.len() - at);
                    match next(4) {
                        0 => {
                            t.drain(at..(at + len).min(t.len()));
                        }
                        1 => {
                            let dup: Vec<u8> = t[at..(at + len).min(t.len())].to_vec();
                            t.splice(at..at, dup);
                        }
                        2 => {
                            let other = next(t.len());
                            t.swap(at, other);
                        }
                        _ => {
                            let p = pieces[next(pieces.len())].as_bytes().to_vec();
                            t.splice(at..at, p);
                        }
                    }
                }
                let t = String::from_utf8_lossy(&t).into_owned();
                let r = std::panic::catch_unwind(|| parse_str(&t));
                assert!(r.is_ok(), "the front end panicked on:\n{t}");
                cases += 1;
            }
        }
        assert!(cases > 100);
    });
}
