//! Rename over the protocol: a struct member declared in a header and
//! used by the open document and by a workspace file that is not open, a
//! local, a macro; refusals for intrinsics, built-in types and names that
//! are no identifiers.

use super::{Client, pos, scratch, uri};
use crate::lsp::compile_document;
use crate::{Compilation, FileLoader, Options};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const HEADER: &str = "\
#define SCALE 2.0
struct Light {
    float3 direction;
};
float3 toward(Light l) { return l.direction * SCALE; }
";

const MAIN: &str = "\
// hlslc -T cs_6_0 -E main
#include \"light.hlsli\"
RWStructuredBuffer<float3> output : register(u0);
[numthreads(1, 1, 1)]
void main() {
    Light sun;
    sun.direction = float3(0, 1, 0);
    output[0] = toward(sun) + sun.direction * SCALE;
}
";

/// Not open in the editor: found in the workspace.
const OTHER: &str = "\
// hlslc -T cs_6_0 -E main
#include \"../light.hlsli\"
RWStructuredBuffer<float3> result : register(u0);
[numthreads(1, 1, 1)]
void main() {
    Light moon;
    moon.direction = float3(1, 0, 0);
    result[0] = moon.direction;
}
";

/// Where `needle` starts in `text`: (line, character).
fn at(text: &str, needle: &str) -> (u32, u32) {
    let off = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let line = text[..off].matches('\n').count() as u32;
    let col = (off - text[..off].rfind('\n').map_or(0, |i| i + 1)) as u32;
    (line, col)
}

/// The text of each file after applying a WorkspaceEdit's changes.
pub(super) fn apply(edit: &Value, uri: &str, text: &str) -> String {
    let mut edits: Vec<(usize, usize, String)> = edit["changes"][uri]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    let line_start = |l: u64| {
                        text.split_inclusive('\n').take(l as usize).map(str::len).sum::<usize>()
                    };
                    let s = &e["range"]["start"];
                    let en = &e["range"]["end"];
                    (
                        line_start(s["line"].as_u64().unwrap()) + s["character"].as_u64().unwrap() as usize,
                        line_start(en["line"].as_u64().unwrap()) + en["character"].as_u64().unwrap() as usize,
                        e["newText"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (s, e, t) in edits {
        out.replace_range(s..e, &t);
    }
    out
}

#[test]
fn rename_follows_a_name_through_headers_and_the_workspace() {
    let tmp = scratch("rename");
    let dir = tmp.path();
    std::fs::write(dir.join("light.hlsli"), HEADER).unwrap();
    std::fs::write(dir.join("main.hlsl"), MAIN).unwrap();
    std::fs::create_dir_all(dir.join("more")).unwrap();
    std::fs::write(dir.join("more/other.hlsl"), OTHER).unwrap();
    let dir = std::fs::canonicalize(dir).unwrap();
    let (main, header) = (uri(&dir.join("main.hlsl")), uri(&dir.join("light.hlsli")));
    let other = uri(&dir.join("more/other.hlsl"));
    let mut c = Client::start_in(&uri(&dir));
    c.open(&main, 1, MAIN);
    assert_eq!(c.diagnostics(&main), &[], "the document compiles");
    let doc = |line: u32, ch: u32| json!({"textDocument": {"uri": main}, "position": pos(line, ch)});

    // prepareRename: the name's range and text.
    let (l, ch) = at(MAIN, "direction");
    let p = c.request("textDocument/prepareRename", doc(l, ch + 2)).result.unwrap();
    assert_eq!(p["placeholder"], "direction", "{p}");
    assert_eq!(p["range"]["start"], json!(pos(l, ch)), "{p}");

    // The member: the header, this document and the closed one.
    let mut params = doc(l, ch + 2);
    params["newName"] = json!("towardSun");
    let edit = c.request("textDocument/rename", params).result.unwrap();
    let renamed = |u: &str, t: &str| apply(&edit, u, t);
    assert_eq!(renamed(&header, HEADER), HEADER.replace("direction", "towardSun"), "{edit}");
    assert_eq!(renamed(&main, MAIN), MAIN.replace("direction", "towardSun"), "{edit}");
    assert_eq!(renamed(&other, OTHER), OTHER.replace("direction", "towardSun"), "{edit}");

    // A local: this document only.
    let (l, ch) = at(MAIN, "sun;");
    let mut params = doc(l, ch);
    params["newName"] = json!("star");
    let edit = c.request("textDocument/rename", params).result.unwrap();
    assert_eq!(
        apply(&edit, &main, MAIN),
        MAIN.replace("sun;", "star;").replace("sun.", "star.").replace("(sun)", "(star)")
    );
    assert_eq!(edit["changes"].as_object().unwrap().len(), 1, "{edit}");

    // A macro, from its use: its definition and every use.
    let (l, ch) = at(MAIN, "SCALE");
    let mut params = doc(l, ch + 1);
    params["newName"] = json!("GAIN");
    let edit = c.request("textDocument/rename", params).result.unwrap();
    assert_eq!(apply(&edit, &header, HEADER), HEADER.replace("SCALE", "GAIN"), "{edit}");
    assert_eq!(apply(&edit, &main, MAIN), MAIN.replace("SCALE", "GAIN"), "{edit}");

    // Refused: a new name that the function already uses for something
    // else, or one declared beside the old name.
    let (l, ch) = at(MAIN, "sun;");
    let mut params = doc(l, ch);
    params["newName"] = json!("output");
    let r = c.request("textDocument/rename", params);
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.contains("`output` already names"), "{message}");
    let (l, ch) = at(HEADER, "toward(");
    let mut params = json!({"textDocument": {"uri": header}, "position": pos(l, ch)});
    params["newName"] = json!("Light");
    let r = c.request("textDocument/rename", params);
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.contains("already declared here"), "{message}");

    // Refused: an intrinsic-free line has a built-in type; a bad new name.
    let (l, ch) = at(MAIN, "float3(0");
    let r = c.request("textDocument/prepareRename", doc(l, ch + 1));
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.contains("`float3` is a built-in type"), "{message}");
    let (l, ch) = at(HEADER, "toward(");
    let mut params = json!({"textDocument": {"uri": header}, "position": pos(l, ch)});
    params["newName"] = json!("2bad");
    let r = c.request("textDocument/rename", params);
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.contains("not an identifier"), "{message}");
}

/// What the server of `only_what_can_see_the_declaration_is_compiled`
/// compiled.
static COMPILED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn counted_compile(path: &Path, loader: &dyn FileLoader, o: &Options) -> Compilation {
    if let Ok(mut c) = COMPILED.lock() {
        c.push(path.to_path_buf());
    }
    compile_document(path, loader, o)
}

/// The workspace scan compiles only the files that mention the name and
/// include its declaration's file (here through another header), and none
/// for a local.
#[test]
fn only_what_can_see_the_declaration_is_compiled() {
    let tmp = scratch("rename-scan");
    let dir = tmp.path();
    std::fs::write(dir.join("light.hlsli"), HEADER).unwrap();
    std::fs::write(dir.join("lights.hlsli"), "#include \"light.hlsli\"\n").unwrap();
    std::fs::write(dir.join("main.hlsl"), MAIN).unwrap();
    std::fs::create_dir_all(dir.join("more")).unwrap();
    std::fs::write(dir.join("more/other.hlsl"), OTHER.replace("../light.hlsli", "../lights.hlsli")).unwrap();
    // Mentions the name, but its `direction` is its own.
    let unrelated = "// hlslc -T cs_6_0 -E main\nstruct Ray { float3 direction; };\n[numthreads(1, 1, 1)]\nvoid main() { Ray r; r.direction = 0; }\n";
    std::fs::write(dir.join("more/unrelated.hlsl"), unrelated).unwrap();
    let dir = std::fs::canonicalize(dir).unwrap();
    let main = uri(&dir.join("main.hlsl"));
    let mut c = Client::start_full(json!({}), counted_compile, json!(uri(&dir)));
    c.open(&main, 1, MAIN);
    assert_eq!(c.diagnostics(&main), &[], "the document compiles");
    let compiled = || -> Vec<PathBuf> { std::mem::take(&mut *COMPILED.lock().unwrap()) };
    compiled();

    let (l, ch) = at(MAIN, "direction");
    let mut params = json!({"textDocument": {"uri": main}, "position": pos(l, ch), "newName": "towardSun"});
    let edit = c.request("textDocument/rename", params.clone()).result.unwrap();
    let other = uri(&dir.join("more/other.hlsl"));
    assert!(edit["changes"].get(&other).is_some(), "{edit}");
    assert!(edit["changes"].get(uri(&dir.join("more/unrelated.hlsl"))).is_none(), "{edit}");
    let files = compiled();
    assert!(files.contains(&dir.join("more/other.hlsl")), "{files:?}");
    assert!(!files.contains(&dir.join("more/unrelated.hlsl")), "{files:?}");

    let (l, ch) = at(MAIN, "sun;");
    params["position"] = json!(pos(l, ch));
    params["newName"] = json!("star");
    let edit = c.request("textDocument/rename", params).result.unwrap();
    assert_eq!(edit["changes"].as_object().unwrap().len(), 1, "{edit}");
    let files = compiled();
    assert!(files.iter().all(|f| f.extension().is_none_or(|e| e != "hlsl") || f == &dir.join("main.hlsl")), "{files:?}");
}

#[test]
fn intrinsics_cannot_be_renamed() {
    let tmp = scratch("rename-intrinsic");
    let dir = tmp.path();
    let text = "\
// hlslc -T cs_6_0 -E main
RWStructuredBuffer<float> output : register(u0);
[numthreads(1, 1, 1)]
void main() { output[0] = saturate(output[1]); }
";
    std::fs::write(dir.join("main.hlsl"), text).unwrap();
    let main = uri(&dir.join("main.hlsl"));
    let mut c = Client::start(json!({}));
    c.open(&main, 1, text);
    let (l, ch) = at(text, "saturate");
    let r = c.request(
        "textDocument/prepareRename",
        json!({"textDocument": {"uri": main}, "position": pos(l, ch + 3)}),
    );
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.contains("`saturate` is an HLSL intrinsic"), "{message}");
}
