//! Code intelligence over the protocol: hover, definition, references,
//! symbols, completion, signature help, folding, links and inactive
//! groups, on a pixel shader that includes a header from the disk.

use super::{Client, pos, scratch, uri};
use lsp_types::Position;
use serde_json::{Value, json};

const HEADER: &str = "\
#ifndef LIGHTING_HLSLI
#define LIGHTING_HLSLI

struct Light {
    float3 direction;
    float3 color;
};

// Makes a white light shining along `dir`.
Light makeLight(float3 dir) {
    Light l;
    l.direction = normalize(dir);
    l.color = float3(1, 1, 1);
    return l;
}

/* Lambert shading of normal `n` by light `l`. */
float3 shade(Light l, float3 n) {
    return l.color * saturate(dot(n, -l.direction));
}

#endif
";

const MAIN: &str = "\
// hlslc -T ps_6_0 -E main
#include \"lighting.hlsli\"

#define EXPOSURE 1.5

Texture2D albedo : register(t0);
SamplerState linearSampler : register(s1);

cbuffer Frame : register(b2) {
    float3 cameraPos;
    float time;
};

struct PSInput {
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

/// Tone maps a colour.
float3 tonemap(float3 c) {
    return c / (c + 1.0);
}

float4 main(PSInput input) : SV_Target {
    Light sun = makeLight(float3(0, 1, 0));
    float3 base = albedo.Sample(linearSampler, input.uv).rgb;
    float3 lit = shade(sun, input.normal) * base * EXPOSURE;
    float fade = saturate(time);
#if defined(DEBUG_VIEW)
    lit = input.normal;
#endif
    return float4(tonemap(lit) * fade, 1.0);
}
";

/// The position of the `nth` (0-based) occurrence of `needle` in `text`,
/// `shift` characters into it.
fn find(text: &str, needle: &str, nth: usize, shift: u32) -> Position {
    let off = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} not in the text"))
        .0;
    let line = text[..off].matches('\n').count() as u32;
    let col = (off - text[..off].rfind('\n').map_or(0, |i| i + 1)) as u32;
    pos(line, col + shift)
}

struct Fixture {
    client: Client,
    main: String,
    header: String,
    _dir: tempfile::TempDir,
}

fn fixture(name: &str) -> Fixture {
    fixture_of(name, MAIN)
}

/// A fixture whose document (`main.hlsl`, beside the header) is `text`.
fn fixture_of(name: &str, text: &str) -> Fixture {
    let tmp = scratch(name);
    let dir = tmp.path();
    std::fs::write(dir.join("lighting.hlsli"), HEADER).unwrap();
    std::fs::write(dir.join("main.hlsl"), text).unwrap();
    let main = uri(&dir.join("main.hlsl"));
    let header = uri(&dir.join("lighting.hlsli"));
    let mut client = Client::start(json!({}));
    client.open(&main, 1, text);
    assert_eq!(client.diagnostics(&main), &[], "the fixture compiles");
    Fixture {
        client,
        main,
        header,
        _dir: tmp,
    }
}

impl Fixture {
    fn ask(&mut self, method: &str, uri: &str, at: Position) -> Value {
        let r = self.client.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": at,
                   "context": {"includeDeclaration": true, "triggerKind": 1}}),
        );
        assert!(r.error.is_none(), "{method} at {at:?}: {r:?}");
        r.result.unwrap_or(Value::Null)
    }

    fn hover(&mut self, at: Position) -> String {
        let uri = self.main.clone();
        let h = self.ask("textDocument/hover", &uri, at);
        h["contents"]["value"].as_str().unwrap_or("").to_string()
    }

    /// Where a definition request at `at` leads: (uri, line, character).
    fn definition(&mut self, method: &str, at: Position) -> (String, u64, u64) {
        let uri = self.main.clone();
        let d = self.ask(method, &uri, at);
        (
            d["uri"].as_str().unwrap_or("").to_string(),
            d["range"]["start"]["line"].as_u64().unwrap_or(999),
            d["range"]["start"]["character"].as_u64().unwrap_or(999),
        )
    }

    fn labels(&mut self, at: Position) -> Vec<String> {
        let uri = self.main.clone();
        let c = self.ask("textDocument/completion", &uri, at);
        c.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|i| i["label"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[test]
fn capabilities_name_the_requests_answered() {
    let (server_end, client_end) = lsp_server::Connection::memory();
    let server =
        std::thread::spawn(move || crate::lsp::serve(server_end, crate::lsp::compile_document));
    let id = lsp_server::RequestId::from(1);
    let init = lsp_server::Request::new(id, "initialize".into(), json!({"capabilities": {}}));
    client_end.sender.send(init.into()).unwrap();
    let caps = match client_end.receiver.recv_timeout(super::TIMEOUT).unwrap() {
        lsp_server::Message::Response(r) => r.result.unwrap()["capabilities"].clone(),
        m => panic!("unexpected {m:?}"),
    };
    for key in [
        "hoverProvider",
        "definitionProvider",
        "declarationProvider",
        "referencesProvider",
        "documentSymbolProvider",
        "workspaceSymbolProvider",
        "completionProvider",
        "signatureHelpProvider",
        "foldingRangeProvider",
        "inlayHintProvider",
        "documentLinkProvider",
        "semanticTokensProvider",
    ] {
        assert!(!caps[key].is_null(), "{key} advertised: {caps}");
    }
    let legend = &caps["semanticTokensProvider"]["legend"];
    assert_eq!(legend["tokenTypes"][0], "comment", "{legend}");
    for t in ["type", "struct", "function", "method", "parameter", "variable", "property"] {
        assert!(legend["tokenTypes"].as_array().unwrap().contains(&json!(t)), "{t}");
    }
    for t in ["macro", "semantic", "decorator"] {
        assert!(legend["tokenTypes"].as_array().unwrap().contains(&json!(t)), "{t}");
    }
    assert_eq!(
        legend["tokenModifiers"],
        json!(["declaration", "readonly", "static", "defaultLibrary", "global"])
    );
    assert_eq!(caps["semanticTokensProvider"]["range"], true);
    assert_eq!(caps["renameProvider"]["prepareProvider"], true);
    assert_eq!(caps["codeActionProvider"]["codeActionKinds"], json!(["quickfix"]));
    drop(client_end);
    let _ = server.join();
}

#[test]
fn hover_shows_types_signatures_docs_macros_and_intrinsics() {
    let mut f = fixture("hover");
    // A local of a struct type from the header.
    let h = f.hover(find(MAIN, "shade(sun", 0, 7));
    assert!(h.contains("Light sun"), "{h}");
    // A function from the header with its block comment.
    let h = f.hover(find(MAIN, "shade(sun", 0, 2));
    assert!(h.contains("float3 shade(Light l, float3 n)"), "{h}");
    assert!(
        h.contains("Lambert shading of normal `n` by light `l`."),
        "{h}"
    );
    // A `///` comment above a function of the document.
    let h = f.hover(find(MAIN, "tonemap(lit", 0, 1));
    assert!(h.contains("float3 tonemap(float3 c)"), "{h}");
    assert!(h.contains("Tone maps a colour."), "{h}");
    assert!(
        !h.contains("hlslc:"),
        "the command line is no doc comment: {h}"
    );
    // A struct member, with its semantic and struct.
    let h = f.hover(find(MAIN, "input.uv", 0, 6));
    assert!(h.contains("float2 uv : TEXCOORD0"), "{h}");
    assert!(h.contains("struct PSInput"), "{h}");
    // A cbuffer member.
    let h = f.hover(find(MAIN, "saturate(time)", 0, 10));
    assert!(h.contains("float time"), "{h}");
    assert!(h.contains("cbuffer Frame"), "{h}");
    // The entry point with its stage.
    let h = f.hover(find(MAIN, "main(PSInput", 0, 1));
    assert!(h.contains("pixel entry point"), "{h}");
    // A macro's expansion.
    let h = f.hover(find(MAIN, "* EXPOSURE", 0, 4));
    assert!(h.contains("#define EXPOSURE 1.5"), "{h}");
    // An intrinsic's overloads.
    let h = f.hover(find(MAIN, "saturate(time)", 0, 3));
    assert!(h.contains("T0 saturate(T0)"), "{h}");
    assert!(h.contains("intrinsic"), "{h}");
    // An expression's type: the swizzle `.rgb`.
    let h = f.hover(find(MAIN, ".rgb", 0, 2));
    assert!(h.contains("float3"), "{h}");
    // Hover on nothing: no answer, no error.
    let uri = f.main.clone();
    assert_eq!(f.ask("textDocument/hover", &uri, pos(3, 0)), Value::Null);
}

#[test]
fn definition_and_declaration_lead_into_the_header() {
    let mut f = fixture("definition");
    let (main, header) = (f.main.clone(), f.header.clone());
    let def = "textDocument/definition";
    // A function of the header, and a type of the header.
    let at = find(HEADER, "shade(Light", 0, 0);
    assert_eq!(
        f.definition(def, find(MAIN, "shade(sun", 0, 1)),
        (header.clone(), at.line as u64, at.character as u64)
    );
    let at = find(HEADER, "Light {", 0, 0);
    assert_eq!(
        f.definition(def, find(MAIN, "Light sun", 0, 2)),
        (header.clone(), at.line as u64, at.character as u64)
    );
    // A parameter, a global resource, a field, a macro.
    let at = find(MAIN, "input)", 0, 0);
    assert_eq!(
        f.definition(def, find(MAIN, "input.uv", 0, 1)),
        (main.clone(), at.line as u64, at.character as u64)
    );
    let at = find(MAIN, "albedo :", 0, 0);
    assert_eq!(
        f.definition("textDocument/declaration", find(MAIN, "albedo.", 0, 3)),
        (main.clone(), at.line as u64, at.character as u64)
    );
    let at = find(MAIN, "normal : NORMAL", 0, 0);
    assert_eq!(
        f.definition(def, find(MAIN, "input.normal)", 0, 7)),
        (main.clone(), at.line as u64, at.character as u64)
    );
    let at = find(MAIN, "EXPOSURE 1.5", 0, 0);
    assert_eq!(
        f.definition(def, find(MAIN, "* EXPOSURE", 0, 3)),
        (main.clone(), at.line as u64, at.character as u64)
    );
    // The `#include` line opens the header.
    assert_eq!(
        f.definition(def, find(MAIN, "lighting.hlsli", 0, 3)),
        (header.clone(), 0, 0)
    );
}

#[test]
fn references_cover_the_document_and_its_header() {
    let mut f = fixture("references");
    let main = f.main.clone();
    let refs = f.ask(
        "textDocument/references",
        &main,
        find(MAIN, "Light sun", 0, 1),
    );
    let list = refs.as_array().unwrap();
    let in_header = list
        .iter()
        .filter(|l| l["uri"] == f.header.as_str())
        .count();
    let in_main = list.iter().filter(|l| l["uri"] == main.as_str()).count();
    // The declaration, `Light makeLight`, `Light l;`, `shade(Light l…)`;
    // `Light sun` in the document.
    assert_eq!((in_header, in_main), (4, 1), "{refs}");
    // A local: its declaration and its one use.
    let refs = f.ask("textDocument/references", &main, find(MAIN, "sun =", 0, 0));
    let lines: Vec<u64> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    let decl = find(MAIN, "sun =", 0, 0).line as u64;
    let used = find(MAIN, "shade(sun", 0, 0).line as u64;
    assert_eq!(lines, vec![decl, used]);
}

#[test]
fn document_and_workspace_symbols() {
    let mut f = fixture("symbols");
    let main = f.main.clone();
    let r = f.client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": main}}),
    );
    let syms = r.result.unwrap();
    let names: Vec<&str> = syms
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "albedo",
            "linearSampler",
            "Frame",
            "PSInput",
            "tonemap",
            "main"
        ],
        "{syms}"
    );
    let get = |n: &str| {
        syms.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap()
            .clone()
    };
    let children = |s: &Value| -> Vec<String> {
        s["children"]
            .as_array()
            .map(|c| {
                c.iter()
                    .map(|x| x["name"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(children(&get("PSInput")), ["position", "normal", "uv"]);
    assert_eq!(children(&get("Frame")), ["cameraPos", "time"]);
    assert!(
        get("main")["detail"]
            .as_str()
            .unwrap()
            .contains("pixel entry point")
    );
    assert_eq!(get("main")["kind"], 12, "a function");
    assert_eq!(get("PSInput")["kind"], 23, "a struct");
    // The main function's range spans its body.
    let body = &get("main")["range"];
    assert_eq!(body["start"]["line"], find(MAIN, "float4 main", 0, 0).line);
    assert_eq!(
        body["end"]["line"],
        find(MAIN, "fade, 1.0);\n}", 0, 0).line + 1
    );
    // Workspace symbols reach the header through the open document.
    let r = f
        .client
        .request("workspace/symbol", json!({"query": "shad"}));
    let ws = r.result.unwrap();
    let hits: Vec<(&str, &str)> = ws
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["location"]["uri"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(hits, [("shade", f.header.as_str())]);
}

#[test]
fn completion_in_scope_members_semantics_attributes_and_includes() {
    let mut f = fixture("completion");
    let main = f.main.clone();
    // Names in scope inside `main`: its locals so far, its parameter,
    // globals, functions of both files, intrinsics, types, macros.
    let inside = find(MAIN, "    float fade", 0, 4);
    let l = f.labels(inside);
    for want in [
        "sun",
        "base",
        "lit",
        "input",
        "albedo",
        "time",
        "tonemap",
        "shade",
        "makeLight",
        "Light",
        "PSInput",
        "lerp",
        "float4",
        "EXPOSURE",
    ] {
        assert!(l.iter().any(|x| x == want), "{want} offered: {l:?}");
    }
    assert!(!l.iter().any(|x| x == "fade"), "declared after the cursor");
    assert!(
        !l.iter().any(|x| x == "c"),
        "a parameter of another function"
    );
    // Members after `.`, typed into the document (half-written code).
    let at = find(MAIN, "    float fade", 0, 0);
    f.client.edit(
        &main,
        2,
        lsp_types::Range { start: at, end: at },
        "    sun.\n",
    );
    let l = f.labels(pos(at.line, 8));
    assert_eq!(l, ["direction", "color"]);
    // A resource's methods.
    f.client.edit(
        &main,
        3,
        lsp_types::Range {
            start: pos(at.line, 4),
            end: pos(at.line, 8),
        },
        "albedo.",
    );
    let l = f.labels(pos(at.line, 11));
    assert!(l.iter().any(|x| x == "SampleLevel"), "{l:?}");
    // Semantics after `:` in a declaration, attributes after `[`.
    f.client.edit(
        &main,
        4,
        lsp_types::Range {
            start: pos(at.line, 0),
            end: pos(at.line, 11),
        },
        "",
    );
    let fixed = MAIN.replace("float2 uv : TEXCOORD0;", "float2 uv : ;");
    let uv = find(&fixed, "uv : ;", 0, 5);
    f.client.edit(
        &main,
        5,
        lsp_types::Range {
            start: pos(uv.line, 0),
            end: pos(uv.line + 1, 0),
        },
        "    float2 uv : \n",
    );
    let l = f.labels(pos(uv.line, 16));
    assert!(
        l.iter().any(|x| x == "SV_Position") && l.iter().any(|x| x == "TEXCOORD"),
        "{l:?}"
    );
    f.client.edit(
        &main,
        6,
        lsp_types::Range {
            start: pos(0, 0),
            end: pos(0, 0),
        },
        "[\n",
    );
    let l = f.labels(pos(0, 1));
    assert!(l.iter().any(|x| x == "numthreads"), "{l:?}");
    // Files after `#include "`.
    f.client.edit(
        &main,
        7,
        lsp_types::Range {
            start: pos(0, 0),
            end: pos(1, 0),
        },
        "#include \"\n",
    );
    let l = f.labels(pos(0, 10));
    assert!(l.iter().any(|x| x == "lighting.hlsli"), "{l:?}");
}

#[test]
fn signature_help_names_the_active_parameter() {
    let mut f = fixture("signature");
    let main = f.main.clone();
    let at = find(MAIN, "shade(sun, ", 0, 11);
    let s = f.ask("textDocument/signatureHelp", &main, at);
    assert_eq!(
        s["signatures"][0]["label"],
        "float3 shade(Light l, float3 n)"
    );
    assert_eq!(s["activeParameter"], 1);
    // The parameter's place in the label.
    assert_eq!(
        s["signatures"][0]["parameters"][1]["label"],
        json!([22, 30])
    );
    // An intrinsic, typed into the document.
    let line = find(MAIN, "    float fade", 0, 0).line;
    f.client.edit(
        &main,
        2,
        lsp_types::Range {
            start: pos(line, 0),
            end: pos(line, 0),
        },
        "    float k = lerp(0.0, \n",
    );
    let s = f.ask("textDocument/signatureHelp", &main, pos(line, 24));
    assert_eq!(s["signatures"][0]["label"], "T0 lerp(T0, T0, T0)");
    assert_eq!(s["activeParameter"], 1);
    // Outside any call: nothing.
    assert_eq!(
        f.ask("textDocument/signatureHelp", &main, pos(3, 3)),
        Value::Null
    );
}

#[test]
fn inactive_groups_folding_and_links() {
    let mut f = fixture("regions");
    let main = f.main.clone();
    let doc = json!({"textDocument": {"uri": main}});
    let t = f
        .client
        .request("textDocument/semanticTokens/full", doc.clone())
        .result
        .unwrap();
    // One `comment` token over the line `#if` skipped, and nothing else
    // on it.
    let skipped = find(MAIN, "    lit = input.normal;", 0, 0).line;
    let on_line: Vec<Vec<u64>> = super::tokens::absolute(&t["data"])
        .into_iter()
        .filter(|t| t[0] == skipped as u64)
        .collect();
    assert_eq!(on_line, vec![vec![skipped as u64, 0, 23, 0, 0]], "{t}");
    let folds = f
        .client
        .request("textDocument/foldingRange", doc.clone())
        .result
        .unwrap();
    let spans: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["startLine"].as_u64().unwrap(),
                r["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    let main_fn = find(MAIN, "float4 main", 0, 0).line as u64;
    assert!(spans.contains(&(main_fn, main_fn + 9)), "{spans:?}");
    assert!(
        spans.contains(&(skipped as u64, skipped as u64))
            || spans.contains(&(skipped as u64, skipped as u64 + 1)),
        "{spans:?}"
    );
    let links = f
        .client
        .request("textDocument/documentLink", doc)
        .result
        .unwrap();
    assert_eq!(links[0]["target"], f.header.as_str());
    assert_eq!(
        links[0]["range"]["start"],
        json!({"line": 1, "character": 10})
    );
    assert_eq!(
        links[0]["range"]["end"],
        json!({"line": 1, "character": 24})
    );
}

#[test]
fn any_position_gets_an_answer() {
    let mut f = fixture("fuzz");
    let main = f.main.clone();
    // Every few characters of every line, one past each line's end, and
    // lines past the end of the file.
    let lines: Vec<&str> = MAIN.lines().collect();
    for (ln, text) in lines.iter().enumerate() {
        for col in (0..=text.len() as u32 + 1).step_by(3) {
            for m in [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/completion",
                "textDocument/signatureHelp",
                "textDocument/references",
            ] {
                f.ask(m, &main, pos(ln as u32, col));
            }
        }
    }
    for m in ["textDocument/hover", "textDocument/completion"] {
        f.ask(m, &main, pos(10_000, 5));
        f.ask(m, &main, pos(0, 10_000));
    }
    // A document without analysis (not open): empty answers.
    let r = f.client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.hlsl"}, "position": pos(0, 0)}),
    );
    assert_eq!(r.result, Some(Value::Null));
}

const ENUMS: &str = "\
#include \"lighting.hlsli\"

enum Mode { Plain, Shaded = 4, Toned };
enum class Tone { Linear, Filmic };

cbuffer Params : register(b0) {
    uint mode;
};

float3 finish(float3 c, Tone tone) {
    return tone == Tone::Filmic ? c / (c + 1.0) : c;
}

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Light sun = makeLight(float3(0, 1, 0));
    float3 n = float3(0, 0, 1);
    float3 c = mode == Shaded ? shade(sun, n) : float3(1, 1, 1);
    c = finish(c, Tone::Linear);
}
";

#[test]
fn enum_values_hover_definition_references_completion() {
    let mut f = fixture_of("enums", ENUMS);
    // Hover on a use: the value, its number and its enum.
    let h = f.hover(find(ENUMS, "== Shaded", 0, 4));
    assert!(h.contains("Mode Shaded = 4"), "{h}");
    assert!(h.contains("enum Mode"), "{h}");
    let h = f.hover(find(ENUMS, "Tone::Filmic ?", 0, 7));
    assert!(h.contains("Tone::Filmic = 1"), "{h}");
    // Definition: the value's name in its enum.
    let decl = find(ENUMS, "Shaded = 4", 0, 0);
    assert_eq!(
        f.definition("textDocument/definition", find(ENUMS, "== Shaded", 0, 4)),
        (f.main.clone(), decl.line as u64, decl.character as u64)
    );
    // References: the declaration and the use.
    let uri = f.main.clone();
    let refs = f.ask("textDocument/references", &uri, decl);
    let lines: Vec<u64> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    let use_line = find(ENUMS, "== Shaded", 0, 0).line as u64;
    assert_eq!(lines, [decl.line as u64, use_line], "{refs}");
    // Completion: the plain enum's values by name; the scoped enum's
    // only through `Tone::`.
    let labels = f.labels(find(ENUMS, "    c = finish", 0, 4));
    for v in ["Plain", "Shaded", "Toned"] {
        assert!(labels.iter().any(|l| l == v), "{v} in {labels:?}");
    }
    assert!(!labels.iter().any(|l| l == "Filmic"), "{labels:?}");
    // The outline lists the values under their enum.
    let syms = f.client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let list = syms.result.unwrap();
    let mode = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Mode")
        .expect("Mode in the outline");
    let children: Vec<&str> = mode["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(children, ["Plain", "Shaded", "Toned"]);
    assert!(
        !list
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "Plain")
    );
}

#[test]
fn inlay_hints_name_the_parameters_of_user_functions() {
    let mut f = fixture_of("inlay", ENUMS);
    let uri = f.main.clone();
    let r = f.client.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}}}),
    );
    assert!(r.error.is_none(), "{r:?}");
    let hints: Vec<(u64, u64, String)> = r
        .result
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            assert_eq!(h["kind"], 2, "a parameter hint: {h}");
            (
                h["position"]["line"].as_u64().unwrap(),
                h["position"]["character"].as_u64().unwrap(),
                h["label"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let at = |needle: &str, label: &str| {
        let p = find(ENUMS, needle, 0, 0);
        (p.line as u64, p.character as u64, label.to_string())
    };
    // Into the header (`makeLight(float3 dir)`, `shade(Light l, float3
    // n)`) and the document's own function; arguments that name
    // themselves (`n`, `c`) and intrinsics (`float3(...)`) get none.
    assert_eq!(
        hints,
        [
            at("float3(0, 1, 0))", "dir:"),
            at("sun, n)", "l:"),
            at("Tone::Linear)", "tone:"),
        ]
    );
    // Only the requested range.
    let line = find(ENUMS, "c = finish", 0, 0).line;
    let r = f.client.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}}}),
    );
    assert_eq!(r.result.unwrap().as_array().unwrap().len(), 1);
}

/// Latency of hover, definition and completion on a 1,500-line shader,
/// printed (`--nocapture`), not asserted.
#[test]
fn latency_on_a_long_shader() {
    let mut text = String::from(MAIN);
    let mut i = 0;
    while text.lines().count() < 1500 {
        text.push_str(&format!(
            "\n// Helper {i}.\nfloat3 helper{i}(Light l, float3 n) {{\n    float3 c = shade(l, n);\n    c = tonemap(c) * {i}.0;\n    return c + cameraPos;\n}}\n"
        ));
        i += 1;
    }
    let tmp = scratch("latency");
    let dir = tmp.path();
    std::fs::write(dir.join("lighting.hlsli"), HEADER).unwrap();
    let main = uri(&dir.join("long.hlsl"));
    let mut c = Client::start(json!({}));
    c.open(&main, 1, &text);
    assert_eq!(c.diagnostics(&main), &[]);
    let at = find(&text, "shade(l, n)", i / 2, 1);
    let inside = find(&text, "    c = tonemap", i / 2, 4);
    let mut report = Vec::new();
    for (m, p) in [
        ("textDocument/hover", at),
        ("textDocument/definition", at),
        ("textDocument/completion", inside),
    ] {
        let mut ms: Vec<f64> = (0..15)
            .map(|_| {
                let t = std::time::Instant::now();
                let r = c.request(m, json!({"textDocument": {"uri": main}, "position": p}));
                assert!(r.error.is_none());
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        report.push(format!("{m}: median {:.2} ms", ms[ms.len() / 2]));
    }
    eprintln!("{} lines: {}", text.lines().count(), report.join(", "));
}
