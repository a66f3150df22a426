//! Template brackets or comparisons: what each `<`, `>` and `>>` on a
//! line is, as far as the tokens around it tell.
//!
//! A `<` after a name opens a template argument list when a matching `>`
//! follows on the line with only what template arguments hold in between
//! (names, keywords, integers, commas, `::`, nested lists, parenthesised
//! expressions), and the name is a template: a built-in type
//! (`vector<float, 2>`, `Texture2D<float4>`), a name the file declares after
//! `template <…>`, a method (`buf.Load<uint2>(0)`), or a name followed by
//! what follows a type or a call (`Pair<int> p`, `make<T>(x)`). A `<` that
//! meets `;`, `&&`, `?`, an unopened `)` or another operator first, or
//! that follows a literal or a `)`, compares. What the line does not
//! settle keeps the spacing it has.

use super::Item;
use crate::front::lexer::Token;
use crate::intern::{Symbol, builtins};
use std::collections::HashSet;

/// What an angle token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Angle {
    /// Opens a template argument list.
    Open,
    /// Closes one (`>`) or two (`>>`).
    Close,
    /// A comparison or shift.
    Operator,
    /// Not known: spaced as written.
    Keep,
}

/// The names the text declares as templates (the name after
/// `template <…>` and a `struct`/`class` keyword, or before the first `(`).
pub(super) fn declared_templates<'t>(lines: &[super::Line<'t>]) -> HashSet<&'t str> {
    let toks: Vec<(Token, &str)> = lines
        .iter()
        .filter_map(|l| match l {
            super::Line::Code(items) => Some(items),
            _ => None,
        })
        .flatten()
        .filter_map(|i| match i {
            Item::Tok(k, t, _) => Some((*k, *t)),
            Item::Comment(_) => None,
        })
        .collect();
    let mut names = HashSet::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].0 != Token::Template || toks.get(i + 1).map(|t| t.0) != Some(Token::Lt) {
            i += 1;
            continue;
        }
        // Past the parameter list.
        let mut depth = 0;
        let mut j = i + 1;
        while let Some(&(k, _)) = toks.get(j) {
            depth += match k {
                Token::Lt => 1,
                Token::Gt => -1,
                Token::Shr => -2,
                _ => 0,
            };
            j += 1;
            if depth <= 0 {
                break;
            }
        }
        // The declared name.
        let mut k = j;
        while let Some(&(t, _)) = toks.get(k) {
            match t {
                Token::Struct | Token::Class => {
                    if let Some(&(Token::Ident, name)) = toks.get(k + 1) {
                        names.insert(name);
                    }
                    break;
                }
                Token::LParen => {
                    if k > j && toks[k - 1].0 == Token::Ident {
                        names.insert(toks[k - 1].1);
                    }
                    break;
                }
                Token::Semi | Token::LBrace => break,
                _ => {}
            }
            k += 1;
        }
        i = j;
    }
    names
}

/// Whether `t` may stand inside a template argument list (outside
/// parentheses).
fn in_arguments(t: Token) -> bool {
    matches!(t, Token::Ident | Token::IntLit | Token::Comma | Token::ColonColon) || t.is_keyword()
}

/// The angle kind of each of a line's `items` (`None` for the other
/// items), from its tokens (see `line_tokens`).
pub(super) fn classify(toks: &[(usize, Token, &str)], items: usize, templates: &HashSet<&str>) -> Vec<Option<Angle>> {
    let mut out = vec![None; items];
    let kind = |i: usize| toks.get(i).map(|t| t.1);
    let mut unsure = false;
    for i in 0..toks.len() {
        let (n, k, _) = toks[i];
        if k != Token::Lt {
            continue;
        }
        let prev = i.checked_sub(1).map(|p| toks[p]);
        let angle = match prev {
            Some((_, Token::Template, _)) => match match_close(toks, i) {
                Ok(Some(close)) => {
                    out[toks[close].0] = Some(Angle::Close);
                    Angle::Open
                }
                _ => Angle::Keep,
            },
            Some((_, Token::Ident, name)) => match match_close(toks, i) {
                Err(()) => Angle::Operator,
                Ok(None) => Angle::Keep,
                Ok(Some(close)) => {
                    let after = kind(close + 1);
                    let method = i >= 2 && toks[i - 2].1 == Token::Dot;
                    let known = templates.contains(name)
                        || builtins::is_builtin_type(Symbol::intern(name))
                        || method && after == Some(Token::LParen);
                    if known || matches!(after, Some(Token::Ident | Token::ColonColon | Token::LParen)) {
                        out[toks[close].0] = Some(Angle::Close);
                        Angle::Open
                    } else {
                        Angle::Keep
                    }
                }
            },
            Some((_, p, _)) if super::ends_operand(p) => Angle::Operator,
            _ => Angle::Keep,
        };
        unsure |= angle == Angle::Keep;
        out[n] = Some(angle);
    }
    // The `>` and `>>` no `<` claimed.
    for (i, &(n, k, _)) in toks.iter().enumerate() {
        if matches!(k, Token::Gt | Token::Shr) && out[n].is_none() {
            let operands = i > 0
                && super::ends_operand(toks[i - 1].1)
                && kind(i + 1).is_some_and(|t| !matches!(t, Token::Semi | Token::Comma | Token::RParen));
            out[n] = Some(if operands && !unsure {
                Angle::Operator
            } else {
                Angle::Keep
            });
        }
    }
    out
}

/// The index of the `>` (or `>>`) that closes the `<` at `open`:
/// `Err` when something only an expression holds comes first, `Ok(None)`
/// when the line ends first.
fn match_close(toks: &[(usize, Token, &str)], open: usize) -> Result<Option<usize>, ()> {
    let mut depth = 1i32;
    let mut parens = 0i32;
    for (j, &(_, k, _)) in toks.iter().enumerate().skip(open + 1) {
        match k {
            Token::Lt if parens == 0 => depth += 1,
            Token::Gt if parens == 0 => {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(j));
                }
            }
            // `>>` closes this list and the one around it.
            Token::Shr if parens == 0 => {
                depth -= 2;
                if depth <= 0 {
                    return Ok(Some(j));
                }
            }
            Token::LParen | Token::LBracket => parens += 1,
            Token::RParen | Token::RBracket => {
                if parens == 0 {
                    return Err(());
                }
                parens -= 1;
            }
            _ if parens > 0 && !matches!(k, Token::Semi | Token::LBrace | Token::RBrace) => {}
            _ if in_arguments(k) => {}
            _ => return Err(()),
        }
    }
    Ok(None)
}
