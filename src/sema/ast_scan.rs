//! Scans of function bodies that sema needs before lowering them.

use crate::front::ast::{self, ExprKind, Initializer, StmtKind, UnaryOp};
use crate::intern::Symbol;

/// Whether `body` may change the variable `name` (a parameter): it is
/// assigned, incremented, passed to a call (which may take it `out`), has a
/// method called on it, or is shadowed by a local of the same name. Errs on
/// the side of "yes".
pub fn may_write(body: &ast::Block, name: Symbol) -> bool {
    body.stmts.iter().any(|s| stmt_writes(s, name))
}

fn stmt_writes(s: &ast::Stmt, name: Symbol) -> bool {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Case(e) => expr_writes(e, name),
        StmtKind::Return(e) => e.as_ref().is_some_and(|e| expr_writes(e, name)),
        StmtKind::Decl(vd) => vd.declarators.iter().any(|d| {
            d.name.name == name
                || d.init.as_ref().is_some_and(|i| init_writes(i, name))
                || d.array.iter().flatten().any(|e| expr_writes(e, name))
        }),
        StmtKind::Block(b) => may_write(b, name),
        StmtKind::If { cond, then, else_ } => {
            expr_writes(cond, name)
                || stmt_writes(then, name)
                || else_.as_ref().is_some_and(|e| stmt_writes(e, name))
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            init.as_ref().is_some_and(|s| stmt_writes(s, name))
                || cond.as_ref().is_some_and(|e| expr_writes(e, name))
                || step.as_ref().is_some_and(|e| expr_writes(e, name))
                || stmt_writes(body, name)
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            expr_writes(cond, name) || stmt_writes(body, name)
        }
        StmtKind::Switch { selector, body } => expr_writes(selector, name) || may_write(body, name),
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

fn init_writes(i: &Initializer, name: Symbol) -> bool {
    match i {
        Initializer::Expr(e) => expr_writes(e, name),
        Initializer::List(items, _) => items.iter().any(|i| init_writes(i, name)),
    }
}

/// Whether `e` names `name` at its root (`name`, `name.x`, `name[i]`).
fn rooted_at(e: &ast::Expr, name: Symbol) -> bool {
    match &e.kind {
        ExprKind::Name(p) => p.is_single() && p.last().name == name,
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => rooted_at(b, name),
        _ => false,
    }
}

fn expr_writes(e: &ast::Expr, name: Symbol) -> bool {
    match &e.kind {
        ExprKind::Assign(_, l, r) => {
            rooted_at(l, name) || expr_writes(l, name) || expr_writes(r, name)
        }
        ExprKind::Unary(op, x) => {
            (matches!(
                op,
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
            ) && rooted_at(x, name))
                || expr_writes(x, name)
        }
        ExprKind::Call { args, .. } => args
            .iter()
            .any(|a| rooted_at(a, name) || expr_writes(a, name)),
        ExprKind::MethodCall { object, args, .. } => {
            rooted_at(object, name)
                || expr_writes(object, name)
                || args
                    .iter()
                    .any(|a| rooted_at(a, name) || expr_writes(a, name))
        }
        ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) | ExprKind::Index(a, b) => {
            expr_writes(a, name) || expr_writes(b, name)
        }
        ExprKind::Ternary(a, b, c) => {
            expr_writes(a, name) || expr_writes(b, name) || expr_writes(c, name)
        }
        ExprKind::Cast(_, x) | ExprKind::Member(x, _) | ExprKind::SizeOfExpr(x) => {
            expr_writes(x, name)
        }
        ExprKind::Construct(_, args) => args.iter().any(|a| expr_writes(a, name)),
        ExprKind::InitList(items) => items.iter().any(|i| init_writes(i, name)),
        ExprKind::Literal(_)
        | ExprKind::Name(_)
        | ExprKind::This
        | ExprKind::SizeOfType(_)
        | ExprKind::Error => false,
    }
}
