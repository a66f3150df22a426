//! The front end: preprocessor, lexer, parser and AST.
//!
//! [`parse_program`] runs the whole front end on one main file: the
//! preprocessor turns files into one stream of [`lexer::PpToken`]s (each
//! remembering where it came from), and the parser turns that stream into a
//! [`ast::TranslationUnit`].

pub mod ast;
pub mod attributes;
pub mod lexer;
pub mod parser;
pub mod preprocess;

use crate::diag::Diagnostics;
use crate::source::{FileLoader, SourceMap};
use std::path::{Path, PathBuf};

/// The result of running the front end.
pub struct Parsed {
    pub unit: ast::TranslationUnit,
    /// Every file read (the main file first), for depfiles.
    pub dependencies: Vec<PathBuf>,
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
    let unit = parser::parse(&pp.tokens, diags);
    Parsed {
        unit,
        dependencies: pp.dependencies,
    }
}
