//! The state the token adapter and the grammar's actions share: the table of
//! names that lex as type, namespace or template names (the "lexer hack"),
//! the diagnostics, and where the adapter is in the token stream.
//!
//! The grammar gets `&ParseCtx` as a parameter; the adapter holds the same
//! reference. LR parsing reads one token of lookahead before it reduces, so a
//! name registered by an action (a struct's name when its head `struct S` is
//! reduced with `{` as lookahead) is seen by every token the adapter
//! classifies after that: the first token inside the braces and on.

use super::error::{self, SyntaxError};
use super::{MAX_NESTING, MAX_RECOVERIES, Tok};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::lexer::PpToken;
use crate::intern::Symbol;
use crate::intern::builtins;
use crate::span::{Loc, Span};
use lalrpop_util::ErrorRecovery;
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::convert::Infallible;

/// What a user-declared name is, as far as the adapter cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// A struct, class, interface, enum, typedef, `using` alias or template
    /// type parameter.
    Type,
    Namespace,
    /// A function template (so that `f<float>(x)` parses).
    Template,
    /// A variable or parameter whose name hides a type name.
    Value,
}

/// One lexical scope's undo log: the previous meaning of each name it
/// declared.
struct Scope {
    undo: Vec<(Symbol, Option<NameKind>)>,
    /// The scope of a `template<…>` head: the templated declaration's own
    /// name is declared in the enclosing scope, not here.
    template: bool,
    /// The input index of the `{` that opened a block's scope: the adapter
    /// closes the scope when it reads the matching `}`, before it classifies
    /// the token after it (the grammar would reduce the block only after).
    opener: Option<u32>,
}

/// The names declared so far, with block and template scoping.
struct NameTable {
    map: FxHashMap<Symbol, NameKind>,
    scopes: Vec<Scope>,
}

impl NameTable {
    fn declare_in(&mut self, scope: usize, name: Symbol, kind: NameKind) {
        let old = self.map.insert(name, kind);
        if let Some(s) = self.scopes.get_mut(scope) {
            s.undo.push((name, old));
        }
    }
}

/// The parse state shared by the adapter and the grammar actions.
pub struct ParseCtx<'t> {
    pub(super) toks: &'t [PpToken],
    names: RefCell<NameTable>,
    diags: RefCell<Vec<Diagnostic>>,
    /// Index of the next token the adapter will read.
    pub(super) pos: Cell<u32>,
    /// `pos` when the last error recovery finished: a new error within two
    /// tokens of it is a consequence of the first and is not reported.
    last_recovery: Cell<Option<u32>>,
    /// How many errors lalrpop recovered from (see [`MAX_RECOVERIES`]).
    recoveries: Cell<u32>,
    /// Parsing gave up: every later syntax error is a consequence.
    stopped: Cell<bool>,
    /// A `template<…>` head was just reduced; the next declared struct or
    /// function name is the template's.
    template_pending: Cell<bool>,
    /// Parameters whose names hide type names: they are declared in the
    /// function body's scope when its `{` is read.
    pending_params: RefCell<Vec<Symbol>>,
    /// The innermost bracket still open at the end of input.
    pub(super) unclosed: Cell<Option<(Span, char)>>,
    /// Where end of file is (just after the last token).
    pub(super) eof: Cell<Span>,
    /// A call of `GetAttributeAtVertex` was parsed.
    pub(super) vertex_attribute_call: Cell<bool>,
    /// The symbol `GetAttributeAtVertex`, interned once per parse so that
    /// calls compare symbols, not strings.
    pub(super) get_attribute_at_vertex: Symbol,
    /// Names declared as member types (`typedef`/`using` in a struct body)
    /// anywhere so far: after `S<T>::` such a name lexes as a type, also
    /// when the struct was a template whose scope has ended.
    member_types: RefCell<rustc_hash::FxHashSet<Symbol>>,
    /// Names declared as function templates anywhere (member function
    /// templates included): after `.`, such a name followed by `<…>(` is a
    /// call with template arguments.
    function_templates: RefCell<rustc_hash::FxHashSet<Symbol>>,
}

impl<'t> ParseCtx<'t> {
    pub fn new(toks: &'t [PpToken]) -> Self {
        ParseCtx {
            toks,
            names: RefCell::new(NameTable {
                map: FxHashMap::default(),
                scopes: vec![Scope {
                    undo: Vec::new(),
                    template: false,
                    opener: None,
                }],
            }),
            diags: RefCell::new(Vec::new()),
            pos: Cell::new(0),
            last_recovery: Cell::new(None),
            recoveries: Cell::new(0),
            stopped: Cell::new(false),
            template_pending: Cell::new(false),
            pending_params: RefCell::new(Vec::new()),
            unclosed: Cell::new(None),
            eof: Cell::new(Span::default()),
            vertex_attribute_call: Cell::new(false),
            get_attribute_at_vertex: Symbol::intern("GetAttributeAtVertex"),
            member_types: RefCell::new(Default::default()),
            function_templates: RefCell::new(Default::default()),
        }
    }

    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diags.into_inner()
    }

    pub fn push_diag(&self, d: Diagnostic) {
        self.diags.borrow_mut().push(d);
    }

    // ---- names ----------------------------------------------------------

    /// What a user declaration made of `name`, if anything. Inlined: the
    /// adapter asks for every identifier.
    #[inline]
    pub fn lookup(&self, name: Symbol) -> Option<NameKind> {
        self.names.borrow().map.get(&name).copied()
    }

    /// How the adapter classifies an identifier (without context).
    pub fn classify_name(&self, name: Symbol) -> Option<NameKind> {
        match self.lookup(name) {
            Some(k) => Some(k),
            None if builtins::is_builtin_type(name) => Some(NameKind::Type),
            None => None,
        }
    }

    fn declare(&self, name: Symbol, kind: NameKind) {
        let mut t = self.names.borrow_mut();
        let top = t.scopes.len() - 1;
        t.declare_in(top, name, kind);
    }

    /// Declares `name` in the innermost scope that is not a template head's
    /// (the templated entity itself outlives its parameters).
    fn declare_outside_template(&self, name: Symbol, kind: NameKind) {
        let mut t = self.names.borrow_mut();
        let scope = t.scopes.iter().rposition(|s| !s.template).unwrap_or(0);
        t.declare_in(scope, name, kind);
    }

    /// A struct, enum, typedef or alias name: a type from here on.
    pub fn declare_type(&self, name: ast::Ident) {
        if self.template_pending.replace(false) {
            self.declare_outside_template(name.name, NameKind::Type);
        } else {
            self.declare(name.name, NameKind::Type);
        }
    }

    /// A `typedef` or `using` alias declared in a struct body.
    pub fn note_member_type(&self, name: Symbol) {
        self.member_types.borrow_mut().insert(name);
    }

    /// Was `name` declared as a member type of some struct?
    pub fn is_member_type(&self, name: Symbol) -> bool {
        self.member_types.borrow().contains(&name)
    }

    /// A template type parameter (`typename T`), scoped to its template.
    pub fn declare_type_param(&self, name: ast::Ident) {
        self.declare(name.name, NameKind::Type);
    }

    /// A variable template's name: a template's from here on.
    pub fn declare_var_template(&self, name: ast::Ident) {
        self.declare(name.name, NameKind::Template);
    }

    pub fn declare_namespace(&self, name: ast::Ident) {
        self.declare(name.name, NameKind::Namespace);
    }

    /// A variable or parameter: if its name was a type name, it no longer
    /// is in this scope (`float4 texture;` hides the effects `texture` type).
    pub fn declare_value(&self, name: ast::Ident) {
        if self.classify_name(name.name).is_some() {
            self.declare(name.name, NameKind::Value);
        }
    }

    /// A function's name was read, with its `(`: if a template head precedes
    /// it, the name is a function template's from here on.
    pub fn function_name(&self, name: &ast::Path) {
        if self.template_pending.replace(false) && name.is_single() {
            self.declare_outside_template(name.last().name, NameKind::Template);
            self.function_templates
                .borrow_mut()
                .insert(name.last().name);
        }
    }

    /// Was `name` declared as a function template (a member one
    /// included)?
    pub fn is_function_template(&self, name: Symbol) -> bool {
        self.function_templates.borrow().contains(&name)
    }

    /// A parameter: if its name is a type name, it hides it in the body.
    pub fn declare_param(&self, name: ast::Ident) {
        if self.classify_name(name.name).is_some() {
            self.pending_params.borrow_mut().push(name.name);
        }
    }

    pub fn push_scope(&self, template: bool) {
        self.names.borrow_mut().scopes.push(Scope {
            undo: Vec::new(),
            template,
            opener: None,
        });
    }

    /// The grammar reduced a block's `{` (input index `idx`): the block's
    /// scope, unless the adapter opened it already for parameters.
    pub fn push_block_scope(&self, idx: u32) {
        let mut t = self.names.borrow_mut();
        if t.scopes.last().is_some_and(|s| s.opener == Some(idx)) {
            return;
        }
        t.scopes.push(Scope {
            undo: Vec::new(),
            template: false,
            opener: Some(idx),
        });
    }

    /// The adapter read a `{`: a function body after parameters that hide
    /// type names gets its scope now, so that its first token already sees
    /// them.
    pub fn open_brace(&self, idx: u32) {
        let pending = std::mem::take(&mut *self.pending_params.borrow_mut());
        if pending.is_empty() {
            return;
        }
        let mut t = self.names.borrow_mut();
        t.scopes.push(Scope {
            undo: Vec::new(),
            template: false,
            opener: Some(idx),
        });
        let top = t.scopes.len() - 1;
        for name in pending {
            t.declare_in(top, name, NameKind::Value);
        }
    }

    /// The adapter read the `}` matching the `{` at `idx`.
    pub fn close_brace(&self, idx: u32) {
        let is_block = self
            .names
            .borrow()
            .scopes
            .last()
            .is_some_and(|s| s.opener == Some(idx));
        if is_block {
            self.pop_scope();
        }
    }

    /// A `;` outside braces ends a prototype: its parameters hide nothing.
    pub fn clear_pending_params(&self) {
        self.pending_params.borrow_mut().clear();
    }

    pub fn pop_scope(&self) {
        let mut t = self.names.borrow_mut();
        if t.scopes.len() <= 1 {
            return;
        }
        if let Some(s) = t.scopes.pop() {
            for (name, old) in s.undo.into_iter().rev() {
                match old {
                    Some(k) => t.map.insert(name, k),
                    None => t.map.remove(&name),
                };
            }
        }
    }

    /// A `template<…>` head was reduced.
    pub fn template_head(&self) {
        self.template_pending.set(true);
    }

    /// The head of a specialisation (`struct Trait<half>`) was read: it
    /// names a template already declared, so no name is the template's.
    pub fn specialization_head(&self) {
        self.template_pending.set(false);
    }

    /// The templated declaration is complete: its parameters go out of scope.
    pub fn end_template(&self) {
        self.template_pending.set(false);
        self.pop_scope();
    }

    // ---- errors ---------------------------------------------------------

    /// Reports the syntax error lalrpop recovered from (unless it follows
    /// another too closely, or the adapter already reported it) and returns
    /// the span the error covers.
    pub fn recover(&self, e: ErrorRecovery<Loc, Tok, Infallible>, span: Span) -> Span {
        self.report_parse_error(&e.error);
        self.last_recovery.set(Some(self.pos.get()));
        self.recoveries.set(self.recoveries.get() + 1);
        span
    }

    /// True once the parser has recovered from [`MAX_RECOVERIES`] errors:
    /// the adapter then reports [`ParseCtx::stop`] and ends the input.
    pub fn too_many_recoveries(&self) -> bool {
        self.recoveries.get() >= MAX_RECOVERIES && !self.stopped.get()
    }

    /// Gives up parsing at `span`: reports it once, and silences the errors
    /// that the cut-off input causes (unclosed braces, a missing `;`).
    pub fn stop(&self, span: Span) {
        self.stopped.set(true);
        self.push_diag(
            Diagnostic::error(
                codes::TOO_MANY_SYNTAX_ERRORS,
                "too many syntax errors; parsing stopped here",
            )
            .label(span, "parsing stopped here")
            .note(format!(
                "hlslc stops after recovering from {MAX_RECOVERIES} syntax errors \
                 (counting those not reported because they follow another closely)"
            )),
        );
    }

    /// Reports a parse error (the one place lalrpop errors become
    /// diagnostics is [`error::syntax_error`]).
    pub fn report_parse_error(&self, e: &lalrpop_util::ParseError<Loc, Tok, Infallible>) {
        if self.stopped.get() {
            return;
        }
        if let Some(idx) = error::error_token_index(e)
            && let Some(last) = self.last_recovery.get()
            && idx <= last
        {
            // An error at the token right after the one parsing resumed at
            // is a consequence of the first (`x = 1 2 3;`), as in yacc.
            return;
        }
        let info = SyntaxError {
            toks: self.toks,
            eof: self.eof.get(),
            unclosed: self.unclosed.get(),
        };
        if let Some(d) = error::syntax_error(e, &info) {
            self.push_diag(d);
        }
    }

    /// "nesting too deep" at the bracket that went past the limit.
    pub fn nesting_too_deep(&self, span: Span) {
        self.push_diag(
            Diagnostic::error(
                codes::NESTING_TOO_DEEP,
                "brackets nested too deeply".to_string(),
            )
            .label(span, format!("this goes past {MAX_NESTING} levels"))
            .note(format!(
                "hlslc accepts at most {MAX_NESTING} nested `(`, `[`, `{{` and template argument lists"
            )),
        );
    }

    pub fn warn(&self, code: crate::diag::Code, span: Span, msg: &str, label: &str) {
        self.push_diag(Diagnostic::warning(code, msg).label(span, label));
    }

    pub fn error(&self, code: crate::diag::Code, span: Span, msg: &str, label: &str) {
        self.push_diag(Diagnostic::error(code, msg).label(span, label));
    }
}
