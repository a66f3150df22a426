//! The token adapter between the preprocessor's output and lalrpop.
//!
//! It yields `(Loc, Tok, Loc)` triples in the global location space and does
//! what an LR(1) grammar cannot:
//!
//! - **The lexer hack.** Identifiers are classified as type, namespace or
//!   template names from the table the grammar's actions fill
//!   ([`ParseCtx`]) and the built-in type list, so `(float3)x`, `Foo<T> x`
//!   and `a < b > c` parse without conflicts. A member name after `.` is
//!   always a plain identifier (`tex.Sample`, `s.texture`).
//! - **Template argument lists.** A `<` right after a type or template name
//!   opens one; a `>>` that closes two is split into two `>`.
//! - **Depth limits.** `(`, `[`, `{` and template lists nested deeper than
//!   [`MAX_NESTING`], or a run of more than that many prefix operators, are
//!   reported once and skipped; the parser then sees one token it cannot
//!   accept and recovers without a second diagnostic.
//! - **An error budget.** After [`super::MAX_RECOVERIES`] syntax errors the
//!   input ends early ([`ParseCtx::stop`]), so the work spent on recovery
//!   stays bounded whatever the input.
//! - **Effects syntax.** A `technique { … }` block becomes one token.
//! - **`#pragma`** lines reach the grammar only at declaration level (global
//!   or namespace scope); elsewhere they are dropped.

use super::ctx::{NameKind, ParseCtx};
use super::{MAX_NESTING, Tok};
use crate::front::lexer::{PpToken, Token};
use crate::intern::Symbol;
use crate::intern::builtins;
use crate::span::{Loc, Span};
use std::convert::Infallible;

pub type Triple = (Loc, Tok, Loc);

/// An open bracket: its kind, where it is, and whether it opens a
/// namespace's body.
struct Open {
    kind: Token,
    span: Span,
    namespace: bool,
    /// Index of the bracket in the input.
    idx: u32,
}

pub struct Adapter<'c, 't> {
    ctx: &'c ParseCtx<'t>,
    toks: &'t [PpToken],
    pos: usize,
    /// The second `>` of a split `>>`.
    pending: Option<Triple>,
    prev: Token,
    prev_sym: Symbol,
    prev2: Token,
    prev2_sym: Symbol,
    brackets: Vec<Open>,
    /// For each open template argument list, `brackets.len()` when it opened.
    templates: Vec<usize>,
    /// Consecutive prefix-operator tokens.
    unary_run: usize,
    /// Inside a name after `typename` (`typename Trait<T>::type`): the
    /// bracket depth of the `typename`. A name after `::` there is a type.
    typename_at: Option<usize>,
    eof_sent: bool,
    empty: Symbol,
}

/// The kinds the adapter does something for: those it skips, reclassifies
/// or splits, brackets, template list ends, `;` and prefix operators. Every
/// other token (most operators and punctuation, integer and string
/// literals) only becomes the previous token: [`Adapter::next`] passes it
/// on at once. Indexed by the kind's number (all kinds are below 128).
static SPECIAL: [bool; 128] = {
    let mut t = [false; 128];
    let special = [
        Token::Newline,
        Token::Pragma,
        Token::Ident,
        Token::FloatLit,
        Token::LParen,
        Token::LBracket,
        Token::LBrace,
        Token::RParen,
        Token::RBracket,
        Token::RBrace,
        Token::Lt,
        Token::Gt,
        Token::Shr,
        Token::Semi,
        // The prefix operators (`is_unary_operator`), which are counted.
        Token::Minus,
        Token::Plus,
        Token::Bang,
        Token::Tilde,
        Token::PlusPlus,
        Token::MinusMinus,
    ];
    assert!((Token::Eof as usize) < 128, "token kinds fit the table");
    let mut i = 0;
    while i < special.len() {
        t[special[i] as usize] = true;
        i += 1;
    }
    // Keywords (`Pass`, `Technique` and `typename` among them) may be
    // names, or start a template argument list.
    let mut k = Token::Static as usize;
    while k <= Token::Return as usize {
        t[k] = true;
        k += 1;
    }
    t
};

fn is_unary_operator(k: Token) -> bool {
    matches!(
        k,
        Token::Minus
            | Token::Plus
            | Token::Bang
            | Token::Tilde
            | Token::PlusPlus
            | Token::MinusMinus
    )
}

/// Splits a token's span before its last byte (`>>` into `>` `>`, `0.` into
/// `0` `.`). A token from a macro expansion has a one-unit span: both halves
/// get it.
fn split_last_byte(span: Span) -> (Span, Span) {
    if span.lo.is_expansion() || span.hi.0 <= span.lo.0 + 1 {
        (span, span)
    } else {
        let mid = Loc(span.hi.0 - 1);
        (Span::new(span.lo, mid), Span::new(mid, span.hi))
    }
}

fn closing_char(k: Token) -> char {
    match k {
        Token::LParen => '(',
        Token::LBracket => '[',
        Token::Lt => '<',
        _ => '{',
    }
}

impl<'c, 't> Adapter<'c, 't> {
    pub fn new(ctx: &'c ParseCtx<'t>) -> Self {
        let empty = Symbol::intern("");
        Adapter {
            ctx,
            toks: ctx.toks,
            pos: 0,
            pending: None,
            prev: Token::Semi,
            prev_sym: empty,
            prev2: Token::Semi,
            prev2_sym: empty,
            brackets: Vec::new(),
            templates: Vec::new(),
            unary_run: 0,
            typename_at: None,
            eof_sent: false,
            empty,
        }
    }

    fn depth(&self) -> usize {
        self.brackets.len() + self.templates.len()
    }

    fn kind_at(&self, i: usize) -> Option<Token> {
        self.toks.get(i).map(|t| t.kind)
    }

    fn advance_to(&mut self, pos: usize) {
        self.pos = pos;
        self.ctx.pos.set(pos as u32);
    }

    /// True when a `#pragma` here stands between declarations at global or
    /// namespace scope (where the grammar takes it as an item).
    fn at_declaration_level(&self) -> bool {
        self.templates.is_empty()
            && self.brackets.iter().all(|b| b.namespace)
            && matches!(
                self.prev,
                Token::Semi | Token::RBrace | Token::LBrace | Token::Pragma | Token::Technique
            )
    }

    /// Is the `<` at index `lt` the start of template arguments followed by
    /// `(`, as in `vk::RawBufferLoad<uint>(addr)` or `buf.Load<uint2>(0)`?
    /// The list must hold at least one type name, so `a < b > (c)` stays a
    /// comparison.
    fn template_call_follows(&self, lt: usize) -> bool {
        self.template_args_then_call(lt, false)
    }

    /// As [`Self::template_call_follows`]; with `known`, the name before
    /// the `<` is a function template's, and the list may hold values only
    /// (`m.Store<vk::RowMajor>(…)`).
    fn template_args_then_call(&self, lt: usize, known: bool) -> bool {
        let mut depth = 0i32;
        let mut saw_type = known;
        for (n, t) in self.toks[lt..].iter().enumerate().take(64) {
            match t.kind {
                Token::Lt => depth += 1,
                Token::Gt => depth -= 1,
                Token::Shr => depth -= 2,
                Token::Ident => {
                    if self.ctx.classify_name(t.sym) == Some(NameKind::Type)
                        || builtins::is_vk_type(t.sym)
                    {
                        saw_type = true;
                    }
                }
                Token::Comma
                | Token::ColonColon
                | Token::IntLit
                | Token::LBracket
                | Token::RBracket => {}
                k if k.is_keyword() => {}
                _ => return false,
            }
            if depth <= 0 {
                return depth == 0 && saw_type && self.kind_at(lt + n + 1) == Some(Token::LParen);
            }
        }
        false
    }

    /// Classifies the identifier-like token at `i`.
    fn classify(&self, i: usize, kind: Token) -> Token {
        let t = &self.toks[i];
        let next = self.kind_at(i + 1);
        // After `.`: a member or method name, however it is spelled.
        if self.prev == Token::Dot {
            if kind == Token::Template && next.is_some_and(Token::is_ident_like) {
                return Token::Template;
            }
            let known = self.ctx.is_function_template(t.sym);
            if next == Some(Token::Lt) && self.template_args_then_call(i + 1, known) {
                return Token::TemplateName;
            }
            return Token::Ident;
        }
        // `.template Load<T>(…)`
        if self.prev == Token::Template && self.prev2 == Token::Dot {
            return Token::TemplateName;
        }
        if kind != Token::Ident {
            return kind;
        }
        let name = t.sym;
        if self.prev == Token::ColonColon {
            // `typename Trait<T>::type`; `Trait<half>::type` where some
            // struct declares a member type `type`; `S<T>::Inner::x`.
            let after_type = matches!(self.prev2, Token::TypeName | Token::Gt);
            if self.typename_at == Some(self.depth())
                || (after_type
                    && (self.ctx.is_member_type(name) || next == Some(Token::ColonColon)))
            {
                return Token::TypeName;
            }
        }
        // `vk::SpirvType`, `vk::khr::CooperativeMatrixA`
        if self.prev == Token::ColonColon && self.prev2 == Token::NamespaceName {
            let vk = builtins::vk_symbol();
            if self.prev2_sym == vk || builtins::is_vk_namespace(self.prev2_sym) {
                if builtins::is_vk_type(name) {
                    return Token::TypeName;
                }
                if self.prev2_sym == vk && builtins::is_vk_namespace(name) {
                    return Token::NamespaceName;
                }
            }
        }
        let kind = match self.ctx.lookup(name) {
            Some(NameKind::Type) => Token::TypeName,
            // A namespace's name is one only before `::` or after
            // `namespace`; elsewhere it is some other entity of that name
            // (`Sequence::Hash(x)` with a namespace `Hash` elsewhere,
            // `Normal::Parameters Normal;`).
            Some(NameKind::Namespace)
                if next == Some(Token::ColonColon) || self.prev == Token::Namespace =>
            {
                return Token::NamespaceName;
            }
            Some(NameKind::Namespace) => Token::Ident,
            Some(NameKind::Template) => return Token::TemplateName,
            Some(NameKind::Value) => return Token::Ident,
            None if builtins::is_builtin_type(name) => Token::TypeName,
            None => Token::Ident,
        };
        if kind == Token::TypeName {
            // A type's name used as a variable's name, right after a type
            // (`RWStructuredBuffer<uint> Buffer;`, `float Ray = 1;`): C++
            // lets a declaration hide a type.
            let after_type = matches!(self.prev, Token::TypeName | Token::Gt);
            let declarator_follows = matches!(
                next,
                Some(
                    Token::Semi
                        | Token::Eq
                        | Token::Comma
                        | Token::LBracket
                        | Token::Colon
                        | Token::RParen
                )
            );
            if after_type && declarator_follows {
                return Token::Ident;
            }
            return Token::TypeName;
        }
        if next == Some(Token::ColonColon) && builtins::is_builtin_namespace(name) {
            return Token::NamespaceName;
        }
        if next == Some(Token::Lt) && self.template_call_follows(i + 1) {
            return Token::TemplateName;
        }
        Token::Ident
    }

    /// The end (exclusive index) of an effects `technique Name <…> { … }`
    /// block starting at `i`, if it is one.
    fn technique_end(&self, i: usize) -> Option<usize> {
        let mut j = i + 1;
        if self.kind_at(j).is_some_and(Token::is_ident_like) {
            j += 1;
        }
        if self.kind_at(j) == Some(Token::Lt) {
            while self.kind_at(j).is_some_and(|k| k != Token::Gt) {
                j += 1;
            }
            j += 1;
        }
        if self.kind_at(j) != Some(Token::LBrace) {
            return None;
        }
        let mut depth = 0usize;
        while let Some(k) = self.kind_at(j) {
            j += 1;
            match k {
                Token::LBrace => depth += 1,
                Token::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        Some(j)
    }

    /// Skips the bracket group opened at `i` (too deep) and returns the one
    /// token that stands for it: a kind the grammar does not accept, so the
    /// parser recovers, and that the error conversion does not report again.
    fn skip_group(&mut self, i: usize) -> Triple {
        let open = self.toks[i];
        let angle = open.kind == Token::Lt;
        let mut depth = 0usize;
        let mut j = i;
        while let Some(k) = self.kind_at(j) {
            j += 1;
            match k {
                Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
                Token::Lt if angle => depth += 1,
                Token::RParen | Token::RBracket | Token::RBrace => depth = depth.saturating_sub(1),
                Token::Gt if angle => depth = depth.saturating_sub(1),
                Token::Shr if angle => depth = depth.saturating_sub(2),
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
        self.advance_to(j);
        self.synthetic(i, j)
    }

    /// The stand-in token for input `i..j` (see [`Adapter::skip_group`]).
    fn synthetic(&mut self, i: usize, j: usize) -> Triple {
        let first = self.toks[i].span;
        let last = self.toks[j.max(i + 1) - 1].span;
        let hi = if last.hi >= first.lo && last.hi.is_expansion() == first.lo.is_expansion() {
            last.hi
        } else {
            first.hi
        };
        self.prev2 = self.prev;
        self.prev = Token::Newline;
        (
            first.lo,
            Tok {
                kind: Token::Newline,
                sym: self.empty,
                idx: i as u32,
            },
            hi,
        )
    }

    fn eof(&mut self) -> Option<Result<Triple, Infallible>> {
        if self.eof_sent {
            return None;
        }
        self.eof_sent = true;
        let at = match self.toks.last() {
            Some(t) if !t.span.hi.is_expansion() => Span::new(t.span.hi, t.span.hi),
            Some(t) => t.span,
            None => Span::default(),
        };
        self.ctx.eof.set(at);
        self.ctx
            .unclosed
            .set(self.brackets.last().map(|b| (b.span, closing_char(b.kind))));
        Some(Ok((
            at.lo,
            Tok {
                kind: Token::Eof,
                sym: self.empty,
                idx: self.toks.len() as u32,
            },
            at.hi,
        )))
    }

    /// Closes the template argument lists opened inside the innermost
    /// bracket (they cannot span a `)`, `;` or `}`).
    fn close_templates_at_this_level(&mut self) {
        let n = self.brackets.len();
        while self.templates.last().is_some_and(|&d| d >= n) {
            self.templates.pop();
        }
    }

    /// Is the token at `i` a swizzle written right after the previous token
    /// (`0.xxx`, `1.rg`)?
    fn swizzle_follows(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| {
            t.kind == Token::Ident
                && t.flags & crate::front::lexer::flags::SPACE_BEFORE == 0
                && t.sym.as_str().bytes().all(|b| b"xyzwrgba".contains(&b))
        })
    }

    /// Starts or ends the name after a `typename` (see `typename_at`): it
    /// goes on through names, `::` and template argument lists.
    fn track_typename(&mut self, kind: Token) {
        if kind == Token::Typename {
            self.typename_at = Some(self.depth());
            return;
        }
        let Some(at) = self.typename_at else {
            return;
        };
        let depth = self.depth();
        let name_goes_on = matches!(
            kind,
            Token::TypeName | Token::NamespaceName | Token::ColonColon | Token::Lt
        );
        // Past the name, or a bracket closed around the `typename`.
        if at == depth && !name_goes_on || at > depth {
            self.typename_at = None;
        }
    }

    fn template_open_here(&self) -> bool {
        self.templates.last() == Some(&self.brackets.len())
    }
}

impl Iterator for Adapter<'_, '_> {
    type Item = Result<Triple, Infallible>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(t) = self.pending.take() {
            return Some(Ok(t));
        }
        loop {
            let i = self.pos;
            let Some(&t) = self.toks.get(i) else {
                return self.eof();
            };
            if self.ctx.too_many_recoveries() {
                // Give up: the parser sees end of input next.
                self.ctx.stop(t.span);
                self.advance_to(self.toks.len());
                return self.eof();
            }
            self.advance_to(i + 1);
            if !SPECIAL[usize::from(t.kind as u8 & 127)] && self.typename_at.is_none() {
                // Nothing to classify or track: what the end of this loop
                // does for such a token, and nothing else.
                self.unary_run = 0;
                self.prev2 = self.prev;
                self.prev2_sym = self.prev_sym;
                self.prev = t.kind;
                self.prev_sym = t.sym;
                return Some(Ok((
                    t.span.lo,
                    Tok {
                        kind: t.kind,
                        sym: t.sym,
                        idx: i as u32,
                    },
                    t.span.hi,
                )));
            }
            let mut kind = t.kind;
            let mut span = t.span;
            match kind {
                Token::Newline => continue,
                Token::Pragma if !self.at_declaration_level() => continue,
                Token::Pass => kind = Token::Ident,
                Token::Technique => match self.technique_end(i) {
                    Some(end) => {
                        self.advance_to(end);
                        let last = self.toks[end - 1].span;
                        if last.hi >= span.lo && !last.hi.is_expansion() {
                            span.hi = last.hi;
                        }
                    }
                    None => kind = Token::Ident,
                },
                _ => {}
            }
            if kind == Token::Ident || kind.is_keyword() {
                kind = self.classify(i, kind);
            }
            let mut sym = t.sym;
            if kind == Token::FloatLit
                && self.swizzle_follows(i + 1)
                && let Some(int_text) = t.sym.as_str().strip_suffix('.')
            {
                // `0.xxx` lexes as `0.` `xxx`: it is the literal `0` swizzled.
                kind = Token::IntLit;
                sym = Symbol::intern(int_text);
                let (int_span, dot_span) = split_last_byte(span);
                span = int_span;
                self.pending = Some((
                    dot_span.lo,
                    Tok {
                        kind: Token::Dot,
                        sym: self.empty,
                        idx: i as u32,
                    },
                    dot_span.hi,
                ));
            }
            self.track_typename(kind);
            match kind {
                Token::LParen | Token::LBracket | Token::LBrace => {
                    if self.depth() >= MAX_NESTING {
                        self.ctx.nesting_too_deep(span);
                        return Some(Ok(self.skip_group(i)));
                    }
                    let namespace = kind == Token::LBrace
                        && self.prev2 == Token::Namespace
                        && matches!(self.prev, Token::Ident | Token::NamespaceName);
                    self.brackets.push(Open {
                        kind,
                        span,
                        namespace,
                        idx: i as u32,
                    });
                    if kind == Token::LBrace {
                        self.ctx.open_brace(i as u32);
                    }
                }
                Token::RParen | Token::RBracket | Token::RBrace => {
                    self.close_templates_at_this_level();
                    if let Some(open) = self.brackets.pop()
                        && open.kind == Token::LBrace
                    {
                        self.ctx.close_brace(open.idx);
                    }
                }
                Token::Lt
                    if matches!(
                        self.prev,
                        Token::TypeName | Token::TemplateName | Token::Template
                    ) =>
                {
                    if self.depth() >= MAX_NESTING {
                        self.ctx.nesting_too_deep(span);
                        return Some(Ok(self.skip_group(i)));
                    }
                    self.templates.push(self.brackets.len());
                }
                Token::Gt if self.template_open_here() => {
                    self.templates.pop();
                }
                Token::Shr if self.template_open_here() => {
                    // `A<B<C>>`: two closing `>`.
                    self.templates.pop();
                    if self.template_open_here() {
                        self.templates.pop();
                    }
                    let (first, second) = split_last_byte(span);
                    kind = Token::Gt;
                    span = first;
                    self.pending = Some((
                        second.lo,
                        Tok {
                            kind: Token::Gt,
                            sym: t.sym,
                            idx: i as u32,
                        },
                        second.hi,
                    ));
                }
                Token::Semi => {
                    self.close_templates_at_this_level();
                    if self.brackets.iter().all(|b| b.kind == Token::LBrace) {
                        self.ctx.clear_pending_params();
                    }
                }
                _ => {}
            }
            if is_unary_operator(kind) {
                self.unary_run += 1;
                if self.unary_run > MAX_NESTING {
                    self.ctx.push_diag(
                        crate::diag::Diagnostic::error(
                            crate::diag::codes::EXPR_TOO_DEEP,
                            "expression too deeply nested",
                        )
                        .label(span, format!("more than {MAX_NESTING} operators in a row")),
                    );
                    let mut j = i + 1;
                    while self.kind_at(j).is_some_and(is_unary_operator) {
                        j += 1;
                    }
                    self.advance_to(j);
                    self.unary_run = 0;
                    return Some(Ok(self.synthetic(i, j)));
                }
            } else {
                self.unary_run = 0;
            }
            self.prev2 = self.prev;
            self.prev2_sym = self.prev_sym;
            self.prev = self.pending.as_ref().map_or(kind, |p| p.1.kind);
            self.prev_sym = sym;
            return Some(Ok((
                span.lo,
                Tok {
                    kind,
                    sym,
                    idx: i as u32,
                },
                span.hi,
            )));
        }
    }
}
