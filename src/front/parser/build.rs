//! AST construction for the grammar's actions.
//!
//! Actions stay one-liners; the shaping (splitting `struct S {…} s;` into a
//! struct and a variable, `unsigned int` → `uint`, literal values) and the
//! depth bookkeeping live here. Every expression and statement carries its
//! depth while it is built ([`PExpr`], [`PStmt`]); a node that would go past
//! [`MAX_NESTING`] becomes an error node with one diagnostic, so the AST's
//! depth is bounded and recursive walks (and drops) of it cannot overflow.

use super::MAX_NESTING;
use super::ctx::ParseCtx;
use crate::diag::codes;
use crate::front::ast::{self, ExprKind, StmtKind};
use crate::front::lexer::Token;
use crate::intern::Symbol;
use crate::span::{Loc, Span};

/// Marks a subtree that was cut because it was too deep: its ancestors become
/// error nodes without another diagnostic.
const POISON: u32 = u32::MAX;

pub fn sp(l: Loc, r: Loc) -> Span {
    Span::new(l, r)
}

/// The deeper of two depths (a poisoned one stays poisoned).
pub fn deeper(a: u32, b: u32) -> u32 {
    a.max(b)
}

/// An expression under construction, with the depth of its tree.
pub struct PExpr {
    pub expr: ast::Expr,
    pub depth: u32,
}

/// A statement under construction, with its nesting depth (statements only;
/// expressions are bounded separately).
pub struct PStmt {
    pub stmt: ast::Stmt,
    pub depth: u32,
}

/// Modifiers and type of a declaration.
pub struct DeclSpecs {
    pub modifiers: ast::Modifiers,
    pub ty: ast::TypeSpec,
}

/// What may follow a declarator's name and array dimensions after `:`.
#[derive(Default)]
pub struct PostAnnots {
    pub annotations: ast::Annotations,
    pub bit_width: Option<ast::Expr>,
}

/// What follows a function's parameter list.
pub struct FnTail {
    pub is_const: bool,
    pub annotations: PostAnnots,
}

/// A declaration that may appear at global scope or in a struct.
pub enum Decl {
    Vars(DeclSpecs, Vec<ast::Declarator>),
    /// Boxed: the parser's stack holds values of its largest symbol's size.
    Function(Box<FnParts>),
    Struct(Box<ast::StructDecl>),
    /// `struct S;`
    Forward,
}

/// A function declaration's parts, before attributes and template.
pub struct FnParts {
    pub specs: DeclSpecs,
    pub name: ast::Path,
    pub params: Vec<ast::Param>,
    pub tail: FnTail,
    pub body: Option<ast::Block>,
}

/// A `typedef` with one or more names; a named struct defined in it is
/// declared separately.
pub struct TypedefOut {
    pub structs: Vec<ast::StructDecl>,
    pub typedefs: Vec<ast::Typedef>,
}

/// A cbuffer member: a variable, or a struct or function defined inside
/// the cbuffer.
pub enum CbMember {
    Var(ast::VarDecl),
    Struct(ast::StructDecl),
    Function(ast::Function),
    None,
}

/// The condition of `if`, `while` or `switch`: an expression, or a
/// declaration whose value is tested (`if (int d = f())`).
pub enum Cond {
    Expr(PExpr),
    Decl(ast::VarDecl),
}

/// The spelling of a keyword token used as an identifier (`float sample;`).
pub fn keyword_text(kind: Token) -> &'static str {
    super::error::token_text(kind)
}

impl ParseCtx<'_> {
    // ---- identifiers and paths -------------------------------------------

    pub fn ident(&self, name: Symbol, l: Loc, r: Loc) -> ast::Ident {
        ast::Ident {
            name,
            span: sp(l, r),
        }
    }

    /// A contextual keyword used as a name.
    pub fn kw_ident(&self, kind: Token, l: Loc, r: Loc) -> ast::Ident {
        ast::Ident {
            name: Symbol::intern(keyword_text(kind)),
            span: sp(l, r),
        }
    }

    /// `operator+`, `operator[]`, `operator()`.
    pub fn operator_name(&self, op: &str, l: Loc, r: Loc) -> ast::Ident {
        ast::Ident {
            name: Symbol::intern(&format!("operator{op}")),
            span: sp(l, r),
        }
    }

    pub fn path_push(&self, mut p: ast::Path, id: ast::Ident) -> ast::Path {
        p.span = p.span.to(id.span);
        p.segments.push(id);
        p
    }

    pub fn make_global(&self, mut p: ast::Path, l: Loc) -> ast::Path {
        p.global = true;
        p.span.lo = l;
        p
    }

    pub fn global_path(&self, id: ast::Ident, l: Loc) -> ast::Path {
        ast::Path {
            global: true,
            segments: vec![id],
            span: sp(l, id.span.hi),
        }
    }

    // ---- types ------------------------------------------------------------

    pub fn named_type(
        &self,
        path: ast::Path,
        args: Option<Vec<ast::TemplateArg>>,
        span: Span,
    ) -> ast::TypeSpec {
        ast::TypeSpec {
            kind: ast::TypeSpecKind::Named { path, args },
            modifiers: ast::Modifiers::default(),
            span,
        }
    }

    /// `unsigned`, `unsigned int`, `unsigned int64_t`, `signed int`: written
    /// as the unsigned (or signed) type's own name.
    pub fn signed_type(
        &self,
        unsigned: bool,
        base: Option<ast::Ident>,
        span: Span,
    ) -> ast::TypeSpec {
        let name = match base {
            None => if unsigned { "uint" } else { "int" }.to_string(),
            Some(b) => {
                let s = b.name.as_str();
                let is_int = s.contains("int");
                let is_unsigned = s.starts_with("uint") || s.starts_with("min16uint");
                match (unsigned, is_int && !is_unsigned) {
                    // int → uint, min16int → min16uint, int64_t → uint64_t
                    (true, true) => s.replacen("int", "uint", 1),
                    (false, true) => s.to_string(),
                    _ => {
                        self.error(
                            codes::SYNTAX,
                            b.span,
                            &format!(
                                "`{}` cannot be used with `{s}`",
                                if unsigned { "unsigned" } else { "signed" }
                            ),
                            "not a signed integer type",
                        );
                        s.to_string()
                    }
                }
            }
        };
        let id = ast::Ident {
            name: Symbol::intern(&name),
            span,
        };
        self.named_type(ast::Path::single(id), None, span)
    }

    pub fn struct_type(&self, s: ast::StructDecl) -> ast::TypeSpec {
        let span = s.span;
        ast::TypeSpec {
            kind: ast::TypeSpecKind::Struct(Box::new(s)),
            modifiers: ast::Modifiers::default(),
            span,
        }
    }

    /// `struct S` used as a type (`typedef struct S T;`, `struct S s;`).
    pub fn elaborated_type(&self, name: ast::Ident, span: Span) -> ast::TypeSpec {
        self.named_type(ast::Path::single(name), None, span)
    }

    /// A type standing alone with modifiers and array dimensions:
    /// `row_major float3x3`, `float2[3]`.
    pub fn standalone_type(
        &self,
        modifiers: Option<ast::Modifiers>,
        mut ty: ast::TypeSpec,
        dims: Vec<Option<ast::Expr>>,
        span: Span,
    ) -> ast::TypeSpec {
        if let Some(m) = modifiers {
            ty.modifiers = m;
        }
        if dims.is_empty() {
            return ty;
        }
        ast::TypeSpec {
            kind: ast::TypeSpecKind::Array {
                element: Box::new(ty),
                dims,
            },
            modifiers: ast::Modifiers::default(),
            span,
        }
    }

    /// Splits a type defined in place with a name (`struct S {…} s;`) into
    /// the struct declaration and a reference to it.
    fn split_struct(&self, ty: ast::TypeSpec) -> (Option<ast::StructDecl>, ast::TypeSpec) {
        let ast::TypeSpec {
            kind,
            modifiers,
            span,
        } = ty;
        match kind {
            ast::TypeSpecKind::Struct(s) if s.name.is_some() => {
                let name = s.name.unwrap_or(ast::Ident {
                    name: Symbol::intern(""),
                    span: s.span,
                });
                let reference = self.named_type(ast::Path::single(name), None, name.span);
                (Some(*s), reference)
            }
            kind => (
                None,
                ast::TypeSpec {
                    kind,
                    modifiers,
                    span,
                },
            ),
        }
    }

    // ---- declarations -----------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    pub fn declarator(
        &self,
        qualifier: Option<ast::Path>,
        name: ast::Ident,
        array: Vec<Option<ast::Expr>>,
        post: PostAnnots,
        init: Option<ast::Initializer>,
        span: Span,
    ) -> ast::Declarator {
        self.declare_value(name);
        ast::Declarator {
            qualifier,
            name,
            array,
            annotations: post.annotations,
            bit_width: post.bit_width,
            init,
            span,
        }
    }

    /// `: register(…)` with one to three arguments: `(t0)`, `(space1)`,
    /// `(t0, space1)`, `(ps_5_0, t0)`, `(ps_5_0, t0, space1)`.
    pub fn register(&self, args: Vec<ast::Ident>, span: Span) -> ast::Register {
        let is_space = |i: &ast::Ident| i.name.as_str().starts_with("space");
        let (profile, slot, space) = match args.as_slice() {
            [a] if is_space(a) => (None, None, Some(*a)),
            [a] => (None, Some(*a), None),
            [a, b] if is_space(b) => (None, Some(*a), Some(*b)),
            [a, b] => (Some(*a), Some(*b), None),
            [a, b, c] => (Some(*a), Some(*b), Some(*c)),
            _ => {
                self.error(
                    codes::SYNTAX,
                    span,
                    "`register` takes one to three arguments",
                    "expected `register(slot)`, `register(slot, spaceN)` or `register(profile, slot)`",
                );
                (None, None, None)
            }
        };
        ast::Register {
            profile,
            slot,
            space,
            span,
        }
    }

    pub fn add_semantic(&self, mut p: PostAnnots, name: ast::Ident) -> PostAnnots {
        if let Some(old) = p.annotations.semantic {
            self.push_diag(
                crate::diag::Diagnostic::error(codes::SYNTAX, "more than one semantic")
                    .label(name.span, "second semantic")
                    .label(old.span, "first semantic"),
            );
        }
        p.annotations.semantic = Some(ast::Semantic {
            name: name.name,
            span: name.span,
        });
        p
    }

    fn var_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        declarators: Vec<ast::Declarator>,
        span: Span,
    ) -> (Option<ast::StructDecl>, ast::VarDecl) {
        let (decl, ty) = self.split_struct(specs.ty);
        (
            decl,
            ast::VarDecl {
                attrs,
                modifiers: specs.modifiers,
                ty,
                declarators,
                span,
            },
        )
    }

    fn function(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        decl: Decl,
        span: Span,
    ) -> Option<ast::Function> {
        let Decl::Function(parts) = decl else {
            return None;
        };
        let FnParts {
            specs,
            name,
            mut params,
            tail,
            body,
        } = *parts;
        // `f(void)` declares no parameters.
        if let [p] = params.as_slice()
            && p.name.is_none()
            && p.array.is_empty()
            && p.modifiers.is_empty()
            && is_void(&p.ty)
        {
            params.clear();
        }
        if let Some(w) = &tail.annotations.bit_width {
            self.error(
                codes::SYNTAX,
                w.span,
                "a function cannot have a bit-field width",
                "expected a semantic",
            );
        }
        Some(ast::Function {
            attrs,
            template,
            modifiers: specs.modifiers,
            return_type: specs.ty,
            name,
            params,
            return_annotations: tail.annotations.annotations,
            is_const: tail.is_const,
            body,
            span,
        })
    }

    /// A declaration at global (or namespace) scope.
    pub fn item_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        decl: Decl,
        span: Span,
    ) -> Vec<ast::Item> {
        match decl {
            Decl::Vars(specs, ds) => {
                self.no_template(&template, span);
                let (st, var) = self.var_decl(attrs, specs, ds, span);
                let mut out = Vec::with_capacity(2);
                out.extend(st.map(ast::Item::Struct));
                out.push(ast::Item::Var(var));
                out
            }
            Decl::Struct(mut s) => {
                s.attrs.splice(0..0, attrs);
                s.template = template;
                vec![ast::Item::Struct(*s)]
            }
            Decl::Forward => vec![ast::Item::Empty(span)],
            f @ Decl::Function(_) => self
                .function(attrs, template, f, span)
                .map(ast::Item::Function)
                .into_iter()
                .collect(),
        }
    }

    /// A declaration inside a struct, class or interface.
    pub fn member_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        decl: Decl,
        span: Span,
    ) -> Vec<ast::StructMember> {
        self.item_decl(attrs, template, decl, span)
            .into_iter()
            .filter_map(|i| match i {
                ast::Item::Var(v) => Some(ast::StructMember::Field(v)),
                ast::Item::Function(f) => Some(ast::StructMember::Method(f)),
                ast::Item::Struct(s) => Some(ast::StructMember::Struct(s)),
                _ => None,
            })
            .collect()
    }

    pub fn cbuffer_member(
        &self,
        attrs: Vec<ast::Attribute>,
        decl: Decl,
        span: Span,
    ) -> Vec<CbMember> {
        self.item_decl(attrs, None, decl, span)
            .into_iter()
            .map(|i| match i {
                ast::Item::Var(v) => CbMember::Var(v),
                ast::Item::Struct(s) => CbMember::Struct(s),
                // DXC accepts functions in a cbuffer's body; they are
                // ordinary global functions.
                ast::Item::Function(f) => CbMember::Function(f),
                _ => CbMember::None,
            })
            .collect()
    }

    /// `cbuffer`/`tbuffer`: structs defined inside are declared before it.
    #[allow(clippy::too_many_arguments)]
    pub fn cbuffer(
        &self,
        attrs: Vec<ast::Attribute>,
        kind: ast::CBufferKind,
        name: ast::Ident,
        post: PostAnnots,
        members: Vec<CbMember>,
        span: Span,
    ) -> Vec<ast::Item> {
        let mut out = Vec::new();
        let mut after = Vec::new();
        let mut vars = Vec::with_capacity(members.len());
        for m in members {
            match m {
                CbMember::Var(v) => vars.push(v),
                CbMember::Struct(s) => out.push(ast::Item::Struct(s)),
                CbMember::Function(f) => after.push(ast::Item::Function(f)),
                CbMember::None => {}
            }
        }
        out.push(ast::Item::CBuffer(ast::CBuffer {
            attrs,
            kind,
            name,
            annotations: post.annotations,
            members: vars,
            span,
        }));
        out.extend(after);
        out
    }

    fn no_template(&self, template: &Option<ast::TemplateParams>, span: Span) {
        if let Some(t) = template {
            self.push_diag(
                crate::diag::Diagnostic::error(
                    codes::UNSUPPORTED,
                    "not supported yet: variable templates",
                )
                .label(span, "this variable is declared as a template")
                .label(t.span, "template parameters here"),
            );
        }
    }

    pub fn typedef(
        &self,
        specs: DeclSpecs,
        names: Vec<(ast::Ident, Vec<Option<ast::Expr>>, Span)>,
        span: Span,
    ) -> TypedefOut {
        let (st, ty) = self.split_struct(specs.ty);
        let n = names.len();
        let mut typedefs = Vec::with_capacity(n);
        for (name, array, _) in names {
            typedefs.push(ast::Typedef {
                modifiers: specs.modifiers.clone(),
                ty: ty.clone(),
                name,
                array,
                span,
            });
        }
        TypedefOut {
            structs: st.into_iter().collect(),
            typedefs,
        }
    }

    pub fn typedef_items(&self, t: TypedefOut) -> Vec<ast::Item> {
        let mut v: Vec<ast::Item> = t.structs.into_iter().map(ast::Item::Struct).collect();
        v.extend(t.typedefs.into_iter().map(ast::Item::Typedef));
        v
    }

    pub fn typedef_members(&self, t: TypedefOut) -> Vec<ast::StructMember> {
        let mut v: Vec<ast::StructMember> = t
            .structs
            .into_iter()
            .map(ast::StructMember::Struct)
            .collect();
        v.extend(t.typedefs.into_iter().map(ast::StructMember::Typedef));
        v
    }

    pub fn typedef_stmts(&self, t: TypedefOut) -> Vec<ast::Stmt> {
        let mut v: Vec<ast::Stmt> = t
            .structs
            .into_iter()
            .map(|s| {
                let span = s.span;
                plain_stmt(StmtKind::Struct(s), span)
            })
            .collect();
        v.extend(t.typedefs.into_iter().map(|t| {
            let span = t.span;
            plain_stmt(StmtKind::Typedef(t), span)
        }));
        v
    }

    /// A local declaration statement whose type is a struct defined in place.
    pub fn local_struct_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        declarators: Vec<ast::Declarator>,
        span: Span,
    ) -> Vec<ast::Stmt> {
        let (st, var) = self.var_decl(attrs, specs, declarators, span);
        let mut v = Vec::with_capacity(2);
        if let Some(s) = st {
            let sspan = s.span;
            v.push(plain_stmt(StmtKind::Struct(s), sspan));
        }
        v.push(plain_stmt(StmtKind::Decl(var), span));
        v
    }

    pub fn local_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        declarators: Vec<ast::Declarator>,
        span: Span,
    ) -> ast::VarDecl {
        ast::VarDecl {
            attrs,
            modifiers: specs.modifiers,
            ty: specs.ty,
            declarators,
            span,
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn param(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        name: Option<ast::Ident>,
        array: Vec<Option<ast::Expr>>,
        post: PostAnnots,
        default: Option<PExpr>,
        span: Span,
    ) -> ast::Param {
        if let Some(n) = name {
            self.declare_value(n);
        }
        if let Some(w) = &post.bit_width {
            self.error(
                codes::SYNTAX,
                w.span,
                "a parameter cannot have a bit-field width",
                "expected a semantic",
            );
        }
        ast::Param {
            attrs,
            modifiers: specs.modifiers,
            ty: specs.ty,
            name,
            array,
            annotations: post.annotations,
            default: default.map(|d| d.expr),
            span,
        }
    }

    /// Effects-framework annotations `< string UIName = "x"; >` after a
    /// declarator: parsed and dropped.
    pub fn fx_annotations(&self, span: Span) {
        self.warn(
            codes::IGNORED_EFFECTS_SYNTAX,
            span,
            "effects annotations are ignored",
            "this annotation block has no effect",
        );
    }

    pub fn technique(&self, span: Span) -> ast::Item {
        self.warn(
            codes::IGNORED_EFFECTS_SYNTAX,
            span,
            "effects `technique` blocks are ignored",
            "this technique has no effect",
        );
        ast::Item::Technique(span)
    }

    pub fn attribute(
        &self,
        body: (ast::Path, Vec<ast::Expr>, Span),
        cxx11: bool,
        span: Span,
    ) -> ast::Attribute {
        let (name, args, body_span) = body;
        ast::Attribute {
            name,
            args,
            cxx11,
            span: if cxx11 { body_span } else { span },
        }
    }

    /// `using T = float4;`
    pub fn alias(
        &self,
        alias: (ast::Ident, Vec<ast::Attribute>, DeclSpecs),
        span: Span,
    ) -> ast::Using {
        let (name, attrs, specs) = alias;
        if let Some(a) = attrs.first() {
            self.warn(
                codes::IGNORED_SYNTAX,
                a.span,
                "attributes on a type alias are not supported yet and are ignored",
                "ignored",
            );
        }
        if let Some(&(_, m)) = specs.modifiers.list.first() {
            self.warn(
                codes::IGNORED_SYNTAX,
                m,
                "modifiers in a type alias are ignored",
                "ignored",
            );
        }
        ast::Using::Alias {
            template: None,
            name,
            ty: specs.ty,
            span,
        }
    }

    /// `template<typename T> using V = vector<T, 4>;`
    pub fn template_alias(
        &self,
        template: ast::TemplateParams,
        alias: (ast::Ident, Vec<ast::Attribute>, DeclSpecs),
        span: Span,
    ) -> ast::Using {
        match self.alias(alias, span) {
            ast::Using::Alias { name, ty, span, .. } => ast::Using::Alias {
                template: Some(template),
                name,
                ty,
                span,
            },
            other => other,
        }
    }

    /// `using ns::name;`: not representable yet.
    pub fn using_declaration(&self, span: Span) {
        self.warn(
            codes::IGNORED_SYNTAX,
            span,
            "`using` declarations of a single name are not supported yet and are ignored",
            "ignored; qualify the name where it is used",
        );
    }

    pub fn plain_stmt(&self, kind: StmtKind, span: Span) -> ast::Stmt {
        plain_stmt(kind, span)
    }

    /// `struct S { … };` inside a function.
    pub fn local_struct(
        &self,
        attrs: Vec<ast::Attribute>,
        mut s: ast::StructDecl,
        span: Span,
    ) -> Vec<ast::Stmt> {
        s.attrs.splice(0..0, attrs);
        vec![plain_stmt(StmtKind::Struct(s), span)]
    }

    /// A condition's expression, and the declaration to run before it.
    fn split_cond(&self, c: Cond) -> (Option<ast::Stmt>, ast::Expr) {
        match c {
            Cond::Expr(e) => (None, e.expr),
            Cond::Decl(d) => {
                let span = d.span;
                let name = d.declarators.first().map(|x| x.name);
                let test = match name {
                    Some(n) => ast::Expr {
                        kind: ExprKind::Name(ast::Path::single(n)),
                        span: n.span,
                    },
                    None => ast::Expr {
                        kind: ExprKind::Error,
                        span,
                    },
                };
                (Some(plain_stmt(StmtKind::Decl(d), span)), test)
            }
        }
    }

    /// `if (c) t else e`; `if (T d = x) …` becomes `{ T d = x; if (d) … }`.
    pub fn if_stmt(
        &self,
        attrs: Vec<ast::Attribute>,
        cond: Cond,
        then: PStmt,
        else_: Option<PStmt>,
        span: Span,
    ) -> PStmt {
        let (decl, cond) = self.split_cond(cond);
        let d = deeper(then.depth, else_.as_ref().map_or(0, |e| e.depth));
        let kind = StmtKind::If {
            cond,
            then: Box::new(then.stmt),
            else_: else_.map(|e| Box::new(e.stmt)),
        };
        self.with_decl(decl, attrs, kind, span, d)
    }

    /// `switch (c) { … }`; a declaration in `c` as for `if`.
    pub fn switch_stmt(
        &self,
        attrs: Vec<ast::Attribute>,
        cond: Cond,
        body: (ast::Block, u32),
        span: Span,
    ) -> PStmt {
        let (decl, selector) = self.split_cond(cond);
        let kind = StmtKind::Switch {
            selector,
            body: body.0,
        };
        self.with_decl(decl, attrs, kind, span, body.1)
    }

    /// `while (c) body`; `while (T d = x) body` becomes
    /// `while (true) { T d = x; if (!d) break; body }`, which re-evaluates
    /// the declaration on every iteration as C++ does.
    pub fn while_stmt(
        &self,
        attrs: Vec<ast::Attribute>,
        cond: Cond,
        body: PStmt,
        span: Span,
    ) -> PStmt {
        let (decl, cond) = self.split_cond(cond);
        let d = body.depth;
        let Some(decl) = decl else {
            return self.stmt(
                attrs,
                StmtKind::While {
                    cond,
                    body: Box::new(body.stmt),
                },
                span,
                d,
            );
        };
        let cspan = cond.span;
        let not = ast::Expr {
            kind: ExprKind::Unary(ast::UnaryOp::Not, Box::new(cond)),
            span: cspan,
        };
        let exit = plain_stmt(
            StmtKind::If {
                cond: not,
                then: Box::new(plain_stmt(StmtKind::Break, cspan)),
                else_: None,
            },
            cspan,
        );
        let inner = ast::Block {
            stmts: vec![decl, exit, body.stmt],
            span,
        };
        let truth = ast::Expr {
            kind: ExprKind::Literal(ast::Literal::Bool(true)),
            span: cspan,
        };
        self.stmt(
            attrs,
            StmtKind::While {
                cond: truth,
                body: Box::new(plain_stmt(StmtKind::Block(inner), span)),
            },
            span,
            d.saturating_add(2),
        )
    }

    /// `kind`, preceded in a block by `decl` when there is one.
    fn with_decl(
        &self,
        decl: Option<ast::Stmt>,
        attrs: Vec<ast::Attribute>,
        kind: StmtKind,
        span: Span,
        child_depth: u32,
    ) -> PStmt {
        match decl {
            None => self.stmt(attrs, kind, span, child_depth),
            Some(decl) => {
                let inner = self.stmt(attrs, kind, span, child_depth);
                let d = inner.depth;
                let block = ast::Block {
                    stmts: vec![decl, inner.stmt],
                    span,
                };
                self.stmt(Vec::new(), StmtKind::Block(block), span, d)
            }
        }
    }

    pub fn for_stmt(
        &self,
        attrs: Vec<ast::Attribute>,
        init: Option<ast::Stmt>,
        cond: Option<PExpr>,
        step: Option<PExpr>,
        body: PStmt,
        span: Span,
    ) -> PStmt {
        let d = body.depth;
        self.stmt(
            attrs,
            StmtKind::For {
                init: init.map(Box::new),
                cond: cond.map(|c| c.expr),
                step: step.map(|s| s.expr),
                body: Box::new(body.stmt),
            },
            span,
            d,
        )
    }

    // ---- expressions ------------------------------------------------------

    /// Makes a node whose deepest child has depth `child_depth`, or an
    /// error node when it would be too deep.
    pub fn node(&self, kind: ExprKind, span: Span, child_depth: u32) -> PExpr {
        if child_depth == POISON {
            return poisoned(span);
        }
        let depth = child_depth + 1;
        if depth > MAX_NESTING as u32 {
            self.push_diag(
                crate::diag::Diagnostic::error(
                    codes::EXPR_TOO_DEEP,
                    "expression too deeply nested",
                )
                .label(
                    span,
                    format!("this expression nests more than {MAX_NESTING} levels deep"),
                )
                .note("split it into several statements with intermediate variables"),
            );
            return poisoned(span);
        }
        PExpr {
            expr: ast::Expr { kind, span },
            depth,
        }
    }

    pub fn leaf(&self, kind: ExprKind, span: Span) -> PExpr {
        PExpr {
            expr: ast::Expr { kind, span },
            depth: 1,
        }
    }

    pub fn unary(&self, op: ast::UnaryOp, e: PExpr, span: Span) -> PExpr {
        let d = e.depth;
        self.node(ExprKind::Unary(op, Box::new(e.expr)), span, d)
    }

    pub fn binary(&self, op: ast::BinaryOp, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(a.depth, b.depth);
        self.node(
            ExprKind::Binary(op, Box::new(a.expr), Box::new(b.expr)),
            span,
            d,
        )
    }

    pub fn assign(&self, op: Option<ast::BinaryOp>, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(a.depth, b.depth);
        self.node(
            ExprKind::Assign(op, Box::new(a.expr), Box::new(b.expr)),
            span,
            d,
        )
    }

    pub fn ternary(&self, c: PExpr, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(c.depth, deeper(a.depth, b.depth));
        self.node(
            ExprKind::Ternary(Box::new(c.expr), Box::new(a.expr), Box::new(b.expr)),
            span,
            d,
        )
    }

    pub fn comma(&self, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(a.depth, b.depth);
        self.node(ExprKind::Comma(Box::new(a.expr), Box::new(b.expr)), span, d)
    }

    pub fn cast(&self, ty: ast::TypeSpec, e: PExpr, span: Span) -> PExpr {
        let d = e.depth;
        self.node(ExprKind::Cast(ty, Box::new(e.expr)), span, d)
    }

    pub fn construct(&self, ty: ast::TypeSpec, args: Vec<PExpr>, span: Span) -> PExpr {
        let (args, d) = unzip(args);
        self.node(ExprKind::Construct(ty, args), span, d)
    }

    pub fn call(
        &self,
        callee: ast::Path,
        template_args: Option<Vec<ast::TemplateArg>>,
        args: Vec<PExpr>,
        span: Span,
    ) -> PExpr {
        let (args, d) = unzip(args);
        self.node(
            ExprKind::Call {
                callee,
                template_args,
                args,
            },
            span,
            d,
        )
    }

    pub fn method_call(
        &self,
        object: PExpr,
        method: ast::Ident,
        template_args: Option<Vec<ast::TemplateArg>>,
        args: Vec<PExpr>,
        span: Span,
    ) -> PExpr {
        let (args, d) = unzip(args);
        let d = deeper(d, object.depth);
        self.node(
            ExprKind::MethodCall {
                object: Box::new(object.expr),
                method,
                template_args,
                args,
            },
            span,
            d,
        )
    }

    pub fn member(&self, object: PExpr, field: ast::Ident, span: Span) -> PExpr {
        let d = object.depth;
        self.node(ExprKind::Member(Box::new(object.expr), field), span, d)
    }

    pub fn index(&self, object: PExpr, index: PExpr, span: Span) -> PExpr {
        let d = deeper(object.depth, index.depth);
        self.node(
            ExprKind::Index(Box::new(object.expr), Box::new(index.expr)),
            span,
            d,
        )
    }

    pub fn init_list(&self, items: Vec<(ast::Initializer, u32)>, span: Span) -> PExpr {
        let d = items.iter().map(|i| i.1).max().unwrap_or(0);
        let items = items.into_iter().map(|i| i.0).collect();
        self.node(ExprKind::InitList(items), span, d)
    }

    pub fn sizeof_expr(&self, e: PExpr, span: Span) -> PExpr {
        let d = e.depth;
        self.node(ExprKind::SizeOfExpr(Box::new(e.expr)), span, d)
    }

    // ---- literals ---------------------------------------------------------

    /// An integer literal: decimal, `0x` hex or `0` octal, with `u`/`l`/`ll`
    /// suffixes in any case and order.
    pub fn int_lit(&self, text: Symbol, span: Span) -> PExpr {
        let s = text.as_str();
        let digits_end = s.trim_end_matches(['u', 'U', 'l', 'L']).len();
        let (digits, suffix) = s.split_at(digits_end);
        let has_u = suffix.contains(['u', 'U']);
        let has_l = suffix.contains(['l', 'L']);
        let suffix = match (has_u, has_l) {
            (false, false) => ast::IntSuffix::None,
            (true, false) => ast::IntSuffix::U,
            (false, true) => ast::IntSuffix::L,
            (true, true) => ast::IntSuffix::UL,
        };
        let (radix, body) = if let Some(h) = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            (16, h)
        } else if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        let value = match u64::from_str_radix(body, radix) {
            Ok(v) => v,
            Err(e) => {
                let too_large = matches!(e.kind(), std::num::IntErrorKind::PosOverflow);
                if too_large {
                    self.error(
                        codes::BAD_LITERAL,
                        span,
                        "integer literal is too large",
                        "does not fit in 64 bits",
                    );
                } else {
                    self.error(
                        codes::BAD_LITERAL,
                        span,
                        "invalid digit in integer literal",
                        if radix == 8 {
                            "a literal starting with `0` is octal"
                        } else {
                            "invalid digit"
                        },
                    );
                }
                0
            }
        };
        self.leaf(ExprKind::Literal(ast::Literal::Int { value, suffix }), span)
    }

    /// A floating-point literal: the digits as written, and the suffix.
    pub fn float_lit(&self, text: Symbol, span: Span) -> PExpr {
        let s = text.as_str();
        let (body, suffix) = match s.as_bytes().last() {
            Some(b'f' | b'F') => (&s[..s.len() - 1], ast::FloatSuffix::F),
            Some(b'h' | b'H') => (&s[..s.len() - 1], ast::FloatSuffix::H),
            Some(b'l' | b'L') => (&s[..s.len() - 1], ast::FloatSuffix::L),
            _ => (s, ast::FloatSuffix::None),
        };
        let text = if body.len() == s.len() {
            text
        } else {
            Symbol::intern(body)
        };
        self.leaf(
            ExprKind::Literal(ast::Literal::Float { text, suffix }),
            span,
        )
    }

    /// Adjacent string literals, concatenated, escapes processed.
    pub fn string_lit(&self, parts: Vec<(Loc, Symbol, Loc)>, span: Span) -> PExpr {
        let mut out = String::new();
        for (l, s, r) in parts {
            let t = s.as_str();
            let inner = t
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(t);
            self.unescape(inner, sp(l, r), &mut out);
        }
        self.leaf(
            ExprKind::Literal(ast::Literal::String(Symbol::intern(&out))),
            span,
        )
    }

    /// `'a'`: an integer with the character's value.
    pub fn char_lit(&self, text: Symbol, span: Span) -> PExpr {
        let t = text.as_str();
        let inner = t
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .unwrap_or(t);
        let mut s = String::new();
        self.unescape(inner, span, &mut s);
        let mut chars = s.chars();
        let value = match (chars.next(), chars.next()) {
            (Some(c), None) => c as u64,
            _ => {
                self.error(
                    codes::BAD_LITERAL,
                    span,
                    "a character literal must hold exactly one character",
                    "here",
                );
                0
            }
        };
        self.leaf(
            ExprKind::Literal(ast::Literal::Int {
                value,
                suffix: ast::IntSuffix::None,
            }),
            span,
        )
    }

    fn unescape(&self, s: &str, span: Span, out: &mut String) {
        let mut it = s.chars();
        while let Some(c) = it.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some('a') => out.push('\x07'),
                Some('b') => out.push('\x08'),
                Some('f') => out.push('\x0C'),
                Some('v') => out.push('\x0B'),
                Some(c @ ('\\' | '"' | '\'' | '?')) => out.push(c),
                Some(c) => {
                    self.warn(
                        codes::UNKNOWN_ESCAPE,
                        span,
                        &format!("unknown escape sequence `\\{c}`"),
                        "in this literal",
                    );
                    out.push(c);
                }
                None => out.push('\\'),
            }
        }
    }

    // ---- statements -------------------------------------------------------

    /// Makes a statement whose deepest nested statement has depth
    /// `child_depth`, or an error statement when it would be too deep.
    pub fn stmt(
        &self,
        attrs: Vec<ast::Attribute>,
        kind: StmtKind,
        span: Span,
        child_depth: u32,
    ) -> PStmt {
        if child_depth == POISON {
            return PStmt {
                stmt: ast::Stmt {
                    attrs: Vec::new(),
                    kind: StmtKind::Error,
                    span,
                },
                depth: POISON,
            };
        }
        let depth = child_depth + 1;
        if depth > MAX_NESTING as u32 {
            self.push_diag(
                crate::diag::Diagnostic::error(
                    codes::EXPR_TOO_DEEP,
                    "statements nested too deeply",
                )
                .label(
                    span,
                    format!("this statement nests more than {MAX_NESTING} levels deep"),
                ),
            );
            return PStmt {
                stmt: ast::Stmt {
                    attrs: Vec::new(),
                    kind: StmtKind::Error,
                    span,
                },
                depth: POISON,
            };
        }
        PStmt {
            stmt: ast::Stmt { attrs, kind, span },
            depth,
        }
    }

    pub fn block(&self, stmts: (Vec<ast::Stmt>, u32), span: Span) -> (ast::Block, u32) {
        self.pop_scope();
        (
            ast::Block {
                stmts: stmts.0,
                span,
            },
            stmts.1,
        )
    }
}

fn poisoned(span: Span) -> PExpr {
    PExpr {
        expr: ast::Expr {
            kind: ExprKind::Error,
            span,
        },
        depth: POISON,
    }
}

fn plain_stmt(kind: StmtKind, span: Span) -> ast::Stmt {
    ast::Stmt {
        attrs: Vec::new(),
        kind,
        span,
    }
}

fn unzip(args: Vec<PExpr>) -> (Vec<ast::Expr>, u32) {
    let mut d = 0;
    let v = args
        .into_iter()
        .map(|a| {
            d = deeper(d, a.depth);
            a.expr
        })
        .collect();
    (v, d)
}

fn is_void(t: &ast::TypeSpec) -> bool {
    match &t.kind {
        ast::TypeSpecKind::Named { path, args: None } => {
            path.is_single() && path.last().name.as_str() == "void"
        }
        _ => false,
    }
}
