//! Resource locals across control flow. A local of resource type (or a
//! struct holding resources) is an alias that sema resolves while it
//! lowers; where paths chosen at run time meet (after an `if`, a `switch`,
//! around a loop) and left it naming different resources, it names none
//! known at compile time, and using it is an error (Vulkan has no
//! pointers to choose resources with). `[unroll]` loops with constant
//! counters that rebind such locals are unrolled here, so that each copy
//! sees its counter as a constant.

use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::body::{FnCtx, LocalSym};
use crate::sema::decl::ast_scan::Writes;
use crate::sema::types::consteval::{ConstVal, Konst};
use crate::sema::types::{self, Ty};
use crate::span::Span;

/// The resource locals in scope: depth of their scope, name, value.
pub type ResState = Vec<(usize, Symbol, Val)>;

/// Whether two values of a resource local name the same resources.
fn same(a: &Val, b: &Val) -> bool {
    match (&a.kind, &b.kind) {
        (ValKind::Error, _) | (_, ValKind::Error) => true,
        (ValKind::Void, ValKind::Void) => true,
        (ValKind::Res(x), ValKind::Res(y)) => x == y,
        (ValKind::Runtime(_), ValKind::Runtime(_)) => true,
        (ValKind::Expr(x), ValKind::Expr(y)) => x == y,
        (ValKind::Place(Place::Ptr { ptr: x, .. }), ValKind::Place(Place::Ptr { ptr: y, .. })) => {
            x == y
        }
        (ValKind::Agg(xs), ValKind::Agg(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// The value after paths holding `a` and `b` meet at `span`.
fn merge(a: &Val, b: &Val, span: Span) -> Val {
    if same(a, b) {
        return a.clone();
    }
    match (&a.kind, &b.kind) {
        // A resource left unassigned on one path is the other path's: a
        // use of it on the first would read nothing (a member set on one
        // branch only, as builder methods returning copies leave it).
        (ValKind::Void, ValKind::Res(_)) => b.clone(),
        (ValKind::Res(_), ValKind::Void) => a.clone(),
        (ValKind::Agg(xs), ValKind::Agg(ys)) if xs.len() == ys.len() => Val {
            kind: ValKind::Agg(xs.iter().zip(ys).map(|(x, y)| merge(x, y, span)).collect()),
            ..a.clone()
        },
        _ => Val {
            kind: ValKind::Runtime(span),
            ..a.clone()
        },
    }
}

/// `v` with every resource in it unknown (a loop may have changed it).
fn unknown(v: &Val, span: Span) -> Val {
    match &v.kind {
        ValKind::Agg(xs) => Val {
            kind: ValKind::Agg(xs.iter().map(|x| unknown(x, span)).collect()),
            ..v.clone()
        },
        // Data members of structs holding resources are variables.
        ValKind::Place(_) | ValKind::Expr(_) | ValKind::Error => v.clone(),
        _ => Val {
            kind: ValKind::Runtime(span),
            ..v.clone()
        },
    }
}

/// Whether `s` holds a `break` or `continue`.
fn has_jump(s: &ast::Stmt) -> bool {
    use ast::StmtKind as S;
    match &s.kind {
        S::Break | S::Continue => true,
        S::Block(b) => b.stmts.iter().any(has_jump),
        S::If { then, else_, .. } => has_jump(then) || else_.as_deref().is_some_and(has_jump),
        S::For { body, .. } | S::While { body, .. } | S::DoWhile { body, .. } => has_jump(body),
        S::Switch { body, .. } => b_has_jump(body),
        _ => false,
    }
}

fn b_has_jump(b: &ast::Block) -> bool {
    b.stmts.iter().any(has_jump)
}

/// The most copies an `[unroll]` loop is unrolled into here.
const MAX_COPIES: usize = 256;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The resource locals in scope and what they name now.
    pub fn res_state(&self) -> ResState {
        let types = &self.s.types;
        self.fb.locals.vars_where(|v| match v.kind {
            ValKind::Agg(_) | ValKind::Res(_) | ValKind::Runtime(_) => true,
            _ => types.is_resource(v.ty),
        })
    }

    /// Puts back what the resource locals of `st` named.
    pub fn res_restore(&mut self, st: &ResState) {
        for (d, n, v) in st {
            self.fb.locals.set_val_at(*d, *n, v.clone());
        }
    }

    /// After paths ending in `ends` (the states of those that reach the
    /// join) meet at `span`: what every path agrees on, the rest unknown.
    pub fn res_join(&mut self, pre: &ResState, ends: &[ResState], span: Span) {
        let Some((first, rest)) = ends.split_first() else {
            self.res_restore(pre);
            return;
        };
        for (d, n, _) in pre {
            let find = |st: &ResState| {
                st.iter()
                    .find(|(d2, n2, _)| d2 == d && n2 == n)
                    .map(|x| x.2.clone())
            };
            let Some(mut v) = find(first) else {
                continue;
            };
            for st in rest {
                if let Some(w) = find(st) {
                    v = merge(&v, &w, span);
                }
            }
            self.fb.locals.set_val_at(*d, *n, v);
        }
    }

    /// The resource locals in scope that `stmts` and `exprs` may rebind.
    pub fn res_written(&self, stmts: &[&ast::Stmt], exprs: &[&ast::Expr]) -> ResState {
        let st = self.res_state();
        if st.is_empty() {
            return st;
        }
        let w = Writes::of_parts(stmts, exprs, &|callee, i| {
            self.s.decls.may_take_out(callee, i)
        });
        st.into_iter()
            .filter(|(_, n, _)| w.may_write(*n, false))
            .collect()
    }

    /// Makes the resource locals of `st` unknown (rebound in a loop or a
    /// `switch` whose paths are chosen at run time).
    pub fn res_forget(&mut self, st: &ResState, span: Span) {
        for (d, n, _) in st {
            let cur = self.fb.locals.vars_where(|_| true);
            if let Some((_, _, v)) = cur.iter().find(|(d2, n2, _)| d2 == d && n2 == n) {
                let u = unknown(v, span);
                self.fb.locals.set_val_at(*d, *n, u);
            }
        }
    }

    /// The values of the counter of `[unroll] for (T i = a; i < b; i++)`
    /// (other comparisons, `--`, `+= k`, `-= k` too) when all are known at
    /// compile time and the body neither changes `i` nor jumps: the name,
    /// its scalar type, the values (one per copy) and the value after.
    pub fn counted_loop(
        &mut self,
        init: Option<&'a ast::Stmt>,
        cond: Option<&'a ast::Expr>,
        step: Option<&'a ast::Expr>,
        body: &'a ast::Stmt,
    ) -> Option<(Symbol, types::Sc, Vec<i64>, i64)> {
        let ast::StmtKind::Decl(vd) = &init?.kind else {
            return None;
        };
        let [d] = vd.declarators.as_slice() else {
            return None;
        };
        let Some(ast::Initializer::Expr(e0)) = &d.init else {
            return None;
        };
        let name = d.name.name;
        let env = crate::sema::body::cx_env!(self);
        let start = self.s.const_eval(e0, &env).ok()?;
        let ast::ExprKind::Binary(op, l, r) = &cond?.kind else {
            return None;
        };
        let names = |e: &ast::Expr| matches!(&e.kind, ast::ExprKind::Name(p) if p.is_single() && p.last().name == name);
        if !names(l) {
            return None;
        }
        let end = self.s.const_eval(r, &env).ok()?;
        let delta = match &step?.kind {
            ast::ExprKind::Unary(ast::UnaryOp::PreInc | ast::UnaryOp::PostInc, x) if names(x) => 1,
            ast::ExprKind::Unary(ast::UnaryOp::PreDec | ast::UnaryOp::PostDec, x) if names(x) => -1,
            ast::ExprKind::Assign(Some(bop), x, k) if names(x) => {
                let k = self.s.const_eval(k, &env).ok()?;
                let ConstVal::Int(k) = k.v else {
                    return None;
                };
                match bop {
                    ast::BinaryOp::Add => k,
                    ast::BinaryOp::Sub => -k,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let (ConstVal::Int(mut i), ConstVal::Int(end)) = (start.v, end.v) else {
            return None;
        };
        let ty = match self.fb.locals.lookup(name) {
            Some(LocalSym::Var(v)) => v.val.ty,
            _ => return None,
        };
        let sc = match self.s.types.get(ty) {
            Ty::Scalar(sc @ (types::Sc::I32 | types::Sc::U32)) => *sc,
            _ => return None,
        };
        if has_jump(body) || Writes::of_parts(&[body], &[], &|_, _| true).may_write(name, true) {
            return None;
        }
        let mut vals = Vec::new();
        let holds = |i: i64| match op {
            ast::BinaryOp::Lt => i < end,
            ast::BinaryOp::Le => i <= end,
            ast::BinaryOp::Gt => i > end,
            ast::BinaryOp::Ge => i >= end,
            ast::BinaryOp::Ne => i != end,
            _ => false,
        };
        while holds(i) {
            if vals.len() == MAX_COPIES || delta == 0 {
                return None;
            }
            vals.push(i);
            i += delta;
        }
        Some((name, sc, vals, i))
    }

    /// Lowers one copy of an unrolled loop's body per counter value, the
    /// counter a constant in each; the counter variable is left holding
    /// the value that ended the loop.
    pub fn unrolled(
        &mut self,
        (name, sc, vals, fin): (Symbol, types::Sc, Vec<i64>, i64),
        body: &'a ast::Stmt,
    ) {
        for v in vals {
            if self.terminated() {
                break;
            }
            self.fb.locals.push();
            let k = Konst {
                sc,
                v: ConstVal::Int(v),
            };
            self.fb.locals.declare(name, LocalSym::Value(k));
            self.fb.unroll_depth += 1;
            self.lower_stmt(body);
            self.fb.unroll_depth -= 1;
            self.fb.locals.pop();
        }
        if self.terminated() {
            return;
        }
        if let Some(LocalSym::Var(lv)) = self.fb.locals.lookup(name).cloned()
            && let ValKind::Place(p) = &lv.val.kind
        {
            let h = self.lit(match sc {
                types::Sc::U32 => ir::Literal::U32(fin as u32),
                _ => ir::Literal::I32(fin as i32),
            });
            self.write_place(p, lv.val.ty, h);
        }
    }
}
