//! The `hlslc` binary as users and build systems run it.

use std::process::Command;

fn hlslc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hlslc"))
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
