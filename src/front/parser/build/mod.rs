//! AST construction for the grammar's actions.
//!
//! Actions stay one-liners; the shaping (splitting `struct S {…} s;` into a
//! struct and a variable, `unsigned int` → `uint`, literal values) and the
//! depth bookkeeping live here. Every expression and statement carries its
//! depth while it is built ([`PExpr`], [`PStmt`]); a node that would go past
//! [`MAX_NESTING`] becomes an error node with one diagnostic, so the AST's
//! depth is bounded and recursive walks (and drops) of it cannot overflow.

mod decl;
mod expr;
mod stmt;

use super::ctx::ParseCtx;
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

/// An expression under construction, with the depth of its tree. Boxed:
/// every parser stack slot is as large as the largest symbol, and an
/// expression passes through a dozen unit reductions on its way up; a parent
/// node keeps the box.
pub struct PExpr {
    pub expr: Box<ast::Expr>,
    pub depth: u32,
}

impl PExpr {
    pub fn into_expr(self) -> ast::Expr {
        *self.expr
    }
}

/// A run of binary operators at one level of the grammar (`a + b * c < d`),
/// each operand with the span it was written with (parentheses included);
/// [`ParseCtx::binary_seq`] builds the tree by precedence. One grammar level
/// instead of ten keeps the chain of unit reductions short.
pub enum BinSeq {
    One(PExpr, Span),
    /// `a op b`, the most common run, without a vector.
    Two(PExpr, Span, ast::BinaryOp, PExpr, Span),
    Many(Vec<(ast::BinaryOp, PExpr, Span)>),
}

/// A statement under construction, with its nesting depth (statements only;
/// expressions are bounded separately).
pub struct PStmt {
    /// Boxed: statements nest in boxes anyway, and the parser's stack holds
    /// values of its largest symbol's size.
    pub stmt: Box<ast::Stmt>,
    pub depth: u32,
}

/// Modifiers and type of a declaration.
pub struct DeclSpecs {
    pub modifiers: ast::Modifiers,
    /// Boxed to keep this small on the parser's stack.
    pub ty: Box<ast::TypeSpec>,
}

/// What may follow a declarator's name and array dimensions after `:`.
#[derive(Default)]
pub struct PostAnnots {
    pub annotations: ast::Annotations,
    /// Boxed to keep this small on the parser's stack.
    pub bit_width: Option<Box<ast::Expr>>,
}

/// What follows a function's parameter list.
pub struct FnTail {
    pub is_const: bool,
    pub annotations: Option<Box<PostAnnots>>,
}

/// A declaration that may appear at global scope or in a struct.
pub enum Decl {
    Vars(DeclSpecs, Vec<ast::Declarator>),
    /// Boxed: the parser's stack holds values of its largest symbol's size.
    Function(Box<FnParts>),
    Struct(Box<ast::StructDecl>),
    /// `struct S;`
    Forward(ast::Ident),
    /// `static const bool is_same_v<T, T> = true;`: a specialisation of
    /// a variable template.
    VarSpec(
        DeclSpecs,
        ast::Ident,
        Vec<ast::TemplateArg>,
        Box<ast::Initializer>,
    ),
}

/// The static member a variable template's struct template holds:
/// `template<class T> static const bool v = …;` is `template<class T>
/// struct v { static const bool value = …; };`, and `v<int>` is
/// `v<int>::value`.
pub const VAR_TEMPLATE_MEMBER: &str = "value";

/// A function declaration's parts, before attributes and template.
pub struct FnParts {
    pub specs: DeclSpecs,
    pub name: ast::Path,
    /// `<half>` in `template<> float f<half>(half x)`.
    pub specialization: Option<Vec<ast::TemplateArg>>,
    pub params: Vec<ast::Param>,
    pub tail: FnTail,
    pub body: Option<ast::Block>,
}

/// A `typedef` with one or more names; a named struct defined in it is
/// declared separately.
pub struct TypedefOut {
    pub structs: Vec<ast::StructDecl>,
    pub typedefs: Vec<ast::Typedef>,
    /// `typedef struct S T;` at global scope declares `S` too, as C
    /// does, when it is not declared yet (a forward declaration).
    pub forward: Option<(ast::Ident, Span)>,
}

/// A cbuffer member: a variable, or a struct or function defined inside
/// the cbuffer.
pub enum CbMember {
    Var(ast::VarDecl),
    Struct(ast::StructDecl),
    Function(Box<ast::Function>),
    None,
}

/// The condition of `if`, `while` or `switch`: an expression, or a
/// declaration whose value is tested (`if (int d = f())`).
pub enum Cond {
    Expr(PExpr),
    Decl(Box<ast::VarDecl>),
}

/// The spelling of a keyword token used as an identifier (`float sample;`).
pub fn keyword_text(kind: Token) -> &'static str {
    super::error::token_text(kind)
}

impl ParseCtx<'_> {
    // ---- identifiers and paths -------------------------------------------

    /// An unnamed template parameter (`template <class, class>`): a name
    /// no source text can spell.
    pub fn unnamed_template_param(&self, l: Loc, r: Loc) -> ast::Ident {
        self.ident(Symbol::intern(&format!("<unnamed {}>", l.0)), l, r)
    }

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

    /// The start of a name qualified by a template instance (`S<T>::`):
    /// a path with no segments yet; the grammar pushes the names after it.
    pub fn type_qualifier(&self, ty: ast::TypeSpec) -> ast::Path {
        ast::Path {
            global: false,
            span: ty.span,
            qualifier: Some(ast::TypeQualifier(Box::new(ty))),
            segments: smallvec::SmallVec::new(),
        }
    }

    pub fn global_path(&self, id: ast::Ident, l: Loc) -> ast::Path {
        ast::Path {
            global: true,
            qualifier: None,
            segments: smallvec::smallvec![id],
            span: sp(l, id.span.hi),
        }
    }
}

fn poisoned(span: Span) -> PExpr {
    PExpr {
        expr: Box::new(ast::Expr {
            kind: ExprKind::Error,
            span,
        }),
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

fn is_void(t: &ast::TypeSpec) -> bool {
    match &t.kind {
        ast::TypeSpecKind::Named { path, args: None } => {
            path.is_single() && path.last().name.as_str() == "void"
        }
        _ => false,
    }
}
