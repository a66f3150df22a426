//! Macro invocation: argument collection, argument pre-expansion
//! bookkeeping, substitution with `#` and `##`, and the built-in macros
//! (`__FILE__`, `__LINE__`, `__COUNTER__`, `_Pragma`).

use super::define::{Builtin, ItemKind, MacroDef, MacroKind};
use super::{Frame, FrameKind, Next, Preprocessor};
use crate::diag::{Diagnostic, codes};
use crate::front::lexer::{PpToken, Token, flags, lex};
use crate::intern::Symbol;
use crate::source::ExpansionId;
use crate::span::Span;
use std::rc::Rc;

/// A function-like macro invocation whose arguments are being pre-expanded.
pub(super) struct Invocation {
    pub def: Rc<MacroDef>,
    pub name: PpToken,
    pub call_site: Span,
    /// The arguments as written (after painting).
    pub args: Vec<Vec<PpToken>>,
    /// The pre-expanded arguments; `None` where pre-expansion changes
    /// nothing or is not needed.
    pub expanded: Vec<Option<Vec<PpToken>>>,
    /// The argument now being pre-expanded.
    pub current: usize,
}

impl Preprocessor<'_> {
    // -----------------------------------------------------------------------
    // Invocation

    /// `name` names the (enabled) macro `def`: expand it, or emit the name
    /// when a function-like macro is not followed by `(`.
    pub(super) fn expand(&mut self, name: PpToken, def: Rc<MacroDef>) {
        match def.kind {
            MacroKind::Builtin(b) => self.expand_builtin(name, b),
            MacroKind::Object => {
                let exp = self.sm.add_expansion(def.name, name.span);
                let toks = self.substitute(&def, &[], &[], exp, name);
                self.push_expansion(toks, def.name, name.flags);
            }
            MacroKind::Function { .. } => {
                if !self.next_is_lparen() {
                    self.emit(name);
                    return;
                }
                let Some((mut args, rparen)) = self.collect_args(&def, name) else {
                    return;
                };
                let call_site = Span::new(name.span.lo, rparen.span.hi);
                let n = def.params().len();
                if n == 0 && args.len() == 1 && args[0].is_empty() {
                    args.clear();
                }
                if args.len() + 1 == n && def.variadic() {
                    // `f(a)` for `f(a, ...)`: empty variable arguments.
                    args.push(Vec::new());
                }
                if args.len() != n {
                    let d = Diagnostic::error(
                        codes::PP_ARGUMENT_COUNT,
                        format!(
                            "macro '{}' takes {}{} argument{}, but {} {} given",
                            def.name,
                            if def.variadic() { "at least " } else { "" },
                            if def.variadic() { n - 1 } else { n },
                            if n == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { "was" } else { "were" },
                        ),
                    )
                    .label(
                        call_site,
                        if args.len() > n {
                            "too many arguments"
                        } else {
                            "too few arguments"
                        },
                    )
                    .label(def.name_span, "macro defined here");
                    self.error(d);
                    if self.in_if {
                        self.directive_failed = true;
                    }
                    return;
                }
                let expanded = vec![None; n];
                let inv = Invocation {
                    def,
                    name,
                    call_site,
                    args,
                    expanded,
                    current: 0,
                };
                self.next_argument(Box::new(inv), 0);
            }
        }
    }

    /// Collects the arguments of an invocation whose `(` is next. Returns the
    /// raw arguments and the closing `)`; `None` (after an error) when the
    /// list does not close before the end of the file or the barrier.
    fn collect_args(
        &mut self,
        def: &MacroDef,
        name: PpToken,
    ) -> Option<(Vec<Vec<PpToken>>, PpToken)> {
        let Next::Tok(lparen) = self.next_token() else {
            return None;
        };
        let n = def.params().len();
        let variadic = def.variadic();
        self.collecting_args += 1;
        let mut args: Vec<Vec<PpToken>> = vec![Vec::new()];
        let mut depth = 0u32;
        let mut collected = 0usize;
        let result = loop {
            match self.next_token() {
                Next::Tok(t) => {
                    match t.kind {
                        Token::LParen => depth += 1,
                        Token::RParen if depth == 0 => break Some(t),
                        Token::RParen => depth -= 1,
                        Token::Comma if depth == 0 && !(variadic && args.len() >= n) => {
                            args.push(Vec::new());
                            continue;
                        }
                        _ => {}
                    }
                    collected += 1;
                    if let Some(a) = args.last_mut() {
                        a.push(t);
                    }
                }
                Next::Barrier | Next::FileEnd => break None,
            }
        };
        self.collecting_args -= 1;
        if !self.count_work(collected, name.span) {
            return None;
        }
        match result {
            Some(rparen) => Some((args, rparen)),
            None => {
                if !self.fatal {
                    self.error(
                        Diagnostic::error(
                            codes::PP_UNTERMINATED_INVOCATION,
                            format!("unterminated argument list invoking macro '{}'", def.name),
                        )
                        .label(lparen.span, "this '(' is never closed")
                        .label(name.span, "macro invoked here"),
                    );
                    if self.in_if {
                        self.directive_failed = true;
                    }
                }
                None
            }
        }
    }

    /// Counts expansion work; past a limit, stops with a fatal error.
    fn count_work(&mut self, n: usize, at: Span) -> bool {
        self.work += n;
        self.total_work += n;
        if self.fatal {
            return false;
        }
        let (message, note) = if self.work > super::MAX_EXPANSION_WORK {
            (
                format!(
                    "macro expansion produced more than {} tokens",
                    super::MAX_EXPANSION_WORK
                ),
                "a macro that grows on every expansion cannot be expanded; preprocessing stopped here",
            )
        } else if self.total_work > super::MAX_TOTAL_EXPANSION_WORK {
            (
                format!(
                    "macro expansions produced more than {} tokens in total",
                    super::MAX_TOTAL_EXPANSION_WORK
                ),
                "the program is too large to preprocess; preprocessing stopped here",
            )
        } else {
            return true;
        };
        self.fatal(
            Diagnostic::error(codes::PP_EXPANSION_LIMIT, message)
                .label(self.sm.expansion_site(at), "while expanding this macro")
                .note(note),
        );
        false
    }

    /// Starts pre-expanding the next argument from `from` on that needs it,
    /// or substitutes when none is left.
    fn next_argument(&mut self, mut inv: Box<Invocation>, from: usize) {
        for i in from..inv.args.len() {
            if !inv.def.needs_expanded[i] || !self.may_expand(&inv.args[i]) {
                continue;
            }
            inv.current = i;
            let toks = inv.args[i].clone();
            let out = self.take_buf();
            self.frames.push(Frame {
                kind: FrameKind::Argument(inv),
                out,
                carry: 0,
            });
            self.push_barrier(toks);
            return;
        }
        self.finish_invocation(*inv);
    }

    /// Whether pre-expanding `toks` can change them (some token may name a
    /// macro): most arguments are plain names and numbers and skip it.
    fn may_expand(&self, toks: &[PpToken]) -> bool {
        toks.iter().any(|t| {
            t.flags & flags::NO_EXPAND == 0
                && t.kind.is_ident_like()
                && (self.is_defined(t.sym) || (self.in_if && t.sym == self.syms.defined))
        })
    }

    /// An argument's pre-expansion finished (its barrier ran dry).
    pub(super) fn argument_expanded(&mut self, mut inv: Box<Invocation>, out: Vec<PpToken>) {
        let i = inv.current;
        inv.expanded[i] = Some(out);
        self.next_argument(inv, i + 1);
    }

    fn finish_invocation(&mut self, inv: Invocation) {
        let exp = self.sm.add_expansion(inv.def.name, inv.call_site);
        let toks = self.substitute(&inv.def, &inv.args, &inv.expanded, exp, inv.name);
        for e in inv.expanded.into_iter().flatten() {
            self.recycle(e);
        }
        self.push_expansion(toks, inv.def.name, inv.name.flags);
    }

    // -----------------------------------------------------------------------
    // Substitution

    /// The replacement list of `def` with the arguments substituted, `#`
    /// and `##` applied, each token at a new location of expansion `exp`.
    fn substitute(
        &mut self,
        def: &MacroDef,
        args: &[Vec<PpToken>],
        expanded: &[Option<Vec<PpToken>>],
        exp: ExpansionId,
        name: PpToken,
    ) -> Vec<PpToken> {
        let mut out = self.take_buf();
        // Whether the last item left a token that a following `##` pastes
        // onto (false after an empty argument: a placemarker, C99 6.10.3.3).
        let mut operand = false;
        for item in &def.body {
            let space = item.tok.flags & flags::SPACE_BEFORE;
            match item.kind {
                ItemKind::Token => {
                    let t = PpToken {
                        flags: space | (item.tok.flags & flags::NO_EXPAND),
                        ..item.tok
                    };
                    let t = self.expanded_token(t, item.tok.span, exp);
                    self.push_or_paste(&mut out, t, exp, item.paste.filter(|_| operand));
                    operand = true;
                }
                ItemKind::Stringify { index } => {
                    let text = stringify(&args[usize::from(index)]);
                    let t = PpToken {
                        kind: Token::StringLit,
                        sym: Symbol::intern(&text),
                        span: item.tok.span,
                        flags: space,
                    };
                    let t = self.expanded_token(t, item.tok.span, exp);
                    self.push_or_paste(&mut out, t, exp, item.paste.filter(|_| operand));
                    operand = true;
                }
                ItemKind::GnuCommaVaArgs { index } => {
                    let arg = &args[usize::from(index)];
                    if arg.is_empty() {
                        // Drop the comma the previous item wrote.
                        out.pop();
                        operand = false;
                    } else {
                        for (k, &a) in arg.iter().enumerate() {
                            let t = argument_token(a, k, space);
                            out.push(self.expanded_token(t, a.span, exp));
                        }
                        operand = true;
                    }
                }
                ItemKind::Param { index, expand } => {
                    let i = usize::from(index);
                    let seq: &[PpToken] = match (expand, &expanded[i]) {
                        (true, Some(e)) => e,
                        _ => &args[i],
                    };
                    if seq.is_empty() {
                        if item.paste.is_none() {
                            operand = false;
                        }
                        continue;
                    }
                    for (k, &a) in seq.iter().enumerate() {
                        let t = argument_token(a, k, space);
                        let t = self.expanded_token(t, a.span, exp);
                        let paste = if k == 0 && operand { item.paste } else { None };
                        self.push_or_paste(&mut out, t, exp, paste);
                    }
                    operand = true;
                }
            }
        }
        if let Some(first) = out.first_mut() {
            first.flags = (first.flags & !(flags::SPACE_BEFORE | flags::LINE_START))
                | (name.flags & (flags::SPACE_BEFORE | flags::LINE_START));
        }
        if !self.count_work(out.len() + 1, name.span) {
            out.clear();
        }
        out
    }

    /// `##`: replaces the last token of `out` by it pasted with `right`.
    /// The result must lex as one token (C99 6.10.3.3p3); if not, both stay
    /// (after an error, as clang recovers).
    /// Appends `t`, or with `paste` (the `##` before it) pastes it to the
    /// token before.
    fn push_or_paste(
        &mut self,
        out: &mut Vec<PpToken>,
        t: PpToken,
        exp: ExpansionId,
        paste: Option<Span>,
    ) {
        match paste {
            Some(op) => self.paste(out, t, exp, op),
            None => out.push(t),
        }
    }

    fn paste(&mut self, out: &mut Vec<PpToken>, right: PpToken, exp: ExpansionId, op: Span) {
        let Some(left) = out.pop() else {
            out.push(right);
            return;
        };
        let text = format!("{}{}", left.sym.as_str(), right.sym.as_str());
        let (toks, errors) = lex(&text);
        match toks.as_slice() {
            [t] if errors.is_empty() && t.start == 0 && t.end as usize == text.len() => {
                let pasted = PpToken {
                    kind: t.kind,
                    sym: Symbol::intern(&text),
                    span: left.span,
                    flags: left.flags & !flags::NO_EXPAND,
                };
                // Spelled where the left operand was.
                out.push(self.expanded_token(pasted, left.span, exp));
            }
            _ => {
                let site = self.sm.expansion_site(self.sm.expansion(exp).call_site);
                let name = self.sm.expansion(exp).macro_name;
                self.error(
                    Diagnostic::error(
                        codes::PP_BAD_PASTE,
                        format!(
                            "pasting '{}' and '{}' does not give a valid token",
                            left.sym.as_str(),
                            right.sym.as_str()
                        ),
                    )
                    .label(op, "pasted here")
                    .label(site, format!("in this expansion of '{name}'"))
                    .note(format!(
                        "'{text}' is not one token; the two tokens are kept apart"
                    )),
                );
                out.push(left);
                out.push(right);
            }
        }
    }

    // -----------------------------------------------------------------------
    // Built-ins

    fn expand_builtin(&mut self, name: PpToken, b: Builtin) {
        let (kind, text) = match b {
            Builtin::Pragma => {
                self.pragma_operator(name);
                return;
            }
            Builtin::HasFeature => match self.feature_operand(name) {
                Some(known) => (Token::IntLit, u8::from(known).to_string()),
                None => return,
            },
            Builtin::Counter => {
                let n = self.counter;
                self.counter += 1;
                (Token::IntLit, n.to_string())
            }
            Builtin::File | Builtin::Line => {
                let site = self.sm.expansion_site(name.span);
                let (file_name, line) = match self.sm.file_of(site.lo) {
                    Some(f) => {
                        let off = (site.lo.0 - self.sm.file(f).base) as usize;
                        let (n, l) = self.sm.presumed_line(f, off);
                        (n.to_string(), l)
                    }
                    None => ("<unknown>".to_string(), 0),
                };
                if b == Builtin::Line {
                    (Token::IntLit, line.to_string())
                } else {
                    let escaped = file_name.replace('\\', "\\\\").replace('"', "\\\"");
                    (Token::StringLit, format!("\"{escaped}\""))
                }
            }
        };
        let exp = self.sm.add_expansion(name.sym, name.span);
        let t = PpToken {
            kind,
            sym: Symbol::intern(&text),
            span: name.span,
            flags: name.flags & (flags::SPACE_BEFORE | flags::LINE_START),
        };
        let t = self.expanded_token(t, name.span, exp);
        if self.count_work(1, name.span) {
            self.emit(t);
        }
    }

    /// The `(name)` after `__has_feature`: whether hlslc has that feature
    /// (`None`, with an error, when it is not a parenthesized name).
    fn feature_operand(&mut self, name: PpToken) -> Option<bool> {
        let mut feature = None;
        for expect in [Token::LParen, Token::Ident, Token::RParen] {
            match self.next_token() {
                Next::Tok(t)
                    if t.kind == expect || (expect == Token::Ident && t.kind.is_ident_like()) =>
                {
                    if expect == Token::Ident {
                        feature = Some(t.sym);
                    }
                }
                other => {
                    let at = match other {
                        Next::Tok(t) => t.span,
                        _ => name.span,
                    };
                    self.error(
                        Diagnostic::error(
                            codes::PP_BAD_EXPRESSION,
                            "__has_feature takes a parenthesized feature name",
                        )
                        .label(at, "expected `(name)`")
                        .label(name.span, "in this __has_feature"),
                    );
                    return None;
                }
            }
        }
        Some(feature.is_some_and(|f| HAS_FEATURES.contains(&f.as_str())))
    }

    /// `_Pragma("text")`: runs `#pragma text` (C99 6.10.9).
    fn pragma_operator(&mut self, name: PpToken) {
        let mut parts = [None; 3];
        for (i, expect) in [Token::LParen, Token::StringLit, Token::RParen]
            .into_iter()
            .enumerate()
        {
            match self.next_token() {
                Next::Tok(t) if t.kind == expect => parts[i] = Some(t),
                other => {
                    let at = match other {
                        Next::Tok(t) => t.span,
                        _ => parts
                            .iter()
                            .rev()
                            .flatten()
                            .next()
                            .map_or(name.span, |t| t.span),
                    };
                    self.error(
                        Diagnostic::error(
                            codes::PP_BAD_PRAGMA,
                            "_Pragma takes a parenthesized string literal",
                        )
                        .label(
                            at,
                            match (expect, matches!(other, Next::Tok(_))) {
                                (Token::LParen, true) => "expected '('",
                                (Token::StringLit, true) => "expected a string literal",
                                (_, true) => "expected ')'",
                                (Token::LParen, false) => "expected '(' after this",
                                (Token::StringLit, false) => "expected a string literal after this",
                                (_, false) => "expected ')' after this",
                            },
                        )
                        .label(name.span, "in this _Pragma"),
                    );
                    // The offending token is read again, as if `_Pragma`
                    // had not consumed it.
                    if let Next::Tok(t) = other {
                        self.ctxs.push(super::Context::Tokens(super::TokenCtx {
                            toks: vec![t],
                            pos: 0,
                            disables: None,
                            barrier: false,
                        }));
                    }
                    return;
                }
            }
        }
        let (Some(s), Some(r)) = (parts[1], parts[2]) else {
            return;
        };
        let raw = s.sym.as_str();
        let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
        // Destringize: `\"` → `"`, `\\` → `\`.
        let mut text = String::with_capacity(inner.len());
        let mut it = inner.chars();
        while let Some(c) = it.next() {
            if c == '\\' {
                match it.next() {
                    Some(n @ ('"' | '\\')) => text.push(n),
                    Some(n) => {
                        text.push('\\');
                        text.push(n);
                    }
                    None => text.push('\\'),
                }
            } else {
                text.push(c);
            }
        }
        self.pragma_text(&text, Span::new(name.span.lo, r.span.hi));
    }
}

/// The features `__has_feature` knows hlslc has.
const HAS_FEATURES: &[&str] = &["hlsl_vk_buffer_pointer"];

/// Token `k` of an argument where it replaces a parameter: the first takes
/// the parameter's spacing (`space`), the rest keep their own.
fn argument_token(a: PpToken, k: usize, space: u8) -> PpToken {
    let f = if k == 0 {
        space
    } else {
        a.flags & flags::SPACE_BEFORE
    };
    PpToken {
        flags: f | (a.flags & flags::NO_EXPAND),
        ..a
    }
}

/// `#x`: the argument's spelling as a string literal, with one space where
/// the argument had white space and `"`/`\` escaped inside string and
/// character literals (C99 6.10.3.2).
fn stringify(arg: &[PpToken]) -> String {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && t.flags & flags::SPACE_BEFORE != 0 {
            s.push(' ');
        }
        let text = t.sym.as_str();
        if matches!(t.kind, Token::StringLit | Token::CharLit) {
            for c in text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(text);
        }
    }
    s.push('"');
    s
}
