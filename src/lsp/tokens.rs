//! Semantic highlighting: `textDocument/semanticTokens/full` and `/range`.
//!
//! A token for every name the compilation resolved (types, structs,
//! functions, methods, parameters, locals, globals, members, enum values,
//! namespaces, with `declaration`, `readonly`, `static` and `global`
//! modifiers), every macro defined or used, and, from the file's tokens,
//! HLSL's built-in types, intrinsics, methods and members (swizzles;
//! `defaultLibrary`), semantics (`: SV_Target`) and attribute names
//! (`[numthreads(…)]`, `[[vk::binding(…)]]`). Each line of a group `#if` skipped is one
//! `comment`. An editor without an HLSL grammar colours the file from
//! these alone.

use super::analysis::Analysis;
use crate::front::lexer::{self, Token};
use crate::intern::{Symbol, builtins};
use crate::sema::calls::intrinsics::table as intrinsics;
use crate::sema::index::DefKind;
use lsp_types::{Position, SemanticToken, SemanticTokens};
use std::ops::Range;

/// The token types, in the legend's order (see [`Kind`]); `semantic` is
/// hlslc's own (LSP has none for `: SV_Target`).
pub(crate) const TOKEN_TYPES: &[&str] = &[
    "comment",
    "type",
    "struct",
    "enum",
    "enumMember",
    "function",
    "method",
    "parameter",
    "variable",
    "property",
    "macro",
    "namespace",
    "decorator",
    "semantic",
];

/// The token modifiers, in the legend's order (bit `i` of a token's set
/// is modifier `i`); `global` is hlslc's own (a variable at file scope).
pub(crate) const TOKEN_MODIFIERS: &[&str] =
    &["declaration", "readonly", "static", "defaultLibrary", "global"];

/// A token type: its index in [`TOKEN_TYPES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Comment,
    Type,
    Struct,
    Enum,
    EnumMember,
    Function,
    Method,
    Parameter,
    Variable,
    Property,
    Macro,
    Namespace,
    Decorator,
    Semantic,
}

const DECLARATION: u32 = 1;
const READONLY: u32 = 2;
const STATIC: u32 = 4;
const DEFAULT_LIBRARY: u32 = 8;
const GLOBAL: u32 = 16;

/// A token of the file: a byte range on one line.
struct Tok {
    range: Range<usize>,
    kind: Kind,
    modifiers: u32,
}

/// The type of a name that declares or uses a symbol of `kind`.
fn symbol_kind(kind: DefKind) -> (Kind, u32) {
    match kind {
        DefKind::Local => (Kind::Variable, 0),
        DefKind::Parameter => (Kind::Parameter, 0),
        DefKind::Global | DefKind::Resource | DefKind::CBufferMember => (Kind::Variable, GLOBAL),
        DefKind::CBuffer | DefKind::Struct => (Kind::Struct, 0),
        DefKind::Function => (Kind::Function, 0),
        DefKind::Method => (Kind::Method, 0),
        DefKind::Field => (Kind::Property, 0),
        DefKind::Typedef | DefKind::Template => (Kind::Type, 0),
        DefKind::Enum => (Kind::Enum, 0),
        DefKind::EnumValue => (Kind::EnumMember, 0),
        DefKind::Namespace => (Kind::Namespace, 0),
    }
}

/// The tokens of file `f` of `a`, all of them or those that overlap
/// `range` (bytes).
pub(super) fn semantic_tokens(a: &Analysis, f: usize, range: Option<Range<usize>>) -> SemanticTokens {
    // In this order, so that of two tokens at one place the first wins.
    let mut toks = resolved(a, f);
    toks.extend(inactive_lines(a, f));
    toks.extend(lexed(a, f));
    toks.sort_by_key(|t| (t.range.start, std::cmp::Reverse(t.range.end)));
    // One token per place: a resolved name over what its spelling
    // suggests, nothing but `comment` in a skipped group.
    let mut kept: Vec<Tok> = Vec::with_capacity(toks.len());
    for t in toks {
        if kept.last().is_some_and(|k| t.range.start < k.range.end) {
            continue;
        }
        kept.push(t);
    }
    if let Some(r) = range {
        kept.retain(|t| t.range.start < r.end && r.start < t.range.end);
    }
    encode(a, f, &kept)
}

/// Names the compilation resolved, and macros.
fn resolved(a: &Analysis, f: usize) -> Vec<Tok> {
    let mut out = Vec::new();
    for (at, i) in a.uses.iter().filter(|(at, _)| at.file == f) {
        let s = &a.symbols[*i];
        let (kind, mut modifiers) = symbol_kind(s.kind);
        if *at == s.at || s.def_at.as_ref() == Some(at) {
            modifiers |= DECLARATION;
        }
        if s.readonly {
            modifiers |= READONLY;
        }
        if s.is_static {
            modifiers |= STATIC;
        }
        out.push(Tok {
            range: at.range.clone(),
            kind,
            modifiers,
        });
    }
    let macros = a.macros.iter().map(|m| (&m.at, DECLARATION));
    for (at, modifiers) in macros.chain(a.macro_uses.iter().map(|(at, _)| (at, 0))) {
        if at.file == f {
            out.push(Tok {
                range: at.range.clone(),
                kind: Kind::Macro,
                modifiers,
            });
        }
    }
    out
}

/// What the file's own tokens show outside the resolved names: built-in
/// types and intrinsics, semantics and attribute names.
fn lexed(a: &Analysis, f: usize) -> Vec<Tok> {
    let text = &a.files[f].text;
    let (raw, _) = lexer::lex(text);
    let raw: Vec<_> = raw.into_iter().filter(|t| t.kind != Token::Newline).collect();
    let kind_at = |i: usize| raw.get(i).map(|t| t.kind);
    let mut out = Vec::new();
    // In an attribute's name: `[name`, `[[vk::name`.
    let mut attribute = false;
    for (i, t) in raw.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(kind_at);
        if t.kind != Token::Ident {
            attribute = match t.kind {
                Token::LBracket => true,
                Token::ColonColon => attribute && prev == Some(Token::Ident),
                _ => false,
            };
            continue;
        }
        let range = t.start as usize..t.end as usize;
        let word = Symbol::intern(&text[range.clone()]);
        let call = kind_at(i + 1) == Some(Token::LParen);
        let (kind, modifiers) = if builtins::is_builtin_type(word) {
            (Kind::Type, DEFAULT_LIBRARY)
        } else if attribute {
            (Kind::Decorator, 0)
        } else if call && prev == Some(Token::Dot) {
            // A method the compilation did not resolve to user code: a
            // built-in one (`tex.Sample(…)`).
            (Kind::Method, DEFAULT_LIBRARY)
        } else if prev == Some(Token::Dot) {
            // A member the compilation did not resolve to user code: a
            // swizzle (`v.xyz`) or a built-in struct's (`ray.Origin`).
            (Kind::Property, DEFAULT_LIBRARY)
        } else if call && intrinsics::find_symbol(word).is_some() {
            (Kind::Function, DEFAULT_LIBRARY)
        } else if prev == Some(Token::Colon) && !call {
            (Kind::Semantic, 0)
        } else {
            attribute = false;
            continue;
        };
        out.push(Tok {
            range,
            kind,
            modifiers,
        });
    }
    out
}

/// Each non-empty line of the groups `#if` skipped in file `f`.
fn inactive_lines(a: &Analysis, f: usize) -> Vec<Tok> {
    let file = &a.files[f];
    let mut out = Vec::new();
    for at in a.inactive.iter().filter(|at| at.file == f) {
        let start = file.lines.position(&file.text, at.range.start).line;
        let end = file.lines.position(&file.text, at.range.end).line;
        for line in start..=end {
            let lo = file.lines.offset(&file.text, Position { line, character: 0 });
            let hi = file.lines.offset(
                &file.text,
                Position {
                    line,
                    character: u32::MAX,
                },
            );
            // The whole line from its start (its indentation too).
            let hi = hi.min(at.range.end);
            if hi > lo.max(at.range.start) {
                out.push(Tok {
                    range: lo..hi,
                    kind: Kind::Comment,
                    modifiers: 0,
                });
            }
        }
    }
    out
}

/// LSP's encoding: each token's line and UTF-16 start relative to the
/// previous token's, its length in UTF-16 units.
fn encode(a: &Analysis, f: usize, toks: &[Tok]) -> SemanticTokens {
    let file = &a.files[f];
    let mut data = Vec::with_capacity(toks.len());
    let (mut line, mut start) = (0u32, 0u32);
    for t in toks {
        let p = file.lines.position(&file.text, t.range.start);
        let length: usize = file.text[t.range.clone()].chars().map(char::len_utf16).sum();
        data.push(SemanticToken {
            delta_line: p.line - line,
            delta_start: if p.line == line { p.character - start } else { p.character },
            length: length as u32,
            token_type: t.kind as u32,
            token_modifiers_bitset: t.modifiers,
        });
        (line, start) = (p.line, p.character);
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
