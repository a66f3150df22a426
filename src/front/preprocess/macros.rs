//! Macros: `#define`/`#undef`, invocation (argument collection), argument
//! pre-expansion bookkeeping, substitution with `#` and `##`, and the
//! built-in macros (`__FILE__`, `__LINE__`, `__COUNTER__`, `_Pragma`).

use super::{Frame, FrameKind, Next, Preprocessor};
use crate::diag::{Diagnostic, codes};
use crate::front::lexer::{PpToken, Token, flags, lex};
use crate::intern::Symbol;
use crate::source::ExpansionId;
use crate::span::Span;
use std::rc::Rc;

/// A macro in the table, with its disable count (how many of its
/// expansions are on the context stack: while above zero, its name is
/// painted instead of expanded).
pub(super) struct MacroEntry {
    pub def: Rc<MacroDef>,
    pub disabled: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    File,
    Line,
    Counter,
    /// The `_Pragma("…")` operator (C99 6.10.9).
    Pragma,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum MacroKind {
    Object,
    Function {
        params: Vec<Symbol>,
        /// The last parameter is `...` (named `__VA_ARGS__`) or GNU's `name...`.
        variadic: bool,
    },
    Builtin(Builtin),
}

/// One element of a macro body, prepared at `#define` time.
#[derive(Clone, Copy, Debug)]
pub(super) struct BodyItem {
    pub kind: ItemKind,
    /// The body token (for a parameter, its name; for `#x`, the `#` with the
    /// span running to the end of `x`).
    pub tok: PpToken,
    /// A `##` precedes this item: paste its first token onto the last one.
    pub paste_before: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ItemKind {
    Token,
    /// A parameter; `expand` when it is not an operand of `#` or `##`
    /// (C99 6.10.3.1: only then is the argument macro-expanded first).
    Param {
        index: u16,
        expand: bool,
    },
    /// `#param`: the argument's spelling as a string literal.
    Stringify {
        index: u16,
    },
    /// GNU's `, ## __VA_ARGS__`: the comma before is dropped when the
    /// variable arguments are empty.
    GnuCommaVaArgs {
        index: u16,
    },
}

#[derive(Debug)]
pub(super) struct MacroDef {
    pub name: Symbol,
    /// Where the name was defined (dummy for built-ins).
    pub name_span: Span,
    pub kind: MacroKind,
    pub body: Vec<BodyItem>,
    /// Per parameter: whether some use needs the pre-expanded argument.
    pub needs_expanded: Vec<bool>,
}

impl MacroDef {
    fn params(&self) -> &[Symbol] {
        match &self.kind {
            MacroKind::Function { params, .. } => params,
            _ => &[],
        }
    }

    fn variadic(&self) -> bool {
        matches!(self.kind, MacroKind::Function { variadic: true, .. })
    }

    /// C99 6.10.3p2: a redefinition must match in parameters, tokens and
    /// where whitespace separates them.
    fn same_as(&self, other: &MacroDef) -> bool {
        self.kind == other.kind
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind
                        && a.paste_before == b.paste_before
                        && a.tok.kind == b.tok.kind
                        && a.tok.sym == b.tok.sym
                        && (i == 0
                            || (a.tok.flags & flags::SPACE_BEFORE)
                                == (b.tok.flags & flags::SPACE_BEFORE))
                })
    }
}

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
    /// Puts the built-in macros in the table (so `#ifdef __LINE__` holds).
    pub(super) fn define_builtins(&mut self) {
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
            ("_Pragma", Builtin::Pragma),
        ] {
            let sym = Symbol::intern(name);
            self.macros.insert(
                sym,
                MacroEntry {
                    def: Rc::new(MacroDef {
                        name: sym,
                        name_span: Span::default(),
                        kind: MacroKind::Builtin(b),
                        body: Vec::new(),
                        needs_expanded: Vec::new(),
                    }),
                    disabled: 0,
                },
            );
        }
    }

    fn bad_define(&mut self, at: Span, message: impl Into<String>, label: &str) {
        self.error(Diagnostic::error(codes::PP_BAD_DEFINE, message).label(at, label));
    }

    /// `#define`: parses the definition and enters it in the table (with a
    /// warning when it changes an existing macro).
    pub(super) fn define(&mut self, line: Vec<PpToken>, directive: Span) {
        let Some(def) = self.parse_define(&line, directive) else {
            return;
        };
        let def = Rc::new(def);
        if let Some(old) = self.macros.get(&def.name) {
            if !old.def.same_as(&def) {
                let mut d = Diagnostic::warning(
                    codes::PP_MACRO_REDEFINED,
                    format!("'{}' macro redefined", def.name),
                )
                .label(def.name_span, "redefined here");
                if !old.def.name_span.is_dummy() {
                    d = d.label(old.def.name_span, "previous definition is here");
                } else if matches!(old.def.kind, MacroKind::Builtin(_)) {
                    d = d.note("this is a built-in macro");
                }
                self.error(d);
            }
        }
        self.macros
            .insert(def.name, MacroEntry { def, disabled: 0 });
    }

    /// `#undef NAME`.
    pub(super) fn undef(&mut self, line: Vec<PpToken>, directive: Span) {
        let Some(&name) = line.first().filter(|t| t.kind.is_ident_like()) else {
            self.bad_define(
                line.first().map_or(directive, |t| t.span),
                "#undef expects a macro name",
                "expected an identifier",
            );
            return;
        };
        if let Some(extra) = line.get(1) {
            self.extra_tokens(extra.span, "#undef");
        }
        self.macros.remove(&name.sym);
    }

    fn parse_define(&mut self, line: &[PpToken], directive: Span) -> Option<MacroDef> {
        let Some(&name) = line.first() else {
            self.bad_define(directive, "#define expects a macro name", "no macro name");
            return None;
        };
        if !name.kind.is_ident_like() {
            self.bad_define(
                name.span,
                "macro name must be an identifier",
                "not an identifier",
            );
            return None;
        }
        if name.sym == self.syms.defined {
            self.bad_define(
                name.span,
                "'defined' cannot be used as a macro name",
                "reserved for #if",
            );
            return None;
        }
        let mut i = 1;
        let mut kind = MacroKind::Object;
        // Function-like only when `(` touches the name (C99 6.10.3p3).
        if let Some(lp) = line.get(1)
            && lp.kind == Token::LParen
            && lp.span.lo == name.span.hi
        {
            let (params, variadic, next) = self.parse_params(line, 2, lp.span)?;
            kind = MacroKind::Function { params, variadic };
            i = next;
        }
        let body_toks = &line[i..];
        let (params, variadic): (&[Symbol], bool) = match &kind {
            MacroKind::Function { params, variadic } => (params, *variadic),
            _ => (&[], false),
        };
        let function_like = matches!(kind, MacroKind::Function { .. });
        let param_index = |t: &PpToken| -> Option<u16> {
            if !t.kind.is_ident_like() {
                return None;
            }
            params.iter().position(|&p| p == t.sym).map(|p| p as u16)
        };
        let mut body: Vec<BodyItem> = Vec::with_capacity(body_toks.len());
        let mut paste_next = false;
        let mut j = 0;
        while j < body_toks.len() {
            let t = body_toks[j];
            match t.kind {
                Token::HashHash => {
                    if body.is_empty() || j + 1 == body_toks.len() {
                        self.bad_define(
                            t.span,
                            "'##' cannot appear at either end of a macro expansion",
                            "needs a token on each side",
                        );
                        return None;
                    }
                    paste_next = true;
                    j += 1;
                    continue;
                }
                Token::Hash if function_like => {
                    let Some(index) = body_toks.get(j + 1).and_then(param_index) else {
                        self.bad_define(
                            t.span,
                            "'#' is not followed by a macro parameter",
                            "expected a parameter name after '#'",
                        );
                        return None;
                    };
                    let p = body_toks[j + 1];
                    body.push(BodyItem {
                        kind: ItemKind::Stringify { index },
                        tok: PpToken {
                            span: t.span.to(p.span),
                            ..t
                        },
                        paste_before: paste_next,
                    });
                    paste_next = false;
                    j += 2;
                    continue;
                }
                _ => {}
            }
            let kind = match param_index(&t) {
                Some(index) => {
                    let gnu_comma = paste_next
                        && variadic
                        && usize::from(index) + 1 == params.len()
                        && body.last().is_some_and(|b| {
                            b.kind == ItemKind::Token && b.tok.kind == Token::Comma
                        });
                    if gnu_comma {
                        ItemKind::GnuCommaVaArgs { index }
                    } else {
                        let next_pastes = body_toks
                            .get(j + 1)
                            .is_some_and(|n| n.kind == Token::HashHash);
                        ItemKind::Param {
                            index,
                            expand: !paste_next && !next_pastes,
                        }
                    }
                }
                None => ItemKind::Token,
            };
            body.push(BodyItem {
                kind,
                tok: t,
                paste_before: paste_next && !matches!(kind, ItemKind::GnuCommaVaArgs { .. }),
            });
            paste_next = false;
            j += 1;
        }
        let mut needs_expanded = vec![false; params.len()];
        for b in &body {
            if let ItemKind::Param {
                index,
                expand: true,
            } = b.kind
            {
                needs_expanded[usize::from(index)] = true;
            }
        }
        Some(MacroDef {
            name: name.sym,
            name_span: name.span,
            kind,
            body,
            needs_expanded,
        })
    }

    /// Parses `a, b, ...)` from `line[from..]`; returns the parameters,
    /// whether the macro is variadic and the index after `)`.
    fn parse_params(
        &mut self,
        line: &[PpToken],
        from: usize,
        lparen: Span,
    ) -> Option<(Vec<Symbol>, bool, usize)> {
        let mut params: Vec<Symbol> = Vec::new();
        let mut i = from;
        let mut variadic = false;
        loop {
            let Some(&t) = line.get(i) else {
                self.bad_define(
                    lparen,
                    "missing ')' in macro parameter list",
                    "this '(' is not closed",
                );
                return None;
            };
            i += 1;
            match t.kind {
                Token::RParen if params.is_empty() && !variadic => return Some((params, false, i)),
                Token::Ellipsis => {
                    params.push(self.syms.va_args);
                    variadic = true;
                }
                k if k.is_ident_like() => {
                    if t.sym == self.syms.va_args {
                        self.bad_define(
                            t.span,
                            "__VA_ARGS__ can only name the variable arguments ('...')",
                            "not a parameter name",
                        );
                        return None;
                    }
                    if params.contains(&t.sym) {
                        self.bad_define(
                            t.span,
                            format!("duplicate macro parameter '{}'", t.sym),
                            "already a parameter",
                        );
                        return None;
                    }
                    params.push(t.sym);
                    // GNU named variadic parameter: `args...`.
                    if line.get(i).is_some_and(|n| n.kind == Token::Ellipsis) {
                        variadic = true;
                        i += 1;
                    }
                }
                _ => {
                    self.bad_define(
                        t.span,
                        "invalid token in macro parameter list",
                        "expected a parameter name or '...'",
                    );
                    return None;
                }
            }
            match line.get(i) {
                Some(t) if t.kind == Token::RParen => return Some((params, variadic, i + 1)),
                Some(t) if t.kind == Token::Comma && !variadic => i += 1,
                Some(t) => {
                    self.bad_define(
                        t.span,
                        if variadic {
                            "expected ')' after the variadic parameter"
                        } else {
                            "expected ',' or ')' in macro parameter list"
                        },
                        "unexpected token",
                    );
                    return None;
                }
                None => {
                    self.bad_define(
                        lparen,
                        "missing ')' in macro parameter list",
                        "this '(' is not closed",
                    );
                    return None;
                }
            }
        }
    }

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

    /// Counts expansion work; past the limit, stops with a fatal error.
    fn count_work(&mut self, n: usize, at: Span) -> bool {
        self.work += n;
        if self.work > super::MAX_EXPANSION_WORK && !self.fatal {
            self.fatal(
                Diagnostic::error(
                    codes::PP_EXPANSION_LIMIT,
                    format!(
                        "macro expansion produced more than {} tokens",
                        super::MAX_EXPANSION_WORK
                    ),
                )
                .label(at, "while expanding this macro")
                .note("a macro that grows on every expansion cannot be expanded; preprocessing stopped here"),
            );
        }
        !self.fatal
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
                && (self.macros.contains_key(&t.sym) || (self.in_if && t.sym == self.syms.defined))
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
                    if item.paste_before && operand {
                        self.paste(&mut out, t, exp, item.tok.span);
                    } else {
                        out.push(t);
                    }
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
                    if item.paste_before && operand {
                        self.paste(&mut out, t, exp, item.tok.span);
                    } else {
                        out.push(t);
                    }
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
                            let f = if k == 0 {
                                space
                            } else {
                                a.flags & flags::SPACE_BEFORE
                            };
                            let t = PpToken {
                                flags: f | (a.flags & flags::NO_EXPAND),
                                ..a
                            };
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
                        if !item.paste_before {
                            operand = false;
                        }
                        continue;
                    }
                    for (k, &a) in seq.iter().enumerate() {
                        let f = if k == 0 {
                            space
                        } else {
                            a.flags & flags::SPACE_BEFORE
                        };
                        let t = PpToken {
                            flags: f | (a.flags & flags::NO_EXPAND),
                            ..a
                        };
                        let t = self.expanded_token(t, a.span, exp);
                        if k == 0 && item.paste_before && operand {
                            self.paste(&mut out, t, exp, item.tok.span);
                        } else {
                            out.push(t);
                        }
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
                self.error(
                    Diagnostic::error(
                        codes::PP_BAD_PASTE,
                        format!(
                            "pasting '{}' and '{}' does not give a valid token",
                            left.sym.as_str(),
                            right.sym.as_str()
                        ),
                    )
                    .label(op, "in this macro body")
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
                        _ => name.span,
                    };
                    self.error(
                        Diagnostic::error(
                            codes::PP_BAD_PRAGMA,
                            "_Pragma takes a parenthesized string literal",
                        )
                        .label(
                            at,
                            match expect {
                                Token::LParen => "expected '('",
                                Token::StringLit => "expected a string literal",
                                _ => "expected ')'",
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
