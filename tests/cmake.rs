//! The CMake example (`examples/cmake`, through `cmake/hlslc.cmake`), built
//! with CMake and Ninja as a C++ engine builds its shaders: the first build
//! compiles every shader and permutation; a second does nothing; touching
//! a header rebuilds exactly the shaders that include it; a shader error
//! fails the build, showing `file:line:col`.
//!
//! Each test builds a copy of `cmake/` and `examples/cmake/` in a new
//! directory under `target/`, laid out as in the repository (the example
//! finds the module at `../../cmake`), so that nothing in the repository is
//! touched. CMake and Ninja must be installed: without them the tests fail,
//! saying how to install them.

use crate::common;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const INSTALL_HINT: &str =
    "the CMake tests need cmake and ninja: `apt-get install cmake ninja-build` (Debian/Ubuntu)";

/// Every SPIR-V module the example builds, by name.
const SHADERS: [&str; 5] = [
    "blur_r2",
    "blur_r4",
    "clear",
    "fullscreen_ps",
    "fullscreen_vs",
];

/// Those whose source includes `shaders/include/common.hlsli`.
const INCLUDERS: [&str; 4] = ["blur_r2", "blur_r4", "fullscreen_ps", "fullscreen_vs"];

/// Runs `program args…` in `dir`; a missing program fails the test with
/// the install hint.
fn run(program: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{program}`: {e}; {INSTALL_HINT}"))
}

/// stdout and stderr, as a terminal would show them (roughly).
fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// A copied example, configured for Ninja with the hlslc under test.
struct Project {
    /// The copy of the repository's layout: `cmake/`, `examples/cmake/`.
    dir: PathBuf,
    build: PathBuf,
}

impl Project {
    /// Copies the example into `target/cmake-example-<tag>-<pid>`, lets
    /// `edit` change the copy, and configures it.
    fn new(tag: &str, edit: impl FnOnce(&Path)) -> Project {
        let dir = common::root().join(format!("target/cmake-example-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_tree(&common::root().join("cmake"), &dir.join("cmake"));
        copy_tree(
            &common::root().join("examples/cmake"),
            &dir.join("examples/cmake"),
        );
        edit(&dir.join("examples/cmake"));
        let build = dir.join("build");
        let version = run("ninja", &dir, &["--version"]);
        assert!(version.status.success(), "{}", text(&version));
        let out = run(
            "cmake",
            &dir,
            &[
                "-S",
                "examples/cmake",
                "-B",
                "build",
                "-G",
                "Ninja",
                &format!("-DHLSLC_EXECUTABLE={}", env!("CARGO_BIN_EXE_hlslc")),
            ],
        );
        assert!(out.status.success(), "cmake failed:\n{}", text(&out));
        Project { dir, build }
    }

    /// `ninja -v` in the build directory (two jobs: the tests share the
    /// machine).
    fn ninja(&self) -> Output {
        run("ninja", &self.build, &["-v", "-j", "2"])
    }

    fn source(&self, path: &str) -> PathBuf {
        self.dir.join("examples/cmake").join(path)
    }

    fn shader_output(&self, file: &str) -> PathBuf {
        self.build.join("shaders").join(file)
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        // Kept when the test failed, for a look at the build.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The shaders a `ninja -v` build compiled: the names of the `-Fo` files
/// in the commands it printed.
fn compiled(o: &Output) -> BTreeSet<String> {
    let out = String::from_utf8_lossy(&o.stdout);
    let mut names = BTreeSet::new();
    for line in out.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            if pair[0] == "-Fo" {
                let stem = Path::new(pair[1]).file_stem().unwrap();
                names.insert(stem.to_string_lossy().into_owned());
            }
        }
    }
    names
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Sets a file's modification time to now, as an editor saving it would.
/// Marks `path` changed. The build's outputs get their times from the
/// kernel's coarse clock, which lags `SystemTime::now()` by up to a tick:
/// an input stamped with `now()` could stay newer than the outputs rebuilt
/// from it (and be rebuilt again by the next run). So the input gets a
/// kernel-stamped time too, taken a few ticks after the last build.
fn touch(path: &Path) {
    std::thread::sleep(std::time::Duration::from_millis(20));
    let probe = path.with_extension("touch-probe");
    std::fs::write(&probe, b"").unwrap();
    let stamp = std::fs::metadata(&probe).unwrap().modified().unwrap();
    std::fs::remove_file(&probe).unwrap();
    let f = std::fs::File::options().append(true).open(path).unwrap();
    f.set_modified(stamp).unwrap();
}

#[test]
fn the_cmake_example_builds_and_rebuilds_exactly_what_a_change_touches() {
    let p = Project::new("build", |_| {});

    // The first build compiles every shader and permutation, warning-free,
    // and the program embedding the headers.
    let first = p.ninja();
    let log = text(&first);
    assert!(first.status.success(), "{log}");
    assert_eq!(compiled(&first), names(&SHADERS), "{log}");
    assert!(!log.contains("warning["), "{log}");
    for name in SHADERS {
        let spv = p.shader_output(&format!("{name}.spv"));
        let bytes = std::fs::read(&spv).unwrap_or_else(|e| panic!("{}: {e}", spv.display()));
        let words = common::bytes_to_words(&bytes)
            .unwrap_or_else(|| panic!("{name}.spv: {} bytes, not whole words", bytes.len()));
        assert_eq!(
            words.first(),
            Some(&0x0723_0203),
            "{name}.spv: SPIR-V magic"
        );
        common::spirv_val(&words, "vulkan1.0").unwrap_or_else(|e| panic!("{name}.spv: {e}"));
    }
    for name in ["fullscreen_vs", "fullscreen_ps"] {
        let json = std::fs::read_to_string(p.shader_output(&format!("{name}.json"))).unwrap();
        serde_json::from_str::<serde_json::Value>(&json)
            .unwrap_or_else(|e| panic!("{name}.json: {e}\n{json}"));
        let header = std::fs::read_to_string(p.shader_output(&format!("{name}.h"))).unwrap();
        assert!(
            header.contains(&format!("const unsigned char {name}_spirv[]")),
            "{header}"
        );
    }
    let viewer = Command::new(p.build.join("viewer")).output().unwrap();
    let shown = text(&viewer);
    assert!(viewer.status.success(), "{shown}");
    assert!(
        shown.contains("fullscreen_vs: ") && shown.contains("fullscreen_ps: "),
        "{shown}"
    );

    // Nothing changed: nothing to do.
    let again = p.ninja();
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("ninja: no work to do."),
        "{}",
        text(&again)
    );

    // The shared header changed: the shaders including it, both
    // permutations of blur and both entries of fullscreen, and not clear.
    touch(&p.source("shaders/include/common.hlsli"));
    let header = p.ninja();
    assert!(header.status.success(), "{}", text(&header));
    assert_eq!(compiled(&header), names(&INCLUDERS), "{}", text(&header));

    // A shader changed: that one alone.
    touch(&p.source("shaders/clear.hlsl"));
    let clear = p.ninja();
    assert!(clear.status.success(), "{}", text(&clear));
    assert_eq!(compiled(&clear), names(&["clear"]), "{}", text(&clear));
}

#[test]
fn a_shader_error_fails_the_cmake_build_with_file_line_and_column() {
    let mut at = (0, 0);
    let p = Project::new("error", |example| {
        let blur = example.join("shaders/blur.hlsl");
        let text = std::fs::read_to_string(&blur).unwrap();
        let (line, code) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains("sum * BLUR_WEIGHT"))
            .unwrap();
        at = (line + 1, code.find("BLUR_WEIGHT").unwrap() + 1);
        std::fs::write(
            &blur,
            text.replace("sum * BLUR_WEIGHT", "sum * BLUR_WIEGHT"),
        )
        .unwrap();
    });
    let (line, column) = at;
    let out = p.ninja();
    let log = text(&out);
    assert!(!out.status.success(), "{log}");
    assert!(log.contains("FAILED: "), "{log}");
    assert!(log.contains("error[E0301]"), "{log}");
    assert!(
        log.contains(&format!("shaders/blur.hlsl:{line}:{column}")),
        "no shaders/blur.hlsl:{line}:{column} in:\n{log}"
    );
    // The caret under the name.
    assert!(log.contains("^^^^^^^^^^^"), "{log}");
    // A failed compile writes no module.
    for name in ["blur_r2", "blur_r4"] {
        assert!(
            !p.shader_output(&format!("{name}.spv")).exists(),
            "{name}.spv"
        );
    }
}
