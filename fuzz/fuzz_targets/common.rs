//! What the fuzz targets share: the in-memory file system the CLI's
//! `-I`-less compile would see, the diagnostic renderers, and the check of
//! a successful compile's SPIR-V.
#![allow(dead_code)] // each target uses part of it

use hlslc::Compilation;
use hlslc::diag::DiagnosticFormat;
use hlslc::options::TargetEnv;
use hlslc::MemoryLoader;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// `main.hlsl` holding `text`, beside the two headers the samples include,
/// so that the sample seeds get past `#include` and into the compiler.
pub fn loader(text: String) -> (MemoryLoader, PathBuf) {
    let mut loader = MemoryLoader::new();
    loader.add("main.hlsl", text);
    loader.add("common.hlsli", include_str!("../../samples/common.hlsli"));
    loader.add(
        "particle.hlsli",
        include_str!("../../samples/particle.hlsli"),
    );
    (loader, PathBuf::from("main.hlsl"))
}

/// Renders the diagnostics in every format the CLI offers: the renderer
/// must not panic on any span the compiler produced.
pub fn render(c: &Compilation) {
    let list = &c.diagnostics.list;
    for format in [
        DiagnosticFormat::Human,
        DiagnosticFormat::Short,
        DiagnosticFormat::Json,
    ] {
        let text = hlslc::diag::render_to_string(list, &c.source_map, format);
        // Every diagnostic renders to something.
        assert!(list.is_empty() || !text.is_empty());
    }
}

/// Checks the SPIR-V of a successful compile: `spirv-val` must accept it
/// for `env` (the program `$SPIRV_VAL` names, else `spirv-val` on the
/// PATH; looked up once per process). Where there is none, rspirv must at
/// least parse it (rspirv's loader does not know every module-level
/// instruction, `OpExecutionModeId` among them, so it is only the
/// fallback). The flags are the ones the test suite validates
/// default-layout modules with: DXC's relaxed block layout needs
/// `--relax-block-layout` on Vulkan 1.0 (core from 1.1).
pub fn validate_spirv(words: &[u32], env: TargetEnv) {
    let Some(spirv_val) = spirv_val() else {
        if let Err(e) = rspirv::dr::load_words(words) {
            panic!("rspirv cannot parse the SPIR-V of a successful compile: {e}");
        }
        return;
    };
    let mut args = vec!["--target-env", env.name()];
    if env == TargetEnv::Vulkan1_0 {
        args.push("--relax-block-layout");
    }
    args.push("-");
    let mut child = Command::new(spirv_val)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spirv-val was found, so it starts");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    // Write from a thread: spirv-val may stop reading early (a bad header)
    // or fill its output pipe before it has read everything.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().expect("spirv-val runs");
    let _ = writer.join();
    assert!(
        out.status.success(),
        "spirv-val {} rejects the SPIR-V of a successful compile:\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The validator to run, if one is installed: `$SPIRV_VAL` (the real
/// binary, not a shim that starts a shell for every module) or `spirv-val`.
fn spirv_val() -> Option<&'static str> {
    static FOUND: OnceLock<Option<String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let program = std::env::var("SPIRV_VAL").unwrap_or_else(|_| "spirv-val".into());
            Command::new(&program)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
                .then_some(program)
        })
        .as_deref()
}
