//! C-style casts: `(float4)x`, `(S<T>)0`, which the layout writes without
//! a space after the `)`.

use super::Item;
use crate::front::lexer::Token;

/// Whether each item of a line is the `)` of a cast: a `(` that follows
/// no operand and no keyword that takes parentheses (it is no call's and
/// no `if`'s), holding only what a type is spelled with, and an operand
/// right after the `)`.
pub(super) fn closes_cast(items: &[Item]) -> Vec<bool> {
    let toks: Vec<(usize, Token)> = items
        .iter()
        .enumerate()
        .filter_map(|(n, i)| match i {
            Item::Tok(k, ..) => Some((n, *k)),
            Item::Comment(_) => None,
        })
        .collect();
    let mut out = vec![false; items.len()];
    for (i, &(_, k)) in toks.iter().enumerate() {
        if k != Token::LParen {
            continue;
        }
        let after_operand = i > 0 && {
            let p = toks[i - 1].1;
            super::ends_operand(p)
                || p == Token::Gt
                || matches!(
                    p,
                    Token::If
                        | Token::For
                        | Token::While
                        | Token::Switch
                        | Token::Sizeof
                        | Token::Register
                        | Token::Packoffset
                )
        };
        if after_operand {
            continue;
        }
        // The type: names, keywords, `::` and template arguments.
        let mut j = i + 1;
        let mut names = 0;
        while let Some(&(_, t)) = toks.get(j) {
            match t {
                Token::Ident => names += 1,
                Token::ColonColon | Token::Lt | Token::Gt | Token::Shr | Token::Comma | Token::IntLit => {}
                _ if t.is_keyword() => {}
                _ => break,
            }
            j += 1;
        }
        let operand_follows = matches!(
            toks.get(j + 1).map(|t| t.1),
            Some(
                Token::Ident
                    | Token::IntLit
                    | Token::FloatLit
                    | Token::LParen
                    | Token::True
                    | Token::False
                    | Token::Bang
                    | Token::Tilde
            )
        );
        if names > 0 && toks.get(j).map(|t| t.1) == Some(Token::RParen) && operand_follows {
            out[toks[j].0] = true;
        }
    }
    out
}
