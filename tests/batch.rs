//! Batch compiles: `hlslc --jobs-file`, `@file` response files, and the
//! jobs-file diagnostics (`tests/in/batch/NAME.jobs` → `NAME.stderr`).

use crate::common;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hlslc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hlslc"));
    c.current_dir(common::root());
    c
}

/// A fresh directory for one test's outputs (removed when dropped).
fn scratch(name: &str) -> tempfile::TempDir {
    common::scratch_dir(&format!("hlslc-batch-{name}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Quotes a word for a jobs file (as a POSIX shell would read it).
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// Every sample's compile commands, each in `variants` define sets, with
/// outputs (`-Fo`, `-Fre`, `-MF`) named after the job under `out`.
fn sample_jobs(out: &Path, variants: usize) -> Vec<Vec<String>> {
    let mut jobs = Vec::new();
    for (n, cmd) in crate::samples::all_compile_commands().iter().enumerate() {
        for v in 0..variants {
            let stem = out.join(format!("{n}-{v}")).display().to_string();
            let mut args: Vec<String> = cmd.iter().take_while(|a| *a != "-Fo").cloned().collect();
            args.extend([
                format!("-DVARIANT={v}"),
                "-Fo".into(),
                format!("{stem}.spv"),
                "-Fre".into(),
                format!("{stem}.json"),
                "-MF".into(),
                format!("{stem}.d"),
            ]);
            jobs.push(args);
        }
    }
    jobs
}

fn write_jobs(path: &Path, jobs: &[Vec<String>]) {
    let mut file = String::from("# one command line a line\n\n");
    for job in jobs {
        let words: Vec<String> = job.iter().map(|w| quote(w)).collect();
        file.push_str(&words.join(" "));
        file.push('\n');
    }
    std::fs::write(path, file).unwrap();
}

/// The files of `dir`, by name, with their bytes.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_batch_writes_what_separate_processes_write_byte_for_byte() {
    let (batch_tmp, single_tmp) = (scratch("same-batch"), scratch("same-single"));
    let (batch, single) = (batch_tmp.path(), single_tmp.path());
    let jobs = sample_jobs(batch, 3);
    assert!(jobs.len() >= 30, "{} jobs", jobs.len());
    let jobs_file = batch.join("jobs.txt");
    write_jobs(&jobs_file, &jobs);
    let out = hlslc()
        .arg("--jobs-file")
        .arg(&jobs_file)
        .args(["-j", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::remove_file(&jobs_file).unwrap();
    for job in sample_jobs(single, 3) {
        let out = hlslc().args(&job).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let (b, s) = (files_of(batch), files_of(single));
    assert_eq!(b.len(), 3 * jobs.len());
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&b), names(&s));
    for ((name, bytes), (_, other)) in b.iter().zip(&s) {
        // The depfiles name their targets, which sit in other directories.
        let (bytes, other) = if name.ends_with(".d") {
            let strip = |t: &[u8], d: &Path| text(t).replace(&d.display().to_string(), "OUT");
            (
                strip(bytes, batch).into_bytes(),
                strip(other, single).into_bytes(),
            )
        } else {
            (bytes.clone(), other.clone())
        };
        assert!(
            bytes == other,
            "{name} differs between the batch and its own process"
        );
    }
}

/// Runs a jobs file of `lines` from the repository root.
fn run_jobs(dir: &Path, lines: &str, extra: &[&str]) -> Output {
    let jobs = dir.join("jobs.txt");
    std::fs::write(&jobs, lines).unwrap();
    hlslc()
        .arg("--jobs-file")
        .arg(&jobs)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_failing_job_fails_the_batch_and_the_others_still_compile() {
    let tmp = scratch("fail");
    let dir = tmp.path();
    let d = dir.display();
    std::fs::write(
        dir.join("bad.hlsl"),
        "[numthreads(1, 1, 1)] void main() { undefined_name = 1; }\n",
    )
    .unwrap();
    let lines = format!(
        "-T cs_6_0 samples/blur.hlsl -Fo {d}/a.spv\n\
         -T cs_6_0 {d}/bad.hlsl -Fo {d}/bad.spv\n\
         # a comment line between jobs\n\
         -T cs_6_0 samples/histogram.hlsl -Fo {d}/c.spv\n\
         -T cs_6_0 {d}/bad.hlsl -Fo {d}/bad2.spv -DX=1\n"
    );
    let out = run_jobs(dir, &lines, &["-j", "2"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(dir.join("a.spv").is_file() && dir.join("c.spv").is_file());
    assert!(!dir.join("bad.spv").exists());
    // Each failing job's diagnostics under its heading, in job order.
    let first = format!("job 2 ({d}/jobs.txt:2, {d}/bad.spv):\n");
    let second = format!("job 4 ({d}/jobs.txt:5, {d}/bad2.spv):\n");
    let (Some(a), Some(b)) = (stderr.find(&first), stderr.find(&second)) else {
        panic!("no job headings in {stderr}");
    };
    assert!(a < b, "{stderr}");
    assert_eq!(stderr.matches("error[E0301]").count(), 2, "{stderr}");
    assert!(stderr[a..b].contains("bad.hlsl:1:37"), "{stderr}");
    assert!(stderr.contains("2 of 4 jobs failed"), "{stderr}");
}

#[test]
fn arguments_beside_the_jobs_file_go_to_every_job_and_json_names_the_job() {
    let tmp = scratch("common");
    let dir = tmp.path();
    let d = dir.display();
    std::fs::write(dir.join("inc.hlsl"), "#include \"lib.hlsli\"\n").unwrap();
    std::fs::create_dir_all(dir.join("include")).unwrap();
    std::fs::write(
        dir.join("include/lib.hlsli"),
        "[numthreads(1, 1, 1)] void main() { nope(); }\n",
    )
    .unwrap();
    let lines = format!("{d}/inc.hlsl -Fo {d}/x.spv\n");
    let include = format!("-I{d}/include");
    let out = run_jobs(
        dir,
        &lines,
        &["-T", "cs_6_0", &include, "--diagnostics-format=json"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(first).expect(first);
    assert_eq!(v["job"], format!("job 1 ({d}/jobs.txt:1, {d}/x.spv)"));
    assert!(
        v["code"].as_str().is_some_and(|c| c.starts_with('E')),
        "{first}"
    );
}

#[test]
fn a_response_file_is_one_command_line() {
    let tmp = scratch("rsp");
    let dir = tmp.path();
    let d = dir.display();
    // Several lines, quoting and a comment: still one command line.
    std::fs::write(
        dir.join("args.rsp"),
        format!("-T cs_6_0 -E main\n# the input\n'samples/blur.hlsl'\n-Fo \"{d}/r.spv\"\n"),
    )
    .unwrap();
    let out = hlslc().arg(format!("@{d}/args.rsp")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rsp = std::fs::read(dir.join("r.spv")).unwrap();
    let direct = dir.join("d.spv");
    let out = hlslc()
        .args(["-T", "cs_6_0", "-E", "main", "samples/blur.hlsl", "-Fo"])
        .arg(&direct)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(rsp == std::fs::read(&direct).unwrap());
}

/// The diagnostics of broken jobs files and batch options, as rendered.
#[test]
fn batch_diagnostics_render_as_expected() {
    let dir = common::root().join("tests/in/batch");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jobs"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in cases {
        let rel = case.strip_prefix(common::root()).unwrap();
        let out = hlslc().arg("--jobs-file").arg(rel).output().unwrap();
        if out.status.code() != Some(1) {
            failures.push(format!("{}: exit {:?}", rel.display(), out.status.code()));
        }
        if let Err(e) = common::check_or_bless(&case.with_extension("stderr"), &text(&out.stderr)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A build script in the style of a public Vulkan sample collection's: it
/// runs the compiler with `''` for each option a shader does not need,
/// which DXC skips. So does hlslc: on the command line, in a response
/// file and in a jobs file, and the SPIR-V is what the command line
/// without them gives.
#[test]
fn empty_arguments_are_skipped_as_dxc_skips_them() {
    let tmp = scratch("empty-args");
    let dir = tmp.path();
    let d = dir.display();
    let plain = dir.join("plain.spv");
    let out = hlslc()
        .args([
            "-spirv",
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "samples/blur.hlsl",
            "-Fo",
        ])
        .arg(&plain)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = std::fs::read(&plain).unwrap();

    // The build script itself, where Python is installed.
    let script = dir.join("build_shaders.py");
    std::fs::write(
        &script,
        "import subprocess, sys\n\
         hlslc, src, out = sys.argv[1:4]\n\
         extra = ''  # no -fvk-invert-y for a compute shader\n\
         args = [hlslc, '-spirv', '-T', 'cs_6_0', '-E', 'main', extra, '', src, '-Fo', out]\n\
         sys.exit(subprocess.run(args).returncode)\n",
    )
    .unwrap();
    match Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_hlslc"))
        .arg("samples/blur.hlsl")
        .arg(dir.join("script.spv"))
        .current_dir(common::root())
        .output()
    {
        Ok(out) => {
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            assert!(std::fs::read(dir.join("script.spv")).unwrap() == expected);
        }
        Err(e) => eprintln!("build-script run skipped: no python3 ({e})"),
    }

    // The same words without Python, as any build tool passes them.
    let direct = dir.join("direct.spv");
    let out = hlslc()
        .args([
            "-spirv",
            "-T",
            "cs_6_0",
            "",
            "-E",
            "main",
            "",
            "samples/blur.hlsl",
            "",
        ])
        .arg("-Fo")
        .arg(&direct)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(&direct).unwrap() == expected);

    // A response file and a jobs file with empty words; a jobs-file line
    // of empty words only is no job.
    std::fs::write(
        dir.join("args.rsp"),
        format!("-T cs_6_0 '' -E main \"\" samples/blur.hlsl -Fo '{d}/rsp.spv' ''\n"),
    )
    .unwrap();
    let out = hlslc().arg(format!("@{d}/args.rsp")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(dir.join("rsp.spv")).unwrap() == expected);
    let lines = format!("-T cs_6_0 '' -E main '' samples/blur.hlsl -Fo {d}/job.spv\n'' \"\"\n");
    let out = run_jobs(dir, &lines, &[""]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(dir.join("job.spv")).unwrap() == expected);
}
