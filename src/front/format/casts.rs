//! What a bracket is, from the tokens around it: the `)` of a C-style
//! cast (`(float4)x`, `(S<T>)0`), written without a space after it, and a
//! `[` that indexes (`a[i][j]`, no space before it) or starts an
//! attribute (`[unroll] [loop]`, one space between attributes).

use crate::front::lexer::Token;

/// Whether each item of a line is the `)` of a cast: a `(` that follows
/// no operand and no keyword that takes parentheses (it is no call's and
/// no `if`'s), holding only what a type is spelled with, and an operand
/// right after the `)`.
pub(super) fn closes_cast(toks: &[(usize, Token, &str)], items: usize) -> Vec<bool> {
    let mut out = vec![false; items];
    for (i, &(_, k, _)) in toks.iter().enumerate() {
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
        while let Some(&(_, t, _)) = toks.get(j) {
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

/// For each `[` of a line: whether it indexes (`Some(true)`), starts an
/// attribute (`Some(false)`), or follows a `]` whose `[` is on another
/// line (`None`). A `[` indexes after an operand, unless that operand is
/// the `]` of an attribute.
pub(super) fn indexes(toks: &[(usize, Token, &str)], items: usize) -> Vec<Option<bool>> {
    let mut out = vec![None; items];
    // The open `[`s: whether each indexes.
    let mut open: Vec<bool> = Vec::new();
    // What the last `]` closed (`None`: a `[` before this line).
    let mut closed: Option<bool> = None;
    let mut prev: Option<Token> = None;
    for &(n, k, _) in toks {
        match k {
            Token::LBracket => {
                let index = match prev {
                    Some(Token::RBracket) => closed,
                    Some(p) => Some(super::ends_operand(p)),
                    None => Some(false),
                };
                out[n] = index;
                open.push(index.unwrap_or(false));
            }
            Token::RBracket => closed = open.pop(),
            _ => {}
        }
        prev = Some(k);
    }
    out
}
