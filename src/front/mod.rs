//! The front end: preprocessor, lexer, parser and AST.
//!
//! [`parse_program`] runs the whole front end on one main file: the
//! preprocessor turns files into one stream of [`lexer::PpToken`]s (each
//! remembering where it came from), and the parser turns that stream into a
//! [`ast::TranslationUnit`].

pub mod ast;
pub mod attributes;
pub mod format;
pub mod headers;
pub mod lexer;
pub mod loader;
mod parse_cache;
pub mod parser;
pub mod preprocess;

pub use parse_cache::ParseCache;

use crate::diag::Diagnostics;
use crate::source::SourceMap;
use loader::FileLoader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The result of running the front end.
pub struct Parsed {
    /// Shared with other compiles of a batch whose tokens were the same
    /// (see [`ParseCache`]).
    pub unit: Arc<ast::TranslationUnit>,
    /// Every file read (the main file first), for depfiles.
    pub dependencies: Vec<PathBuf>,
}

/// The radix of a C integer literal's digits (`0x` hex, a leading `0`
/// octal, else decimal) and the digits after the prefix.
pub fn int_radix(digits: &str) -> (u32, &str) {
    if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, h)
    } else if let Some(b) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        // Binary literals (C23, clang and DXC): `0b0101u`.
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    }
}

/// Preprocesses and parses `main` (read through `loader`).
pub fn parse_program(
    main: &Path,
    loader: &dyn FileLoader,
    options: &preprocess::PreprocessOptions,
    sm: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Parsed {
    let pp = preprocess::preprocess(main, loader, options, sm, diags);
    let unit = match loader.parse_cache() {
        Some(cache) => cache.parse(pp.tokens, diags),
        None => Arc::new(parser::parse(&pp.tokens, diags)),
    };
    Parsed {
        unit,
        dependencies: pp.dependencies,
    }
}
