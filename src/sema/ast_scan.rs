//! Scans of function bodies that sema needs before lowering them.

use crate::front::ast::{self, ExprKind, Initializer, StmtKind, UnaryOp};
use crate::intern::Symbol;

/// What a write scan needs to know about calls.
pub struct WriteScan<'f> {
    pub name: Symbol,
    /// The variable is a `uint` scalar: it may receive the `status` of a
    /// texture read (`t.Sample(s, uv, offset, status)`).
    pub uint_scalar: bool,
    /// Whether a function or method of this name may take its argument at
    /// this index `out` or `inout`.
    pub out_at: &'f dyn Fn(Symbol, usize) -> bool,
}

impl WriteScan<'_> {
    /// Whether `body` may change the variable: it is assigned, incremented,
    /// passed where an `out`/`inout` parameter may take it, has a method
    /// called on it, or is shadowed by a local of the same name. Errs on
    /// the side of "yes".
    pub fn may_write(&self, body: &ast::Block) -> bool {
        body.stmts.iter().any(|s| self.stmt(s))
    }

    fn stmt(&self, s: &ast::Stmt) -> bool {
        let name = self.name;
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => self.expr(e),
            StmtKind::Return(e) => e.as_ref().is_some_and(|e| self.expr(e)),
            StmtKind::Decl(vd) => vd.declarators.iter().any(|d| {
                d.name.name == name
                    || d.init.as_ref().is_some_and(|i| self.init(i))
                    || d.array.iter().flatten().any(|e| self.expr(e))
            }),
            StmtKind::Block(b) => self.may_write(b),
            StmtKind::If { cond, then, else_ } => {
                self.expr(cond) || self.stmt(then) || else_.as_ref().is_some_and(|e| self.stmt(e))
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                init.as_ref().is_some_and(|s| self.stmt(s))
                    || cond.as_ref().is_some_and(|e| self.expr(e))
                    || step.as_ref().is_some_and(|e| self.expr(e))
                    || self.stmt(body)
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond) || self.stmt(body)
            }
            StmtKind::Switch { selector, body } => self.expr(selector) || self.may_write(body),
            StmtKind::Typedef(_)
            | StmtKind::Struct(_)
            | StmtKind::Enum(_)
            | StmtKind::Using(_)
            | StmtKind::Default
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Discard
            | StmtKind::Empty
            | StmtKind::Error => false,
        }
    }

    fn init(&self, i: &Initializer) -> bool {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(items, _) => items.iter().any(|i| self.init(i)),
        }
    }

    /// Whether `e` names the variable at its root (`x`, `x.y`, `x[i]`).
    fn rooted(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(p) => p.is_single() && p.last().name == self.name,
            ExprKind::Member(b, _) | ExprKind::Index(b, _) => self.rooted(b),
            _ => false,
        }
    }

    fn expr(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Assign(_, l, r) => self.rooted(l) || self.expr(l) || self.expr(r),
            ExprKind::Unary(op, x) => {
                (matches!(
                    op,
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                ) && self.rooted(x))
                    || self.expr(x)
            }
            ExprKind::Call { callee, args, .. } => args.iter().enumerate().any(|(i, a)| {
                (self.rooted(a) && (self.out_at)(callee.last().name, i)) || self.expr(a)
            }),
            ExprKind::MethodCall {
                object,
                method,
                args,
                ..
            } => {
                let m = method.name.as_str();
                // Resource methods that write an argument: sizes, the
                // original value of an atomic, a read's status (a uint).
                let resource_out = m == "GetDimensions" || m.starts_with("Interlocked");
                self.rooted(object)
                    || self.expr(object)
                    || args.iter().enumerate().any(|(i, a)| {
                        (self.rooted(a)
                            && (resource_out || self.uint_scalar || (self.out_at)(method.name, i)))
                            || self.expr(a)
                    })
            }
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) | ExprKind::Index(a, b) => {
                self.expr(a) || self.expr(b)
            }
            ExprKind::Ternary(a, b, c) => self.expr(a) || self.expr(b) || self.expr(c),
            ExprKind::Cast(_, x) | ExprKind::Member(x, _) | ExprKind::SizeOfExpr(x) => self.expr(x),
            ExprKind::Construct(_, args) => args.iter().any(|a| self.expr(a)),
            ExprKind::InitList(items) => items.iter().any(|i| self.init(i)),
            ExprKind::Literal(_)
            | ExprKind::Name(_)
            | ExprKind::This
            | ExprKind::SizeOfType(_)
            | ExprKind::Error => false,
        }
    }
}

/// Whether `body` may change the variable `name` (a parameter), counting
/// every call taking it as a possible `out` argument. Errs on the side of
/// "yes".
pub fn may_write(body: &ast::Block, name: Symbol) -> bool {
    WriteScan {
        name,
        uint_scalar: true,
        out_at: &|_, _| true,
    }
    .may_write(body)
}
