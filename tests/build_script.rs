//! The build-script example (`examples/build-script`), built by Cargo as a
//! user builds it: it compiles and runs; touching the header its shader
//! includes runs the build script again, and nothing else does; a shader
//! error fails the build, showing `file:line:col`.
//!
//! The example is built into `target/build-script-example`, its own target
//! directory: kept between runs (only the first build compiles hlslc and
//! its dependencies), and not the one the running `cargo test` holds a
//! lock on.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn target_dir() -> PathBuf {
    common::root().join("target/build-script-example")
}

/// The builds share one target directory: one at a time, so that what one
/// test asserts about Cargo's reruns is about its own builds.
static ONE_BUILD_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `cargo build --release -v` of the package at `manifest`.
fn cargo_build(manifest: &Path) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["build", "--release", "-v", "--manifest-path"])
        .arg(manifest)
        .arg("--target-dir")
        .arg(target_dir())
        .output()
        .expect("cargo runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether Cargo ran the example's build script in that build.
fn ran_build_script(o: &Output) -> bool {
    stderr(o)
        .lines()
        .any(|l| l.trim_start().starts_with("Running") && l.contains("build-script-build"))
}

/// Sets a file's modification time to now, as an editor saving it would.
fn touch(path: &Path) {
    let f = std::fs::File::options().append(true).open(path).unwrap();
    f.set_modified(std::time::SystemTime::now()).unwrap();
}

#[test]
fn the_build_script_example_builds_runs_and_reruns_on_header_changes() {
    let _one = ONE_BUILD_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let example = common::root().join("examples/build-script");
    let manifest = example.join("Cargo.toml");
    let first = cargo_build(&manifest);
    assert!(first.status.success(), "{}", stderr(&first));

    let exe = target_dir().join("release/hlslc-build-script-example");
    let run = Command::new(&exe).output().expect("the example runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", stderr(&run));
    assert!(
        stdout.contains("blur: ") && stdout.contains("words of SPIR-V 1.3"),
        "{stdout}"
    );
    assert!(stdout.contains("tint: "), "{stdout}");

    // Nothing changed: the build script does not run.
    let again = cargo_build(&manifest);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(!ran_build_script(&again), "{}", stderr(&again));

    // The header both shaders include changed: it runs.
    touch(&example.join("shaders/include/common.hlsli"));
    let touched = cargo_build(&manifest);
    assert!(touched.status.success(), "{}", stderr(&touched));
    assert!(ran_build_script(&touched), "{}", stderr(&touched));
}

#[test]
fn a_shader_error_fails_the_build_with_file_line_and_column() {
    let _one = ONE_BUILD_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    // A copy of the example with a mistake, under target/ so that its
    // `path = "../.."` still names hlslc and the compiled hlslc is shared;
    // a new directory each run, so that no earlier build of it is reused.
    let copy = common::root().join(format!("target/build-script-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    let example = common::root().join("examples/build-script");
    for f in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src/main.rs",
        "shaders/blur.hlsl",
        "shaders/tint.hlsl",
        "shaders/include/common.hlsli",
    ] {
        let to = copy.join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(example.join(f), &to).unwrap();
    }
    let blur = copy.join("shaders/blur.hlsl");
    let text = std::fs::read_to_string(&blur).unwrap();
    std::fs::write(&blur, text.replace("sum * WEIGHT", "sum * WEIGTH")).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("sum * WEIGHT"))
        .unwrap()
        + 1;
    let column = text.lines().nth(line - 1).unwrap().find("WEIGHT").unwrap() + 1;

    let out = cargo_build(&copy.join("Cargo.toml"));
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("error[E0301]"), "{err}");
    assert!(
        err.contains(&format!("shaders/blur.hlsl:{line}:{column}")),
        "no shaders/blur.hlsl:{line}:{column} in:\n{err}"
    );
    // The caret under the name.
    assert!(err.contains("^^^^^^"), "{err}");
    let _ = std::fs::remove_dir_all(&copy);
}

/// The crates `cargo tree` lists for a manifest, with the given extra
/// arguments.
fn cargo_tree(manifest: &Path, extra: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--prefix", "none", "--manifest-path"])
        .arg(manifest)
        .args(extra)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn has_crate(tree: &str, name: &str) -> bool {
    tree.lines()
        .any(|l| l.split_whitespace().next() == Some(name))
}

#[test]
fn without_default_features_there_is_no_clap_or_language_server() {
    // The example, as a build script uses hlslc.
    let example = cargo_tree(
        &common::root().join("examples/build-script/Cargo.toml"),
        &[],
    );
    assert!(
        has_crate(&example, "hlslc") && has_crate(&example, "rspirv"),
        "{example}"
    );
    // hlslc's own features: on by default, off without them.
    let root = common::root().join("Cargo.toml");
    let full = cargo_tree(&root, &["-e", "normal"]);
    let bare = cargo_tree(&root, &["-e", "normal", "--no-default-features"]);
    for name in ["clap", "lsp-server", "lsp-types"] {
        assert!(
            !has_crate(&example, name),
            "{name} in the example:\n{example}"
        );
        assert!(
            !has_crate(&bare, name),
            "{name} without default features:\n{bare}"
        );
        assert!(
            has_crate(&full, name),
            "{name} missing with default features:\n{full}"
        );
    }
}
