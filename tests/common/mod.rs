//! Helpers shared by the test modules.
#![allow(dead_code)]

mod spirv_tools;
pub use spirv_tools::*;

use hlslc::Options;
use hlslc::source::MemoryLoader;
use std::path::{Path, PathBuf};

/// The repository root (where Cargo.toml is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// True when expected outputs should be rewritten instead of compared.
pub fn blessing() -> bool {
    std::env::var_os("HLSLC_BLESS").is_some_and(|v| v != "0")
}

/// Compares `actual` with the file at `expected_path`, or rewrites the file
/// when blessing. Returns an error message with a diff-like report.
pub fn check_or_bless(expected_path: &Path, actual: &str) -> Result<(), String> {
    if blessing() {
        std::fs::write(expected_path, actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    let mut report = format!(
        "{} differs (HLSLC_BLESS=1 to accept):\n",
        expected_path.display()
    );
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i).copied(), a.get(i).copied());
        if x != y {
            report.push_str(&format!(
                "  line {}:\n  - {}\n  + {}\n",
                i + 1,
                x.unwrap_or("<none>"),
                y.unwrap_or("<none>")
            ));
        }
    }
    Err(report)
}

/// An in-memory loader holding one file, `main.hlsl`.
pub fn single_file(text: &str) -> (MemoryLoader, PathBuf) {
    let mut l = MemoryLoader::new();
    l.add("main.hlsl", text);
    (l, PathBuf::from("main.hlsl"))
}

/// The options every test compiles with: the defaults, with the IR
/// validator on after lowering and after every pass whatever the build
/// profile (`cargo test --release` has no debug assertions), so that a pass
/// leaving invalid IR fails the test that reaches it.
pub fn verified_options() -> Options {
    Options {
        verify_ir: true,
        ..Options::default()
    }
}

/// [`verified_options`] for a profile such as `cs_6_0`.
pub fn options_for(profile: &str) -> Options {
    Options {
        profile: hlslc::options::Profile::parse(profile),
        ..verified_options()
    }
}

/// [`verified_options`] as a DXC-style command line sets them, read by the
/// library's parser (`Options::from_args`); `Err` renders its errors.
pub fn options_from_args<S: AsRef<str>>(args: &[S]) -> Result<Options, String> {
    let args = std::iter::once("--verify-ir").chain(args.iter().map(AsRef::as_ref));
    Options::from_args(args).map_err(|errors| {
        errors
            .iter()
            .map(|e| e.message.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// Reads paths relative to the repository root, so that diagnostics name
/// files as `tests/in/...` wherever the tests run.
pub struct RootedLoader;

impl hlslc::source::FileLoader for RootedLoader {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(root().join(path))
    }
    fn exists(&self, path: &Path) -> bool {
        root().join(path).is_file()
    }
}
