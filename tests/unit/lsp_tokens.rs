//! Semantic highlighting over the protocol: `semanticTokens/full` and
//! `/range` on a pixel shader with a header, decoded with the legend the
//! server advertised.

use super::{Client, pos, scratch, uri};
use serde_json::{Value, json};
use std::collections::BTreeSet;

const HEADER: &str = "\
struct Light {
    float3 direction;
};

Light makeLight(float3 dir) {
    Light l;
    l.direction = normalize(dir);
    return l;
}
";

const MAIN: &str = "\
// hlslc -T ps_6_0 -E main
#include \"light.hlsli\"
#define GAIN 2.0
static const float scale = 0.5;
static float counter;
Texture2D albedo : register(t0);
cbuffer Frame : register(b1) {
    float time;
};
float4 main(float4 p : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    Light sun = makeLight(float3(0, 1, 0));
    const float k = 2;
    float s = 0;
    [unroll] for (int i = 0; i < 4; ++i) { s += GAIN * scale * k; }
    counter = s;
    return float4(saturate(s * time), sun.direction.x, 0, 1);
}
";

/// LSP's relative encoding made absolute: `[line, start, length, type,
/// modifiers]` per token.
pub(super) fn absolute(data: &Value) -> Vec<Vec<u64>> {
    let d: Vec<u64> = data
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let (mut line, mut start) = (0, 0);
    d.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                start = 0;
            }
            line += t[0];
            start += t[1];
            vec![line, start, t[2], t[3], t[4]]
        })
        .collect()
}

/// A token as text: its word, type and modifiers.
#[derive(Debug)]
struct Named {
    line: u64,
    word: String,
    kind: String,
    modifiers: BTreeSet<String>,
}

fn named(c: &Client, text: &str, data: &Value) -> Vec<Named> {
    let lines: Vec<&str> = text.lines().collect();
    let legend = |key: &str, i: u64| c.legend[key][i as usize].as_str().unwrap().to_string();
    absolute(data)
        .into_iter()
        .map(|t| {
            let line = lines[t[0] as usize];
            Named {
                line: t[0],
                word: line[t[1] as usize..(t[1] + t[2]) as usize].to_string(),
                kind: legend("tokenTypes", t[3]),
                modifiers: (0..5)
                    .filter(|b| t[4] & (1 << b) != 0)
                    .map(|b| legend("tokenModifiers", b))
                    .collect(),
            }
        })
        .collect()
}

/// The `nth` token spelled `word`: its type and modifiers.
fn token<'a>(ts: &'a [Named], word: &str, nth: usize) -> (&'a str, Vec<&'a str>) {
    let t = ts
        .iter()
        .filter(|t| t.word == word)
        .nth(nth)
        .unwrap_or_else(|| panic!("no token #{nth} `{word}` in {ts:#?}"));
    (&t.kind, t.modifiers.iter().map(String::as_str).collect())
}

#[test]
fn names_macros_semantics_attributes_and_builtins_are_classified() {
    let tmp = scratch("tokens");
    let dir = tmp.path();
    std::fs::write(dir.join("light.hlsli"), HEADER).unwrap();
    std::fs::write(dir.join("main.hlsl"), MAIN).unwrap();
    let main = uri(&dir.join("main.hlsl"));
    let header = uri(&dir.join("light.hlsli"));
    let mut c = Client::start(json!({}));
    c.open(&main, 1, MAIN);
    assert_eq!(c.diagnostics(&main), &[], "the document compiles");
    let full = c
        .request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": main}}))
        .result
        .unwrap();
    let ts = named(&c, MAIN, &full["data"]);
    let decl = "declaration";
    assert_eq!(token(&ts, "GAIN", 0), ("macro", vec![decl]));
    assert_eq!(token(&ts, "GAIN", 1), ("macro", vec![]));
    assert_eq!(
        token(&ts, "scale", 0),
        ("variable", vec![decl, "global", "readonly", "static"])
    );
    assert_eq!(token(&ts, "scale", 1), ("variable", vec!["global", "readonly", "static"]));
    assert_eq!(token(&ts, "counter", 0), ("variable", vec![decl, "global", "static"]));
    assert_eq!(token(&ts, "counter", 1), ("variable", vec!["global", "static"]));
    assert_eq!(token(&ts, "time", 0), ("variable", vec![decl, "global", "readonly"]));
    assert_eq!(token(&ts, "Frame", 0), ("struct", vec![decl]));
    assert_eq!(token(&ts, "albedo", 0).0, "variable");
    assert_eq!(token(&ts, "main", 0), ("function", vec![decl]));
    assert_eq!(token(&ts, "p", 0), ("parameter", vec![decl]));
    assert_eq!(token(&ts, "sun", 0), ("variable", vec![decl]));
    assert_eq!(token(&ts, "sun", 1), ("variable", vec![]));
    assert_eq!(token(&ts, "i", 0), ("variable", vec![decl]));
    assert_eq!(token(&ts, "k", 0), ("variable", vec![decl, "readonly"]));
    assert_eq!(token(&ts, "k", 1), ("variable", vec!["readonly"]));
    assert_eq!(token(&ts, "s", 0), ("variable", vec![decl]));
    assert_eq!(token(&ts, "Light", 0), ("struct", vec![]));
    assert_eq!(token(&ts, "makeLight", 0), ("function", vec![]));
    assert_eq!(token(&ts, "direction", 0), ("property", vec![]));
    // A swizzle is a built-in member.
    assert_eq!(token(&ts, "x", 0), ("property", vec!["defaultLibrary"]));
    assert_eq!(token(&ts, "float4", 0), ("type", vec!["defaultLibrary"]));
    assert_eq!(token(&ts, "saturate", 0), ("function", vec!["defaultLibrary"]));
    for s in ["SV_Position", "TEXCOORD0", "SV_Target"] {
        assert_eq!(token(&ts, s, 0), ("semantic", vec![]), "{s}");
    }
    assert_eq!(token(&ts, "unroll", 0), ("decorator", vec![]));
    // Keywords, literals and the register are no tokens.
    for w in ["static", "return", "register", "t0", "for", "0"] {
        assert!(ts.iter().all(|t| t.word != w), "{w}: {ts:#?}");
    }

    // The header: its own declarations.
    c.open(&header, 1, HEADER);
    let h = c
        .request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": header}}))
        .result
        .unwrap();
    let hs = named(&c, HEADER, &h["data"]);
    assert_eq!(token(&hs, "Light", 0), ("struct", vec![decl]));
    assert_eq!(token(&hs, "direction", 0), ("property", vec![decl]));
    assert_eq!(token(&hs, "makeLight", 0), ("function", vec![decl]));
    assert_eq!(token(&hs, "dir", 0), ("parameter", vec![decl]));
    assert_eq!(token(&hs, "l", 1), ("variable", vec![]));

    // A range: the tokens of the `[unroll]` line only, the same as in the
    // whole file.
    let line = MAIN.lines().position(|l| l.contains("[unroll]")).unwrap() as u32;
    let r = c
        .request(
            "textDocument/semanticTokens/range",
            json!({"textDocument": {"uri": main},
                   "range": {"start": pos(line, 0), "end": pos(line + 1, 0)}}),
        )
        .result
        .unwrap();
    let rs = named(&c, MAIN, &r["data"]);
    assert!(!rs.is_empty() && rs.iter().all(|t| t.line == line as u64), "{rs:#?}");
    let in_full: Vec<(&str, &str)> = ts
        .iter()
        .filter(|t| t.line == line as u64)
        .map(|t| (t.word.as_str(), t.kind.as_str()))
        .collect();
    let in_range: Vec<(&str, &str)> =
        rs.iter().map(|t| (t.word.as_str(), t.kind.as_str())).collect();
    assert_eq!(in_range, in_full);
}
