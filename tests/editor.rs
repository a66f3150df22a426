//! The language server driven by a real editor: Debian's Neovim (0.7.2
//! there; the README's test command installs it), headless, with the Lua
//! client in `tests/in/editor/client.lua`. The test is skipped, saying so,
//! only where `nvim` is not installed.
//!
//! The Lua client takes a list of requests to make once diagnostics have
//! arrived (`HLSLC_EDITOR_REQUESTS`): tests of hover, definition and the
//! other code-intelligence requests add theirs there and read the answers
//! from `responses`.

use crate::common;
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the headless editor on `file` (named `name` in a scratch
/// directory, holding `text`) with `requests`; returns what the client
/// wrote, or `None` when there is no `nvim`.
fn run_editor(name: &str, text: &str, requests: Value) -> Option<Value> {
    if Command::new("nvim").arg("--version").output().is_err() {
        eprintln!(
            "editor test skipped: `nvim` is not installed (the README's test command installs Debian's neovim)"
        );
        return None;
    }
    let tmp = common::scratch_dir(&format!("hlslc-editor-{name}"));
    let dir = tmp.path();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let out = dir.join("result.json");
    let script = common::root().join("tests/in/editor/client.lua");
    let child = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("HLSLC", env!("CARGO_BIN_EXE_hlslc"))
        .env("HLSLC_EDITOR_FILE", &file)
        .env("HLSLC_EDITOR_OUT", &out)
        .env("HLSLC_EDITOR_REQUESTS", requests.to_string())
        .env("XDG_STATE_HOME", dir)
        .env("XDG_CACHE_HOME", dir)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nvim starts");
    Some(finish(child, &out, "the Lua client"))
}

/// Waits for a headless nvim to exit (killed after [`TIMEOUT`]), reads the
/// JSON its script (`who`) wrote to `out`.
fn finish(mut child: std::process::Child, out: &Path, who: &str) -> Value {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("nvim did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let written =
        std::fs::read_to_string(out).unwrap_or_else(|e| panic!("{who} wrote no result: {e}"));
    serde_json::from_str(&written).expect("the result is JSON")
}

#[test]
fn neovim_shows_a_semantic_error_with_no_settings() {
    // No profile comment and no settings. The mistake is in a function
    // nothing calls, so only library checking finds it.
    let text = "\
Texture2D<float4> scene : register(t0);
SamplerState pointClamp : register(s1);

float3 desaturate(float3 c, float amount) {
    float grey = dot(c, float3(0.299, 0.587, 0.114));
    return lerp(c, grey.xxx, amonut);
}

float4 PSMain(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    return scene.Sample(pointClamp, uv);
}
";
    let Some(r) = run_editor("desaturate.hlsl", text, json!([])) else {
        return;
    };
    assert!(r.get("timeout").is_none(), "no diagnostics arrived: {r}");
    let d = r["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(d.len(), 1, "{r}");
    assert_eq!(d[0]["code"], "E0301", "{r}");
    assert_eq!(
        d[0]["range"]["start"],
        json!({"line": 5, "character": 29}),
        "{r}"
    );
    assert!(
        d[0]["message"].as_str().unwrap_or("").contains("amonut"),
        "{r}"
    );
    assert_eq!(r["responses"], json!([]));
}

#[test]
fn neovim_hovers_and_jumps_to_a_definition_with_no_settings() {
    let text = "\
Texture2D<float4> scene : register(t0);
SamplerState pointClamp : register(s1);

/// Mixes a colour towards grey.
float3 desaturate(float3 c, float amount) {
    float grey = dot(c, float3(0.299, 0.587, 0.114));
    return lerp(c, grey.xxx, amonut);
}

float4 PSMain(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float4 s = scene.Sample(pointClamp, uv);
    return float4(desaturate(s.rgb, 0.5), s.a);
}
";
    let requests = json!([
        {"method": "textDocument/hover", "line": 6, "character": 20},
        {"method": "textDocument/hover", "line": 11, "character": 20},
        {"method": "textDocument/definition", "line": 11, "character": 20},
    ]);
    let Some(r) = run_editor("hover.hlsl", text, requests) else {
        return;
    };
    assert!(r.get("timeout").is_none(), "no diagnostics arrived: {r}");
    assert_eq!(r["diagnostics"][0]["code"], "E0301", "{r}");
    let responses = r["responses"].as_array().expect("responses");
    assert_eq!(responses.len(), 3, "{r}");
    let hover_text = |i: usize| {
        let c = &responses[i]["result"]["contents"];
        c["value"]
            .as_str()
            .or_else(|| c.as_str())
            .unwrap_or("")
            .to_string()
    };
    // The local's type, then the function's signature with its comment.
    let local = hover_text(0);
    assert!(local.contains("float grey"), "{r}");
    let func = hover_text(1);
    assert!(
        func.contains("float3 desaturate(float3 c, float amount)"),
        "{r}"
    );
    assert!(func.contains("Mixes a colour towards grey."), "{r}");
    // The call jumps to the declaration on line 4 of the same file.
    let def = &responses[2]["result"];
    let loc = if def.is_array() { &def[0] } else { def };
    assert!(
        loc["uri"].as_str().unwrap_or("").ends_with("hover.hlsl"),
        "{r}"
    );
    assert_eq!(loc["range"]["start"]["line"], 4, "{r}");
}

/// Semantic tokens, asked for through Neovim's LSP client (0.7 has no
/// highlighter of its own for them: the test reads them back and decodes
/// them with the legend the server advertised).
#[test]
fn neovim_reads_semantic_tokens() {
    let text = "\
Texture2D<float4> scene : register(t0);
#define AMOUNT 0.5

float3 desaturate(float3 c, float amount) {
    float grey = dot(c, float3(0.299, 0.587, 0.114));
    return lerp(c, grey.xxx, amonut);
}

[shader(\"pixel\")]
float4 PSMain(float2 uv : TEXCOORD0) : SV_Target {
    return float4(desaturate(scene.Load(int3(uv, 0)).rgb, AMOUNT), 1);
}
";
    let requests = json!([{"method": "textDocument/semanticTokens/full", "line": 0, "character": 0}]);
    let Some(r) = run_editor("tokens.hlsl", text, requests) else {
        return;
    };
    assert!(r.get("timeout").is_none(), "no diagnostics arrived: {r}");
    let types = r["legend"]["tokenTypes"].as_array().expect("a legend");
    let modifiers = r["legend"]["tokenModifiers"].as_array().expect("a legend");
    let data: Vec<u64> = r["responses"][0]["result"]["data"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    // (word, type, modifiers) of each token.
    let (mut line, mut start) = (0usize, 0usize);
    let mut tokens = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            start = 0;
        }
        line += t[0] as usize;
        start += t[1] as usize;
        let word = &lines[line][start..start + t[2] as usize];
        let mods: Vec<&str> = (0..modifiers.len())
            .filter(|b| t[4] & (1 << b) != 0)
            .map(|b| modifiers[b].as_str().unwrap())
            .collect();
        tokens.push((word, types[t[3] as usize].as_str().unwrap(), mods));
    }
    let find = |w: &str| {
        tokens
            .iter()
            .find(|t| t.0 == w)
            .unwrap_or_else(|| panic!("no token `{w}`: {tokens:?}"))
    };
    assert_eq!(find("desaturate").1, "function", "{tokens:?}");
    assert_eq!(find("desaturate").2, ["declaration"], "{tokens:?}");
    assert_eq!(find("amount").1, "parameter", "{tokens:?}");
    assert_eq!(find("grey").1, "variable", "{tokens:?}");
    assert_eq!(find("scene").1, "variable", "{tokens:?}");
    assert!(find("scene").2.contains(&"global"), "{tokens:?}");
    assert_eq!(find("AMOUNT").1, "macro", "{tokens:?}");
    assert_eq!(find("float3").1, "type", "{tokens:?}");
    assert_eq!(find("dot").2, ["defaultLibrary"], "{tokens:?}");
    assert_eq!(find("TEXCOORD0").1, "semantic", "{tokens:?}");
    assert_eq!(find("SV_Target").1, "semantic", "{tokens:?}");
    assert_eq!(find("shader").1, "decorator", "{tokens:?}");
    assert_eq!(find("Load").1, "method", "{tokens:?}");
    assert_eq!(find("Load").2, ["defaultLibrary"], "{tokens:?}");
}

/// Rename through Neovim: the edit the server returns, applied by Neovim
/// to the buffer, renames the parameter everywhere and nothing else.
#[test]
fn neovim_applies_a_rename() {
    let text = "\
float3 desaturate(float3 c, float amount) {
    float grey = dot(c, float3(0.299, 0.587, 0.114));
    return lerp(c, grey.xxx, amonut);
}

float4 PSMain(float4 c : SV_Position) : SV_Target {
    return float4(desaturate(c.rgb, 0.5), c.a);
}
";
    let requests = json!([
        {"method": "textDocument/prepareRename", "line": 0, "character": 25},
        {"method": "textDocument/rename", "line": 0, "character": 25, "newName": "colour", "apply": true},
    ]);
    let Some(r) = run_editor("rename.hlsl", text, requests) else {
        return;
    };
    assert!(r.get("timeout").is_none(), "no diagnostics arrived: {r}");
    assert_eq!(r["responses"][0]["result"]["placeholder"], "c", "{r}");
    let expected = text
        .replace("float3 c,", "float3 colour,")
        .replace("dot(c,", "dot(colour,")
        .replace("lerp(c,", "lerp(colour,");
    assert_eq!(r["text"].as_str(), Some(expected.as_str()), "{r}");
}

/// A quick fix through Neovim: the code action for "did you mean",
/// applied by Neovim, corrects the name.
#[test]
fn neovim_applies_a_quick_fix() {
    let text = "\
float3 desaturate(float3 c, float amount) {
    float grey = dot(c, float3(0.299, 0.587, 0.114));
    return lerp(c, grey.xxx, amonut);
}
";
    let requests = json!([
        {"method": "textDocument/codeAction", "line": 2, "character": 29, "apply": true},
    ]);
    let Some(r) = run_editor("fix.hlsl", text, requests) else {
        return;
    };
    assert!(r.get("timeout").is_none(), "no diagnostics arrived: {r}");
    assert_eq!(r["responses"][0]["result"][0]["title"], "Replace with `amount`", "{r}");
    assert_eq!(r["text"].as_str(), Some(text.replace("amonut", "amount").as_str()), "{r}");
}

/// Formatting through Neovim: the buffer, formatted by the server's edits
/// as Neovim applies them, is what `hlslc -format` prints.
#[test]
fn neovim_formats_the_buffer() {
    let text = "\
float3 desaturate(float3 c,float amount)
{
  float grey=dot(c,float3(0.299,0.587,0.114)); // luminance
    return lerp(c,grey.xxx,amonut);
}
";
    let requests = json!([{"method": "textDocument/formatting", "line": 0, "character": 0, "apply": true}]);
    let Some(r) = run_editor("format.hlsl", text, requests) else {
        return;
    };
    assert!(r.get("timeout").is_none(), "no diagnostics arrived: {r}");
    let expected = "\
float3 desaturate(float3 c, float amount) {
    float grey = dot(c, float3(0.299, 0.587, 0.114)); // luminance
    return lerp(c, grey.xxx, amonut);
}
";
    assert_eq!(r["text"].as_str(), Some(expected), "{r}");
}

/// The fenced block of `lang` that follows the first line of README.md
/// containing `marker`.
fn readme_block(marker: &str, lang: &str) -> String {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let from = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README.md has no `{marker}`"));
    let fence = format!("```{lang}\n");
    let start = from + readme[from..].find(&fence).expect("a fenced block") + fence.len();
    let len = readme[start..].find("```").expect("the block ends");
    readme[start..start + len].to_string()
}

/// Runs `nvim` headless with `init` as its `init.lua`, in a scratch
/// directory holding `files`, with `hlslc` first on `PATH`; returns the
/// JSON the init wrote to `$HLSLC_EDITOR_OUT`, or `None` without `nvim`.
fn run_init_lua(name: &str, init: &str, files: &[(&str, &str)]) -> Option<Value> {
    if Command::new("nvim").arg("--version").output().is_err() {
        eprintln!("README snippet test skipped: `nvim` is not installed");
        return None;
    }
    let tmp = common::scratch_dir(&format!("hlslc-readme-{name}"));
    let dir = tmp.path();
    for (f, text) in files {
        std::fs::write(dir.join(f), text).unwrap();
    }
    std::fs::write(dir.join("init.lua"), init).unwrap();
    let out = dir.join("result.json");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hlslc"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let child = Command::new("nvim")
        .args(["--headless", "-i", "NONE", "-n", "-u"])
        .arg(dir.join("init.lua"))
        .env("PATH", path)
        .env("HLSLC_EDITOR_DIR", dir)
        .env("HLSLC_EDITOR_OUT", &out)
        .env("XDG_STATE_HOME", dir)
        .env("XDG_CACHE_HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nvim starts");
    Some(finish(child, &out, "the init"))
}

/// The README's Neovim 0.7–0.10 snippet, as a user's whole `init.lua`:
/// opening a `.hlsl` file starts `hlslc lsp` and shows its diagnostics.
#[test]
fn readme_neovim_0_7_snippet_shows_diagnostics() {
    let snippet = readme_block("**Neovim 0.7–0.10**", "lua");
    let init = format!(
        "{snippet}\n{}",
        r#"
local dir = os.getenv('HLSLC_EDITOR_DIR')
vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/grey.hlsl'))
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local d = vim.diagnostic.get(0)
local f = assert(io.open(os.getenv('HLSLC_EDITOR_OUT'), 'w'))
f:write(vim.json.encode({ ok = ok, count = #d, message = d[1] and d[1].message or '' }))
f:close()
vim.cmd('qa!')
"#
    );
    // The shifts in the snippet's `args` keep b0/t0/s0 apart: the only
    // diagnostic is the misspelt name.
    let shader = "\
Texture2D<float4> scene : register(t0);
SamplerState pointClamp : register(s0);
cbuffer Frame : register(b0) { float amount; };

float3 grey(float3 c) {
    return lerp(c, dot(c, float3(0.299, 0.587, 0.114)).xxx, amuont);
}

float4 PSMain(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    return scene.Sample(pointClamp, uv) * amount;
}
";
    let Some(r) = run_init_lua("nvim07", &init, &[("grey.hlsl", shader)]) else {
        return;
    };
    assert_eq!(r["ok"], true, "no diagnostics arrived: {r}");
    assert_eq!(r["count"], 1, "{r}");
    assert!(
        r["message"].as_str().unwrap_or("").contains("amuont"),
        "{r}"
    );
}

/// The Neovim 0.11 snippet needs `vim.lsp.config`, which the Neovim here
/// (Debian's 0.7) lacks: it is compiled by Neovim's Lua, not run.
#[test]
fn readme_neovim_0_11_snippet_is_valid_lua() {
    let snippet = readme_block("**Neovim 0.11 or later**", "lua");
    assert!(snippet.contains("vim.lsp.config('hlslc'"), "{snippet}");
    assert!(snippet.contains("vim.lsp.enable('hlslc')"), "{snippet}");
    let init = r#"
local f = assert(io.open(os.getenv('HLSLC_EDITOR_DIR') .. '/snippet.lua'))
local chunk, err = loadstring(f:read('*a'))
f:close()
local out = assert(io.open(os.getenv('HLSLC_EDITOR_OUT'), 'w'))
out:write(vim.json.encode({ ok = chunk ~= nil, error = err or '' }))
out:close()
vim.cmd('qa!')
"#;
    let Some(r) = run_init_lua("nvim011", init, &[("snippet.lua", &snippet)]) else {
        return;
    };
    assert_eq!(r["ok"], true, "{r}");
}

/// The settings objects of the README parse as JSON, with the members
/// the server reads.
#[test]
fn readme_json_snippets_parse() {
    let init: Value = serde_json::from_str(&readme_block("`initializationOptions`:", "json"))
        .expect("the initializationOptions example is JSON");
    assert_eq!(init["profile"], "ps_6_0");
    assert!(init["args"].is_array());
    let vscode: Value = serde_json::from_str(&readme_block("**VS Code**", "json"))
        .expect("the VS Code settings are JSON");
    assert_eq!(vscode["glspc.server.command"], "hlslc");
    assert_eq!(vscode["glspc.server.commandArguments"], json!(["lsp"]));
    assert!(vscode["glspc.server.initializationOptions"]["args"].is_array());
}

/// The Helix `languages.toml` parses (with Python's `tomllib`, as the
/// crate has no TOML parser; skipped without Python 3.11) and names
/// `hlslc lsp` for HLSL.
#[test]
fn readme_helix_snippet_parses() {
    let toml = readme_block("**Helix**", "toml");
    let script = "import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))";
    let Ok(mut child) = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("Helix snippet test skipped: no python3");
        return;
    };
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(toml.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("No module named 'tomllib'") {
        eprintln!("Helix snippet test skipped: python3 has no tomllib (3.11+)");
        return;
    }
    assert!(out.status.success(), "the snippet is no TOML: {err}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let server = &v["language-server"]["hlslc"];
    assert_eq!(server["command"], "hlslc");
    assert_eq!(server["args"], json!(["lsp"]));
    assert!(server["config"]["args"].is_array());
    assert_eq!(v["language"][0]["name"], "hlsl");
    assert_eq!(v["language"][0]["language-servers"], json!(["hlslc"]));
}

/// The VS Code extension snippet is valid JavaScript as far as `node
/// --check` reads it (it has no TypeScript-only syntax); skipped without
/// Node.
#[test]
fn readme_vscode_extension_snippet_parses() {
    let ts = readme_block("`vscode-languageclient`:", "ts");
    let tmp = common::scratch_dir("hlslc-readme-ts");
    let dir = tmp.path();
    let file = dir.join("extension.mjs");
    std::fs::write(&file, ts).unwrap();
    let Ok(out) = Command::new("node").arg("--check").arg(&file).output() else {
        eprintln!("VS Code snippet test skipped: no node");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
