//! Assignments (with compound operators, resource rebinding and the
//! writability rules) and the conditional operator `?:` (short-circuit in
//! HLSL 2021) and `select`.

use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, BinaryOp};
use crate::ir;
use crate::sema::body::expr::is_pure;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::body::{FnCtx, LocalSym};
use crate::sema::types::scope::Sym;
use crate::sema::types::{self, Sc, Shape, Ty, TyId};
use crate::sema::{GlobalKind, ReadOnly};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    // --- assignment -----------------------------------------------------

    /// Reports and returns false when `v` cannot be assigned.
    pub fn check_writable(&mut self, v: &Val, span: Span) -> bool {
        if v.is_error() {
            return false;
        }
        if v.as_place().is_none() && !matches!(v.read_only, Some(ReadOnly::Const(_))) {
            self.s.error(
                codes::NOT_ASSIGNABLE,
                "cannot assign to this expression",
                span,
                "not an lvalue",
            );
            return false;
        }
        let Some(ro) = v.read_only else {
            return true;
        };
        let (msg, label2): (String, Option<(Span, &str)>) = match ro {
            ReadOnly::Const(s) => (
                "cannot assign to a `const` variable".into(),
                Some((s, "declared `const` here")),
            ),
            ReadOnly::Uniform(s) => (
                "cannot assign to a uniform global variable".into(),
                Some((
                    s,
                    "non-static globals are uniform (read-only) shader inputs; declare it `static` to make a private variable",
                )),
            ),
            ReadOnly::CBuffer(s) => (
                "cannot assign to a constant buffer member".into(),
                Some((s, "declared in a constant buffer here")),
            ),
            ReadOnly::Resource(s) => (
                "cannot write to a read-only resource".into(),
                Some((s, "this resource is read-only")),
            ),
            ReadOnly::Rvalue => ("cannot assign to this expression".into(), None),
            ReadOnly::RepeatedComponent => (
                "cannot assign to a selection that names a component twice".into(),
                None,
            ),
            ReadOnly::ConstThis => ("cannot modify a member in a `const` method".into(), None),
        };
        let mut d = Diagnostic::error(
            if matches!(ro, ReadOnly::Rvalue | ReadOnly::RepeatedComponent) {
                codes::NOT_ASSIGNABLE
            } else {
                codes::ASSIGN_READ_ONLY
            },
            msg,
        )
        .label(span, "assigned here");
        if let Some((s, l)) = label2 {
            d = d.label(s, l);
        }
        self.s.push(d);
        false
    }

    pub(in crate::sema) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        l: &'a ast::Expr,
        r: &'a ast::Expr,
        span: Span,
    ) -> Val {
        if let Some(v) = self.mesh_assign(op, l, r, span) {
            return v;
        }
        // Members of a local struct holding resources rebind.
        if op.is_none()
            && let Some(v) = self.agg_assign(l, r, span)
        {
            return v;
        }
        // A local resource variable rebinds to another resource.
        if op.is_none()
            && let ast::ExprKind::Name(path) = &l.kind
            && path.is_single()
            && let Some(LocalSym::Var(lv)) = self.fb.locals.lookup(path.last().name).cloned()
        {
            if matches!(lv.val.kind, ValKind::Agg(_)) {
                let v = self.expr(r);
                if v.is_error() {
                    return v;
                }
                let nv = self.agg_copy(&lv.val, v, r.span);
                let mut nl = lv.clone();
                nl.val = nv;
                self.fb.locals.rebind(path.last().name, LocalSym::Var(nl));
                return Val::void();
            }
            if matches!(self.s.types.get(lv.val.ty), Ty::Node(..)) {
                let v = self.expr(r);
                let v = self.node_alias(v, lv.val.ty, r.span);
                if v.is_error() {
                    return v;
                }
                let mut nl = lv.clone();
                nl.val = v;
                self.fb.locals.rebind(path.last().name, LocalSym::Var(nl));
                return Val::void();
            }
            if self.s.types.is_resource(lv.val.ty) {
                let v = self.expr(r);
                if v.is_error() {
                    return v;
                }
                let v = if v.ty != lv.val.ty {
                    self.convert(v, lv.val.ty, r.span)
                } else {
                    v
                };
                if v.is_error() {
                    return v;
                }
                let mut nl = lv.clone();
                nl.val = self.res_alias(v.clone());
                self.fb.locals.rebind(path.last().name, LocalSym::Var(nl));
                return v;
            }
        }
        if op.is_none()
            && let Some(v) = self.assign_static_resource(l, r)
        {
            return v;
        }
        // A global `string` names text, not memory.
        if let ast::ExprKind::Name(path) = &l.kind
            && path.is_single()
            && self.fb.locals.lookup(path.last().name).is_none()
            && let Some(Sym::Global(g)) = self.s.scopes.lookup(self.fb.scope, path.last().name)
            && self.s.decls.globals[*g].ty == types::STRING
        {
            let text = Val {
                ty: types::STRING,
                kind: ValKind::Void,
                read_only: None,
            };
            return self.assign_to(op, text, l.span, r, span);
        }
        let lv = self.expr(l);
        self.assign_to(op, lv, l.span, r, span)
    }

    /// Assigns `r` (with `op`, for compound assignments) to the lowered
    /// target `lv`, written at `lspan`.
    pub(in crate::sema) fn assign_to(
        &mut self,
        op: Option<BinaryOp>,
        lv: Val,
        lspan: Span,
        r: &'a ast::Expr,
        span: Span,
    ) -> Val {
        if lv.ty == types::STRING {
            self.s.push(
                Diagnostic::error(codes::ASSIGN_READ_ONLY, "cannot assign to a `string` variable")
                    .label(lspan, "assigned here")
                    .note("strings are constant in SPIR-V: a `string` keeps the value it was initialized with"),
            );
            let _ = self.expr(r);
            return Val::error();
        }
        if !self.check_writable(&lv, lspan) {
            let _ = self.expr(r);
            return Val::error();
        }
        let Some(place) = lv.as_place().cloned() else {
            return Val::error();
        };
        let value = match op {
            None => self.expr_as(r, lv.ty),
            Some(bop) => {
                let rv = self.expr(r);
                let Some(old) = self.read_place(&place, lv.ty) else {
                    return Val::error();
                };
                let res = self.binary_vals(bop, Val::expr(lv.ty, old), rv, span);
                self.convert(res, lv.ty, span)
            }
        };
        let Some(h) = self.value(&value) else {
            return Val::error();
        };
        self.write_place(&place, lv.ty, h);
        // As in C++, an assignment names its left operand: `(a += b) = c` is legal.
        // Only memory that reading back cannot change is handed out that way.
        match &place {
            Place::Ptr {
                space: ir::AddressSpace::Function | ir::AddressSpace::Private,
                ..
            } => Val::place(lv.ty, place, None),
            _ => Val::expr(lv.ty, h),
        }
    }

    /// `s = g;` where `s` is a `static` resource variable: rebinds it.
    pub(in crate::sema) fn assign_static_resource(
        &mut self,
        l: &'a ast::Expr,
        r: &'a ast::Expr,
    ) -> Option<Val> {
        let ast::ExprKind::Name(path) = &l.kind else {
            return None;
        };
        if path.is_single() && self.fb.locals.lookup(path.last().name).is_some() {
            return None;
        }
        let sym = if path.is_single() {
            self.s
                .scopes
                .lookup(self.fb.scope, path.last().name)
                .cloned()
        } else {
            let s = self
                .s
                .resolve_scope_path(path, &crate::sema::body::cx_env!(self))?;
            self.s.scopes.lookup_in(s, path.last().name).cloned()
        };
        let Some(Sym::Global(g)) = sym else {
            return None;
        };
        if !matches!(self.s.decls.globals[g].kind, GlobalKind::ResAlias(_)) {
            return None;
        }
        let v = self.expr(r);
        if v.is_error() {
            return Some(v);
        }
        let ty = self.s.decls.globals[g].ty;
        if v.ty != ty {
            return Some(self.mismatch(v.ty, ty, r.span));
        }
        match self.res_path(&v) {
            Some(p) => {
                let id = self.s.res.intern_path(p);
                self.s.decls.globals[g].kind = GlobalKind::ResAlias(Some(id));
                Some(v)
            }
            None => Some(self.unsupported(
                "assigning a resource that is not known at compile time",
                r.span,
            )),
        }
    }

    // --- ?: -------------------------------------------------------------

    pub(in crate::sema) fn ternary(
        &mut self,
        c: &'a ast::Expr,
        a: &'a ast::Expr,
        b: &'a ast::Expr,
        span: Span,
    ) -> Val {
        let vc = self.expr(c);
        if vc.is_error() {
            return vc;
        }
        let vector_cond = !self.s.types.is_scalar(vc.ty);
        if vector_cond || !self.s.opts.hlsl_2021 {
            if vector_cond && self.s.opts.hlsl_2021 {
                return self.error(
                    codes::BAD_OPERANDS,
                    "the condition of `?:` must be a scalar in HLSL 2021",
                    c.span,
                    format!(
                        "this is `{}`; use `select()` for vectors",
                        self.s.ty_name(vc.ty)
                    ),
                );
            }
            let va = self.expr(a);
            let vb = self.expr(b);
            return self.select_vals(vc, va, vb, span);
        }
        let cb = self.convert(vc, types::BOOL, c.span);
        if let ValKind::Const(k) = cb.kind {
            // Constant condition: only the taken arm is evaluated, but the
            // result type is still the common type of both.
            let (taken, other) = if k.as_bool() { (a, b) } else { (b, a) };
            let vt = self.expr(taken);
            let mark = self.begin_discard();
            let vo = self.expr(other);
            self.end_discard(mark);
            let t = match self.result_type(&vt, &vo, span) {
                Some(t) => t,
                None => return Val::error(),
            };
            return self.convert(vt, t, span);
        }
        let Some(hc) = self.value(&cb) else {
            return Val::error();
        };
        if is_pure(a) && is_pure(b) {
            let va = self.expr(a);
            let vb = self.expr(b);
            if let Some(t) = self.result_type(&va, &vb, span) {
                if self.s.types.contains_resource(t) {
                    return self.resource_chosen_at_run_time(c.span, span);
                }
                if self.s.types.is_numeric(t) && !matches!(self.s.types.get(t), Ty::Matrix(..)) {
                    let ca = self.convert(va, t, span);
                    let cbv = self.convert(vb, t, span);
                    let (Some(ha), Some(hb)) = (self.value(&ca), self.value(&cbv)) else {
                        return Val::error();
                    };
                    let t = self.concrete(t);
                    let it = self.s.ir_ty(t);
                    let shape = self.s.types.shape(t).unwrap_or(Shape::Scalar);
                    let cond = match shape {
                        Shape::Vector(n) => {
                            let bt = self.s.types.vector(Sc::Bool, n);
                            let bit = self.s.ir_ty(bt);
                            self.add(ir::Expression::Splat { size: n, value: hc }, bit)
                        }
                        _ => hc,
                    };
                    let h = self.add(
                        ir::Expression::Select {
                            condition: cond,
                            accept: ha,
                            reject: hb,
                        },
                        it,
                    );
                    return Val::expr(t, h);
                }
                // Fall back to branches below (values already computed are
                // fine to reuse: both arms are pure).
                return self.branch_select(hc, va, vb, t, span);
            }
            return Val::error();
        }
        // Lower each arm in its branch; convert once both types are known.
        self.push_block();
        let va = self.expr(a);
        let block_a = self.pop_block();
        self.push_block();
        let vb = self.expr(b);
        let block_b = self.pop_block();
        let Some(t) = self.result_type(&va, &vb, span) else {
            return Val::error();
        };
        if self.s.types.contains_resource(t) {
            return self.resource_chosen_at_run_time(c.span, span);
        }
        let t = self.concrete(t);
        let (tmp, _) = self.temp(t);
        self.fb_push_existing(block_a);
        let ca = self.convert(va, t, a.span);
        if let Some(h) = self.value(&ca) {
            self.stmt(ir::Statement::Store {
                pointer: tmp,
                value: h,
            });
        }
        let accept = self.pop_block();
        self.fb_push_existing(block_b);
        let cbv = self.convert(vb, t, b.span);
        if let Some(h) = self.value(&cbv) {
            self.stmt(ir::Statement::Store {
                pointer: tmp,
                value: h,
            });
        }
        let reject = self.pop_block();
        self.stmt(ir::Statement::If {
            condition: hc,
            accept,
            reject,
            control: ir::SelectionControl::None,
        });
        let it = self.s.ir_ty(t);
        let r = self.add(ir::Expression::Load { pointer: tmp }, it);
        Val::expr(t, r)
    }

    /// `c ? a : b` choosing between resources with a condition `c` not
    /// known at compile time: Vulkan has no value that is a resource.
    fn resource_chosen_at_run_time(&mut self, cond: Span, span: Span) -> Val {
        self.s.push(
            Diagnostic::error(
                codes::RESOURCE_MISUSE,
                "`?:` choosing a resource with a condition not known at compile time",
            )
            .label(span, "the resource is chosen at run time")
            .label(cond, "not a constant")
            .note("Vulkan cannot select a resource at run time; branch with `if` and use each resource in its branch"),
        );
        Val::error()
    }

    /// Selects between two already computed values by branching into a
    /// temporary (for types `Select` cannot take before SPIR-V 1.4).
    pub(in crate::sema) fn branch_select(
        &mut self,
        cond: ir::Handle<ir::Expression>,
        va: Val,
        vb: Val,
        t: TyId,
        span: Span,
    ) -> Val {
        let t = self.concrete(t);
        let ca = self.convert(va, t, span);
        let cbv = self.convert(vb, t, span);
        let (Some(ha), Some(hb)) = (self.value(&ca), self.value(&cbv)) else {
            return Val::error();
        };
        let (tmp, it) = self.temp(t);
        self.stmt(ir::Statement::If {
            condition: cond,
            accept: vec![ir::Statement::Store {
                pointer: tmp,
                value: ha,
            }],
            reject: vec![ir::Statement::Store {
                pointer: tmp,
                value: hb,
            }],
            control: ir::SelectionControl::None,
        });
        let r = self.add(ir::Expression::Load { pointer: tmp }, it);
        Val::expr(t, r)
    }

    /// Re-opens a block built earlier (to append to it).
    pub(in crate::sema) fn fb_push_existing(&mut self, b: ir::Block) {
        self.push_block();
        for s in b {
            self.stmt(s);
        }
    }

    /// The type of `c ? a : b`.
    pub(in crate::sema) fn result_type(&mut self, va: &Val, vb: &Val, span: Span) -> Option<TyId> {
        if va.is_error() || vb.is_error() {
            return None;
        }
        if va.ty == vb.ty {
            return Some(va.ty);
        }
        if self.s.types.is_numeric(va.ty)
            && self.s.types.is_numeric(vb.ty)
            && let Some(t) = self.common_type(va.ty, vb.ty, span)
        {
            return Some(t);
        }
        self.s.error(
            codes::TYPE_MISMATCH,
            format!(
                "the arms of `?:` have incompatible types `{}` and `{}`",
                self.s.ty_name(va.ty),
                self.s.ty_name(vb.ty)
            ),
            span,
            "in this conditional",
        );
        None
    }

    /// Component-wise select (`select()`, and `?:` before HLSL 2021).
    pub fn select_vals(&mut self, vc: Val, va: Val, vb: Val, span: Span) -> Val {
        let Some(t) = self.result_type(&va, &vb, span) else {
            return Val::error();
        };
        let t = self.concrete(t);
        // The shape is the larger of the condition's and the arms'.
        let (sc_shape, st) = (self.s.types.shape(vc.ty), self.s.types.shape(t));
        let (Some(cs), Some(ts)) = (sc_shape, st) else {
            return self.error(
                codes::BAD_OPERANDS,
                "select needs numeric operands",
                span,
                "not numeric",
            );
        };
        let shape = if ts == Shape::Scalar { cs } else { ts };
        let comp = self.s.types.component(t).unwrap_or(Sc::F32);
        let rt = self.s.types.with_shape(comp, shape);
        let ct = self.s.types.with_shape(Sc::Bool, shape);
        let c = self.convert(vc, ct, span);
        let a = self.convert(va, rt, span);
        let b = self.convert(vb, rt, span);
        let (Some(hc), Some(ha), Some(hb)) = (self.value(&c), self.value(&a), self.value(&b))
        else {
            return Val::error();
        };
        if let Shape::Matrix(r, cc) = shape {
            let rows: Vec<_> = (0..r)
                .map(|i| {
                    let rc = self.matrix_row(hc, Sc::Bool, r, cc, i);
                    let ra = self.matrix_row(ha, comp, r, cc, i);
                    let rb = self.matrix_row(hb, comp, r, cc, i);
                    let rowt = self.s.types.vector(comp, cc);
                    let rit = self.s.ir_ty(rowt);
                    self.add(
                        ir::Expression::Select {
                            condition: rc,
                            accept: ra,
                            reject: rb,
                        },
                        rit,
                    )
                })
                .collect();
            let h = self.compose_matrix(rt, rows);
            return Val::expr(rt, h);
        }
        let it = self.s.ir_ty(rt);
        let h = self.add(
            ir::Expression::Select {
                condition: hc,
                accept: ha,
                reject: hb,
            },
            it,
        );
        Val::expr(rt, h)
    }
}
