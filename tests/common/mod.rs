//! Helpers of the integration tests: the repository's files and
//! SPIRV-Tools (shared with the crate's own tests, `tests/unit/common`),
//! and options and loaders through the public API.
#![allow(dead_code)]

#[path = "../../tests/unit/common/files.rs"]
mod files;
#[path = "../../tests/unit/common/spirv_tools.rs"]
mod spirv_tools;
pub use files::*;
pub use spirv_tools::*;

use hlslc::Options;
use std::path::Path;

/// The options every test compiles with: the defaults, with the IR
/// validator on whatever the build profile.
pub fn verified_options() -> Options {
    Options {
        verify_ir: true,
        ..Options::default()
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

impl hlslc::FileLoader for RootedLoader {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(root().join(path))
    }
    fn exists(&self, path: &Path) -> bool {
        root().join(path).is_file()
    }
}
