//! Directives: dispatch, conditional groups (`#if` … `#endif`) and skipping,
//! `#line`, `#error`, `#warning`, `#pragma`.

use super::include::Guard;
use super::{Cond, CondState, Context, Preprocessor, expr};
use crate::diag::{Diagnostic, codes};
use crate::front::lexer::{PpToken, Token, flags, newline_after};
use crate::intern::Symbol;
use crate::source::FileId;
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Directive {
    If,
    Ifdef,
    Ifndef,
    Elif,
    Else,
    Endif,
    Define,
    Undef,
    Include,
    Line,
    /// GNU line marker `# 33 "file"`, as cpp writes.
    LineMarker,
    Error,
    Warning,
    Pragma,
    Unknown,
}

fn classify(kind: Token, text: &str) -> Directive {
    use Directive::*;
    match text {
        "if" => If,
        "ifdef" => Ifdef,
        "ifndef" => Ifndef,
        "elif" => Elif,
        "else" => Else,
        "endif" => Endif,
        "define" => Define,
        "undef" => Undef,
        "include" => Include,
        "line" => Line,
        "error" => Error,
        "warning" => Warning,
        "pragma" => Pragma,
        _ if kind == Token::IntLit => LineMarker,
        _ => Unknown,
    }
}

/// The directive names that open, continue or close a conditional group, as
/// the skipper sees them.
enum CondKeyword {
    Open,
    Middle,
    Close,
    Other,
}

fn cond_keyword(text: &str) -> CondKeyword {
    match text {
        "if" | "ifdef" | "ifndef" => CondKeyword::Open,
        "elif" | "else" => CondKeyword::Middle,
        "endif" => CondKeyword::Close,
        _ => CondKeyword::Other,
    }
}

impl Preprocessor<'_> {
    /// Runs the directive whose `#` is the current token of the top file.
    pub(super) fn directive(&mut self) {
        let Some(Context::File(f)) = self.ctxs.last_mut() else {
            return;
        };
        let file = f.file;
        let toks = f.toks.clone();
        let hash_idx = f.pos;
        // The line's tokens end before the next line's first (the file's
        // newlines are no tokens: see `lex_interned`).
        let end = toks
            .get(hash_idx + 1..)
            .and_then(|rest| rest.iter().position(|t| t.flags & flags::LINE_START != 0))
            .map_or(toks.len(), |p| hash_idx + 1 + p);
        f.pos = end;
        let (text, base) = (&self.sm.file(file).text, self.sm.file(file).base);
        // The newline that ends the line, if there is one (offsets in the
        // file): the line's last token is at `end - 1`.
        let newline = toks
            .get(end.wrapping_sub(1))
            .and_then(|last| newline_after(text, last.span.hi.0 - base));
        let next_line = newline.map_or(text.len() as u32, |n| n.1);
        let hash_span = toks[hash_idx].span;

        let Some(&name_raw) = toks.get(hash_idx + 1).filter(|_| hash_idx + 1 < end) else {
            // The null directive: a `#` alone on its line.
            if let Some(Context::File(f)) = self.ctxs.last_mut() {
                f.guard.saw_token();
            }
            return;
        };
        let name_span = name_raw.span;
        let directive_span = hash_span.to(name_span);
        let dir = classify(name_raw.kind, name_raw.sym.as_str());
        // Where the newline starts, in the location space.
        let line_end = newline.map_or(u32::MAX, |n| base + n.0);
        if matches!(dir, Directive::Error | Directive::Warning) {
            // The message is raw text (it may hold an apostrophe).
            self.skip_lex_issues(line_end);
        } else {
            self.report_lex_issues(line_end);
        }
        let rest = self.line_tokens(&toks, hash_idx + 2, end);

        // Include-guard tracking: only `#ifndef X` / `#if !defined X` may come
        // first; conditionals update the state themselves.
        if !matches!(
            dir,
            Directive::If
                | Directive::Ifndef
                | Directive::Elif
                | Directive::Else
                | Directive::Endif
        ) {
            self.with_guard(|g| g.saw_token());
        }

        match dir {
            Directive::If => {
                let guard_macro = guard_pattern_if(&rest, self.syms.defined);
                let value = self.eval_condition(rest, directive_span);
                self.open_group(value, directive_span, guard_macro);
            }
            Directive::Ifdef | Directive::Ifndef => {
                let Some(&name) = rest.first().filter(|t| t.kind.is_ident_like()) else {
                    self.error(
                        Diagnostic::error(
                            codes::PP_BAD_EXPRESSION,
                            format!(
                                "#{} expects a macro name",
                                if dir == Directive::Ifdef {
                                    "ifdef"
                                } else {
                                    "ifndef"
                                }
                            ),
                        )
                        .label(
                            rest.first().map_or(directive_span, |t| t.span),
                            "expected an identifier",
                        ),
                    );
                    self.open_group(false, directive_span, None);
                    return;
                };
                if let Some(extra) = rest.get(1) {
                    self.extra_tokens(extra.span, "#ifdef");
                }
                let defined = self.is_defined(name.sym);
                let guard_macro = (dir == Directive::Ifndef).then_some(name.sym);
                self.open_group(
                    defined == (dir == Directive::Ifdef),
                    directive_span,
                    guard_macro,
                );
            }
            Directive::Elif => self.elif(rest, directive_span),
            Directive::Else => {
                if self.else_(directive_span)
                    && let Some(extra) = rest.first()
                {
                    self.extra_tokens(extra.span, "#else");
                }
            }
            Directive::Endif => {
                if self.endif(directive_span)
                    && let Some(extra) = rest.first()
                {
                    self.extra_tokens(extra.span, "#endif");
                }
            }
            Directive::Define => self.define(rest, directive_span),
            Directive::Undef => self.undef(rest, directive_span),
            Directive::Include => self.include(hash_span, file, rest, directive_span),
            Directive::Line => self.line_directive(file, rest, directive_span, next_line, false),
            Directive::LineMarker => {
                let mut all = Vec::with_capacity(rest.len() + 1);
                all.push(PpToken {
                    flags: 0,
                    ..name_raw
                });
                all.extend(rest);
                self.line_directive(file, all, directive_span, next_line, true);
            }
            Directive::Error | Directive::Warning => {
                let message = self.raw_line_text(file, &toks, hash_idx + 2, end, line_end);
                let d = if dir == Directive::Error {
                    Diagnostic::error(codes::PP_ERROR_DIRECTIVE, message)
                } else {
                    Diagnostic::warning(codes::PP_WARNING_DIRECTIVE, message)
                };
                let what = if dir == Directive::Error {
                    "#error"
                } else {
                    "#warning"
                };
                self.error(d.label(directive_span, format!("{what} directive")));
            }
            Directive::Pragma => self.pragma(rest, directive_span),
            Directive::Unknown => {
                let name = name_raw.sym.as_str();
                self.error(
                    Diagnostic::error(
                        codes::PP_UNKNOWN_DIRECTIVE,
                        format!("unknown preprocessor directive '#{name}'"),
                    )
                    .label(name_span, "not a directive")
                    .note("directives are #if, #ifdef, #ifndef, #elif, #else, #endif, #define, #undef, #include, #line, #error, #warning and #pragma"),
                );
            }
        }
    }

    /// The tokens `toks[from..to]` of a file (the operands of a directive,
    /// so never at a line's start).
    fn line_tokens(&mut self, toks: &[PpToken], from: usize, to: usize) -> Vec<PpToken> {
        let mut out = Vec::with_capacity(to.saturating_sub(from));
        for &raw in toks.get(from..to).unwrap_or_default() {
            out.push(PpToken {
                flags: raw.flags & flags::SPACE_BEFORE,
                ..raw
            });
        }
        out
    }

    /// The source text of a directive's operand, trimmed (for `#error`).
    /// `line_end` is where the line's newline starts in the location space
    /// (`u32::MAX` for none).
    fn raw_line_text(
        &self,
        file: FileId,
        toks: &[PpToken],
        from: usize,
        to: usize,
        line_end: u32,
    ) -> String {
        let f = self.sm.file(file);
        let Some(first) = toks.get(from).filter(|_| from < to) else {
            return String::new();
        };
        let start = (first.span.lo.0 - f.base) as usize;
        let line_end = (line_end.saturating_sub(f.base) as usize).min(f.text.len());
        let text = &f.text[start..line_end];
        // Drop a trailing `//` comment (not one inside a string, roughly).
        let last_end = (toks[to - 1].span.hi.0 - first.span.lo.0) as usize;
        let tail = &text[last_end.min(text.len())..];
        let tail_cut = tail.find("//").unwrap_or(tail.len());
        text[..last_end.min(text.len()) + tail_cut]
            .trim()
            .to_string()
    }

    /// Skips the lex issues of the top file before `before` without reporting.
    pub(super) fn skip_lex_issues(&mut self, before: u32) {
        if let Some(Context::File(f)) = self.ctxs.last_mut() {
            while f.issues.get(f.issue_pos).is_some_and(|i| i.start < before) {
                f.issue_pos += 1;
            }
        }
    }

    /// Updates the include-guard state of the top file.
    fn with_guard(&mut self, f: impl FnOnce(&mut Guard)) {
        if let Some(Context::File(file)) = self.ctxs.last_mut() {
            f(&mut file.guard);
        }
    }

    fn file_cond_base(&self) -> usize {
        self.current_file().map_or(0, |f| f.cond_base)
    }

    pub(super) fn extra_tokens(&mut self, at: Span, directive: &str) {
        self.error(
            Diagnostic::warning(
                codes::PP_EXTRA_TOKENS,
                format!("extra tokens at end of {directive} directive"),
            )
            .label(at, "ignored"),
        );
    }

    /// Opens a conditional group; `guard` is the macro of an `#ifndef X` /
    /// `#if !defined X` that may be the file's include guard.
    fn open_group(&mut self, value: bool, span: Span, guard: Option<Symbol>) {
        let depth = self.conds.len();
        self.conds.push(Cond {
            span,
            state: if value {
                CondState::Active
            } else {
                CondState::Seeking
            },
            else_span: None,
        });
        self.with_guard(|g| match (*g, guard) {
            (Guard::Start, Some(m)) => *g = Guard::Open(m, depth),
            _ => g.saw_token(),
        });
    }

    /// The innermost group of the current file, or an error for a stray
    /// `#elif`/`#else`/`#endif`.
    fn current_group(&mut self, span: Span, what: &str) -> Option<usize> {
        if self.conds.len() > self.file_cond_base() {
            return Some(self.conds.len() - 1);
        }
        self.error(
            Diagnostic::error(
                codes::PP_MISPLACED_CONDITIONAL,
                format!("{what} without #if"),
            )
            .label(span, "no #if, #ifdef or #ifndef is open in this file"),
        );
        None
    }

    /// Leaving the guard group's level with `#elif`/`#else` spoils the guard.
    fn guard_middle(&mut self, depth: usize) {
        self.with_guard(|g| {
            if matches!(*g, Guard::Open(_, d) if d == depth) {
                *g = Guard::None;
            }
        });
    }

    fn elif(&mut self, rest: Vec<PpToken>, span: Span) {
        let Some(i) = self.current_group(span, "#elif") else {
            return;
        };
        self.guard_middle(i);
        let c = self.conds[i];
        if let Some(e) = c.else_span {
            self.error(
                Diagnostic::error(codes::PP_MISPLACED_CONDITIONAL, "#elif after #else")
                    .label(span, "this #elif")
                    .label(e, "follows this #else"),
            );
            self.conds[i].state = CondState::Done;
            return;
        }
        self.conds[i].state = match c.state {
            CondState::Active | CondState::Done => CondState::Done,
            CondState::Seeking => {
                if self.eval_condition(rest, span) {
                    CondState::Active
                } else {
                    CondState::Seeking
                }
            }
        };
    }

    /// `#else`; false when it belongs to no group.
    fn else_(&mut self, span: Span) -> bool {
        let Some(i) = self.current_group(span, "#else") else {
            return false;
        };
        self.guard_middle(i);
        let c = self.conds[i];
        if let Some(e) = c.else_span {
            self.error(
                Diagnostic::error(codes::PP_MISPLACED_CONDITIONAL, "#else after #else")
                    .label(span, "a second #else")
                    .label(e, "the first #else"),
            );
            self.conds[i].state = CondState::Done;
            return true;
        }
        self.conds[i].else_span = Some(span);
        self.conds[i].state = match c.state {
            CondState::Seeking => CondState::Active,
            CondState::Active | CondState::Done => CondState::Done,
        };
        true
    }

    /// `#endif`; false when it closes no group.
    fn endif(&mut self, span: Span) -> bool {
        if self.current_group(span, "#endif").is_none() {
            return false;
        }
        self.conds.pop();
        let depth = self.conds.len();
        self.with_guard(|g| {
            if let Guard::Open(m, d) = *g
                && d == depth
            {
                *g = Guard::Closed(m);
            }
        });
        true
    }

    /// Evaluates an `#if`/`#elif` line; errors make it false.
    fn eval_condition(&mut self, rest: Vec<PpToken>, directive: Span) -> bool {
        let end = rest
            .last()
            .map_or(directive, |t| Span::new(t.span.hi, t.span.hi));
        self.in_if = true;
        self.directive_failed = false;
        let toks = self.expand_line(rest);
        self.in_if = false;
        if self.directive_failed || self.fatal {
            return false;
        }
        let value = expr::evaluate(&toks, end);
        self.recycle(toks);
        match value {
            Ok(v) => v.is_true(),
            Err(e) => {
                self.error(Diagnostic::error(e.code, e.message).label(e.span, e.label));
                false
            }
        }
    }

    /// Skips the rest of a group whose condition is false: stops at the `#`
    /// of the `#elif`, `#else` or `#endif` that belongs to it (counting
    /// nested groups), or at the end of the file. Skipped text is not
    /// tokenised further and its lex issues are not reported.
    pub(super) fn skip_group(&mut self) {
        let Some(Context::File(f)) = self.ctxs.last_mut() else {
            return;
        };
        let (text, base) = (&self.sm.file(f.file).text, self.sm.file(f.file).base);
        let toks = &f.toks;
        let mut depth = 0usize;
        let mut i = f.pos;
        // Offsets in the file.
        let next = toks.get(i).map_or(text.len() as u32, |t| t.span.lo.0 - base);
        // Where the skipped text starts: at the first token or newline
        // after the newline of the directive before (whose last token is
        // at `i - 1`).
        let first = toks
            .get(i.wrapping_sub(1))
            .and_then(|last| newline_after(text, last.span.hi.0 - base))
            .and_then(|(_, nl_end)| newline_after(text, nl_end))
            .map_or(next, |(start, _)| start.min(next));
        // A directive's `#` is the first token of its line (the file's
        // newlines are no tokens: see `lex_interned`).
        while let Some(t) = toks.get(i) {
            if t.kind == Token::Hash
                && t.flags & flags::LINE_START != 0
                && let Some(n) = toks.get(i + 1).filter(|n| n.flags & flags::LINE_START == 0)
            {
                match cond_keyword(n.sym.as_str()) {
                    CondKeyword::Open => depth += 1,
                    CondKeyword::Middle if depth == 0 => break,
                    CondKeyword::Close if depth == 0 => break,
                    CondKeyword::Close => depth -= 1,
                    _ => {}
                }
            }
            i += 1;
        }
        f.pos = i.min(toks.len());
        let limit = toks.get(f.pos).map_or(u32::MAX, |t| t.span.lo.0);
        while f.issues.get(f.issue_pos).is_some_and(|x| x.start < limit) {
            f.issue_pos += 1;
        }
        let end = limit.saturating_sub(base).min(text.len() as u32).max(first);
        let file = f.file;
        let span = self.sm.span(file, first..end);
        self.sm.add_skipped(span);
    }

    /// `#line N ["file"]`, or cpp's `# N "file" flags…` line marker.
    fn line_directive(
        &mut self,
        file: FileId,
        rest: Vec<PpToken>,
        span: Span,
        next_line: u32,
        marker: bool,
    ) {
        let toks = if marker { rest } else { self.expand_line(rest) };
        let bad = |pp: &mut Self, at: Span, msg: &str| {
            pp.error(
                Diagnostic::error(codes::PP_BAD_LINE, msg.to_string())
                    .label(at, "expected a line number"),
            );
        };
        let Some(&num) = toks.first() else {
            bad(self, span, "#line expects a line number");
            return;
        };
        let text = num.sym.as_str();
        let line = if num.kind == Token::IntLit && text.bytes().all(|b| b.is_ascii_digit()) {
            text.parse::<u32>().ok().filter(|&n| n <= 2_147_483_647)
        } else {
            None
        };
        let Some(line) = line else {
            bad(
                self,
                num.span,
                "#line expects a decimal line number (at most 2147483647)",
            );
            return;
        };
        let mut name = None;
        if let Some(&s) = toks.get(1) {
            if s.kind == Token::StringLit {
                let raw = s.sym.as_str();
                let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
                name = Some(unescape(inner));
                if !marker && let Some(extra) = toks.get(2) {
                    self.extra_tokens(extra.span, "#line");
                }
            } else if !marker {
                self.error(
                    Diagnostic::error(
                        codes::PP_BAD_LINE,
                        "#line expects a file name in quotes after the line number",
                    )
                    .label(s.span, "not a string literal"),
                );
                return;
            }
        }
        self.sm.add_line_directive(file, next_line, line, name);
    }

    /// `#pragma`: `once` is handled here; anything else becomes one
    /// [`Token::Pragma`] for the parser, its text the line after `pragma`.
    fn pragma(&mut self, rest: Vec<PpToken>, directive: Span) {
        let mut text = String::new();
        for (i, t) in rest.iter().enumerate() {
            if i > 0 && t.flags & flags::SPACE_BEFORE != 0 {
                text.push(' ');
            }
            text.push_str(t.sym.as_str());
        }
        let span = match (rest.first(), rest.last()) {
            (Some(a), Some(b)) => a.span.to(b.span),
            _ => directive,
        };
        self.pragma_text(&text, span);
    }

    /// Runs a pragma given as text (from `#pragma` or `_Pragma`).
    pub(super) fn pragma_text(&mut self, text: &str, span: Span) {
        let text = text.trim();
        if text == "once" {
            if let Some(key) = self.current_file().and_then(|f| f.key.clone()) {
                self.files.once.insert(key);
            }
            return;
        }
        let tok = PpToken {
            kind: Token::Pragma,
            sym: Symbol::intern(text),
            span,
            flags: flags::LINE_START,
        };
        // Directives run only while reading a file, when the main frame is
        // the current one; `_Pragma` may run in any frame.
        self.emit(tok);
    }
}

/// `#if !defined X` or `#if !defined(X)` (and nothing else): an include
/// guard candidate.
fn guard_pattern_if(rest: &[PpToken], defined: Symbol) -> Option<Symbol> {
    let kinds: Vec<Token> = rest.iter().map(|t| t.kind).collect();
    let is_defined = |t: &PpToken| t.kind == Token::Ident && t.sym == defined;
    match kinds.as_slice() {
        [Token::Bang, Token::Ident, k] if is_defined(&rest[1]) && k.is_ident_like() => {
            Some(rest[2].sym)
        }
        [Token::Bang, Token::Ident, Token::LParen, k, Token::RParen]
            if is_defined(&rest[1]) && k.is_ident_like() =>
        {
            Some(rest[3].sym)
        }
        _ => None,
    }
}

/// Undoes `\\` and `\"` in a `#line` file name (other escapes are kept).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some(n @ ('\\' | '"')) => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}
