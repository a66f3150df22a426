//! Macro definitions: the macro table's entries, `#define` parsing into a
//! prepared body (parameters, `#`, `##` found once), `#undef`, and the
//! built-in macros' entries.

use super::Preprocessor;
use crate::diag::{Diagnostic, codes};
use crate::front::lexer::{PpToken, Token, flags, lex_one};
use crate::intern::builtins::{self, preprocessor_symbol};
use crate::intern::Symbol;
use crate::source::FileId;
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
    /// `__has_feature(name)`: 1 for the language features hlslc has
    /// that DXC names so, 0 for others.
    HasFeature,
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
    /// The `##` before this item, if any: paste its first token onto the
    /// last one.
    pub paste: Option<Span>,
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
    pub fn params(&self) -> &[Symbol] {
        match &self.kind {
            MacroKind::Function { params, .. } => params,
            _ => &[],
        }
    }

    pub fn variadic(&self) -> bool {
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
                        && a.paste.is_some() == b.paste.is_some()
                        && a.tok.kind == b.tok.kind
                        && a.tok.sym == b.tok.sym
                        && (i == 0
                            || (a.tok.flags & flags::SPACE_BEFORE)
                                == (b.tok.flags & flags::SPACE_BEFORE))
                })
    }
}

/// A macro defined but not yet in the table: a built-in one, or one DXC
/// predefines (a number). A compile defines some thirty such macros and
/// uses few, if any: each waits in [`Preprocessor::lazy`] (its bit set in
/// `macro_bits`, so that a lookup of its name looks there) until a lookup
/// enters it in the table, as [`Preprocessor::enter_lazy`] does. Entering
/// all of them up front (with their strings, symbols and entries) took
/// about 19 K instructions of every compile, a tenth of preprocessing
/// `samples/blur.hlsl`.
#[derive(Clone, Copy, Debug)]
pub(super) enum LazyMacro {
    Builtin(Builtin),
    /// `#define NAME VALUE` with a decimal `VALUE`, the name and value at
    /// these places (in `<built-in>`).
    Number {
        value: u32,
        name_span: Span,
        value_span: Span,
    },
}

/// The token of a predefined macro's body, the number `value` at `span`,
/// as lexing its decimal spelling gives it.
fn number_token(value: u32, span: Span) -> PpToken {
    let mut text = String::new();
    push_decimal(&mut text, value);
    PpToken {
        kind: Token::IntLit,
        sym: Symbol::intern(&text),
        span,
        flags: flags::SPACE_BEFORE,
    }
}

/// Appends `n` in decimal to `text`, without the formatting machinery
/// (`start` writes two dozen numbers for every compile).
pub(super) fn push_decimal(text: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        text.push(char::from(d));
    }
}

/// How many digits `n` has in decimal.
fn decimal_len(n: u32) -> u32 {
    n.checked_ilog10().unwrap_or(0) + 1
}

impl Preprocessor<'_> {
    /// Defines the built-in macros (so `#ifdef __LINE__` holds), to be
    /// entered in the table at their first use (see [`LazyMacro`]).
    pub(super) fn define_builtins(&mut self) {
        for (name, b) in [
            (const { preprocessor_symbol("__FILE__") }, Builtin::File),
            (const { preprocessor_symbol("__LINE__") }, Builtin::Line),
            (const { preprocessor_symbol("__COUNTER__") }, Builtin::Counter),
            (const { preprocessor_symbol("_Pragma") }, Builtin::Pragma),
            (const { preprocessor_symbol("__has_feature") }, Builtin::HasFeature),
        ] {
            self.define_lazily(name, LazyMacro::Builtin(b));
        }
    }

    /// Defines the macros of the `<built-in>` file `file`, which `start`
    /// wrote as one `#define NAME VALUE` line per predefined macro (each
    /// value a number in decimal), as reading it would, without lexing it
    /// or running its directives: two dozen lines that every compile would
    /// read. Each is entered in the table at its first use (most are never
    /// used). Defines nothing and returns false unless each name is one
    /// identifier (then the file is read as any other).
    pub(super) fn define_predefined(&mut self, file: FileId) -> bool {
        let options = self.options;
        let is_name = |name: Symbol| {
            builtins::is_preprocessor_name(name)
                || lex_one(name.as_str()).is_some_and(Token::is_ident_like)
        };
        if !options.predefined.iter().all(|&(name, _)| is_name(name)) {
            return false;
        }
        let mut at = 0;
        for &(name, value) in &options.predefined {
            // `#define NAME VALUE\n`: what `directive` would pass to `define`.
            let name_at = at + "#define ".len() as u32;
            let value_at = name_at + name.as_str().len() as u32 + 1;
            let end = value_at + decimal_len(value);
            let name_span = self.sm.span(file, name_at..value_at - 1);
            let value_span = self.sm.span(file, value_at..end);
            if name == self.syms.defined || self.has_macro_bit(name) {
                // Defined already (or not definable): as `#define` does it.
                let line = vec![
                    PpToken {
                        kind: Token::Ident,
                        sym: name,
                        span: name_span,
                        flags: flags::SPACE_BEFORE,
                    },
                    number_token(value, value_span),
                ];
                self.define(line, self.sm.span(file, at..at + 7));
            } else {
                self.sm.add_macro_definition(name, name_span, value_span);
                self.define_lazily(
                    name,
                    LazyMacro::Number {
                        value,
                        name_span,
                        value_span,
                    },
                );
            }
            at = end + 1;
        }
        true
    }

    /// Enters `name` as a macro to be put in the table at its first use.
    fn define_lazily(&mut self, name: Symbol, m: LazyMacro) {
        self.set_macro_bit(name);
        self.lazy.push((name, m));
    }

    /// Puts the macro `name` in the table if it waits in [`Self::lazy`],
    /// and returns its definition.
    pub(super) fn enter_lazy(&mut self, name: Symbol) -> Option<Rc<MacroDef>> {
        let i = self.lazy.iter().position(|&(n, _)| n == name)?;
        let (_, m) = self.lazy.swap_remove(i);
        let def = Rc::new(match m {
            LazyMacro::Builtin(b) => MacroDef {
                name,
                name_span: Span::default(),
                kind: MacroKind::Builtin(b),
                body: Vec::new(),
                needs_expanded: Vec::new(),
            },
            LazyMacro::Number {
                value,
                name_span,
                value_span,
            } => MacroDef {
                name,
                name_span,
                kind: MacroKind::Object,
                body: vec![BodyItem {
                    kind: ItemKind::Token,
                    tok: number_token(value, value_span),
                    paste: None,
                }],
                needs_expanded: Vec::new(),
            },
        });
        self.insert_macro(
            name,
            MacroEntry {
                def: def.clone(),
                disabled: 0,
            },
        );
        Some(def)
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
        let rest_lo = line.get(1).map_or(def.name_span.hi, |t| t.span.lo);
        let rest_hi = line.last().map_or(def.name_span.hi, |t| t.span.hi);
        let rest = Span::new(rest_lo, rest_hi.max(rest_lo));
        self.sm.add_macro_definition(def.name, def.name_span, rest);
        let def = Rc::new(def);
        if self.has_macro_bit(def.name) {
            // A redefinition compares with the definition waiting there.
            self.enter_lazy(def.name);
        }
        if let Some(old) = self.macros.get(&def.name)
            && !old.def.same_as(&def)
        {
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
        self.insert_macro(def.name, MacroEntry { def, disabled: 0 });
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
        if self.has_macro_bit(name.sym) {
            self.macros.remove(&name.sym);
            self.lazy.retain(|&(n, _)| n != name.sym);
        }
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
        let mut paste_next: Option<Span> = None;
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
                    paste_next = Some(t.span);
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
                        paste: paste_next,
                    });
                    paste_next = None;
                    j += 2;
                    continue;
                }
                _ => {}
            }
            let kind = match param_index(&t) {
                Some(index) => {
                    let gnu_comma = paste_next.is_some()
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
                            expand: paste_next.is_none() && !next_pastes,
                        }
                    }
                }
                None => ItemKind::Token,
            };
            body.push(BodyItem {
                kind,
                tok: t,
                paste: paste_next.filter(|_| !matches!(kind, ItemKind::GnuCommaVaArgs { .. })),
            });
            paste_next = None;
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
}


#[cfg(test)]
mod tests {
    /// `push_decimal` spells a number as `to_string` does, and
    /// `decimal_len` counts those digits.
    #[test]
    fn decimals_are_spelt_and_counted() {
        for n in [0, 7, 9, 10, 99, 100, 2021, 2505, 1_000_000_000, u32::MAX] {
            let mut text = String::from("x");
            super::push_decimal(&mut text, n);
            assert_eq!(text, format!("x{n}"));
            assert_eq!(super::decimal_len(n) as usize, n.to_string().len(), "{n}");
        }
    }
}
