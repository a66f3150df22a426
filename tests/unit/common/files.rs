//! Files of the repository: where it is, and expected outputs compared or
//! rewritten (`HLSLC_BLESS=1`), and scratch directories. The integration
//! tests (`tests/common`) use this file too.

use std::path::{Path, PathBuf};

/// The repository root (where Cargo.toml is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A new, empty directory under the system's temporary directory, named
/// `<prefix>-<random>`, removed with everything in it when the value is
/// dropped (at the end of the test, passed or failed), so that test runs
/// leave nothing behind.
pub fn scratch_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("{prefix}-"))
        .tempdir()
        .expect("creating a scratch directory")
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
