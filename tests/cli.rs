//! The `hlslc` binary as users and build systems run it.

use std::process::Command;

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
