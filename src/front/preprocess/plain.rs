//! The preprocessor's common case: the tokens of a file passed on as they
//! are, until one needs the general machinery (a directive, a macro's name,
//! a lex issue, the file's end).

use super::define::{LazyMacro, MacroEntry};
use super::{Context, Preprocessor};
use crate::front::lexer::{PpToken, Token, flags};
use crate::intern::Symbol;
use rustc_hash::FxHashMap;

impl Preprocessor<'_> {
    /// The common case of [`Self::run_loop`] without the generality of
    /// [`Self::next_token`]: the tokens of the file on top, each emitted to
    /// the main frame as [`Self::handle_token`] would, until one needs more
    /// (a directive, a macro's name, a lex issue, the file's end). Returns
    /// the macro name that stopped it; for the others it stops before them.
    pub(super) fn plain_file_tokens(&mut self) -> Option<PpToken> {
        if self.frames.len() != 1 || self.in_if || self.fatal || self.is_skipping() {
            return None;
        }
        let Some(Context::File(f)) = self.ctxs.last_mut() else {
            return None;
        };
        let frame = &mut self.frames[0];
        let next_issue = f.issues.get(f.issue_pos).map_or(u32::MAX, |i| i.start);
        let written = frame.out.len();
        // An empty expansion's flags, for the next token written.
        let mut carry = std::mem::take(&mut frame.carry);
        let (stopped, pos) = pass_through(
            &f.toks[..],
            f.pos,
            PassThrough {
                next_issue,
                macro_bits: &self.macro_bits,
                macros: &self.macros,
                lazy: &self.lazy,
            },
            &mut frame.out,
            &mut carry,
        );
        frame.carry = carry;
        // Whether any token was read (newlines are not tokens read).
        if stopped.is_some() || frame.out.len() != written {
            f.guard.saw_token();
            self.work = 0;
        }
        f.pos = pos;
        stopped
    }
}

/// What [`pass_through`] checks each token against.
struct PassThrough<'a> {
    /// Where the file's next lex issue starts.
    next_issue: u32,
    macro_bits: &'a [u64],
    macros: &'a FxHashMap<Symbol, MacroEntry>,
    /// The macros not in `macros` yet (see [`LazyMacro`]).
    lazy: &'a [(Symbol, LazyMacro)],
}

/// How [`pass_through`] treats a token kind: copied as it is (most), or
/// looked at first: a name (a macro's, maybe), `#` (a directive at a
/// line's start). A file's tokens hold no newline. Indexed by the kind's
/// number (all kinds are below 128), so that a plain token costs one load
/// and one test.
const PLAIN: u8 = 0;
const NAME: u8 = 1;
const HASH: u8 = 2;

static CLASS: [u8; 128] = {
    let mut t = [PLAIN; 128];
    assert!((Token::Eof as usize) < 128, "token kinds fit the table");
    t[Token::Ident as usize] = NAME;
    // The keywords, one run of kinds (`Token::is_keyword`).
    let mut k = Token::Static as usize;
    while k <= Token::Return as usize {
        t[k] = NAME;
        k += 1;
    }
    t[Token::Hash as usize] = HASH;
    t
};

/// The loop of [`Preprocessor::plain_file_tokens`], on plain slices and
/// vectors so that nothing is reloaded from the preprocessor at each token:
/// copies `toks` from `pos` to `out` until a token needs more (returned with
/// the position after it when it names a macro; else the position of that
/// token, or the end). `carry` goes onto the first token written. The
/// file's tokens are already in the form written (see
/// [`crate::front::lexer::lex_interned`]): the loop only looks at each
/// token's kind (and a name's symbol), and copies the tokens passed on at
/// once. Out of line, so that the loop has the registers to itself.
#[inline(never)]
fn pass_through(
    toks: &[PpToken],
    mut pos: usize,
    pt: PassThrough<'_>,
    out: &mut Vec<PpToken>,
    carry: &mut u8,
) -> (Option<PpToken>, usize) {
    // The tokens before the next lex issue (tokens and issues are in text
    // order), found once rather than compared at each token.
    let scan = match (pt.next_issue, toks.get(pos..)) {
        (u32::MAX, _) | (_, None) => toks,
        (at, Some(rest)) => toks
            .get(..pos + rest.partition_point(|t| t.span.lo.0 <= at))
            .unwrap_or(toks),
    };
    let written = out.len();
    let mut stopped = None;
    // The tokens to copy as they are (files have no newline tokens).
    let run = pos;
    while let Some(&tok) = scan.get(pos) {
        match CLASS[usize::from(tok.kind as u8 & 127)] {
            PLAIN => {}
            NAME => {
                let i = tok.sym.index() as usize;
                if pt
                    .macro_bits
                    .get(i / 64)
                    .is_some_and(|w| w & (1 << (i % 64)) != 0)
                    && (pt.macros.contains_key(&tok.sym)
                        || pt.lazy.iter().any(|&(n, _)| n == tok.sym))
                {
                    stopped = Some(tok);
                    break;
                }
            }
            _ => {
                if tok.flags & flags::LINE_START != 0 {
                    break;
                }
            }
        }
        pos += 1;
    }
    out.extend_from_slice(scan.get(run..pos).unwrap_or_default());
    if let Some(first) = out.get_mut(written) {
        first.flags |= std::mem::take(carry);
    }
    if stopped.is_some() {
        pos += 1;
    }
    (stopped, pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `CLASS` sorts every kind the lexer gives as `pass_through` must:
    /// names just where `is_ident_like`, `#` apart, the rest plain.
    #[test]
    fn classes_follow_the_kinds() {
        use crate::intern::builtins::TOKEN_SPELLINGS;
        let text = format!(
            "a 1 1.0 16_t \"s\" 'c' technique @ {}",
            TOKEN_SPELLINGS.join(" ").replace('\0', "")
        );
        let toks = crate::front::lexer::lex(&text).0;
        assert!(toks.len() > 100);
        for t in toks {
            let k = t.kind;
            let want = if k.is_ident_like() {
                NAME
            } else if k == Token::Hash {
                HASH
            } else {
                PLAIN
            };
            assert_eq!(CLASS[k as usize], want, "{k:?}");
        }
    }
}
