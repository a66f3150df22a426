//! Joining the lines of a statement that the source breaks where the
//! statement cannot end, so that `ColumnLimit` alone decides its breaks.

use super::{Item, Line, binary_rank, opens_block};
use crate::front::lexer::Token;

/// What a `{` opens, for joining: statements inside, or a list whose
/// lines stay as written (an initializer, an `enum`'s or a `struct`'s
/// members).
#[derive(Clone, Copy, PartialEq)]
enum Open {
    Block,
    List,
}

/// Whether `t` is a binary operator (`+` and `-` only with `unary_too`)
/// or an assignment, other than `<`, `>` and `>>`, which may close a
/// template argument list.
fn operator(t: Token, unary_too: bool) -> bool {
    let before = unary_too.then_some(Token::Ident);
    binary_rank(t, before).is_some() && !matches!(t, Token::Lt | Token::Gt | Token::Shr)
}

/// Whether a line ending in `t` goes on: `t` is a binary operator, an
/// assignment, an opening bracket, a comma, a `.`, `::`, `?` or `return`.
fn continues_after(t: Token) -> bool {
    use Token::*;
    operator(t, true) || matches!(t, Comma | Dot | ColonColon | LParen | LBracket | Return)
}

/// Whether a line starting with `t` continues the line before: `t` can
/// only follow an operand (a binary operator that is never unary, `?`,
/// `:`, `.`, `,`, a closing bracket, an assignment).
fn continues_before(t: Token) -> bool {
    use Token::*;
    operator(t, false) || matches!(t, Comma | Dot | Colon | RParen | RBracket)
}

/// Whether a line ending in `t` ends with a value, so that a `+` or `-`
/// starting the next line is binary. (A `)` may end a macro's invocation
/// or a statement's head instead.)
fn ends_value(t: Token) -> bool {
    use Token::*;
    matches!(t, Ident | IntLit | FloatLit | RBracket | True | False)
}

/// The lines with each statement's continuation lines joined to the line
/// before: where the line before ends inside parentheses or brackets, or
/// ends (or the next line starts) with a token that cannot end (or start)
/// a statement. Lines inside initializer lists and `struct` or `enum`
/// bodies, lines around a comment at the break, and lines apart (a blank
/// or preprocessor line between them) stay as they are.
pub(super) fn join(lines: Vec<Line<'_>>) -> Vec<Line<'_>> {
    let mut out: Vec<Line> = Vec::with_capacity(lines.len());
    let mut braces: Vec<Open> = Vec::new();
    let mut parens = 0i32;
    let mut last: Option<Item> = None;
    let mut aggregate = false;
    // Whether the last line pushed is code that the next may join.
    let mut joinable = false;
    for line in lines {
        let Line::Code(mut items) = line else {
            joinable = false;
            out.push(line);
            continue;
        };
        let first = match items.first() {
            Some(Item::Tok(k, ..)) => Some(*k),
            _ => None,
        };
        let join = joinable
            && braces.last() != Some(&Open::List)
            && first.is_some()
            && match out.last() {
                Some(Line::Code(prev)) => match prev.last() {
                    Some(Item::Tok(k, ..)) => {
                        parens > 0
                            || continues_after(*k)
                            || first.is_some_and(continues_before)
                            || ends_value(*k) && matches!(first, Some(Token::Plus | Token::Minus))
                    }
                    _ => false,
                },
                _ => false,
            };
        for item in &items {
            let Item::Tok(k, ..) = item else { continue };
            match k {
                Token::Struct | Token::Class | Token::Interface | Token::Enum | Token::Cbuffer
                | Token::Tbuffer => aggregate = true,
                Token::LBrace => {
                    let list = !opens_block(last.as_ref()) || aggregate;
                    braces.push(if list { Open::List } else { Open::Block });
                    aggregate = false;
                    // A block starts outside any parentheses (what an `#if`
                    // left unbalanced is forgotten here).
                    if !list {
                        parens = 0;
                    }
                }
                Token::RBrace => {
                    if braces.pop() == Some(Open::Block) {
                        parens = 0;
                    }
                    aggregate = false;
                }
                Token::Semi => aggregate = false,
                Token::LParen | Token::LBracket => parens += 1,
                Token::RParen | Token::RBracket => parens = (parens - 1).max(0),
                _ => {}
            }
            last = Some(item.clone());
        }
        joinable = true;
        if join && let Some(Line::Code(prev)) = out.last_mut() {
            // A line break is a space.
            if let Some(Item::Tok(_, _, spaced)) = items.first_mut() {
                *spaced = true;
            }
            prev.append(&mut items);
        } else {
            out.push(Line::Code(items));
        }
    }
    out
}
