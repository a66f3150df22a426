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
    let dir = std::env::temp_dir().join(format!("hlslc-editor-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let out = dir.join("result.json");
    let script = common::root().join("tests/in/editor/client.lua");
    let mut child = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("HLSLC", env!("CARGO_BIN_EXE_hlslc"))
        .env("HLSLC_EDITOR_FILE", &file)
        .env("HLSLC_EDITOR_OUT", &out)
        .env("HLSLC_EDITOR_REQUESTS", requests.to_string())
        .env("XDG_STATE_HOME", &dir)
        .env("XDG_CACHE_HOME", &dir)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nvim starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("nvim did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let written = std::fs::read_to_string(&out).expect("the Lua client wrote its result");
    let _ = std::fs::remove_dir_all(&dir);
    Some(serde_json::from_str(&written).expect("the result is JSON"))
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
