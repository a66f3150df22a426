//! The `hlslc` binary as users and build systems run it.

use crate::common;
use serde_json::{Value, json};
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(30);

/// The binary, validating the IR after every pass as every test compiles.
fn hlslc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hlslc"));
    c.arg("--verify-ir");
    c
}

#[test]
fn diagnostics_to_a_pipe_have_no_colour_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("hlslc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.hlsl");
    std::fs::write(
        &f,
        "[numthreads(1,1,1)] void main() { undefined_name = 1; }\n",
    )
    .unwrap();
    let out = hlslc()
        .args(["-T", "cs_6_0", "-E", "main"])
        .arg(&f)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bad.hlsl:1:35"), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "escape codes in piped output: {stderr:?}"
    );
    let short = hlslc()
        .args(["-T", "cs_6_0", "--diagnostics-format=short"])
        .arg(&f)
        .output()
        .unwrap();
    let short = String::from_utf8_lossy(&short.stderr);
    assert!(
        short
            .lines()
            .next()
            .is_some_and(|l| l.contains("bad.hlsl:1:35: error[E0301]")),
        "{short}"
    );
}

#[test]
fn compiles_a_sample_and_writes_a_depfile() {
    let dir = std::env::temp_dir().join(format!("hlslc-cli-dep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spv = dir.join("p.spv");
    let dep = dir.join("p.d");
    let root = env!("CARGO_MANIFEST_DIR");
    let out = hlslc()
        .current_dir(root)
        .args([
            "-spirv",
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "samples/particles.hlsl",
            "-Fo",
        ])
        .arg(&spv)
        .arg("-MF")
        .arg(&dep)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = std::fs::read(&spv).unwrap();
    assert_eq!(&words[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
    let d = std::fs::read_to_string(&dep).unwrap();
    assert!(d.starts_with(&format!("{}:", spv.display())), "{d}");
    assert!(
        d.contains("samples/particles.hlsl") && d.contains("samples/particle.hlsli"),
        "{d}"
    );
}

/// Two runs of the compiler give the same bytes: SPIR-V, reflection and
/// depfile do not depend on hash seeds, addresses or timing.
#[test]
fn output_is_deterministic_across_processes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("hlslc-det-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: &[(&str, &str, &str, &[&str])] = &[
        ("blur", "cs_6_0", "main", &[]),
        ("particles", "cs_6_0", "main", &["-O0"]),
        (
            "histogram",
            "cs_6_0",
            "main",
            &["-fspv-target-env=vulkan1.3"],
        ),
        (
            "cull_instances",
            "cs_6_0",
            "main",
            &["-fspv-target-env=vulkan1.1"],
        ),
        ("mesh_lit", "ps_6_0", "PSMain", &[]),
        ("skinning", "vs_6_0", "main", &[]),
    ];
    for (sample, profile, entry, extra) in cases {
        let mut outputs = Vec::new();
        for run in 0..2 {
            let spv = dir.join(format!("{sample}.{run}.spv"));
            let json = dir.join(format!("{sample}.{run}.json"));
            let out = hlslc()
                .args(["-spirv", "-T", profile, "-E", entry])
                .args(*extra)
                .arg(root.join(format!("samples/{sample}.hlsl")))
                .arg("-Fo")
                .arg(&spv)
                .arg("-Fre")
                .arg(&json)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{sample}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            outputs.push((std::fs::read(&spv).unwrap(), std::fs::read(&json).unwrap()));
        }
        assert!(!outputs[0].0.is_empty() && !outputs[0].1.is_empty());
        assert!(
            outputs[0].0 == outputs[1].0,
            "{sample}: SPIR-V differs between runs"
        );
        assert!(
            outputs[0].1 == outputs[1].1,
            "{sample}: reflection differs between runs"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `hlslc --help` is the library's help, and every option it lists is one
/// the library's parser knows (the library's own tests run each with
/// sample values).
#[test]
fn every_option_in_help_is_known_to_the_library_parser() {
    let out = hlslc().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert_eq!(help, hlslc::options::help());
    let mut options = 0;
    for line in help.lines() {
        let Some(synopsis) = line.strip_prefix("  -") else {
            continue;
        };
        // `-Fo <file>`, `-fspv-target-env=<env>`, `-W<warning>`.
        let spelling = format!("-{}", synopsis.split([' ', '<']).next().unwrap());
        let cl = hlslc::options::CommandLine::parse([spelling.as_str()]);
        for d in &cl.diagnostics {
            assert!(
                !d.message.starts_with("unknown option"),
                "{spelling}: {}",
                d.message
            );
        }
        options += 1;
    }
    assert!(options > 80, "only {options} options in --help");
}

#[test]
fn argument_errors_are_diagnostics() {
    let out = hlslc()
        .args(["-T", "cs_6_0", "-fvk-b-shift", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr
            .contains("error[E0002]: -fvk-b-shift needs 2 values (<shift> <space>), found only 1"),
        "{stderr}"
    );
    let out = hlslc()
        .args(["-T", "cs_6_0", "-fspv-flatten-resource-arrays", "x.hlsl"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("error[E0004]: not supported yet: -fspv-flatten-resource-arrays"),
        "{stderr}"
    );
}

#[test]
fn a_bad_debug_category_is_an_error_naming_the_choices() {
    let out = hlslc()
        .args(["-T", "ps_6_0", "-fspv-debug=lines", "-Zi", "x.hlsl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error[E0002]: -fspv-debug=: unknown debug information category 'lines' \
         (expected vulkan-with-source, vulkan, file, source, line or tool)\n\n"
    );
}

#[test]
fn hlslc_lsp_on_stdio() {
    use std::io::{Read, Write};
    let frame = |v: Value| {
        let body = v.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    };
    let mut input = String::new();
    input += &frame(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    input += &frame(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    // Not JSON-RPC: skipped, not fatal.
    input += "Content-Length: 9\r\n\r\n{garbage}";
    input += &frame(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": "file:///nowhere/a.hlsl", "languageId": "hlsl",
                                    "version": 1, "text": "float x;\n"}}}));
    input += &frame(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    input += &frame(json!({"jsonrpc": "2.0", "method": "exit"}));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .args(["lsp", "--stdio"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    // stdin is closed now; the server must stop on its own.
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("hlslc lsp did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "stdout:\n{out}\nstderr:\n{err}");
    // The frames the server wrote: `Content-Length: N`, a blank line, N
    // bytes of JSON.
    let mut responses = Vec::new();
    let mut rest = out.as_str();
    while !rest.is_empty() {
        let (header, body) = rest.split_once("\r\n\r\n").expect("a frame header");
        let len: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("the server wrote the header {header:?}"));
        let message: Value = serde_json::from_str(&body[..len]).expect("JSON");
        if message.get("method").is_none() {
            responses.push(message);
        }
        rest = &body[len..];
    }
    assert_eq!(responses.len(), 2, "{responses:?}");
    assert_eq!(responses[0]["result"]["serverInfo"]["name"], "hlslc");
    assert_eq!(responses[1]["id"], 2);
    assert!(err.contains("not JSON-RPC"), "{err}");
}

#[test]
fn hlslc_lsp_rejects_unknown_arguments() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .args(["lsp", "--tcp"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unexpected argument '--tcp'"), "{err}");
    assert!(err.contains("Usage: hlslc lsp"), "{err}");
}

#[test]
fn hlslc_lsp_help_lists_its_options() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .args(["lsp", "--help"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("language server") && help.contains("--stdio"),
        "{help}"
    );
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .args(["-T", "cs_6_0"])
        .arg(std::ffi::OsStr::from_bytes(b"sh\xffader.hlsl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[E0002]") && err.contains("not valid UTF-8"),
        "{err}"
    );
}

#[test]
fn fre_writes_the_json_file() {
    let dir = std::env::temp_dir().join(format!("hlslc-fre-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("out.json");
    let spv = dir.join("out.spv");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .current_dir(common::root())
        .args([
            "--verify-ir",
            "-spirv",
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "samples/particles.hlsl",
        ])
        .arg(format!("-Fo{}", spv.display()))
        .arg("-Fre")
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    // What the library gives for the same command line.
    let options = hlslc::Options {
        reflect: true,
        ..common::options_from_args(&["-T", "cs_6_0", "-E", "main"]).unwrap()
    };
    let c = hlslc::compile(
        std::path::Path::new("samples/particles.hlsl"),
        &common::RootedLoader,
        &options,
    );
    assert_eq!(text, c.artifact.unwrap().reflection.unwrap().to_json());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cli_preprocesses_to_stdout_and_file() {
    let dir = std::env::temp_dir().join(format!("hlslc-pp-cli-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inc")).expect("temp dir");
    std::fs::write(
        dir.join("main.hlsl"),
        "#include <defs.h>\nfloat f() { return VALUE * SCALE; }\n",
    )
    .expect("write");
    std::fs::write(dir.join("inc/defs.h"), "#define VALUE 2.0\n").expect("write");
    let exe = env!("CARGO_BIN_EXE_hlslc");
    let out = std::process::Command::new(exe)
        .current_dir(&dir)
        .args(["-P", "-I", "inc", "-D", "SCALE=3", "main.hlsl"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        "#line 2 \"main.hlsl\"\nfloat f() { return 2.0 * 3; }\n"
    );
    let out = std::process::Command::new(exe)
        .current_dir(&dir)
        .args(["-P", "-Iinc", "-DSCALE=3", "-Fi", "out.hlsl", "main.hlsl"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out.hlsl")).expect("written"),
        stdout
    );
    // An error: exit code 1 and a located message.
    let out = std::process::Command::new(exe)
        .current_dir(&dir)
        .args(["-P", "--no-color", "main.hlsl"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("'defs.h' file not found"), "{stderr}");
    assert!(stderr.contains("main.hlsl:1:10"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
