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

use crate::diag::{Diagnostic, Diagnostics};
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
///
/// Every terminal's value is the whole `Tok` (the grammar reads its `sym`):
/// one kind of stack symbol for all tokens, so shifting a token does not
/// check which terminal it is to take its text out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: Token,
    pub sym: Symbol,
    pub idx: u32,
}

/// Nothing to free; the (empty) drop makes taking a `Tok` out of one of
/// lalrpop's stack symbols a move that ends the symbol. A value without
/// drop glue (a `Copy` one, or a `Tok` without this) is copied out instead,
/// and the symbol left behind is then dropped: a call into the stack
/// symbol's drop glue for every token a reduction consumes.
impl Drop for Tok {
    fn drop(&mut self) {}
}

/// Parses a preprocessed token stream. Syntax errors are reported to `diags`;
/// the parts that parsed are returned (a declaration that failed to parse is
/// an `Item::Error`).
pub fn parse(tokens: &[PpToken], diags: &mut Diagnostics) -> ast::TranslationUnit {
    let (unit, found) = parse_apart(tokens);
    diags.extend(found);
    unit
}

/// As [`parse`], with the syntax errors returned beside the tree (for
/// [`crate::front::ParseCache`], which keeps them with it).
pub fn parse_apart(tokens: &[PpToken]) -> (ast::TranslationUnit, Vec<Diagnostic>) {
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
    (unit, ctx.into_diagnostics())
}

#[cfg(test)]
mod tests {
    use super::Tok;

    /// `Tok`'s drop keeps each reduction from dropping the stack symbols it
    /// takes tokens from (see its `Drop`): a `Tok` made `Copy`, or without
    /// drop glue, would bring one call per consumed token back.
    #[test]
    fn tokens_leave_stack_symbols_by_move() {
        assert!(std::mem::needs_drop::<Tok>());
    }
}
