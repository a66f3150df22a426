//! Constructors (`float4(a.xy, 0, 1)`), initializers and initializer lists
//! (flattened by components, as HLSL does), and lifting constant values
//! into module constants.

use crate::diag::codes;
use crate::front::ast::{self};
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::types::{self, Ty, TyId};
use crate::span::Span;
use std::collections::VecDeque;

impl<'s, 'a> FnCtx<'s, 'a> {
    // --- construction ---------------------------------------------------

    pub(in crate::sema) fn construct(
        &mut self,
        ts: &'a ast::TypeSpec,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Val {
        let t = self
            .s
            .resolve_type(ts, &crate::sema::body::cx_env!(self))
            .ty;
        if t == types::ERROR {
            for a in args {
                let _ = self.expr(a);
            }
            return Val::error();
        }
        let vals: Vec<Val> = args.iter().map(|a| self.expr(a)).collect();
        if vals.iter().any(|v| v.is_error()) {
            return Val::error();
        }
        match self.s.types.get(t).clone() {
            Ty::Scalar(_) | Ty::Enum(_) | Ty::BufferPointer(..) => {
                if vals.len() != 1 {
                    return self.error(
                        codes::WRONG_ARG_COUNT,
                        format!(
                            "`{}` takes one argument, {} given",
                            self.s.ty_name(t),
                            vals.len()
                        ),
                        span,
                        "wrong number of arguments",
                    );
                }
                let v = vals.into_iter().next().unwrap_or_else(Val::error);
                self.cast(v, t, span)
            }
            Ty::Vector(..) | Ty::Matrix(..) => {
                let need = self.s.types.flat_count(t);
                let have: u32 = vals.iter().map(|v| self.s.types.flat_count(v.ty)).sum();
                if vals.len() == 1 && self.s.types.is_scalar(vals[0].ty) {
                    // float4(x): splat.
                    let v = vals.into_iter().next().unwrap_or_else(Val::error);
                    return self.cast(v, t, span);
                }
                if have != need {
                    return self.error(
                        codes::WRONG_ARG_COUNT,
                        format!(
                            "`{}` needs {} components, the arguments give {}",
                            self.s.ty_name(t),
                            need,
                            have
                        ),
                        span,
                        "wrong number of components",
                    );
                }
                // Arrays and structs of numbers give their components in
                // order, as in initializer lists: `float4(arr)`, `float4(s, 1)`.
                for v in &vals {
                    let flattens = matches!(self.s.types.get(v.ty), Ty::Array(..) | Ty::Struct(_))
                        && !self.s.types.contains_resource(v.ty)
                        && self.s.types.flat_count(v.ty) > 0;
                    if !self.s.types.is_numeric(v.ty) && !flattens {
                        return self.mismatch(v.ty, t, span);
                    }
                }
                let mut q: VecDeque<Val> = vals.into();
                match self.build_from(t, &mut q, span) {
                    Some(h) => Val::expr(t, h),
                    None => Val::error(),
                }
            }
            Ty::Struct(_) | Ty::Array(..) => {
                // `S(a, b)` is not HLSL, but a single argument is a cast.
                if vals.len() == 1 {
                    let v = vals.into_iter().next().unwrap_or_else(Val::error);
                    return self.cast(v, t, span);
                }
                self.error(
                    codes::BAD_CAST,
                    format!(
                        "`{}` has no constructor; use an initializer list",
                        self.s.ty_name(t)
                    ),
                    span,
                    "not a constructor",
                )
            }
            // `RayQuery<F>()` is a fresh, uninitialised query object.
            Ty::RayQuery(_) if vals.is_empty() => {
                let (ptr, mem) = self.temp(t);
                Val::place(t, crate::sema::body::place::Place::function(ptr, mem), None)
            }
            _ => self.unsupported(format_args!("constructing `{}`", self.s.ty_name(t)), span),
        }
    }

    /// An initialiser for a value of `ty` (possibly an unsized array whose
    /// size the initialiser gives). Returns the final type and the value.
    pub fn lower_initializer(&mut self, ty: TyId, init: &'a ast::Initializer) -> (TyId, Val) {
        match init {
            ast::Initializer::Expr(e) => {
                if let ast::ExprKind::InitList(items) = &e.kind {
                    return self.init_list(ty, items, e.span);
                }
                if let Ty::Array(_, None) = self.s.types.get(ty) {
                    let v = self.expr(e);
                    if let Ty::Array(_, Some(_)) = self.s.types.get(v.ty) {
                        return (v.ty, v);
                    }
                    return (ty, self.mismatch(v.ty, ty, e.span));
                }
                let v = self.expr_as(e, ty);
                (ty, v)
            }
            ast::Initializer::List(items, span) => self.init_list(ty, items, *span),
        }
    }

    /// `{ a, b, { c } }` for a value of `ty`: the leaves are flattened to
    /// components, as HLSL does.
    pub fn init_list(
        &mut self,
        ty: TyId,
        items: &'a [ast::Initializer],
        span: Span,
    ) -> (TyId, Val) {
        let mut leaves = Vec::new();
        self.init_leaves(items, &mut leaves);
        if leaves.iter().any(|v| v.is_error()) {
            return (ty, Val::error());
        }
        // Size an unsized array from the number of components.
        let mut ty = ty;
        if let Ty::Array(elem, None) = *self.s.types.get(ty) {
            let per = self.s.types.flat_count(elem).max(1);
            let total: u32 = leaves.iter().map(|v| self.s.types.flat_count(v.ty)).sum();
            if !total.is_multiple_of(per) || total == 0 {
                let v = self.error(
                    codes::BAD_INITIALIZER,
                    format!(
                        "{total} initializer components do not make whole elements of `{}`",
                        self.s.ty_name(elem)
                    ),
                    span,
                    "wrong number of components",
                );
                return (ty, v);
            }
            ty = self.s.types.array(elem, Some(total / per));
        }
        let need = self.s.types.flat_count(ty);
        let have: u32 = leaves.iter().map(|v| self.s.types.flat_count(v.ty)).sum();
        if need != have {
            let v = self.error(
                codes::BAD_INITIALIZER,
                format!(
                    "`{}` needs {} initializer component{}, the list gives {}",
                    self.s.ty_name(ty),
                    need,
                    if need == 1 { "" } else { "s" },
                    have
                ),
                span,
                if have < need {
                    "too few components"
                } else {
                    "too many components"
                },
            );
            return (ty, v);
        }
        let mut q: VecDeque<Val> = leaves.into();
        let v = match self.build_from(ty, &mut q, span) {
            Some(h) => Val::expr(ty, h),
            None => Val::error(),
        };
        (ty, v)
    }

    pub(in crate::sema) fn init_leaves(
        &mut self,
        items: &'a [ast::Initializer],
        out: &mut Vec<Val>,
    ) {
        for it in items {
            match it {
                ast::Initializer::Expr(e) => match &e.kind {
                    ast::ExprKind::InitList(inner) => self.init_leaves(inner, out),
                    _ => out.push(self.expr(e)),
                },
                ast::Initializer::List(inner, _) => self.init_leaves(inner, out),
            }
        }
    }

    /// Copies a constant value from this (scratch) function's expressions
    /// into module constants, if it is built only from literals.
    pub fn lift_const(
        &mut self,
        h: ir::Handle<ir::Expression>,
    ) -> Option<ir::Handle<ir::Expression>> {
        let ty = self.fb.body.function.expr_type(h);
        let e = self.fb.body.function.expressions[h].clone();
        let lifted = match e {
            ir::Expression::Literal(l) => ir::Expression::Literal(l),
            ir::Expression::Constant(c) => return Some(c),
            ir::Expression::ZeroValue(t) => ir::Expression::ZeroValue(t),
            ir::Expression::Splat { size, value } => {
                let v = self.lift_const(value)?;
                ir::Expression::Splat { size, value: v }
            }
            ir::Expression::Compose {
                ty: cty,
                components,
            } => {
                let mut cs = Vec::with_capacity(components.len());
                for c in components {
                    cs.push(self.lift_const(c)?);
                }
                ir::Expression::Compose {
                    ty: cty,
                    components: cs,
                }
            }
            _ => return None,
        };
        Some(self.s.module.add_const_expression(lifted, ty))
    }
}
