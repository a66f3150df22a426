//! The parser: the lalrpop grammar (`grammar/hlsl.lalrpop`), its token
//! adapter ([`adapter`]), the AST building its actions use ([`build`]), and
//! the one conversion of lalrpop errors into diagnostics ([`error`]).
//!
//! Syntax errors are recovered from at declaration, member, parameter and
//! statement level (lalrpop's `!` token), so one mistake does not hide the
//! next. Depth is bounded: brackets by the adapter, expressions and
//! statements by the actions (see [`MAX_NESTING`]).

mod adapter;
mod build;
mod ctx;
mod error;

pub use build::{
    BinSeq, CbMember, Cond, Decl, DeclSpecs, FnParts, FnTail, PExpr, PStmt, PostAnnots, TypedefOut,
    deeper, sp,
};
pub use ctx::ParseCtx;

use crate::diag::Diagnostics;
use crate::front::ast;
use crate::front::lexer::{PpToken, Token};
use crate::intern::Symbol;

lalrpop_util::lalrpop_mod!(
    #[allow(
        clippy::all,
        clippy::pedantic,
        unused_parens,
        unused_imports,
        dead_code,
        unused_mut
    )]
    grammar,
    "/hlsl.rs"
);

/// The deepest nesting of brackets, blocks and expressions the parser accepts.
pub const MAX_NESTING: usize = 256;

/// The most syntax errors the parser recovers from, counting those not
/// reported because they follow another too closely; then it stops. Each
/// recovery makes lalrpop compute the expected tokens from the whole parse
/// stack, so a stream of tokens that are each an error (megabytes of a
/// runaway macro's output) would otherwise take minutes.
pub const MAX_RECOVERIES: u32 = 1000;

/// A token as the grammar sees it: the (re)classified kind, its text, and
/// its index in the parser's input (for diagnostics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: Token,
    pub sym: Symbol,
    pub idx: u32,
}

/// Parses a preprocessed token stream. Syntax errors are reported to `diags`;
/// the parts that parsed are returned (a declaration that failed to parse is
/// an `Item::Error`).
pub fn parse(tokens: &[PpToken], diags: &mut Diagnostics) -> ast::TranslationUnit {
    let ctx = ParseCtx::new(tokens);
    let result = grammar::TranslationUnitParser::new().parse(&ctx, adapter::Adapter::new(&ctx));
    let mut unit = match result {
        Ok(unit) => unit,
        Err(e) => {
            ctx.report_parse_error(&e);
            ast::TranslationUnit::default()
        }
    };
    unit.reads_vertex_attributes = ctx.vertex_attribute_call.get();
    diags.extend(ctx.into_diagnostics());
    unit
}
