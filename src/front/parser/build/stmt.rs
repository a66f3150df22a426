//! Statements (with their depth), including the desugaring of conditions
//! that declare a variable.

use super::*;
use crate::diag::codes;
use crate::front::ast::{self, ExprKind, StmtKind};
use crate::front::parser::MAX_NESTING;
use crate::span::Span;

impl ParseCtx<'_> {
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
        vec![plain_stmt(StmtKind::Struct(Box::new(s)), span)]
    }

    /// A condition's expression, and the declaration to run before it.
    fn split_cond(&self, c: Cond) -> (Option<ast::Stmt>, ast::Expr) {
        match c {
            Cond::Expr(e) => (None, e.into_expr()),
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
                (Some(plain_stmt(StmtKind::Decl(*d), span)), test)
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
            then: then.stmt,
            else_: else_.map(|e| e.stmt),
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
                    body: body.stmt,
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
            stmts: vec![decl, exit, *body.stmt],
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
                    stmts: vec![decl, *inner.stmt],
                    span,
                };
                self.stmt(Vec::new(), StmtKind::Block(block), span, d)
            }
        }
    }

    pub fn for_stmt(
        &self,
        attrs: Vec<ast::Attribute>,
        init: Option<Box<ast::Stmt>>,
        cond: Option<PExpr>,
        step: Option<PExpr>,
        body: PStmt,
        span: Span,
    ) -> PStmt {
        let d = body.depth;
        self.stmt(
            attrs,
            StmtKind::For {
                init,
                cond: cond.map(|c| c.expr),
                step: step.map(|s| s.expr),
                body: body.stmt,
            },
            span,
            d,
        )
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
                stmt: Box::new(plain_stmt(StmtKind::Error, span)),
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
                stmt: Box::new(plain_stmt(StmtKind::Error, span)),
                depth: POISON,
            };
        }
        PStmt {
            stmt: Box::new(ast::Stmt { attrs, kind, span }),
            depth,
        }
    }

    /// A simple statement gets its attributes, and its span grows to cover
    /// them.
    pub fn with_attrs(&self, attrs: Vec<ast::Attribute>, mut s: PStmt, span: Span) -> PStmt {
        if !attrs.is_empty() {
            s.stmt.attrs = attrs;
        }
        s.stmt.span = span;
        s
    }

    pub fn block(&self, stmts: (Vec<ast::Stmt>, u32), span: Span) -> (ast::Block, u32) {
        let (mut list, depth) = stmts;
        // Grown by doubling: trimmed, a large shader's AST is smaller.
        list.shrink_to_fit();
        (
            ast::Block {
                stmts: list,
                span,
            },
            depth,
        )
    }
}
