//! The one conversion of lalrpop's `ParseError` into our [`Diagnostic`].
//!
//! lalrpop names the terminals it expected as they are written in the grammar
//! (`"\";\""`, `"Ident"`); this turns them into what a user reads: `;`,
//! "identifier", and collapses large sets into a summary ("an expression",
//! "an operator") so that "expected one of 40 tokens" never happens.

use super::Tok;
use crate::diag::{Diagnostic, codes};
use crate::front::lexer::{PpToken, Token, flags};
use crate::span::{Loc, Span};
use lalrpop_util::ParseError;
use std::convert::Infallible;

/// What the conversion needs to know besides the error.
pub struct SyntaxError<'t> {
    /// The parser's input, to find the token before the error.
    pub toks: &'t [PpToken],
    /// Where end of file is.
    pub eof: Span,
    /// The innermost bracket left open at end of file, and its character.
    pub unclosed: Option<(Span, char)>,
}

/// The spelling of a token kind: its text for keywords and punctuation, a
/// description for identifiers and literals.
pub fn token_text(kind: Token) -> &'static str {
    use Token::*;
    match kind {
        Hash => "#",
        HashHash => "##",
        Static => "static",
        Uniform => "uniform",
        Extern => "extern",
        Groupshared => "groupshared",
        Globallycoherent => "globallycoherent",
        Precise => "precise",
        Nointerpolation => "nointerpolation",
        Noperspective => "noperspective",
        Linear => "linear",
        Centroid => "centroid",
        Sample => "sample",
        Volatile => "volatile",
        Shared => "shared",
        Const => "const",
        RowMajor => "row_major",
        ColumnMajor => "column_major",
        Snorm => "snorm",
        Unorm => "unorm",
        In => "in",
        Out => "out",
        Inout => "inout",
        Inline => "inline",
        Export => "export",
        Unsigned => "unsigned",
        Signed => "signed",
        Point => "point",
        Line => "line",
        Triangle => "triangle",
        LineAdj => "lineadj",
        TriangleAdj => "triangleadj",
        Vertices => "vertices",
        Indices => "indices",
        Primitives => "primitives",
        Payload => "payload",
        Struct => "struct",
        Class => "class",
        Interface => "interface",
        Cbuffer => "cbuffer",
        Tbuffer => "tbuffer",
        Typedef => "typedef",
        Enum => "enum",
        Namespace => "namespace",
        Using => "using",
        Template => "template",
        Typename => "typename",
        Register => "register",
        Packoffset => "packoffset",
        Sizeof => "sizeof",
        True => "true",
        False => "false",
        This => "this",
        Operator => "operator",
        Technique => "technique",
        Pass => "pass",
        If => "if",
        Else => "else",
        For => "for",
        While => "while",
        Do => "do",
        Switch => "switch",
        Case => "case",
        Default => "default",
        Break => "break",
        Continue => "continue",
        Discard => "discard",
        Return => "return",
        LParen => "(",
        RParen => ")",
        LBracket => "[",
        RBracket => "]",
        LBrace => "{",
        RBrace => "}",
        Semi => ";",
        Comma => ",",
        Dot => ".",
        Colon => ":",
        ColonColon => "::",
        Question => "?",
        Eq => "=",
        PlusEq => "+=",
        MinusEq => "-=",
        StarEq => "*=",
        SlashEq => "/=",
        PercentEq => "%=",
        AmpEq => "&=",
        PipeEq => "|=",
        CaretEq => "^=",
        ShlEq => "<<=",
        ShrEq => ">>=",
        PipePipe => "||",
        AmpAmp => "&&",
        Pipe => "|",
        Caret => "^",
        Amp => "&",
        EqEq => "==",
        NotEq => "!=",
        Lt => "<",
        Gt => ">",
        LtEq => "<=",
        GtEq => ">=",
        Shl => "<<",
        Shr => ">>",
        Plus => "+",
        Minus => "-",
        Star => "*",
        Slash => "/",
        Percent => "%",
        Bang => "!",
        Tilde => "~",
        PlusPlus => "++",
        MinusMinus => "--",
        Arrow => "->",
        Ellipsis => "...",
        Stray => "stray character",
        // Identifiers, literals and the like: as "expected …" describes them.
        Newline | Ident | IntLit | FloatLit | PpNumber | StringLit | CharLit | TypeName
        | NamespaceName | TemplateName | Pragma | Eof => kind.describe(),
    }
}

/// The index into the parser's input of the token an error is about.
pub fn error_token_index(e: &ParseError<Loc, Tok, Infallible>) -> Option<u32> {
    match e {
        ParseError::UnrecognizedToken { token, .. } | ParseError::ExtraToken { token } => {
            Some(token.1.idx)
        }
        _ => None,
    }
}

/// How a found token is named in a message: "`foo`", "keyword `if`",
/// "end of file".
fn describe_found(tok: &Tok) -> String {
    match tok.kind {
        Token::Eof => "end of file".to_string(),
        Token::Ident | Token::TypeName | Token::NamespaceName | Token::TemplateName => {
            format!("`{}`", tok.sym)
        }
        Token::IntLit | Token::FloatLit | Token::PpNumber | Token::StringLit | Token::CharLit => {
            let s = tok.sym.as_str();
            if s.chars().count() > 24 {
                let short: String = s.chars().take(20).collect();
                format!("`{short}…`")
            } else {
                format!("`{s}`")
            }
        }
        Token::Pragma => "`#pragma`".to_string(),
        Token::Stray => {
            let s = tok.sym.as_str();
            if s.is_empty() {
                "a stray character".to_string()
            } else {
                format!("`{s}`")
            }
        }
        k if k.is_keyword() => format!("keyword `{}`", token_text(k)),
        k => format!("`{}`", token_text(k)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Category {
    /// Shown as written: `;`, `)`.
    Punct,
    Operator,
    /// Starts an expression (identifiers, literals).
    ExprStart,
    /// Starts a type (type names, modifiers).
    TypeStart,
    /// Starts a statement (`if`, `return`).
    StmtKeyword,
    /// Starts a declaration (`struct`, `cbuffer`).
    DeclKeyword,
    Other,
}

/// Classifies one of lalrpop's expected-terminal names and gives its display.
fn expected_terminal(name: &str) -> (Category, String) {
    if let Some(p) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
        let cat = match p {
            ";" | "," | ")" | "]" | "}" | "{" | ":" | "(" | "::" => Category::Punct,
            "+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "<" | ">" | "<=" | ">=" | "==" | "!="
            | "&" | "|" | "^" | "&&" | "||" | "?" | "=" | "+=" | "-=" | "*=" | "/=" | "%="
            | "&=" | "|=" | "^=" | "<<=" | ">>=" | "++" | "--" | "." | "[" => Category::Operator,
            "true" | "false" | "this" | "sizeof" | "!" | "~" => Category::ExprStart,
            "if" | "for" | "while" | "do" | "switch" | "return" | "break" | "continue"
            | "discard" | "case" | "default" | "else" => Category::StmtKeyword,
            "struct" | "class" | "interface" | "cbuffer" | "tbuffer" | "typedef" | "enum"
            | "namespace" | "using" | "template" => Category::DeclKeyword,
            _ => Category::TypeStart,
        };
        return (cat, format!("`{p}`"));
    }
    match name {
        "Ident" => (Category::ExprStart, "identifier".into()),
        "IntLit" | "FloatLit" | "StringLit" | "CharLit" => (Category::ExprStart, "literal".into()),
        "TemplateName" => (Category::ExprStart, "template name".into()),
        "TypeName" => (Category::TypeStart, "type name".into()),
        "NamespaceName" => (Category::TypeStart, "namespace name".into()),
        "Eof" => (Category::Other, "end of file".into()),
        "Pragma" => (Category::DeclKeyword, "`#pragma`".into()),
        "Technique" => (Category::DeclKeyword, "`technique`".into()),
        other => (Category::Other, other.to_string()),
    }
}

fn starts_type(name: &str) -> bool {
    matches!(
        name,
        "TypeName" | "NamespaceName" | "\"::\"" | "\"unsigned\"" | "\"signed\""
    ) || (name.starts_with('"') && expected_terminal(name).0 == Category::TypeStart)
}

fn starts_expression(name: &str) -> bool {
    matches!(
        name,
        "Ident"
            | "IntLit"
            | "FloatLit"
            | "StringLit"
            | "CharLit"
            | "TemplateName"
            | "TypeName"
            | "NamespaceName"
            | "\"(\""
            | "\"{\""
            | "\"::\""
            | "\"-\""
            | "\"+\""
            | "\"!\""
            | "\"~\""
            | "\"++\""
            | "\"--\""
            | "\"true\""
            | "\"false\""
            | "\"this\""
            | "\"sizeof\""
            | "\"unsigned\""
            | "\"signed\""
            | "\"sample\""
            | "\"linear\""
            | "\"centroid\""
            | "\"point\""
            | "\"line\""
            | "\"triangle\""
            | "\"lineadj\""
            | "\"triangleadj\""
            | "\"vertices\""
            | "\"indices\""
            | "\"primitives\""
            | "\"payload\""
            | "\"shared\""
            | "\"export\""
            | "\"snorm\""
            | "\"unorm\""
    )
}

fn starts_declaration(name: &str) -> bool {
    starts_type(name)
        || matches!(expected_terminal(name).0, Category::DeclKeyword)
        || matches!(name, "\"[\"" | "\";\"" | "Ident")
}

fn starts_statement(name: &str) -> bool {
    starts_expression(name)
        || starts_declaration(name)
        || matches!(expected_terminal(name).0, Category::StmtKeyword) && name != "\"else\""
        || name == "\"{\""
}

/// Summarises an expected set as a short list of alternatives: the
/// punctuation worth naming, then what the rest amounts to ("a statement",
/// "an expression", "an operator").
fn summarize_expected(expected: &[String]) -> Vec<String> {
    // After a declarator, effects syntax (`{` state block, `<` annotation)
    // is possible but never what the user is after: leave it out.
    let after_declarator = ["\";\"", "\"=\"", "\"[\""]
        .iter()
        .all(|t| expected.iter().any(|e| e == t));
    let filtered: Vec<String>;
    let expected = if after_declarator {
        filtered = expected
            .iter()
            .filter(|e| *e != "\"{\"" && *e != "\"<\"")
            .cloned()
            .collect();
        &filtered[..]
    } else {
        expected
    };
    let has_name = |n: &str| expected.iter().any(|e| e == n);
    if expected.len() <= 4 {
        let mut v: Vec<(Category, String)> =
            expected.iter().map(|e| expected_terminal(e)).collect();
        v.sort_by_key(|(c, _)| *c);
        let mut out: Vec<String> = v.into_iter().map(|(_, d)| d).collect();
        out.dedup();
        return out;
    }
    let (summary, absorbed): (Option<&str>, fn(&str) -> bool) = if has_name("\"return\"") {
        (Some("a statement"), starts_statement)
    } else if has_name("\"cbuffer\"") || has_name("\"struct\"") {
        (Some("a declaration"), starts_declaration)
    } else if has_name("IntLit") {
        (Some("an expression"), starts_expression)
    } else if has_name("TypeName") {
        (Some("a type"), starts_type)
    } else {
        (None, |_| false)
    };
    let rest: Vec<&String> = expected.iter().filter(|e| !absorbed(e)).collect();
    let mut out = Vec::new();
    // The punctuation worth naming, most telling first.
    for p in [";", ",", ")", "]", "}", "{", ":", "(", "::"] {
        let quoted = format!("\"{p}\"");
        if rest.iter().any(|e| **e == quoted) {
            out.push(format!("`{p}`"));
        }
    }
    let operators: Vec<&String> = rest
        .iter()
        .copied()
        .filter(|e| expected_terminal(e).0 == Category::Operator)
        .collect();
    // "an operator" when binary operators are possible; otherwise the few
    // operator-like tokens (`=`, `[`, `<` after a declarator) are named.
    let binary = has_name("\"+\"") && has_name("\"*\"");
    let keywords: Vec<String> = rest
        .iter()
        .map(|e| expected_terminal(e))
        .filter(|(c, _)| matches!(c, Category::StmtKeyword | Category::DeclKeyword))
        .map(|(_, d)| d)
        .collect();
    out.extend(keywords.into_iter().take(3));
    out.extend(summary.map(str::to_string));
    if binary {
        out.push("an operator".into());
    } else {
        out.extend(operators.iter().map(|e| expected_terminal(e).1));
    }
    if out.is_empty() {
        // Nothing recognisable: name the first few.
        out.extend(expected.iter().take(4).map(|e| expected_terminal(e).1));
    }
    out
}

/// "a", "a or b", "one of a, b or c".
fn join_alternatives(v: &[String]) -> String {
    match v {
        [] => "something else".to_string(),
        [a] => a.clone(),
        [a, b] => format!("{a} or {b}"),
        [rest @ .., last] => format!("one of {} or {last}", rest.join(", ")),
    }
}

/// The span of the token before input index `idx`, if any.
fn previous_token<'t>(info: &SyntaxError<'t>, idx: u32) -> Option<&'t PpToken> {
    let i = (idx as usize).checked_sub(1)?;
    info.toks.get(i)
}

/// `Foo x;` where `Foo` names no type: the parser stops at `x`, but the
/// mistake is `Foo`.
/// The parser stops at the declared name inside a function (`Foo` could
/// start an expression) and at `Foo` itself at global scope.
fn unknown_type_name(tok: &Tok, info: &SyntaxError) -> Option<Diagnostic> {
    if tok.kind != Token::Ident {
        return None;
    }
    let i = tok.idx as usize;
    let at = |k: usize| info.toks.get(k);
    let declares = |k: usize| {
        at(k).is_some_and(|t| {
            matches!(
                t.kind,
                Token::Semi
                    | Token::Eq
                    | Token::Comma
                    | Token::LBracket
                    | Token::Colon
                    | Token::LParen
            )
        })
    };
    // What may stand before a declaration's type: a boundary or a modifier
    // (not another type: `float a b;` is a different mistake).
    let starts_declaration = |k: usize| {
        k == 0
            || at(k - 1).is_some_and(|t| {
                matches!(
                    t.kind,
                    Token::Semi
                        | Token::LBrace
                        | Token::RBrace
                        | Token::LParen
                        | Token::Comma
                        | Token::RBracket
                ) || t.kind.is_keyword()
            })
    };
    let (ty, name) =
        if i > 0 && at(i - 1)?.kind == Token::Ident && declares(i + 1) && starts_declaration(i - 1)
        {
            (at(i - 1)?, at(i)?)
        } else if at(i + 1)?.kind == Token::Ident && declares(i + 2) && starts_declaration(i) {
            (at(i)?, at(i + 1)?)
        } else {
            return None;
        };
    Some(
        Diagnostic::error(codes::SYNTAX, format!("unknown type name `{}`", ty.sym))
            .label(ty.span, "not a type declared before this point")
            .label(name.span, format!("`{}` is declared with it", name.sym)),
    )
}

/// Converts a lalrpop error into a diagnostic. Returns `None` for an error at
/// a token the adapter put in place of something it already reported (a
/// bracket group nested too deeply).
pub fn syntax_error(
    e: &ParseError<Loc, Tok, Infallible>,
    info: &SyntaxError,
) -> Option<Diagnostic> {
    match e {
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => {
            if tok.kind == Token::Newline {
                return None;
            }
            if let Some(d) = unknown_type_name(tok, info) {
                return Some(d);
            }
            let found = describe_found(tok);
            let alts = if tok.kind == Token::Eof && expected.iter().any(|e| e == "\"}\"") {
                // Running out of input inside braces: the `}` is what is missing.
                vec!["`}`".to_string()]
            } else {
                summarize_expected(expected)
            };
            let what = join_alternatives(&alts);
            let span = if tok.kind == Token::Eof {
                info.eof
            } else {
                Span::new(*l, *r)
            };
            let mut d = Diagnostic::error(codes::SYNTAX, format!("expected {what}, found {found}"));
            let wants_semi = tok.kind != Token::Eof && expected.iter().any(|e| e == "\";\"");
            let on_new_line = tok.kind == Token::Eof
                || tok.kind == Token::RBrace
                || info
                    .toks
                    .get(tok.idx as usize)
                    .is_some_and(|t| t.flags & flags::LINE_START != 0);
            match previous_token(info, tok.idx) {
                Some(prev) if wants_semi && on_new_line => {
                    d = d
                        .label(prev.span, "expected `;` after this")
                        .label(span, "unexpected token");
                }
                _ => {
                    let label = if alts.len() == 1 {
                        format!("expected {}", alts[0])
                    } else {
                        "unexpected token".to_string()
                    };
                    d = d.label(span, label);
                }
            }
            if tok.kind == Token::Eof
                && let Some((open, c)) = info.unclosed
            {
                d = d.label(open, format!("this `{c}` is never closed"));
            }
            Some(d)
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let what = join_alternatives(&summarize_expected(expected));
            let span = if location.0 == 0 {
                info.eof
            } else {
                Span::new(*location, *location)
            };
            Some(
                Diagnostic::error(codes::SYNTAX, format!("expected {what}, found end of file"))
                    .label(span, "unexpected end of file"),
            )
        }
        ParseError::ExtraToken { token: (l, tok, r) } => Some(
            Diagnostic::error(
                codes::SYNTAX,
                format!(
                    "unexpected {} after the end of the program",
                    describe_found(tok)
                ),
            )
            .label(Span::new(*l, *r), "unexpected token"),
        ),
        ParseError::InvalidToken { location } => Some(
            Diagnostic::error(codes::SYNTAX, "invalid token")
                .label(Span::new(*location, *location), "here"),
        ),
        ParseError::User { error } => match *error {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intern::Symbol;

    fn tok(kind: Token, text: &str, idx: u32) -> Tok {
        Tok {
            kind,
            sym: Symbol::intern(text),
            idx,
        }
    }

    fn pp(kind: Token, lo: u32, hi: u32, line_start: bool) -> PpToken {
        PpToken {
            kind,
            sym: Symbol::intern(""),
            span: Span::new(Loc(lo), Loc(hi)),
            flags: if line_start { flags::LINE_START } else { 0 },
        }
    }

    fn info(toks: &[PpToken]) -> SyntaxError<'_> {
        SyntaxError {
            toks,
            eof: Span::new(Loc(100), Loc(100)),
            unclosed: None,
        }
    }

    fn q(s: &str) -> String {
        format!("\"{s}\"")
    }

    #[test]
    fn small_expected_sets_are_listed() {
        let toks = [
            pp(Token::Ident, 1, 2, false),
            pp(Token::RBrace, 3, 4, false),
        ];
        let e = ParseError::UnrecognizedToken {
            token: (Loc(3), tok(Token::RBrace, "}", 1), Loc(4)),
            expected: vec![q(";"), q(","), q(")")],
        };
        let d = syntax_error(&e, &info(&toks)).expect("a diagnostic");
        assert_eq!(d.message, "expected one of `;`, `,` or `)`, found `}`");
        assert_eq!(d.code, codes::SYNTAX);
        // `}` counts as a new line: the `;` is wanted after the previous token.
        assert_eq!(d.labels[0].span, Span::new(Loc(1), Loc(2)));
        assert_eq!(d.labels[0].message, "expected `;` after this");
    }

    #[test]
    fn expression_starters_collapse() {
        let mut expected = vec![
            "Ident".to_string(),
            "IntLit".to_string(),
            "FloatLit".to_string(),
            "TypeName".to_string(),
            q("("),
            q("-"),
            q("!"),
            q("true"),
        ];
        expected.push(q("sizeof"));
        let e = ParseError::UnrecognizedToken {
            token: (Loc(5), tok(Token::Semi, ";", 0), Loc(6)),
            expected,
        };
        let d = syntax_error(&e, &info(&[])).expect("a diagnostic");
        assert_eq!(d.message, "expected an expression, found `;`");
        assert_eq!(d.labels[0].message, "expected an expression");
    }

    #[test]
    fn operators_collapse_and_semicolon_comes_first() {
        let mut expected: Vec<String> = ["+", "-", "*", "/", "==", "<", ".", "["]
            .iter()
            .map(|s| q(s))
            .collect();
        expected.push(q(";"));
        expected.push(q(","));
        let toks = [
            pp(Token::IntLit, 10, 11, false),
            pp(Token::Ident, 20, 21, true),
        ];
        let e = ParseError::UnrecognizedToken {
            token: (Loc(20), tok(Token::Ident, "y", 1), Loc(21)),
            expected,
        };
        let d = syntax_error(&e, &info(&toks)).expect("a diagnostic");
        assert_eq!(
            d.message,
            "expected one of `;`, `,` or an operator, found `y`"
        );
        assert_eq!(d.labels.len(), 2);
        assert_eq!(d.labels[1].span, Span::new(Loc(20), Loc(21)));
    }

    #[test]
    fn end_of_file_points_at_eof_and_the_open_brace() {
        let toks = [pp(Token::LBrace, 1, 2, false)];
        let mut i = info(&toks);
        i.unclosed = Some((Span::new(Loc(1), Loc(2)), '{'));
        let e = ParseError::UnrecognizedToken {
            token: (Loc(100), tok(Token::Eof, "", 1), Loc(100)),
            expected: vec![q("}")],
        };
        let d = syntax_error(&e, &i).expect("a diagnostic");
        assert_eq!(d.message, "expected `}`, found end of file");
        assert!(
            d.labels
                .iter()
                .any(|l| l.message == "this `{` is never closed")
        );
    }

    #[test]
    fn keywords_are_named_as_keywords() {
        let e = ParseError::UnrecognizedToken {
            token: (Loc(1), tok(Token::Return, "return", 0), Loc(7)),
            expected: vec!["Ident".to_string()],
        };
        let d = syntax_error(&e, &info(&[])).expect("a diagnostic");
        assert_eq!(d.message, "expected identifier, found keyword `return`");
    }

    #[test]
    fn an_unknown_type_is_named() {
        let mut toks = vec![
            pp(Token::Ident, 1, 4, true),
            pp(Token::Ident, 5, 6, false),
            pp(Token::Semi, 6, 7, false),
        ];
        toks[0].sym = Symbol::intern("Foo");
        let e = ParseError::UnrecognizedToken {
            token: (Loc(5), tok(Token::Ident, "x", 1), Loc(6)),
            expected: vec![q("("), q("=")],
        };
        let d = syntax_error(&e, &info(&toks)).expect("a diagnostic");
        assert_eq!(d.message, "unknown type name `Foo`");
        assert_eq!(d.labels[0].span, Span::new(Loc(1), Loc(4)));
    }

    #[test]
    fn adapter_errors_are_not_reported_twice() {
        let e = ParseError::UnrecognizedToken {
            token: (Loc(1), tok(Token::Newline, "", 0), Loc(2)),
            expected: vec![q(";")],
        };
        assert!(syntax_error(&e, &info(&[])).is_none());
    }
}
