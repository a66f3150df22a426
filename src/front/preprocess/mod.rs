//! The C preprocessor as HLSL uses it.
//!
//! Input: a main file and a [`FileLoader`]. Output: one token stream with
//! macro expansions and includes resolved, each token's location recorded in
//! the [`SourceMap`] (expanded tokens remember their spelling and expansion).

use crate::diag::Diagnostics;
use crate::front::lexer::PpToken;
use crate::source::{FileLoader, SourceMap};
use std::path::{Path, PathBuf};

/// What the preprocessor needs from the command line.
#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-D NAME[=VALUE]` in order (value `None` means `1`).
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR` in order.
    pub include_dirs: Vec<PathBuf>,
    /// Predefined macros for the target (name, value), set by the driver from
    /// the profile (`__SHADER_TARGET_STAGE`, `__HLSL_VERSION`, `__spirv__`…).
    pub predefined: Vec<(String, String)>,
}

/// The preprocessed program.
pub struct Preprocessed {
    pub tokens: Vec<PpToken>,
    /// Every file read, the main file first.
    pub dependencies: Vec<PathBuf>,
}

/// Preprocesses `main`.
pub fn preprocess(
    _main: &Path,
    _loader: &dyn FileLoader,
    _options: &PreprocessOptions,
    _sm: &mut SourceMap,
    _diags: &mut Diagnostics,
) -> Preprocessed {
    Preprocessed {
        tokens: Vec::new(),
        dependencies: Vec::new(),
    }
}

/// The macros DXC predefines for the options' profile and flags.
pub fn predefined_macros(_options: &crate::Options) -> Vec<(String, String)> {
    Vec::new()
}

/// Renders preprocessed tokens as text (for `-P`): one output line per
/// source line that produced tokens, spaces where the source had them.
pub fn tokens_to_text(_tokens: &[PpToken], _sm: &SourceMap) -> String {
    String::new()
}
