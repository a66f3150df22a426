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
    let tmp = common::scratch_dir("hlslc-cli");
    let dir = tmp.path();
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
    let tmp = common::scratch_dir("hlslc-cli-dep");
    let dir = tmp.path();
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
    let tmp = common::scratch_dir("hlslc-det");
    let dir = tmp.path();
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
        .args(["-T", "cs_6_0", "-fspv-use-vulkan-memory-model", "x.hlsl"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("error[E0004]: not supported yet: -fspv-use-vulkan-memory-model"),
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
        "error[E0002]: -fspv-debug: unknown debug information category 'lines' \
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
    let tmp = common::scratch_dir("hlslc-fre");
    let dir = tmp.path();
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
}

#[test]
fn cli_preprocesses_to_stdout_and_file() {
    let tmp = common::scratch_dir("hlslc-pp-cli");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("inc")).expect("temp dir");
    std::fs::write(
        dir.join("main.hlsl"),
        "#include <defs.h>\nfloat f() { return VALUE * SCALE; }\n",
    )
    .expect("write");
    std::fs::write(dir.join("inc/defs.h"), "#define VALUE 2.0\n").expect("write");
    let exe = env!("CARGO_BIN_EXE_hlslc");
    let out = std::process::Command::new(exe)
        .current_dir(dir)
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
        .current_dir(dir)
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
        .current_dir(dir)
        .args(["-P", "--no-color", "main.hlsl"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("'defs.h' file not found"), "{stderr}");
    assert!(stderr.contains("main.hlsl:1:10"), "{stderr}");
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> tempfile::TempDir {
    common::scratch_dir(&format!("hlslc-{name}"))
}

/// `-Fh` writes the module as DXC writes its header: the disassembly in
/// `#if 0`, then the bytes of the module (the same bytes `-Fo` writes),
/// twelve to a line, as `const unsigned char` named by `-Vn`, or
/// `g_<entry>` without it; CRLF line ends.
#[test]
fn fh_writes_a_c_header_named_by_vn() {
    let tmp = scratch("fh");
    let dir = tmp.path();
    let (h, spv) = (dir.join("blur.h"), dir.join("blur.spv"));
    let out = hlslc()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-spirv",
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "samples/blur.hlsl",
            "-Fh",
        ])
        .arg(&h)
        .args(["-Vn", "blur_words", "-Fo"])
        .arg(&spv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&h).unwrap();
    let bytes = std::fs::read(&spv).unwrap();
    assert!(text.starts_with("#if 0\r\n; SPIR-V\r\n"), "{}", &text[..40]);
    assert!(text.contains("OpEntryPoint GLCompute"), "no disassembly");
    let (_, array) = text
        .split_once("\r\n#endif\r\n\r\nconst unsigned char blur_words[] = {\r\n")
        .expect("the array after the disassembly");
    let body = array.strip_suffix("\r\n};\r\n").expect("closed array");
    let lines: Vec<&str> = body.split("\r\n").collect();
    assert!(
        lines.iter().all(|l| l.starts_with("  0x")),
        "{:?}",
        &lines[..2]
    );
    assert!(
        lines[0].starts_with("  0x03, 0x02, 0x23, 0x07,"),
        "{}",
        lines[0]
    );
    let parsed: Vec<u8> = body
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
        .collect();
    assert_eq!(parsed, bytes, "the header holds the module's bytes");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.matches("0x").count() == 12)
    );
    // Without -Vn the array is named after the entry point; -Fh alone
    // writes nothing to stdout.
    let out = hlslc()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-T", "cs_6_0", "-E", "main", "samples/blur.hlsl", "-Fh"])
        .arg(&h)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&h).unwrap();
    assert!(text.contains("const unsigned char g_main[] = {"));
}

/// `-Vi` lists the include process on stderr, nested by depth; it
/// compiles as usual.
#[test]
fn vi_lists_the_files_read_on_stderr() {
    let tmp = scratch("vi");
    let dir = tmp.path();
    let spv = dir.join("p.spv");
    let out = hlslc()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "samples/particles.hlsl",
            "-Vi",
            "-Fo",
        ])
        .arg(&spv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr,
        "hlslc -Vi: samples/particles.hlsl\n\
         hlslc -Vi:   samples/common.hlsli\n\
         hlslc -Vi:   samples/particle.hlsli\n"
    );
    assert!(
        std::fs::read(&spv)
            .unwrap()
            .starts_with(&0x0723_0203u32.to_le_bytes())
    );
}

/// `-M` preprocesses only and prints the make rule (DXC: target = the
/// `-Fo` file, or the input), to the `-MF` file when given.
#[test]
fn m_prints_the_dependencies() {
    let tmp = scratch("m");
    let dir = tmp.path();
    let out = hlslc()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-T", "cs_6_0", "samples/particles.hlsl", "-M"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "samples/particles.hlsl: \\\n  samples/particles.hlsl \\\n  samples/common.hlsli \\\n  samples/particle.hlsli\n"
    );
    let (spv, dep) = (dir.join("p.spv"), dir.join("p.d"));
    let out = hlslc()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-T", "cs_6_0", "samples/particles.hlsl", "-M", "-Fo"])
        .arg(&spv)
        .arg("-MF")
        .arg(&dep)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert!(!spv.exists(), "-M compiles nothing");
    let d = std::fs::read_to_string(&dep).unwrap();
    assert!(d.starts_with(&format!("{}: \\\n", spv.display())), "{d}");
}

/// The DXC flags clap used to misname: each either works or is E0004
/// naming it, as DXC spells it.
#[test]
fn dxc_flags_work_or_are_refused_by_name() {
    let tmp = scratch("flags");
    let dir = tmp.path();
    let spv = dir.join("b.spv");
    let run = |extra: &[&str]| {
        hlslc()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["-T", "cs_6_0", "-E", "main", "samples/blur.hlsl", "-Fo"])
            .arg(&spv)
            .args(extra)
            .output()
            .unwrap()
    };
    // No effect on SPIR-V, in DXC as here: the same module.
    let plain = run(&[]);
    assert!(plain.status.success());
    let reference = std::fs::read(&spv).unwrap();
    for flag in ["-nologo", "-Ges", "-Qstrip_debug"] {
        let out = run(&[flag]);
        assert!(
            out.status.success(),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{flag}");
        assert_eq!(std::fs::read(&spv).unwrap(), reference, "{flag}");
    }
    for (args, name) in [
        (&["-Fd", "b.pdb"][..], "-Fd"),
        (&["-Qstrip_reflect"], "-Qstrip_reflect"),
        (&["-Gec"], "-Gec"),
        (&["-Fe", "log.txt"], "-Fe"),
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(
            stderr.trim(),
            format!("error[E0004]: not supported yet: {name}")
        );
    }
}

/// Without `-Fo`, stdout gets the disassembly, terminal or pipe, as DXC
/// does; `--emit spirv` sends the binary to a pipe (never to a terminal).
#[test]
fn without_fo_stdout_gets_the_disassembly() {
    let run = |extra: &[&str]| {
        hlslc()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["-T", "cs_6_0", "-E", "main", "samples/blur.hlsl"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("text, not binary");
    assert!(
        text.starts_with("; SPIR-V\n") && text.contains("OpEntryPoint"),
        "{text}"
    );
    let out = run(&["-emit", "spirv"]);
    assert!(out.status.success());
    assert_eq!(&out.stdout[..4], &0x0723_0203u32.to_le_bytes());
}

/// `--help` lists hlslc's own options with both spellings and never a
/// DXC option with two dashes.
#[test]
fn help_spells_dxc_options_with_one_dash() {
    let help = hlslc::options::help();
    for wrong in ["--Fo", "--HV", "--T ", "--E ", "--spirv"] {
        assert!(!help.contains(wrong), "{wrong} in --help");
    }
    for own in [
        "--emit <kind>",
        "-emit <kind>",
        "-no-color",
        "-diagnostics-format <format>",
    ] {
        assert!(help.contains(own), "{own} not in --help");
    }
}

/// `-fspv-reflect`: DXC's reflection decorations and extensions, valid
/// for every target environment.
#[test]
fn fspv_reflect_decorates_semantics_user_types_and_counters() {
    let tmp = scratch("reflect");
    let dir = tmp.path();
    for env in ["vulkan1.0", "vulkan1.1", "vulkan1.3"] {
        let (spv, asm) = (dir.join(format!("{env}.spv")), dir.join(format!("{env}.s")));
        let out = hlslc()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "-T",
                "vs_6_0",
                "-E",
                "main",
                "tests/in/reflect/spv_reflect.hlsl",
            ])
            .args(["-fspv-reflect", &format!("-fspv-target-env={env}"), "-Fo"])
            .arg(&spv)
            .arg("-Fc")
            .arg(&asm)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&asm).unwrap();
        // Ids by name: `OpName %7 "positions"` → 7.
        let id = |name: &str| {
            text.lines()
                .find_map(|l| {
                    let rest = l.trim().strip_prefix("OpName %")?;
                    let (id, n) = rest.split_once(' ')?;
                    (n == format!("\"{name}\"")).then(|| id.to_string())
                })
                .unwrap_or_else(|| panic!("no OpName for {name}"))
        };
        let has = |line: String| {
            assert!(
                text.lines().any(|l| l.trim() == line),
                "{env}: no `{line}` in\n{text}"
            );
        };
        has("OpExtension \"SPV_GOOGLE_hlsl_functionality1\"".into());
        has("OpExtension \"SPV_GOOGLE_user_type\"".into());
        for (var, ty) in [
            ("positions", "structuredbuffer:<float4>"),
            ("hits", "rwstructuredbuffer:<uint>"),
            ("lights", "appendstructuredbuffer:<Light>"),
            ("history", "texture2dmsarray:<float4,8>"),
            ("plain", "texture2d"),
            ("depth", "texture2d:<float>"),
            ("raw", "rwbyteaddressbuffer"),
            ("sun", "constantbuffer:<Light>"),
            ("Frame", "cbuffer"),
        ] {
            has(format!(
                "OpDecorateString %{} UserTypeGOOGLE \"{ty}\"",
                id(var)
            ));
        }
        for (var, semantic) in [
            ("in.var.POSITION", "POSITION"),
            ("gl_VertexIndex", "SV_VertexID"),
            ("gl_Position", "SV_Position"),
            ("out.var.TEXCOORD3", "TEXCOORD3"),
        ] {
            has(format!(
                "OpDecorateString %{} UserSemantic \"{semantic}\"",
                id(var)
            ));
        }
        has(format!(
            "OpDecorateId %{} CounterBuffer %{}",
            id("lights"),
            id("counter.var.lights")
        ));
        // The counter is declared before the buffer that names it.
        let declared = |var: &str| {
            let def = format!("%{} = OpVariable", id(var));
            text.lines()
                .position(|l| l.trim().starts_with(&def))
                .unwrap_or_else(|| panic!("{env}: no OpVariable for {var}"))
        };
        assert!(declared("counter.var.lights") < declared("lights"), "{env}");
        let sampler = id("linearClamp");
        assert!(
            !text.contains(&format!("OpDecorateString %{sampler} ")),
            "a sampler has no user type"
        );
        if std::process::Command::new("spirv-val")
            .arg("--version")
            .output()
            .is_ok()
        {
            let v = std::process::Command::new("spirv-val")
                .args(["--target-env", env])
                .arg(&spv)
                .output()
                .unwrap();
            assert!(
                v.status.success(),
                "{env}: {}",
                String::from_utf8_lossy(&v.stderr)
            );
        }
    }
    // Without the option, none of it.
    let out = hlslc()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "-T",
            "vs_6_0",
            "-E",
            "main",
            "tests/in/reflect/spv_reflect.hlsl",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains("GOOGLE") && !text.contains("OpDecorateString"),
        "{text}"
    );
}

#[test]
fn syntax_only_checks_every_function_without_a_profile() {
    let tmp = common::scratch_dir("hlslc-cli-lib");
    let dir = tmp.path();
    let bad = dir.join("helpers.hlsl");
    std::fs::write(
        &bad,
        "float luminance(float3 c) { return dot(c, weights); }\n\
         float4 PSMain(float4 c : COLOR) : SV_Target { return c; }\n",
    )
    .unwrap();
    let out = hlslc().arg("-fsyntax-only").arg(&bad).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("helpers.hlsl:1:43"), "{stderr}");
    assert!(stderr.contains("E0301"), "{stderr}");
    assert!(!stderr.contains("E0601"), "{stderr}");
    // A correct library: exit 0, nothing printed, nothing written.
    let good = dir.join("good.hlsl");
    std::fs::write(
        &good,
        "float luminance(float3 c) { return dot(c, float3(0.2126, 0.7152, 0.0722)); }\n\
         float4 PSMain(float4 c : COLOR) : SV_Target { return luminance(c.rgb).xxxx; }\n\
         float4 VSMain(float4 p : POSITION) : SV_Position { return p; }\n",
    )
    .unwrap();
    let out = hlslc()
        .current_dir(dir)
        .arg("-fsyntax-only")
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty() && out.stdout.is_empty(), "{out:?}");
}

/// `hlslc -format` prints the file in hlslc's layout with the settings of
/// the nearest `.clang-format`; `-i` rewrites it (and a formatted file is
/// left as it is).
#[test]
fn format_prints_or_rewrites_with_clang_format_settings() {
    let tmp = common::scratch_dir("hlslc-format");
    let dir = tmp.path();
    let sub = dir.join("shaders");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.join(".clang-format"), "BasedOnStyle: LLVM\nIndentWidth: 2\nBreakBeforeBraces: Allman\n").unwrap();
    let f = sub.join("a.hlsl");
    let text = "// keep me\n#define N 4\nvoid f(){\nfloat x=-N;   /* and me */\n}\n";
    std::fs::write(&f, text).unwrap();
    let expected = "// keep me\n#define N 4\nvoid f()\n{\n  float x = -N; /* and me */\n}\n";
    let out = hlslc().arg("-format").arg(&f).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text, "printing leaves the file");
    let out = hlslc().args(["-format", "-i"]).arg(&f).output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), expected);
    // Text that is no HLSL token is an error, and the file stays.
    std::fs::write(&f, "string s = \"open;\n").unwrap();
    let out = hlslc().args(["-format", "-i"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error[E0101]: missing terminating '\"' character")
            && stderr.contains("a.hlsl:1:12"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "string s = \"open;\n");
    // Also in a group `#if` skips.
    std::fs::write(&f, "#if 0\nstring s = \"open;\n#endif\n").unwrap();
    let out = hlslc().arg("-format").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[E0101]: ") && stderr.contains("not formatted"), "{stderr}");
}
