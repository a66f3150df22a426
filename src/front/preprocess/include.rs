//! `#include`: the search path, the cache of lexed files, `#pragma once`
//! and the include-guard optimisation, and lexing a file once.

use super::{Context, Preprocessor};
use crate::diag::{Diagnostic, codes};
use crate::front::lexer::{PpToken, Token, lex_interned};
use crate::intern::Symbol;
use crate::source::{FileId, SourceMap};
use crate::span::{Loc, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// Text the lexer could not turn into tokens, placed in the location space
/// as the file's tokens are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LexIssue {
    pub start: u32,
    pub end: u32,
    pub kind: IssueKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IssueKind {
    Stray,
    UnterminatedString,
    UnterminatedChar,
    UnterminatedComment,
}

impl LexIssue {
    pub fn diagnostic(&self, span: Span) -> Diagnostic {
        let (message, label) = match self.kind {
            IssueKind::Stray => ("invalid character in source text", "not part of any token"),
            IssueKind::UnterminatedString => (
                "missing terminating '\"' character",
                "this string literal does not end on its line",
            ),
            IssueKind::UnterminatedChar => (
                "missing terminating ' character",
                "this character literal does not end on its line",
            ),
            IssueKind::UnterminatedComment => (
                "unterminated /* comment",
                "this comment runs to the end of the file",
            ),
        };
        let span = if self.kind == IssueKind::UnterminatedComment {
            Span::new(span.lo, crate::span::Loc(span.lo.0 + 2))
        } else {
            span
        };
        Diagnostic::error(codes::PP_LEX_ERROR, message).label(span, label)
    }
}

/// Lexes a file's text, which starts at `base` in the location space: the
/// tokens, and the lex issues sorted by offset (see [`lex_interned`]).
///
/// logos skips a closed `/* */` comment; an unclosed one comes out as `/`
/// immediately followed by `*`, so that pair starts a comment to the end of
/// the file. An unterminated string or character literal swallows the rest
/// of its line (logos reports it as one error up to the newline).
pub(super) fn lex_file(text: &str, base: u32) -> (Vec<PpToken>, Vec<LexIssue>) {
    let (mut toks, errors, slash_star) = lex_interned(text, base);
    let bytes = text.as_bytes();
    let mut issues: Vec<LexIssue> = errors
        .iter()
        .map(|e| LexIssue {
            start: base + e.start,
            end: base + e.end,
            kind: match bytes.get(e.start as usize) {
                Some(b'"') => IssueKind::UnterminatedString,
                Some(b'\'') => IssueKind::UnterminatedChar,
                _ => IssueKind::Stray,
            },
        })
        .collect();
    // The pair is a `/` token followed at once by `*`, which the lexer
    // notes: a file without one (nearly all) needs no look at its tokens.
    let open_comment = slash_star.then(|| {
        toks.windows(2).position(|w| {
            w[0].kind == Token::Slash && w[1].kind == Token::Star && w[0].span.hi == w[1].span.lo
        })
    });
    if let Some(i) = open_comment.flatten() {
        let start = toks[i].span.lo.0;
        toks.truncate(i);
        issues.retain(|e| e.start < start);
        issues.push(LexIssue {
            start,
            end: base + text.len() as u32,
            kind: IssueKind::UnterminatedComment,
        });
    }
    (toks, issues)
}

/// A lexed file, shared by all its inclusions.
pub(super) struct LexedFile {
    /// The tokens and issues, placed where the file of its first inclusion
    /// is in the location space.
    pub toks: Arc<Vec<PpToken>>,
    pub issues: Arc<Vec<LexIssue>>,
    /// The source-map file of its first inclusion (its text is copied from
    /// there for later inclusions, each of which gets its own `FileId` so
    /// "included from" notes are right).
    pub first: FileId,
}

impl LexedFile {
    /// The tokens and issues moved from where the file starting at `from`
    /// has them to where one starting at `to` does (a later inclusion, or a
    /// batch's other compile, whose file is elsewhere in the location
    /// space).
    pub fn moved(
        toks: &[PpToken],
        issues: &[LexIssue],
        from: u32,
        to: u32,
    ) -> (Vec<PpToken>, Vec<LexIssue>) {
        let by = to.wrapping_sub(from);
        let at = |loc: Loc| Loc(loc.0.wrapping_add(by));
        let toks = toks
            .iter()
            .map(|t| PpToken {
                span: Span::new(at(t.span.lo), at(t.span.hi)),
                ..*t
            })
            .collect();
        let issues = issues
            .iter()
            .map(|i| LexIssue {
                start: i.start.wrapping_add(by),
                end: i.end.wrapping_add(by),
                kind: i.kind,
            })
            .collect();
        (toks, issues)
    }
}

/// Include-guard detection for one file: `#ifndef X` (or `#if !defined X`)
/// first, its `#endif` last, nothing outside (clang's multiple-include
/// optimisation). When the file ends in `Closed(X)` and `X` is defined at a
/// later `#include`, the file is skipped without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// Nothing but newlines seen yet.
    Start,
    /// Inside the candidate guard group, whose `Cond` is at this depth.
    Open(Symbol, usize),
    /// The guard group closed; nothing may follow.
    Closed(Symbol),
    /// Not a guarded file.
    None,
}

impl Guard {
    /// A token or directive outside the guard group (or before it).
    pub fn saw_token(&mut self) {
        if matches!(self, Guard::Start | Guard::Closed(_)) {
            *self = Guard::None;
        }
    }
}

/// Files seen by one preprocessing run.
#[derive(Default)]
pub(super) struct Files {
    pub cache: FxHashMap<PathBuf, Rc<LexedFile>>,
    pub once: FxHashSet<PathBuf>,
    pub guards: FxHashMap<PathBuf, Symbol>,
    /// Every file read, in order, without duplicates.
    pub deps: Vec<PathBuf>,
}

impl Files {
    /// Lexes the text of `file` (just added) and remembers it under `key`;
    /// with a `shared` cache (a batch's), only when no other compile has
    /// lexed that text already.
    pub fn lex_and_cache(
        &mut self,
        sm: &SourceMap,
        file: FileId,
        key: PathBuf,
        shared: Option<&super::LexCache>,
    ) -> Rc<LexedFile> {
        let f = sm.file(file);
        let (toks, issues) = match shared {
            Some(cache) => cache.lex(&key, &f.text, f.base),
            None => {
                let (toks, issues) = lex_file(&f.text, f.base);
                (toks.into(), issues.into())
            }
        };
        let lexed = Rc::new(LexedFile {
            toks,
            issues,
            first: file,
        });
        self.cache.insert(key, lexed.clone());
        lexed
    }
}

/// Removes `.` and resolves `..` lexically, so one file has one key however
/// it is spelled (`a/./b.h`, `a/c/../b.h`).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// How an `#include` names its file.
pub(super) struct IncludeName {
    pub name: String,
    /// `<file>`: search only the `-I` directories.
    pub angled: bool,
    pub span: Span,
}

impl Preprocessor<'_> {
    /// Parses the operand of `#include` (already split from the directive
    /// name): `"file"`, `<file>` (rebuilt from the source text between `<`
    /// and `>`), or macros expanding to either.
    pub(super) fn include_name(
        &mut self,
        file: FileId,
        line: Vec<PpToken>,
        directive: Span,
    ) -> Option<IncludeName> {
        let base = self.sm.file(file).base;
        let first = line.first().copied();
        let (toks, from_source) = match first {
            Some(t) if t.kind == Token::StringLit || t.kind == Token::Lt => (line, true),
            Some(_) => (self.expand_line(line), false),
            None => {
                self.error(
                    Diagnostic::error(codes::PP_BAD_INCLUDE, "#include expects \"FILE\" or <FILE>")
                        .label(directive, "no file named"),
                );
                return None;
            }
        };
        let bad = |pp: &mut Self, at: Span| {
            pp.error(
                Diagnostic::error(codes::PP_BAD_INCLUDE, "#include expects \"FILE\" or <FILE>")
                    .label(at, "not a file name"),
            );
        };
        let Some(&head) = toks.first() else {
            bad(self, directive);
            return None;
        };
        let (name, angled, span, rest) = match head.kind {
            Token::StringLit => {
                let s = head.sym.as_str();
                let inner = s.get(1..s.len().saturating_sub(1)).unwrap_or("");
                (inner.to_string(), false, head.span, &toks[1..])
            }
            Token::Lt => {
                let Some(close) = toks.iter().position(|t| t.kind == Token::Gt) else {
                    self.error(
                        Diagnostic::error(
                            codes::PP_BAD_INCLUDE,
                            "expected '>' to end the #include file name",
                        )
                        .label(head.span, "this '<' is not closed"),
                    );
                    return None;
                };
                let gt = toks[close];
                let name = if from_source {
                    let text = &self.sm.file(file).text;
                    text[(head.span.hi.0 - base) as usize..(gt.span.lo.0 - base) as usize]
                        .to_string()
                } else {
                    // From a macro: the spellings, spaced as they were.
                    let mut s = String::new();
                    for (i, t) in toks[1..close].iter().enumerate() {
                        if i > 0 && t.flags & crate::front::lexer::flags::SPACE_BEFORE != 0 {
                            s.push(' ');
                        }
                        s.push_str(t.sym.as_str());
                    }
                    s
                };
                (
                    name,
                    true,
                    Span::new(head.span.lo, gt.span.hi),
                    &toks[close + 1..],
                )
            }
            _ => {
                bad(self, head.span);
                return None;
            }
        };
        if let Some(extra) = rest.first() {
            self.extra_tokens(extra.span, "#include");
        }
        Some(IncludeName { name, angled, span })
    }

    /// Runs `#include`: finds the file, skips it for `#pragma once` or a
    /// defined include guard, else enters it.
    pub(super) fn include(
        &mut self,
        hash: Span,
        file: FileId,
        line: Vec<PpToken>,
        directive: Span,
    ) {
        if self.collecting_args > 0 {
            self.error(
                Diagnostic::error(
                    codes::PP_BAD_INCLUDE,
                    "#include inside the arguments of a macro invocation is not supported",
                )
                .label(directive, "this #include"),
            );
            return;
        }
        let Some(inc) = self.include_name(file, line, directive) else {
            return;
        };
        if inc.name.is_empty() {
            self.error(
                Diagnostic::error(codes::PP_BAD_INCLUDE, "empty file name in #include")
                    .label(inc.span, "no file named"),
            );
            return;
        }
        let Some(path) = self.find_include(file, &inc) else {
            return;
        };
        let key = normalize(&path);
        if self.files.once.contains(&key) {
            return;
        }
        if let Some(m) = self.files.guards.get(&key)
            && self.is_defined(*m)
        {
            return;
        }
        if self.include_depth >= super::MAX_INCLUDE_DEPTH {
            self.include_too_deep(&key, inc.span);
            return;
        }
        let built_in = crate::front::headers::text(&path);
        let lexed = match self.files.cache.get(&key) {
            Some(l) => {
                let l = l.clone();
                let first = self.sm.file(l.first);
                let (text, from) = (first.text.clone(), first.base);
                let Some(fid) = self.add_file(key.display().to_string(), &key, text, Some(hash.lo))
                else {
                    return;
                };
                let (toks, issues) =
                    LexedFile::moved(&l.toks, &l.issues, from, self.sm.file(fid).base);
                let here = LexedFile {
                    toks: toks.into(),
                    issues: issues.into(),
                    first: l.first,
                };
                self.push_file(fid, &here, Some(key), true);
                return;
            }
            None => match built_in.map_or_else(|| self.loader.read(&path), |t| Ok(t.to_string())) {
                Ok(text) => text,
                Err(e) => {
                    self.error(
                        Diagnostic::error(
                            codes::IO_ERROR,
                            format!("cannot read '{}': {e}", path.display()),
                        )
                        .label(inc.span, "included here"),
                    );
                    return;
                }
            },
        };
        if built_in.is_none() && !self.files.deps.contains(&path) {
            self.files.deps.push(path.clone());
        }
        let Some(fid) = self.add_file(key.display().to_string(), &key, lexed, Some(hash.lo)) else {
            return;
        };
        let l = self
            .files
            .lex_and_cache(self.sm, fid, key.clone(), self.loader.lex_cache());
        self.push_file(fid, &l, Some(key), true);
    }

    /// Reports `#include` nesting past [`super::MAX_INCLUDE_DEPTH`] (fatal).
    /// The primary label is the outermost `#include` of the chain (so the
    /// diagnostic is not followed by 200 "included from" notes); a note
    /// names the chain.
    fn include_too_deep(&mut self, key: &Path, at: Span) {
        let files: Vec<FileId> = self
            .ctxs
            .iter()
            .filter_map(|c| match c {
                Context::File(f) if f.included => Some(f.file),
                _ => None,
            })
            .collect();
        let start = files
            .first()
            .and_then(|&f| self.sm.file(f).included_from)
            .map_or(at, |loc| self.line_span(loc));
        let names: Vec<&str> = files
            .iter()
            .map(|&f| self.sm.file(f).name.as_str())
            .collect();
        let key_name = key.display().to_string();
        let mut d = Diagnostic::error(
            codes::PP_INCLUDE_DEPTH,
            format!(
                "#include nested too deeply (more than {} levels)",
                super::MAX_INCLUDE_DEPTH
            ),
        )
        .label(start, "the chain of includes starts here");
        d = match names.iter().position(|&n| n == key_name) {
            // The file about to be entered is already open: a cycle.
            Some(first) => {
                let next = names[first + 1..]
                    .iter()
                    .position(|&n| n == key_name)
                    .map_or(names.len(), |p| first + 1 + p);
                let mut cycle: Vec<&str> = names[first..next].to_vec();
                cycle.push(&key_name);
                d.note(format!(
                    "an include cycle: {}; add an include guard or #pragma once",
                    cycle.join(" → ")
                ))
            }
            None => {
                let mut chain: Vec<&str> = names.iter().take(6).copied().collect();
                if names.len() > chain.len() {
                    chain.push("…");
                }
                d.note(format!("the chain: {}", chain.join(" → ")))
            }
        };
        self.fatal(d.note("preprocessing stopped here"));
    }

    /// The span from `loc` to the end of its line (a directive).
    fn line_span(&self, loc: crate::span::Loc) -> Span {
        let Some(f) = self.sm.file_of(loc) else {
            return Span::new(loc, loc);
        };
        let file = self.sm.file(f);
        let off = (loc.0 - file.base) as usize;
        let rest = &file.text[off..];
        let len = rest.find('\n').unwrap_or(rest.len());
        let len = rest[..len].trim_end().len() as u32;
        Span::new(loc, crate::span::Loc(loc.0 + len))
    }

    /// Searches for an include: for `"file"` the including file's directory
    /// first, then each `-I` directory in order (DXC's search; `<file>` only
    /// the `-I` directories). Reports "not found" with the places searched.
    fn find_include(&mut self, file: FileId, inc: &IncludeName) -> Option<PathBuf> {
        let name = Path::new(&inc.name);
        if name.is_absolute() {
            if self.files.cache.contains_key(&normalize(name)) || self.loader.exists(name) {
                return Some(name.to_path_buf());
            }
            self.error(
                Diagnostic::error(
                    codes::PP_INCLUDE_NOT_FOUND,
                    format!("'{}' file not found", inc.name),
                )
                .label(inc.span, "included here"),
            );
            return None;
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        if !inc.angled {
            let here = self
                .sm
                .file(file)
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            dirs.push(here);
        }
        dirs.extend(self.options.include_dirs.iter().cloned());
        // Shaders written on Windows often spell `..\common.hlsli`; where
        // `\` is no separator, the name with `/` is tried as well.
        let slashed = (std::path::MAIN_SEPARATOR != '\\' && inc.name.contains('\\'))
            .then(|| PathBuf::from(inc.name.replace('\\', "/")));
        for d in &dirs {
            for n in std::iter::once(name).chain(slashed.as_deref()) {
                let candidate = normalize(&d.join(n));
                if self.files.cache.contains_key(&candidate) || self.loader.exists(&candidate) {
                    return Some(candidate);
                }
            }
        }
        // Last, hlslc's own headers (`vk/spirv.h`…), as DXC's.
        if let Some(path) = crate::front::headers::find(&inc.name) {
            return Some(path);
        }
        let shown: Vec<String> = dirs
            .iter()
            .map(|d| {
                let s = d.display().to_string();
                if s.is_empty() { ".".to_string() } else { s }
            })
            .collect();
        let note = if shown.is_empty() {
            "no directories to search: <FILE> searches only the -I directories; add one with -I"
                .to_string()
        } else if inc.angled {
            format!("searched the -I directories: {}", shown.join(", "))
        } else {
            format!(
                "searched the including file's directory and the -I directories: {}",
                shown.join(", ")
            )
        };
        self.error(
            Diagnostic::error(
                codes::PP_INCLUDE_NOT_FOUND,
                format!("'{}' file not found", inc.name),
            )
            .label(inc.span, "included here")
            .note(note),
        );
        None
    }
}
