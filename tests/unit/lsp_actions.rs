//! Quick fixes over the protocol: each diagnostic with a suggestion gets a
//! code action whose edit, applied, makes the document compile.

use super::rename::apply;
use super::{Client, scratch, uri};
use serde_json::{Value, json};

/// Opens `text` as `name` in `dir` (a client on that workspace), asks for
/// the code actions of its diagnostics, and returns the client, the URI,
/// the diagnostics' codes and the actions.
fn actions_for(c: &mut Client, dir: &std::path::Path, name: &str, text: &str) -> (String, Vec<Value>) {
    std::fs::write(dir.join(name), text).unwrap();
    let u = uri(&dir.join(name));
    c.open(&u, 1, text);
    let diagnostics = serde_json::to_value(c.diagnostics(&u)).unwrap();
    assert!(!diagnostics.as_array().unwrap().is_empty(), "{name} has a problem");
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": u},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
               "context": {"diagnostics": diagnostics}}),
    );
    (u, r.result.unwrap().as_array().cloned().unwrap_or_default())
}

/// The action titled `title`, applied to `text`; the result compiles
/// (the document, changed to it, has no diagnostics).
fn fix(c: &mut Client, u: &str, text: &str, actions: &[Value], title: &str) -> String {
    let a = actions
        .iter()
        .find(|a| a["title"] == title)
        .unwrap_or_else(|| panic!("no action `{title}` in {actions:#?}"));
    assert_eq!(a["kind"], "quickfix");
    let fixed = apply(&a["edit"], u, text);
    c.step(
        "textDocument/didChange",
        json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(c.diagnostics(u), &[], "after `{title}`:\n{fixed}");
    fixed
}

#[test]
fn quick_fixes_make_the_document_compile() {
    let tmp = scratch("actions");
    let dir = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::create_dir_all(dir.join("include")).unwrap();
    std::fs::write(
        dir.join("include/tint.hlsli"),
        "float3 Tint(float3 c) { return c * float3(1, 0.9, 0.8); }\n",
    )
    .unwrap();
    let mut c = Client::start_in(&uri(&dir));

    // "Did you mean".
    let text = "\
// hlslc -T cs_6_0 -E main
RWStructuredBuffer<float> output : register(u0);
[numthreads(1, 1, 1)]
void main() {
    float amount = 2;
    output[0] = amonut;
}
";
    let (u, actions) = actions_for(&mut c, &dir, "typo.hlsl", text);
    let fixed = fix(&mut c, &u, text, &actions, "Replace with `amount`");
    assert!(fixed.contains("output[0] = amount;"), "{fixed}");

    // A missing `[numthreads]`.
    let text = "\
// hlslc -T cs_6_0 -E main
RWStructuredBuffer<float> output : register(u0);
void main() {
    output[0] = 1;
}
";
    let (u, actions) = actions_for(&mut c, &dir, "threads.hlsl", text);
    let fixed = fix(&mut c, &u, text, &actions, "Add `[numthreads(1, 1, 1)]`");
    assert!(fixed.contains("[numthreads(1, 1, 1)]\nvoid main()"), "{fixed}");

    // A parameter and an output without semantics (two fixes, applied one
    // after the other).
    let text = "\
// hlslc -T ps_6_0 -E main
float4 main(float2 uv) {
    return float4(uv, 0, 1);
}
";
    let (u, actions) = actions_for(&mut c, &dir, "semantic.hlsl", text);
    let titles: Vec<&str> = actions.iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(titles.contains(&"Add the semantic `TEXCOORD0`"), "{titles:?}");
    let output = actions
        .iter()
        .find(|a| a["title"] == "Add the semantic `SV_Target`")
        .unwrap_or_else(|| panic!("{titles:?}"));
    let half = apply(&output["edit"], &u, text);
    assert!(half.contains("float4 main(float2 uv) : SV_Target {"), "{half}");
    let input = actions.iter().find(|a| a["title"] == "Add the semantic `TEXCOORD0`").unwrap();
    let both = apply(&input["edit"], &u, &half);
    c.step(
        "textDocument/didChange",
        json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": both}]}),
    );
    assert_eq!(c.diagnostics(&u), &[], "{both}");

    // A name a workspace header declares: its `#include`.
    let text = "\
// hlslc -T cs_6_0 -E main
RWStructuredBuffer<float3> output : register(u0);
[numthreads(1, 1, 1)]
void main() {
    output[0] = Tint(output[1]);
}
";
    let (u, actions) = actions_for(&mut c, &dir, "include.hlsl", text);
    let fixed = fix(&mut c, &u, text, &actions, "Add `#include \"include/tint.hlsli\"`");
    assert!(fixed.starts_with("// hlslc -T cs_6_0 -E main\n#include \"include/tint.hlsli\"\n"), "{fixed}");
}

/// `formatting` replaces the document with its formatted text (with the
/// editor's indentation when there is no `.clang-format`);
/// `rangeFormatting` edits only the lines of the range.
#[test]
fn formatting_and_range_formatting() {
    let tmp = scratch("formatting");
    let dir = std::fs::canonicalize(tmp.path()).unwrap();
    let text = "\
// hlslc -T cs_6_0 -E main
RWStructuredBuffer<float> output:register(u0);
[numthreads(1,1,1)]
void main(){
output[0]=1;
output[1]=2;
}
";
    std::fs::write(dir.join("f.hlsl"), text).unwrap();
    let u = uri(&dir.join("f.hlsl"));
    let mut c = Client::start_in(&uri(&dir));
    c.open(&u, 1, text);
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": u}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = r.result.unwrap();
    assert_eq!(edits.as_array().unwrap().len(), 1, "{edits}");
    assert_eq!(
        edits[0]["newText"],
        "// hlslc -T cs_6_0 -E main\nRWStructuredBuffer<float> output : register(u0);\n[numthreads(1, 1, 1)]\nvoid main() {\n  output[0] = 1;\n  output[1] = 2;\n}\n"
    );
    // Line 5 only (`output[1]=2;`).
    let r = c.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": u},
               "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 12}},
               "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let edits = r.result.unwrap();
    assert_eq!(
        edits,
        json!([{"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 12}},
                "newText": "    output[1] = 2;"}])
    );
}
