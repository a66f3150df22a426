//! The logos `Token` enum: every HLSL token, plus the preprocessor's `#`,
//! `##` and newline.
//!
//! The preprocessor lexes each file once with [`lex`] and works on these
//! tokens; its output (a `Vec` of [`PpToken`]) is what the parser adapter
//! reads, so no text is lexed twice. Keywords are distinct kinds, but the
//! preprocessor treats every [`Token::is_ident_like`] kind as an identifier
//! (a macro may be named `sample` or `in`).

use crate::intern::{Symbol, builtins};
use crate::span::Span;
use logos::Logos;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\x0B\x0C\r]+")]
#[logos(skip r"\\\r?\n")]
#[logos(skip("//", callback = line_comment))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
// Set when a `/` token is followed at once by `*` (see `slash`).
#[logos(extras = bool)]
pub enum Token {
    // ---- preprocessor structure ----
    #[token("\n")]
    Newline,
    #[token("#")]
    Hash,
    #[token("##")]
    HashHash,

    // ---- identifiers and literals ----
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// Decimal, hex or octal integer with optional `u`/`l`/`ll` suffixes.
    #[regex(r"[0-9]+[uUlL]*")]
    #[regex(r"0[xX][0-9a-fA-F]+[uUlL]*")]
    #[regex(r"0[bB][01]+[uUlL]*")]
    IntLit,
    /// Floating literal with optional `f`, `h`, `l` (double) suffix.
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?[fFhHlL]?")]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?[fFhHlL]?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+[fFhHlL]?")]
    #[regex(r"[0-9]+[fFhH]")]
    FloatLit,
    /// Any other preprocessing number (C99 6.4.8), such as `16_t`: a
    /// valid operand of `##` (`float##16_t`), an error anywhere else. Valid
    /// literals of the same length lex as `IntLit`/`FloatLit`.
    #[regex(r"[0-9][0-9A-Za-z_]*", priority = 1)]
    PpNumber,
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    StringLit,
    #[regex(r"'([^'\\\n]|\\.)*'")]
    CharLit,
    /// `<file.h>` is lexed as `<` … `>` tokens; the preprocessor rebuilds it.

    // ---- keywords: storage classes and modifiers ----
    #[token("static")]
    Static,
    #[token("uniform")]
    Uniform,
    #[token("extern")]
    Extern,
    #[token("groupshared")]
    Groupshared,
    #[token("globallycoherent")]
    Globallycoherent,
    #[token("precise")]
    Precise,
    #[token("nointerpolation")]
    Nointerpolation,
    #[token("noperspective")]
    Noperspective,
    #[token("linear")]
    Linear,
    #[token("centroid")]
    Centroid,
    #[token("sample")]
    Sample,
    #[token("volatile")]
    Volatile,
    #[token("shared")]
    Shared,
    #[token("const")]
    Const,
    #[token("row_major")]
    RowMajor,
    #[token("column_major")]
    ColumnMajor,
    #[token("snorm")]
    Snorm,
    #[token("unorm")]
    Unorm,
    #[token("in")]
    In,
    #[token("out")]
    Out,
    #[token("inout")]
    Inout,
    #[token("inline")]
    Inline,
    #[token("export")]
    Export,
    #[token("unsigned")]
    Unsigned,
    #[token("signed")]
    Signed,
    // geometry-shader primitive types and mesh-shader parameter kinds
    #[token("point")]
    Point,
    #[token("line")]
    Line,
    #[token("triangle")]
    Triangle,
    #[token("lineadj")]
    LineAdj,
    #[token("triangleadj")]
    TriangleAdj,
    #[token("vertices")]
    Vertices,
    #[token("indices")]
    Indices,
    #[token("primitives")]
    Primitives,
    #[token("payload")]
    Payload,

    // ---- keywords: declarations ----
    #[token("struct")]
    Struct,
    #[token("class")]
    Class,
    #[token("interface")]
    Interface,
    #[token("cbuffer")]
    Cbuffer,
    #[token("tbuffer")]
    Tbuffer,
    #[token("typedef")]
    Typedef,
    #[token("enum")]
    Enum,
    #[token("namespace")]
    Namespace,
    #[token("using")]
    Using,
    #[token("template")]
    Template,
    #[token("typename")]
    Typename,
    #[token("register")]
    Register,
    #[token("packoffset")]
    Packoffset,
    #[token("sizeof")]
    Sizeof,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("this")]
    This,
    #[token("operator")]
    Operator,
    // effects framework (parsed and ignored)
    #[token("technique")]
    #[token("technique10")]
    #[token("technique11")]
    Technique,
    #[token("pass")]
    Pass,

    // ---- keywords: statements ----
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("for")]
    For,
    #[token("while")]
    While,
    #[token("do")]
    Do,
    #[token("switch")]
    Switch,
    #[token("case")]
    Case,
    #[token("default")]
    Default,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("discard")]
    Discard,
    #[token("return")]
    Return,

    // ---- punctuation ----
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token("?")]
    Question,
    #[token("=")]
    Eq,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("||")]
    PipePipe,
    #[token("&&")]
    AmpAmp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("&")]
    Amp,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    LtEq,
    #[token(">=")]
    GtEq,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/", slash)]
    Slash,
    #[token("%")]
    Percent,
    #[token("!")]
    Bang,
    #[token("~")]
    Tilde,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("->")]
    Arrow,
    #[token("...")]
    Ellipsis,
    /// `@`, `$` and `` ` ``: not HLSL, but a macro may carry them through.
    #[token("@")]
    #[token("$")]
    #[token("`")]
    #[token("\\")]
    Stray,

    // ---- produced by the parser adapter, never by logos ----
    /// An identifier that names a type (built-in, struct, typedef, template
    /// parameter, `using` alias): the "lexer hack" of C parsers.
    TypeName,
    /// An identifier that names a namespace.
    NamespaceName,
    /// An identifier that names a function template (so `f<T>(x)` parses).
    TemplateName,
    /// A `#pragma` line the preprocessor passes on (its text is the symbol).
    Pragma,
    /// End of input.
    Eof,
}

/// Skips the rest of a `//` comment, up to its newline (not included) or
/// the end of the text: what the pattern `//[^\n]*` would, with a search
/// that tests eight bytes at a time rather than logos' loop over each byte
/// (comments are a good part of a shader's text).
fn line_comment(lex: &mut logos::Lexer<Token>) {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    const NEWLINES: u64 = ONES * b'\n' as u64;
    let rest = lex.remainder().as_bytes();
    let mut at = 0;
    while let Some(chunk) = rest.get(at..at + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        // A byte of `x` is zero where the text has a newline; the lowest
        // byte flagged below is the first such (a borrow only flags bytes
        // above a zero one).
        let x = u64::from_le_bytes(w) ^ NEWLINES;
        let zero = x.wrapping_sub(ONES) & !x & HIGH;
        if zero != 0 {
            lex.bump(at + (zero.trailing_zeros() / 8) as usize);
            return;
        }
        at += 8;
    }
    let tail = rest[at..].iter().position(|&b| b == b'\n');
    lex.bump(tail.map_or(rest.len(), |n| at + n));
}

/// Notes in the lexer's extras a `/` token followed at once by `*`: where
/// logos could not skip a `/* */` comment (it has no end), it lexes that
/// pair. So a file whose flag stays clear has no unterminated comment, and
/// [`lex_interned`]'s caller need not look for one (most files have none).
fn slash(lex: &mut logos::Lexer<Token>) {
    if lex.remainder().starts_with('*') {
        lex.extras = true;
    }
}

impl Token {
    /// Identifiers and keywords: what the preprocessor can use as a macro name
    /// or parameter, and what `defined(...)` accepts.
    pub fn is_ident_like(self) -> bool {
        matches!(self, Token::Ident) || self.is_keyword()
    }

    /// The keywords are the kinds from `Static` to `Return`, in one run
    /// (a range check, not a match: this runs for every token); the test
    /// `keywords_are_one_run` keeps the enum in that order.
    pub fn is_keyword(self) -> bool {
        (Token::Static as u8..=Token::Return as u8).contains(&(self as u8))
    }

    /// The symbol of a kind always spelled the same (keywords and
    /// punctuation): pre-interned, so such a token costs no lookup. `None`
    /// for the kinds spelled in many ways (identifiers, literals).
    pub fn fixed_symbol(self) -> Option<Symbol> {
        builtins::fixed_token_symbol(self as usize)
    }

    /// A short description for "expected ..." messages.
    pub fn describe(self) -> &'static str {
        use Token::*;
        match self {
            Newline => "end of line",
            Ident => "identifier",
            IntLit => "integer literal",
            FloatLit => "floating-point literal",
            PpNumber => "malformed number",
            StringLit => "string literal",
            CharLit => "character literal",
            TypeName => "type name",
            NamespaceName => "namespace name",
            TemplateName => "template name",
            Pragma => "#pragma",
            Eof => "end of file",
            _ => "token",
        }
    }
}

/// Flags on a preprocessed token.
pub mod flags {
    /// Whitespace (or a comment) precedes the token.
    pub const SPACE_BEFORE: u8 = 1;
    /// The token is the first on its line.
    pub const LINE_START: u8 = 2;
    /// The token came from a macro expansion and must not be expanded again
    /// (its macro was disabled when it was produced: C's "painted blue").
    pub const NO_EXPAND: u8 = 4;
}

/// A token as the preprocessor emits it and the parser reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PpToken {
    pub kind: Token,
    /// The token's text (for identifiers, keywords and literals; for a
    /// `Pragma`, the text of the line after `#pragma`).
    pub sym: Symbol,
    pub span: Span,
    pub flags: u8,
}

/// A raw token of one file: kind and byte range in that file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawToken {
    pub kind: Token,
    pub start: u32,
    pub end: u32,
}

/// A stretch of text logos could not lex (a stray character, an unterminated
/// string or comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexError {
    pub start: u32,
    pub end: u32,
}

/// Lexes one file. Unlexable text is reported and skipped.
pub fn lex(text: &str) -> (Vec<RawToken>, Vec<LexError>) {
    let mut out = Vec::with_capacity(text.len() / 4);
    let mut errors = Vec::new();
    let mut lx = Token::lexer(text);
    while let Some(r) = lx.next() {
        let sp = lx.span();
        match r {
            Ok(kind) => out.push(RawToken {
                kind,
                start: sp.start as u32,
                end: sp.end as u32,
            }),
            Err(()) => errors.push(LexError {
                start: sp.start as u32,
                end: sp.end as u32,
            }),
        }
    }
    (out, errors)
}

/// The kind of the one token `text` is, if it is exactly one token (no
/// space or comment around it, nothing unlexable).
pub fn lex_one(text: &str) -> Option<Token> {
    let mut lx = Token::lexer(text);
    match lx.next() {
        Some(Ok(kind)) if lx.span() == (0..text.len()) && lx.next().is_none() => Some(kind),
        _ => None,
    }
}

/// The symbols of the short names and numbers one file spells, so that a
/// file interns each once rather than at each use (a file names the same
/// variables, types and constants again and again): a direct-mapped
/// table keyed by the text itself, at most 16 bytes held as two
/// overlapping words and the length, so that a match is exact. Small
/// enough (1.5 KiB) to be zeroed without `rep stosb`, costly per byte.
struct Spellings {
    slots: [Spelling; 64],
}

#[derive(Clone, Copy)]
struct Spelling {
    /// The text's first 8 bytes (fewer padded with zeros) and its last 8
    /// (0 when it has at most 8).
    words: (u64, u64),
    /// 0 for an empty slot.
    len: u32,
    sym: Symbol,
}

const EMPTY: Spelling = Spelling {
    words: (0, 0),
    len: 0,
    sym: Symbol::preinterned(0),
};

impl Spellings {
    /// The symbol of `text[start..end]`, a token's text.
    fn symbol(&mut self, text: &str, start: usize, end: usize) -> Symbol {
        let len = end - start;
        let bytes = text.as_bytes();
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let spelled = || text.get(start..end).unwrap_or_default();
        // The first word is read past the token, and masked: near the end
        // of the text, or for longer texts, the interner answers alone.
        if len == 0 || len > 16 || start + 8 > bytes.len() {
            return Symbol::intern(spelled());
        }
        let words = if len >= 8 {
            (word(start), if len > 8 { word(end - 8) } else { 0 })
        } else {
            (word(start) & (u64::MAX >> (64 - 8 * len)), 0)
        };
        let hash = (words.0 ^ words.1.rotate_left(29) ^ len as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.slots[(hash >> 58) as usize];
        if slot.len == len as u32 && slot.words == words {
            return slot.sym;
        }
        let sym = Symbol::intern(spelled());
        *slot = Spelling {
            words,
            len: len as u32,
            sym,
        };
        sym
    }
}

/// Lexes one file for the preprocessor: as [`lex`], each token as the
/// preprocessor passes it on (a [`PpToken`]: its symbol, its place in the
/// location space, whose file starts at `base`, and its flags, found once
/// per file lexed rather than at each token passed on, which then copies
/// a run of tokens as it is); and whether some `/` token is followed at
/// once by `*` (without it, no `/` `*` pair of tokens is adjacent).
///
/// A token's [`flags::SPACE_BEFORE`] is set when text (space, a comment)
/// separates it from the token before, or from the file's start;
/// [`flags::LINE_START`] when it is the file's first token or follows a
/// newline.
///
/// Newlines are no tokens here: the token after one is flagged
/// [`flags::LINE_START`], which is all the preprocessor needs of most (a
/// directive finds the newline that ends its line with [`newline_after`]).
/// A fifth of a shader's tokens are newlines, which would only be skipped.
pub fn lex_interned(text: &str, base: u32) -> (Vec<PpToken>, Vec<LexError>, bool) {
    let mut out = Vec::with_capacity(text.len() / 4);
    let mut errors = Vec::new();
    let mut spellings = Spellings {
        slots: [EMPTY; 64],
    };
    let mut lx = Token::lexer(text);
    // The end of the token before, and whether it was a newline: the file's
    // start counts as both.
    let (mut prev_end, mut after_newline) = (0, true);
    while let Some(r) = lx.next() {
        let sp = lx.span();
        let (start, end) = (sp.start as u32, sp.end as u32);
        match r {
            Ok(Token::Newline) => (prev_end, after_newline) = (end, true),
            Ok(kind) => {
                let sym = kind.fixed_symbol().unwrap_or_else(|| {
                    spellings.symbol(text, start as usize, end as usize)
                });
                let flags = (u8::from(prev_end < start) * flags::SPACE_BEFORE)
                    | (u8::from(after_newline) * flags::LINE_START);
                (prev_end, after_newline) = (end, false);
                out.push(PpToken {
                    kind,
                    sym,
                    span: Span::from(base + start..base + end),
                    flags,
                });
            }
            Err(()) => errors.push(LexError { start, end }),
        }
    }
    let slash_star = lx.extras;
    (out, errors, slash_star)
}

/// The first newline after `from` in `text` (its start and end), where
/// `from` ends a token: `None` when a token comes first, or the text ends.
/// Spaces, comments, line continuations and unlexable text are passed
/// over, as lexing the whole text did.
pub fn newline_after(text: &str, from: u32) -> Option<(u32, u32)> {
    let mut lx = Token::lexer(text.get(from as usize..)?);
    loop {
        match lx.next()? {
            Ok(Token::Newline) => {
                let sp = lx.span();
                return Some((from + sp.start as u32, from + sp.end as u32));
            }
            Ok(_) => return None,
            Err(()) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds always spelled the same, listed by hand to check
    /// `fixed_symbol`'s table.
    fn has_fixed_spelling(k: Token) -> bool {
        !matches!(
            k,
            Token::Ident
                | Token::IntLit
                | Token::FloatLit
                | Token::StringLit
                | Token::CharLit
                | Token::PpNumber
                | Token::Technique
                | Token::Stray
                | Token::TypeName
                | Token::NamespaceName
                | Token::TemplateName
                | Token::Pragma
                | Token::Eof
        )
    }

    fn kinds(s: &str) -> Vec<Token> {
        lex(s).0.into_iter().map(|t| t.kind).collect()
    }

    /// Every keyword lies in the range `is_keyword` checks, and nothing
    /// else does.
    #[test]
    fn keywords_are_one_run() {
        use Token::*;
        let keywords = [
            Static,
            Uniform,
            Extern,
            Groupshared,
            Globallycoherent,
            Precise,
            Nointerpolation,
            Noperspective,
            Linear,
            Centroid,
            Sample,
            Volatile,
            Shared,
            Const,
            RowMajor,
            ColumnMajor,
            Snorm,
            Unorm,
            In,
            Out,
            Inout,
            Inline,
            Export,
            Unsigned,
            Signed,
            Point,
            Line,
            Triangle,
            LineAdj,
            TriangleAdj,
            Vertices,
            Indices,
            Primitives,
            Payload,
            Struct,
            Class,
            Interface,
            Cbuffer,
            Tbuffer,
            Typedef,
            Enum,
            Namespace,
            Using,
            Template,
            Typename,
            Register,
            Packoffset,
            Sizeof,
            True,
            False,
            This,
            Operator,
            Technique,
            Pass,
            If,
            Else,
            For,
            While,
            Do,
            Switch,
            Case,
            Default,
            Break,
            Continue,
            Discard,
            Return,
        ];
        assert_eq!(keywords.len(), (Return as usize) - (Static as usize) + 1);
        assert!(keywords.iter().all(|k| k.is_keyword()));
        for k in [Ident, IntLit, CharLit, LParen, Stray, TypeName, Pragma, Eof] {
            assert!(!k.is_keyword(), "{k:?}");
        }
    }

    /// `TOKEN_SPELLINGS` (the interner's) follows the enum: each kind with
    /// a fixed spelling lexes from its entry, and there is one per kind.
    #[test]
    fn token_spellings_follow_the_enum() {
        use crate::intern::builtins::TOKEN_SPELLINGS;
        assert_eq!(TOKEN_SPELLINGS.len(), Token::Eof as usize + 1);
        let mut fixed = 0;
        for (i, s) in TOKEN_SPELLINGS.iter().enumerate() {
            let (toks, errors) = lex(s);
            match toks.as_slice() {
                [t] if has_fixed_spelling(t.kind) && errors.is_empty() => {
                    assert_eq!(t.kind as usize, i, "{s:?}");
                    assert_eq!(t.kind.fixed_symbol(), Some(Symbol::intern(s)));
                    fixed += 1;
                }
                _ => assert!(s.starts_with('\0'), "{s:?}"),
            }
        }
        assert_eq!(fixed, TOKEN_SPELLINGS.len() - 13);
        assert_eq!(Token::Ident.fixed_symbol(), None);
        // Every kind the lexer returns has a fixed symbol just when it has
        // a fixed spelling (the table of `fixed_symbol` agrees).
        let text = format!(
            "a 1 1.0 16_t \"s\" 'c' technique @ {}",
            TOKEN_SPELLINGS.join(" ").replace('\0', "")
        );
        for t in lex(&text).0 {
            let k = t.kind;
            assert_eq!(k.fixed_symbol().is_some(), has_fixed_spelling(k), "{k:?}");
        }
    }

    /// Every token of `lex_interned` has the symbol of its text, whether
    /// the per-file table of spellings answered (names of every length up
    /// to its limit and past it, repeated, colliding, at the text's end) or
    /// the interner did.
    #[test]
    fn spellings_match_the_interner() {
        let names: Vec<String> = (1..=20)
            .flat_map(|n| ["a", "b_", "Q9"].map(|p| p.repeat(n)))
            .chain((0..300).map(|i| format!("n{i}")))
            .collect();
        let mut text = names.join(" ");
        text.push_str(" 1 1.5f 0x1F ");
        text.push_str(&names.join("+"));
        text.push_str(" a");
        let (toks, errors, _) = lex_interned(&text, 0);
        assert!(errors.is_empty());
        assert_eq!(toks.len(), 3 * names.len() + 3);
        for t in toks {
            let spelled = &text[t.span.lo.0 as usize..t.span.hi.0 as usize];
            assert_eq!(t.sym, Symbol::intern(spelled), "{spelled:?}");
        }
    }

    /// `lex_interned` keeps no newline, and every token has the flags it
    /// would have after the newlines before it (checked against `lex`).
    #[test]
    fn newlines_are_flags() {
        let text = "\n a\n\n#define X 1 // c\n\n\nb c #\n  # if 0\nd\n#\n\n\
                    #x #y\ne /* \n */ f\n#z \\\n g\nh\n\n";
        let (toks, errors, _) = lex_interned(text, 7);
        assert!(errors.is_empty());
        let mut full = Vec::new();
        let (mut prev_end, mut after_newline) = (0, true);
        for t in lex(text).0 {
            let f = (u8::from(prev_end < t.start) * flags::SPACE_BEFORE)
                | (u8::from(after_newline) * flags::LINE_START);
            (prev_end, after_newline) = (t.end, t.kind == Token::Newline);
            if t.kind != Token::Newline {
                full.push((t.kind, t.start + 7, t.end + 7, f));
            }
        }
        let got: Vec<(Token, u32, u32, u8)> =
            toks.iter().map(|t| (t.kind, t.span.lo.0, t.span.hi.0, t.flags)).collect();
        assert_eq!(got, full);
        assert_eq!(got.len(), 23);
    }

    /// `newline_after` finds the newline a token's line ends with, past
    /// spaces, comments (a `/* */` one over several lines), continuations
    /// and unlexable text; none where a token or the text's end comes first.
    #[test]
    fn the_newline_after_a_token() {
        fn at(text: &str, from: u32) -> Option<(&str, u32)> {
            newline_after(text, from).map(|(s, e)| (&text[..s as usize], e - s))
        }
        assert_eq!(at("a \t// x\nb", 1), Some(("a \t// x", 1)));
        assert_eq!(at("a /* \n */ \\\n \u{1F600} \n", 1), Some(("a /* \n */ \\\n \u{1F600} ", 1)));
        assert_eq!(at("a\n", 1), Some(("a", 1)));
        assert_eq!(at("a b\n", 1), None);
        assert_eq!(at("a /* x\n", 1), None);
        assert_eq!(at("a  ", 1), None);
        assert_eq!(at("a", 1), None);
        assert_eq!(at("a", 9), None);
    }

    /// `lex_interned`'s flag is set just where a `/` token is followed at
    /// once by `*`: an unterminated comment, or `/` before `*=`; not for a
    /// comment that ends, nor `/*` in a string, a `//` comment or spaced.
    #[test]
    fn slash_star_flag() {
        for (text, set) in [
            ("a /* b", true),
            ("a /*= b", true),
            ("/*", true),
            ("a /* b */ c / d * e", false),
            ("a / *b /= c", false),
            ("\"/*\" '/' // /* x\n", false),
            ("a //* b\n*/ c", false),
            ("", false),
        ] {
            assert_eq!(lex_interned(text, 0).2, set, "{text:?}");
        }
    }

    #[test]
    fn literals_and_suffixes() {
        use Token::*;
        assert_eq!(
            kinds("1 1u 0x1Fu 017 0b01u 1.0 1.f .5 1e3 1.5e-3h 2.0L 3f"),
            vec![
                IntLit, IntLit, IntLit, IntLit, IntLit, FloatLit, FloatLit, FloatLit, FloatLit,
                FloatLit, FloatLit, FloatLit
            ]
        );
    }

    #[test]
    fn preprocessing_numbers_lex_whole() {
        use Token::*;
        assert_eq!(
            kinds("16_t 12ab 1u 0x1F 3f"),
            vec![PpNumber, PpNumber, IntLit, IntLit, FloatLit]
        );
    }

    #[test]
    fn keywords_operators_comments() {
        use Token::*;
        assert_eq!(
            kinds("static float4 x /* c\n */ >>= a->b // x\n"),
            vec![Static, Ident, Ident, ShrEq, Ident, Arrow, Ident, Newline]
        );
        assert_eq!(
            kinds("#define A(x) x ## y \\\n z"),
            vec![
                Hash, Ident, Ident, LParen, Ident, RParen, Ident, HashHash, Ident, Ident
            ]
        );
    }

    /// A `//` comment runs to its newline (which stays a token) or to the
    /// end of the text, whatever its length and content: the newline is
    /// found eight bytes at a time, then byte by byte.
    #[test]
    fn line_comments_end_at_their_newline() {
        use Token::*;
        for n in 0..40 {
            for body in ["x".repeat(n), "é".repeat(n / 2) + "\\", "\r".repeat(n)] {
                let text = format!("a //{body}\nb // {body}");
                let toks = lex(&text).0;
                let got: Vec<Token> = toks.iter().map(|t| t.kind).collect();
                assert_eq!(got, vec![Ident, Newline, Ident], "{text:?}");
                assert_eq!(toks[1].start as usize, text.find('\n').unwrap_or(0));
            }
        }
        assert!(kinds("//").is_empty());
        assert_eq!(kinds("a//*b\n*/c"), vec![Ident, Newline, Star, Slash, Ident]);
    }

    #[test]
    fn errors_are_reported_not_fatal() {
        let (toks, errs) = lex("a \u{1F600} b");
        assert_eq!(toks.len(), 2);
        assert_eq!(errs.len(), 1);
    }
}
