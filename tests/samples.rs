//! Every sample's own build: each `// Compile:` command in the header of
//! every `samples/*.hlsl` (the `Compile:` line and the `hlslc` lines under
//! it) is run as written, by the `hlslc` binary from the repository root,
//! with the IR validator on (`--verify-ir`) and `-Fo` pointed at a scratch
//! file; the module must pass `spirv-val` for the command's target
//! environment.

use crate::common;
use hlslc::Options;
use hlslc::options::{CommandLine, LayoutRule, TargetEnv};
use std::path::Path;
use std::process::Command;

/// The `hlslc` commands of a sample's header: the `// Compile:` line and
/// the comment lines right under it that start with `hlslc`, each as its
/// arguments (after `hlslc`).
fn compile_commands(text: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let Some(comment) = line.strip_prefix("//") else {
            break; // the header ends at the first line that is not a comment
        };
        let comment = comment.trim();
        let command = match comment.strip_prefix("Compile:") {
            Some(rest) => {
                in_block = true;
                rest.trim()
            }
            None if in_block && comment.starts_with("hlslc ") => comment,
            None => {
                in_block = false;
                continue;
            }
        };
        let mut words = command.split_whitespace();
        assert_eq!(words.next(), Some("hlslc"), "not an hlslc command: {line}");
        commands.push(words.map(str::to_string).collect());
    }
    commands
}

/// A command's options, read by the library's parser as `hlslc` reads
/// them.
fn command_line(args: &[String]) -> CommandLine {
    let cl = CommandLine::parse(args);
    assert!(
        !cl.has_errors(),
        "hlslc {}: {:?}",
        args.join(" "),
        cl.diagnostics
    );
    cl
}

/// The `spirv-val` target environment and flags a command's output is
/// validated with: its `-fspv-target-env=` (Vulkan 1.0 by default, where
/// DXC's relaxed block layout needs `--relax-block-layout`), and
/// `--scalar-block-layout` for the layouts that need `scalarBlockLayout`.
fn validation_of(options: &Options) -> (String, Vec<&'static str>) {
    let mut flags = Vec::new();
    if matches!(options.layout, LayoutRule::Scalar | LayoutRule::Dx) {
        flags.push("--scalar-block-layout");
    } else if options.target_env == TargetEnv::Vulkan1_0 {
        flags.push("--relax-block-layout");
    }
    (options.target_env.name().to_string(), flags)
}

/// The `// Compile:` commands of every sample, in file order.
pub(crate) fn all_compile_commands() -> Vec<Vec<String>> {
    let mut samples: Vec<_> = std::fs::read_dir(common::root().join("samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    samples.sort();
    samples
        .iter()
        .flat_map(|s| compile_commands(&std::fs::read_to_string(s).unwrap()))
        .collect()
}

#[test]
fn every_sample_compile_command_gives_valid_spirv() {
    let root = common::root();
    let tmp = common::scratch_dir("hlslc-samples");
    let scratch = tmp.path();
    let mut samples: Vec<_> = std::fs::read_dir(root.join("samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    samples.sort();
    let mut failures = Vec::new();
    let mut compiled = 0;
    for sample in &samples {
        let file = sample.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(sample).unwrap();
        let commands = compile_commands(&text);
        if commands.is_empty() {
            failures.push(format!("{file}: no `// Compile:` command in its header"));
        }
        for (n, args) in commands.iter().enumerate() {
            let shown = format!("hlslc {}", args.join(" "));
            let input = format!("samples/{file}");
            let cl = command_line(args);
            if cl.input.as_deref() != Some(Path::new(&input)) {
                failures.push(format!("{file}: `{shown}` does not compile {input}"));
                continue;
            }
            // The command as written, writing to a scratch file instead: the
            // last -Fo counts.
            let spv = scratch.join(format!("{file}.{n}.spv"));
            let mut cmd_args: Vec<String> = vec!["--verify-ir".into()];
            cmd_args.extend(args.iter().cloned());
            cmd_args.push("-Fo".into());
            cmd_args.push(spv.to_string_lossy().into_owned());
            let out = Command::new(env!("CARGO_BIN_EXE_hlslc"))
                .current_dir(&root)
                .args(&cmd_args)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() {
                failures.push(format!("`{shown}` failed:\n{stderr}"));
                continue;
            }
            let words = common::bytes_to_words(&std::fs::read(&spv).unwrap()).expect("whole words");
            let (env, flags) = validation_of(&cl.options);
            if let Err(e) = common::spirv_val_with(&words, &env, &flags) {
                failures.push(format!("`{shown}`: {e}"));
            }
            compiled += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every entry of every sample, 22 today (compute, vertex, pixel,
    // geometry, hull and domain).
    assert!(compiled >= 22, "only {compiled} commands compiled");
}

#[test]
fn compile_commands_are_read_from_the_header() {
    let text = "// a sample\n//\n// Compile:  hlslc -spirv -T vs_6_0 -E V a.hlsl -Fo a.vs.spv\n\
                //           hlslc -spirv -T ps_6_0 -E P a.hlsl -Fo a.ps.spv\n//\n\
                // Bindings: hlslc is not a command here\nfloat4 x;\n// Compile: hlslc -T cs_6_0 late\n";
    let commands = compile_commands(text);
    let spelled: Vec<String> = commands.iter().map(|c| c.join(" ")).collect();
    assert_eq!(
        spelled,
        [
            "-spirv -T vs_6_0 -E V a.hlsl -Fo a.vs.spv",
            "-spirv -T ps_6_0 -E P a.hlsl -Fo a.ps.spv"
        ]
    );
    assert_eq!(command_line(&commands[1]).options.entry, "P");
    let options =
        |s: &str| command_line(&s.split(' ').map(String::from).collect::<Vec<_>>()).options;
    assert_eq!(
        validation_of(&options("-T cs_6_0 x.hlsl")),
        ("vulkan1.0".to_string(), vec!["--relax-block-layout"])
    );
    assert_eq!(
        validation_of(&options("-T cs_6_0 -fspv-target-env=vulkan1.1 x.hlsl")),
        ("vulkan1.1".to_string(), vec![])
    );
}
