//! Expressions: names, operators with HLSL's promotion rules, assignments,
//! member access and swizzles, indexing, casts and constructors.

use super::consteval::{self, ConstVal, FoldError, Konst};
use super::func::{FnCtx, LocalSym, LocalVar};
use super::place::{Place, Val, ValKind};
use super::resolve::literal_konst;
use super::scope::{GlobalId, Sym};
use super::types::{self, ResKind, Sc, ScKind, Shape, Ty, TyId};
use super::{GlobalKind, ReadOnly};
use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, BinaryOp, UnaryOp};
use crate::intern::Symbol;
use crate::ir;
use crate::span::Span;
use std::collections::VecDeque;

/// Whether an expression certainly has no side effects (so both arms of a
/// `?:` may be evaluated).
pub fn is_pure(e: &ast::Expr) -> bool {
    use ast::ExprKind as E;
    match &e.kind {
        E::Literal(_) | E::Name(_) | E::This | E::SizeOfType(_) => true,
        E::Unary(op, x) => {
            !matches!(
                op,
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
            ) && is_pure(x)
        }
        E::Binary(op, a, b) => {
            // Integer division may trap on no target, but keep `/` and `%`
            // conditional to be safe with side-effect-free semantics.
            !matches!(op, BinaryOp::Div | BinaryOp::Rem) && is_pure(a) && is_pure(b)
        }
        E::Ternary(c, a, b) => is_pure(c) && is_pure(a) && is_pure(b),
        E::Cast(_, x) => is_pure(x),
        E::Construct(_, args) => args.iter().all(is_pure),
        E::Member(x, _) => is_pure(x),
        E::Index(a, i) => is_pure(a) && is_pure(i),
        _ => false,
    }
}

/// Parses a vector swizzle (`xyzw` or `rgba`, not mixed).
fn parse_swizzle(s: &str) -> Option<Vec<u8>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let xyzw = s.chars().all(|c| "xyzw".contains(c));
    let rgba = s.chars().all(|c| "rgba".contains(c));
    if !xyzw && !rgba {
        return None;
    }
    Some(
        s.chars()
            .map(|c| match c {
                'x' | 'r' => 0,
                'y' | 'g' => 1,
                'z' | 'b' => 2,
                _ => 3,
            })
            .collect(),
    )
}

/// Parses matrix element selectors: `_m01_m10` (zero-based) or `_12_21`
/// (one-based). Returns (row, column) pairs.
fn parse_matrix_selector(s: &str) -> Option<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        rest = rest.strip_prefix('_')?;
        let (zero_based, r) = match rest.strip_prefix('m') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let b = r.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return None;
        }
        let (mut i, mut j) = (b[0] - b'0', b[1] - b'0');
        if !zero_based {
            if i == 0 || j == 0 {
                return None;
            }
            i -= 1;
            j -= 1;
        }
        if i > 3 || j > 3 {
            return None;
        }
        out.push((i, j));
        rest = &r[2..];
    }
    if out.is_empty() || out.len() > 4 {
        return None;
    }
    Some(out)
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Lowers an expression.
    pub fn expr(&mut self, e: &'a ast::Expr) -> Val {
        use ast::ExprKind as E;
        match &e.kind {
            E::Literal(l) => match literal_konst(l, self.s.opts.enable_16bit_types) {
                Some(k) => {
                    let t = self.s.types.scalar(k.sc);
                    Val::konst(t, k)
                }
                None => Val {
                    ty: types::STRING,
                    kind: ValKind::Void,
                    read_only: Some(ReadOnly::Rvalue),
                },
            },
            E::Name(path) => self.name(path, e.span),
            E::This => match &self.fb.this {
                Some(v) => v.clone(),
                None => self.error(
                    codes::UNKNOWN_NAME,
                    "`this` outside a method",
                    e.span,
                    "not in a method",
                ),
            },
            E::Unary(op, x) => self.unary(*op, x, e.span),
            E::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            E::Assign(op, l, r) => self.assign(*op, l, r, e.span),
            E::Ternary(c, a, b) => self.ternary(c, a, b, e.span),
            E::Comma(a, b) => {
                let _ = self.expr(a);
                self.expr(b)
            }
            E::Cast(ts, x) => {
                let t = self.s.resolve_type(ts, &crate::cx_env!(self)).ty;
                if let E::InitList(items) = &x.kind {
                    let (_, v) = self.init_list(t, items, x.span);
                    return v;
                }
                let v = self.expr(x);
                self.cast(v, t, e.span)
            }
            E::Construct(ts, args) => self.construct(ts, args, e.span),
            E::Call {
                callee,
                template_args,
                args,
            } => self.call(callee, template_args.as_deref(), args, e.span),
            E::MethodCall {
                object,
                method,
                template_args,
                args,
            } => self.method_call(object, *method, template_args.as_deref(), args, e.span),
            E::Member(obj, id) => {
                let v = self.expr(obj);
                self.member(v, *id, e.span)
            }
            E::Index(b, i) => self.index(b, i, e.span),
            E::InitList(_) => self.error(
                codes::BAD_INITIALIZER,
                "an initializer list needs a type here",
                e.span,
                "type unknown",
            ),
            E::SizeOfType(ts) => {
                let t = self.s.resolve_type(ts, &crate::cx_env!(self)).ty;
                let n = self.s.value_size(t);
                Val::konst(
                    types::UINT,
                    Konst {
                        sc: Sc::U32,
                        v: ConstVal::Int(n as i64),
                    },
                )
            }
            E::SizeOfExpr(x) => {
                // The operand is not evaluated: check it, then drop it.
                let mark = self.begin_discard();
                let v = self.expr(x);
                self.end_discard(mark);
                let n = self.s.value_size(v.ty);
                Val::konst(
                    types::UINT,
                    Konst {
                        sc: Sc::U32,
                        v: ConstVal::Int(n as i64),
                    },
                )
            }
            E::Error => Val::error(),
        }
    }

    /// Lowers `e` and converts it to `ty` (initialisers, arguments).
    pub fn expr_as(&mut self, e: &'a ast::Expr, ty: TyId) -> Val {
        if let ast::ExprKind::InitList(items) = &e.kind {
            let (_, v) = self.init_list(ty, items, e.span);
            return v;
        }
        let v = self.expr(e);
        self.convert(v, ty, e.span)
    }

    /// Lowers `e` as a scalar `bool` condition.
    pub fn condition(&mut self, e: &'a ast::Expr) -> Option<ir::Handle<ir::Expression>> {
        let v = self.expr(e);
        if v.is_error() {
            return None;
        }
        if !self.s.types.is_numeric(v.ty) {
            self.mismatch(v.ty, types::BOOL, e.span);
            return None;
        }
        let c = self.convert(v, types::BOOL, e.span);
        self.value(&c)
    }

    // --- names --------------------------------------------------------

    fn name(&mut self, path: &'a ast::Path, span: Span) -> Val {
        let last = path.last();
        let sym = if path.is_single() {
            if let Some(l) = self.fb.locals.lookup(last.name) {
                match l.clone() {
                    LocalSym::Var(LocalVar {
                        konst: Some(k),
                        val,
                        ..
                    }) if matches!(val.read_only, Some(ReadOnly::Const(_))) => {
                        return Val {
                            read_only: val.read_only,
                            ..Val::konst(val.ty, k)
                        };
                    }
                    LocalSym::Var(v) => {
                        let n = last.name;
                        return self
                            .materialize(v.val, span, &|| format!("resource variable `{n}`"));
                    }
                    LocalSym::Value(k) => {
                        let t = self.s.types.scalar(k.sc);
                        return Val::konst(t, k);
                    }
                    LocalSym::Type(_) => {
                        return self.error(
                            codes::NOT_A_VALUE,
                            format!("`{}` is a type, not a value", last.name),
                            span,
                            "a type",
                        );
                    }
                }
            }
            if let Some(v) = self.implicit_member(last.name, span) {
                return v;
            }
            self.s.scopes.lookup(self.fb.scope, last.name).cloned()
        } else {
            match self.s.resolve_scope_path(path, &crate::cx_env!(self)) {
                Some(s) => match self.s.scopes.lookup_in(s, last.name).cloned() {
                    Some(sym) => Some(sym),
                    None => {
                        return self.error(
                            codes::UNKNOWN_NAME,
                            format!(
                                "no `{}` in `{}`",
                                last.name,
                                self.s.scopes.qualified_name(s)
                            ),
                            last.span,
                            "not found",
                        );
                    }
                },
                None => return Val::error(),
            }
        };
        match sym {
            Some(Sym::Global(g)) => self.global_val(g),
            Some(Sym::Value(v, ty)) => {
                let sc = self.s.types.component(ty).unwrap_or(Sc::I32);
                Val::konst(ty, Konst { sc, v })
            }
            Some(Sym::Funcs(_)) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a function, not a value", last.name),
                span,
                "call it: add `(…)`",
            ),
            Some(Sym::Type(_)) | Some(Sym::Template(_)) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a type, not a value", last.name),
                span,
                "a type",
            ),
            Some(Sym::Namespace(_)) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a namespace, not a value", last.name),
                span,
                "a namespace",
            ),
            None if path.is_single()
                && matches!(
                    last.name.as_str(),
                    "ResourceDescriptorHeap" | "SamplerDescriptorHeap"
                ) =>
            {
                let sampler = last.name.as_str() == "SamplerDescriptorHeap";
                let ty = self.s.types.intern(Ty::Heap { sampler });
                Val {
                    ty,
                    kind: ValKind::Void,
                    read_only: Some(ReadOnly::Rvalue),
                }
            }
            None => self.error(
                codes::UNKNOWN_NAME,
                format!("cannot find `{}` in this scope", last.name),
                last.span,
                "not declared",
            ),
        }
    }

    /// A field of `this` named by its plain name inside a method.
    fn implicit_member(&mut self, name: Symbol, span: Span) -> Option<Val> {
        let this = self.fb.this.clone()?;
        self.field_of(this, name, span)
    }

    /// Looks a field up in a struct value and its bases.
    pub fn field_of(&mut self, v: Val, name: Symbol, span: Span) -> Option<Val> {
        let sid = self.s.types.as_struct(v.ty)?;
        let info = self.s.types.struct_info(sid);
        let found = info
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (f.member, f.ty, f.bits));
        let base = info.base;
        if let Some((member, fty, bits)) = found {
            struct F {
                member: u32,
                ty: TyId,
                bits: Option<super::types::BitField>,
            }
            let f = F {
                member,
                ty: fty,
                bits,
            };
            let unit = self.member_of(v, f.member, f.ty, span);
            let Some(b) = f.bits else {
                return Some(unit);
            };
            return Some(match &unit.kind {
                ValKind::Place(p) => Val::place(
                    f.ty,
                    Place::BitField {
                        base: Box::new(p.clone()),
                        unit: f.ty,
                        offset: b.offset,
                        width: b.width,
                    },
                    unit.read_only,
                ),
                _ => match self.value(&unit) {
                    Some(h) => {
                        let e = self.bit_extract(h, f.ty, b.offset, b.width);
                        Val::expr(f.ty, e)
                    }
                    None => Val::error(),
                },
            });
        }
        let base = base?;
        let b = self.member_of(v, 0, base, span);
        self.field_of(b, name, span)
    }

    pub fn global_val(&mut self, g: GlobalId) -> Val {
        let info = self.s.globals[g.0 as usize].clone();
        // A `static const` scalar with a constant value is that value.
        if let (Some(k), Some(ReadOnly::Const(c))) = (info.konst, info.read_only) {
            return Val {
                read_only: Some(ReadOnly::Const(c)),
                ..Val::konst(info.ty, k)
            };
        }
        match info.kind {
            GlobalKind::Var { gv, mem } => {
                let space = self.s.module.globals[gv].space;
                let pty = self.ptr_type(mem, space);
                let ptr = self.add(ir::Expression::GlobalVariable(gv), pty);
                Val::place(info.ty, Place::Ptr { ptr, mem, space }, info.read_only)
            }
            GlobalKind::Member { gv, index, mem } => {
                let space = self.s.module.globals[gv].space;
                let gty = self.s.module.globals[gv].ty;
                let gpty = self.ptr_type(gty, space);
                let base = self.add(ir::Expression::GlobalVariable(gv), gpty);
                let pty = self.ptr_type(mem, space);
                let ptr = self.add(ir::Expression::AccessIndex { base, index }, pty);
                Val::place(info.ty, Place::Ptr { ptr, mem, space }, info.read_only)
            }
            GlobalKind::ResAlias(Some(r)) => self.res_path_place(r, info.ty, info.read_only),
            GlobalKind::ResAlias(None) => self.error(
                codes::RESOURCE_MISUSE,
                format!(
                    "static resource `{}` is used before a resource is assigned to it",
                    info.name
                ),
                info.span,
                "declared here without a resource",
            ),
            GlobalKind::PendingGlobal(_) | GlobalKind::Error => Val::error(),
        }
    }

    // --- operators ------------------------------------------------------

    fn unary(&mut self, op: UnaryOp, x: &'a ast::Expr, span: Span) -> Val {
        match op {
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let v = self.expr(x);
                return self.inc_dec(op, v, x.span, span);
            }
            _ => {}
        }
        let v = self.expr(x);
        self.unary_val(op, v, span)
    }

    pub fn unary_val(&mut self, op: UnaryOp, v: Val, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        if !self.s.types.is_numeric(v.ty) {
            return self.error(
                codes::BAD_OPERANDS,
                format!(
                    "cannot apply `{}` to `{}`",
                    unary_str(op),
                    self.s.ty_name(v.ty)
                ),
                span,
                "not a numeric type",
            );
        }
        if let ValKind::Const(k) = v.kind {
            if let Ok(r) = consteval::fold_unary(op, k) {
                let t = self.s.types.scalar(r.sc);
                return Val::konst(t, r);
            }
        }
        let comp = self.s.types.component(v.ty).unwrap_or(Sc::F32);
        let shape = self.s.types.shape(v.ty).unwrap_or(Shape::Scalar);
        match op {
            UnaryOp::Plus => {
                let h = self.value(&v);
                match h {
                    Some(h) => Val::expr(self.concrete(v.ty), h),
                    None => Val::error(),
                }
            }
            UnaryOp::Neg => {
                let sc = if comp == Sc::Bool {
                    Sc::I32
                } else {
                    comp.concrete()
                };
                let t = self.s.types.with_shape(sc, shape);
                let c = self.convert(v, t, span);
                let Some(h) = self.value(&c) else {
                    return Val::error();
                };
                let r = self.map_rows(h, t, |cx, row, rt| {
                    cx.add(
                        ir::Expression::Unary {
                            op: ir::UnaryOperator::Negate,
                            expr: row,
                            precise: false,
                        },
                        rt,
                    )
                });
                Val::expr(t, r)
            }
            UnaryOp::Not => {
                let t = self.s.types.with_shape(Sc::Bool, shape);
                let c = self.convert(v, t, span);
                let Some(h) = self.value(&c) else {
                    return Val::error();
                };
                let r = self.map_rows(h, t, |cx, row, rt| {
                    cx.add(
                        ir::Expression::Unary {
                            op: ir::UnaryOperator::LogicalNot,
                            expr: row,
                            precise: false,
                        },
                        rt,
                    )
                });
                Val::expr(t, r)
            }
            UnaryOp::BitNot => {
                let sc = match comp {
                    Sc::Bool | Sc::LitInt => Sc::I32,
                    s if s.is_int() => s,
                    _ => {
                        return self.error(
                            codes::BAD_OPERANDS,
                            format!(
                                "`~` needs an integer operand, found `{}`",
                                self.s.ty_name(v.ty)
                            ),
                            span,
                            "not an integer",
                        );
                    }
                };
                let t = self.s.types.with_shape(sc, shape);
                let c = self.convert(v, t, span);
                let Some(h) = self.value(&c) else {
                    return Val::error();
                };
                let r = self.map_rows(h, t, |cx, row, rt| {
                    cx.add(
                        ir::Expression::Unary {
                            op: ir::UnaryOperator::BitwiseNot,
                            expr: row,
                            precise: false,
                        },
                        rt,
                    )
                });
                Val::expr(t, r)
            }
            _ => Val::error(),
        }
    }

    /// Applies `f` to a value, row by row for matrices (IR arithmetic on
    /// matrices is per row, as SPIR-V's is per column).
    pub fn map_rows(
        &mut self,
        h: ir::Handle<ir::Expression>,
        ty: TyId,
        mut f: impl FnMut(
            &mut Self,
            ir::Handle<ir::Expression>,
            ir::Handle<ir::Type>,
        ) -> ir::Handle<ir::Expression>,
    ) -> ir::Handle<ir::Expression> {
        if let Ty::Matrix(sc, r, c) = *self.s.types.get(ty) {
            let rows: Vec<_> = (0..r)
                .map(|i| {
                    let row = self.matrix_row(h, sc, r, c, i);
                    let rt = self.expr_ty(row);
                    f(self, row, rt)
                })
                .collect();
            return self.compose_matrix(ty, rows);
        }
        let it = self.s.ir_ty(ty);
        f(self, h, it)
    }

    /// The type with literal components made concrete (int, float).
    pub fn concrete(&mut self, ty: TyId) -> TyId {
        match self.s.types.component(ty) {
            Some(s) if s.is_literal() => self.s.types.with_component(ty, s.concrete()),
            _ => ty,
        }
    }

    fn inc_dec(&mut self, op: UnaryOp, v: Val, xspan: Span, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        if !self.check_writable(&v, xspan) {
            return Val::error();
        }
        if !self.s.types.is_numeric(v.ty) || self.s.types.component(v.ty) == Some(Sc::Bool) {
            return self.error(
                codes::BAD_OPERANDS,
                format!("cannot increment or decrement `{}`", self.s.ty_name(v.ty)),
                span,
                "not a numeric type",
            );
        }
        let Some(place) = v.as_place().cloned() else {
            return Val::error();
        };
        let Some(old) = self.read_place(&place, v.ty) else {
            return Val::error();
        };
        let one = Val::konst(types::LIT_INT, Konst::int(1));
        let bop = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        let newv = self.binary_vals(bop, Val::expr(v.ty, old), one, span);
        let newv = self.convert(newv, v.ty, span);
        let Some(nh) = self.value(&newv) else {
            return Val::error();
        };
        self.write_place(&place, v.ty, nh);
        match op {
            // `++x` is an lvalue (it can be passed to an `out` parameter).
            UnaryOp::PreInc | UnaryOp::PreDec => Val::place(v.ty, place, v.read_only),
            _ => Val::expr(v.ty, old),
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &'a ast::Expr, b: &'a ast::Expr, span: Span) -> Val {
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr)
            && self.s.opts.hlsl_version >= 2021
        {
            return self.short_circuit(op, a, b, span);
        }
        let va = self.expr(a);
        let vb = self.expr(b);
        self.binary_vals(op, va, vb, span)
    }

    /// `a && b`, `a || b` in HLSL 2021: scalar operands, `b` evaluated only
    /// when needed.
    fn short_circuit(
        &mut self,
        op: BinaryOp,
        a: &'a ast::Expr,
        b: &'a ast::Expr,
        span: Span,
    ) -> Val {
        let va = self.expr(a);
        if va.is_error() {
            return va;
        }
        if !self.s.types.is_scalar(va.ty) {
            return self.error(
                codes::BAD_OPERANDS,
                format!(
                    "operands of `{}` must be scalars in HLSL 2021",
                    binop_str(op)
                ),
                a.span,
                format!(
                    "this is `{}`; use `{}()` for vectors",
                    self.s.ty_name(va.ty),
                    if op == BinaryOp::LogicalAnd {
                        "and"
                    } else {
                        "or"
                    }
                ),
            );
        }
        let ca = self.convert(va, types::BOOL, a.span);
        // Constant left operand: fold the short circuit.
        if let ValKind::Const(k) = ca.kind {
            let lhs = k.as_bool();
            if (op == BinaryOp::LogicalAnd && !lhs) || (op == BinaryOp::LogicalOr && lhs) {
                return Val::konst(types::BOOL, Konst::bool(lhs));
            }
            let vb = self.expr(b);
            return self.scalar_bool(vb, b.span, op);
        }
        let Some(ha) = self.value(&ca) else {
            return Val::error();
        };
        let (tmp, _) = self.temp(types::BOOL);
        self.stmt(ir::Statement::Store {
            pointer: tmp,
            value: ha,
        });
        self.push_block();
        let vb = self.expr(b);
        let cb = self.scalar_bool(vb, b.span, op);
        if let Some(hb) = self.value(&cb) {
            self.stmt(ir::Statement::Store {
                pointer: tmp,
                value: hb,
            });
        }
        let inner = self.pop_block();
        let (accept, reject) = if op == BinaryOp::LogicalAnd {
            (inner, Vec::new())
        } else {
            (Vec::new(), inner)
        };
        self.stmt(ir::Statement::If {
            condition: ha,
            accept,
            reject,
            control: ir::SelectionControl::None,
        });
        let bt = self.s.ir_ty(types::BOOL);
        let r = self.add(ir::Expression::Load { pointer: tmp }, bt);
        let _ = span;
        Val::expr(types::BOOL, r)
    }

    fn scalar_bool(&mut self, v: Val, span: Span, op: BinaryOp) -> Val {
        if v.is_error() {
            return v;
        }
        if !self.s.types.is_scalar(v.ty) {
            return self.error(
                codes::BAD_OPERANDS,
                format!(
                    "operands of `{}` must be scalars in HLSL 2021",
                    binop_str(op)
                ),
                span,
                format!("this is `{}`", self.s.ty_name(v.ty)),
            );
        }
        self.convert(v, types::BOOL, span)
    }

    /// The type both operands of an arithmetic operator convert to.
    fn common_type(&mut self, a: TyId, b: TyId, span: Span) -> Option<TyId> {
        let (ca, cb) = (self.s.types.component(a)?, self.s.types.component(b)?);
        let (sa, sb) = (self.s.types.shape(a)?, self.s.types.shape(b)?);
        let comp = consteval::common_scalar(ca, cb);
        let shape = match (sa, sb) {
            (x, y) if x == y => x,
            (Shape::Scalar, y) => y,
            (x, Shape::Scalar) => x,
            (Shape::Vector(n), Shape::Vector(m)) => {
                self.truncation_warning("vector", span);
                Shape::Vector(n.min(m))
            }
            (Shape::Matrix(r, c), Shape::Matrix(r2, c2))
                if (r <= r2 && c <= c2) || (r2 <= r && c2 <= c) =>
            {
                self.truncation_warning("matrix", span);
                Shape::Matrix(r.min(r2), c.min(c2))
            }
            // A vector with a 1xN/Nx1 matrix of the same size.
            (Shape::Vector(n), Shape::Matrix(r, c)) | (Shape::Matrix(r, c), Shape::Vector(n))
                if (r == 1 && c == n) || (c == 1 && r == n) =>
            {
                Shape::Vector(n)
            }
            _ => return None,
        };
        Some(self.s.types.with_shape(comp, shape))
    }

    fn truncation_warning(&mut self, what: &str, span: Span) {
        self.s.push(
            Diagnostic::warning(
                codes::IMPLICIT_TRUNCATION,
                format!("implicit truncation of {what} type"),
            )
            .label(span, "operands of different sizes: the larger is truncated"),
        );
    }

    /// A binary operator on two lowered operands.
    pub fn binary_vals(&mut self, op: BinaryOp, va: Val, vb: Val, span: Span) -> Val {
        if va.is_error() || vb.is_error() {
            return Val::error();
        }
        let numeric = self.s.types.is_numeric(va.ty) && self.s.types.is_numeric(vb.ty);
        if !numeric && self.s.types.as_struct(va.ty).is_some() {
            // HLSL 2021 operator overloading: `a + b` calls `a.operator+(b)`.
            let name = Symbol::intern(&format!("operator{}", binop_str(op)));
            let cands = self.struct_methods(va.ty, name);
            if !cands.is_empty() {
                let arg = super::call::Arg { val: vb, span };
                return self.call_candidates(&cands, Some(va), None, vec![arg], name, span, false);
            }
        }
        if !numeric {
            return self.error(
                codes::BAD_OPERANDS,
                format!(
                    "cannot apply `{}` to `{}` and `{}`",
                    binop_str(op),
                    self.s.ty_name(va.ty),
                    self.s.ty_name(vb.ty)
                ),
                span,
                "operands must be numeric",
            );
        }
        // Fold constants (both scalars), except integer division by zero
        // which is left to run time (and diagnosed by the passes).
        if let (ValKind::Const(x), ValKind::Const(y)) = (&va.kind, &vb.kind) {
            match consteval::fold_binary(op, *x, *y) {
                Ok(r) => {
                    let t = self.s.types.scalar(r.sc);
                    return Val::konst(t, r);
                }
                Err(FoldError::DivisionByZero) => {
                    self.s.push(
                        Diagnostic::error(codes::CONST_DIV_BY_ZERO, "integer division by zero")
                            .label(span, "the divisor is zero"),
                    );
                    return Val::error();
                }
                Err(FoldError::BadOperands) => {}
            }
        }
        if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            return self.shift(op, va, vb, span);
        }
        let Some(mut ct) = self.common_type(va.ty, vb.ty, span) else {
            return self.error(
                codes::BAD_OPERANDS,
                format!(
                    "cannot apply `{}` to `{}` and `{}`",
                    binop_str(op),
                    self.s.ty_name(va.ty),
                    self.s.ty_name(vb.ty)
                ),
                span,
                "incompatible shapes",
            );
        };
        let mut comp = self.s.types.component(ct).unwrap_or(Sc::F32).concrete();
        let shape = self.s.types.shape(ct).unwrap_or(Shape::Scalar);
        let is_cmp = matches!(
            op,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        );
        let is_bit = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
        let is_logic = matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr);
        if is_logic {
            comp = Sc::Bool;
        } else if comp == Sc::Bool && !(is_cmp && matches!(op, BinaryOp::Eq | BinaryOp::Ne)) {
            // Arithmetic on bools is done in int.
            comp = Sc::I32;
        }
        if is_bit && comp.is_float() {
            return self.error(
                codes::BAD_OPERANDS,
                format!(
                    "`{}` needs integer operands, found `{}` and `{}`",
                    binop_str(op),
                    self.s.ty_name(va.ty),
                    self.s.ty_name(vb.ty)
                ),
                span,
                "float operands",
            );
        }
        ct = self.s.types.with_shape(comp, shape);
        let ca = self.convert_quiet(va, ct, span);
        let cb = self.convert_quiet(vb, ct, span);
        let (Some(ha), Some(hb)) = (self.value(&ca), self.value(&cb)) else {
            return Val::error();
        };
        let irop = match op {
            BinaryOp::Add => ir::BinaryOperator::Add,
            BinaryOp::Sub => ir::BinaryOperator::Subtract,
            BinaryOp::Mul => ir::BinaryOperator::Multiply,
            BinaryOp::Div => ir::BinaryOperator::Divide,
            BinaryOp::Rem => ir::BinaryOperator::Modulo,
            BinaryOp::BitAnd => ir::BinaryOperator::And,
            BinaryOp::BitOr => ir::BinaryOperator::InclusiveOr,
            BinaryOp::BitXor => ir::BinaryOperator::ExclusiveOr,
            BinaryOp::LogicalAnd => ir::BinaryOperator::LogicalAnd,
            BinaryOp::LogicalOr => ir::BinaryOperator::LogicalOr,
            BinaryOp::Eq => ir::BinaryOperator::Equal,
            BinaryOp::Ne => ir::BinaryOperator::NotEqual,
            BinaryOp::Lt => ir::BinaryOperator::Less,
            BinaryOp::Le => ir::BinaryOperator::LessEqual,
            BinaryOp::Gt => ir::BinaryOperator::Greater,
            BinaryOp::Ge => ir::BinaryOperator::GreaterEqual,
            BinaryOp::Shl | BinaryOp::Shr => unreachable_op(),
        };
        let rt = if is_cmp {
            self.s.types.with_shape(Sc::Bool, shape)
        } else {
            ct
        };
        let h = self.binary_ir(irop, ha, hb, ct, rt);
        Val::expr(rt, h)
    }

    /// An IR binary operation on operands of HLSL type `ct`, giving `rt`;
    /// row by row for matrices.
    pub fn binary_ir(
        &mut self,
        op: ir::BinaryOperator,
        a: ir::Handle<ir::Expression>,
        b: ir::Handle<ir::Expression>,
        ct: TyId,
        rt: TyId,
    ) -> ir::Handle<ir::Expression> {
        if let Ty::Matrix(sc, r, c) = *self.s.types.get(ct) {
            let rsc = self.s.types.component(rt).unwrap_or(sc);
            let rows: Vec<_> = (0..r)
                .map(|i| {
                    let ra = self.matrix_row(a, sc, r, c, i);
                    let rb = self.matrix_row(b, sc, r, c, i);
                    let rowt = self.s.types.vector(rsc, c);
                    let rit = self.s.ir_ty(rowt);
                    self.add(
                        ir::Expression::Binary {
                            op,
                            left: ra,
                            right: rb,
                            precise: false,
                        },
                        rit,
                    )
                })
                .collect();
            return self.compose_matrix(rt, rows);
        }
        let it = self.s.ir_ty(rt);
        self.add(
            ir::Expression::Binary {
                op,
                left: a,
                right: b,
                precise: false,
            },
            it,
        )
    }

    /// Converts without the truncation warning (already given for the
    /// operator).
    fn convert_quiet(&mut self, v: Val, to: TyId, span: Span) -> Val {
        let before = self.s.diags.list.len();
        let r = self.convert(v, to, span);
        // Drop truncation warnings the conversion added.
        let mut i = before;
        while i < self.s.diags.list.len() {
            if self.s.diags.list[i].code == codes::IMPLICIT_TRUNCATION {
                self.s.diags.list.remove(i);
            } else {
                i += 1;
            }
        }
        r
    }

    /// `<<`, `>>`: the result has the (promoted) left operand's type; the
    /// amount is masked to the bit width (SPIR-V.rst, "Bitwise operators").
    fn shift(&mut self, op: BinaryOp, va: Val, vb: Val, span: Span) -> Val {
        let (ca, cb) = (
            self.s.types.component(va.ty).unwrap_or(Sc::I32),
            self.s.types.component(vb.ty).unwrap_or(Sc::I32),
        );
        if ca.is_float() || cb.is_float() {
            return self.error(
                codes::BAD_OPERANDS,
                format!("`{}` needs integer operands", binop_str(op)),
                span,
                "float operand",
            );
        }
        let sa = self.s.types.shape(va.ty).unwrap_or(Shape::Scalar);
        let sb = self.s.types.shape(vb.ty).unwrap_or(Shape::Scalar);
        let shape = match (sa, sb) {
            (Shape::Scalar, y) => y,
            (x, _) => x,
        };
        let lc = match ca {
            Sc::Bool | Sc::LitInt => Sc::I32,
            s => s,
        };
        let lt = self.s.types.with_shape(lc, shape);
        let left = self.convert(va, lt, span);
        let right = self.convert(vb, lt, span);
        let (Some(hl), Some(hr)) = (self.value(&left), self.value(&right)) else {
            return Val::error();
        };
        // Mask the amount: n & (bits - 1).
        let bits = lc.width() as i64 * 8;
        let mask = Val::konst(types::LIT_INT, Konst::int(bits - 1));
        let mask = self.convert(mask, lt, span);
        let Some(hm) = self.value(&mask) else {
            return Val::error();
        };
        let masked = self.binary_ir(ir::BinaryOperator::And, hr, hm, lt, lt);
        let irop = if op == BinaryOp::Shl {
            ir::BinaryOperator::ShiftLeft
        } else {
            ir::BinaryOperator::ShiftRight
        };
        let h = self.binary_ir(irop, hl, masked, lt, lt);
        Val::expr(lt, h)
    }

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

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        l: &'a ast::Expr,
        r: &'a ast::Expr,
        span: Span,
    ) -> Val {
        // Members of a local struct holding resources rebind.
        if op.is_none() {
            if let Some(v) = self.agg_assign(l, r, span) {
                return v;
            }
        }
        // A local resource variable rebinds to another resource.
        if op.is_none() {
            if let ast::ExprKind::Name(path) = &l.kind {
                if path.is_single() {
                    if let Some(LocalSym::Var(lv)) =
                        self.fb.locals.lookup(path.last().name).cloned()
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
                }
            }
        }
        if op.is_none() {
            if let Some(v) = self.assign_static_resource(l, r) {
                return v;
            }
        }
        let lv = self.expr(l);
        if !self.check_writable(&lv, l.span) {
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
        Val::expr(lv.ty, h)
    }

    /// `s = g;` where `s` is a `static` resource variable: rebinds it.
    fn assign_static_resource(&mut self, l: &'a ast::Expr, r: &'a ast::Expr) -> Option<Val> {
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
            let s = self.s.resolve_scope_path(path, &crate::cx_env!(self))?;
            self.s.scopes.lookup_in(s, path.last().name).cloned()
        };
        let Some(Sym::Global(g)) = sym else {
            return None;
        };
        if !matches!(self.s.globals[g.0 as usize].kind, GlobalKind::ResAlias(_)) {
            return None;
        }
        let v = self.expr(r);
        if v.is_error() {
            return Some(v);
        }
        let ty = self.s.globals[g.0 as usize].ty;
        if v.ty != ty {
            return Some(self.mismatch(v.ty, ty, r.span));
        }
        match self.res_path(&v) {
            Some(p) => {
                let id = self.s.intern_res_path(p);
                self.s.globals[g.0 as usize].kind = GlobalKind::ResAlias(Some(id));
                Some(v)
            }
            None => Some(self.unsupported(
                "assigning a resource that is not known at compile time",
                r.span,
            )),
        }
    }

    // --- ?: -------------------------------------------------------------

    fn ternary(&mut self, c: &'a ast::Expr, a: &'a ast::Expr, b: &'a ast::Expr, span: Span) -> Val {
        let vc = self.expr(c);
        if vc.is_error() {
            return vc;
        }
        let vector_cond = !self.s.types.is_scalar(vc.ty);
        if vector_cond || self.s.opts.hlsl_version < 2021 {
            if vector_cond && self.s.opts.hlsl_version >= 2021 {
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

    /// Selects between two already computed values by branching into a
    /// temporary (for types `Select` cannot take before SPIR-V 1.4).
    fn branch_select(
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
    fn fb_push_existing(&mut self, b: ir::Block) {
        self.push_block();
        for s in b {
            self.stmt(s);
        }
    }

    /// The type of `c ? a : b`.
    fn result_type(&mut self, va: &Val, vb: &Val, span: Span) -> Option<TyId> {
        if va.is_error() || vb.is_error() {
            return None;
        }
        if va.ty == vb.ty {
            return Some(va.ty);
        }
        if self.s.types.is_numeric(va.ty) && self.s.types.is_numeric(vb.ty) {
            if let Some(t) = self.common_type(va.ty, vb.ty, span) {
                return Some(t);
            }
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

    // --- members, swizzles, indexing ------------------------------------

    pub fn member(&mut self, v: Val, id: ast::Ident, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        let name = id.name.as_str();
        match self.s.types.get(v.ty).clone() {
            Ty::Struct(_) => match self.field_of(v.clone(), id.name, span) {
                Some(f) => f,
                None => {
                    // A static member through an instance.
                    if let Some(scope) = self.s.type_scope(v.ty) {
                        if let Some(Sym::Global(g)) =
                            self.s.scopes.lookup_in(scope, id.name).cloned()
                        {
                            return self.global_val(g);
                        }
                    }
                    self.error(
                        codes::NO_MEMBER,
                        format!("`{}` has no member `{}`", self.s.ty_name(v.ty), id.name),
                        id.span,
                        "unknown member",
                    )
                }
            },
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Enum(_) => {
                let n = match *self.s.types.get(v.ty) {
                    Ty::Vector(_, n) => n,
                    _ => 1,
                };
                let Some(comps) = parse_swizzle(name).filter(|c| c.iter().all(|&i| i < n)) else {
                    return self.error(
                        codes::BAD_SWIZZLE,
                        format!("invalid swizzle `{}` on `{}`", name, self.s.ty_name(v.ty)),
                        id.span,
                        if n == 1 {
                            "a scalar has only `x`/`r`"
                        } else {
                            "component out of range or unknown"
                        },
                    );
                };
                let sc = self.s.types.component(v.ty).unwrap_or(Sc::F32);
                if let ValKind::Const(k) = v.kind {
                    if comps.len() == 1 {
                        return v;
                    }
                    let t = self.concrete(v.ty);
                    let c = Val::konst(t, k.convert(sc.concrete()));
                    let rt = self.s.types.vector(sc.concrete(), comps.len() as u8);
                    return self.convert(c, rt, span);
                }
                let rt = self.s.types.vector(sc, comps.len() as u8);
                // Whole-vector identity keeps the place.
                if n > 1
                    && comps.len() == n as usize
                    && comps.iter().enumerate().all(|(i, &c)| i as u8 == c)
                {
                    return Val { ty: rt, ..v };
                }
                match &v.kind {
                    ValKind::Place(p) => {
                        let dup = (1..comps.len()).any(|i| comps[..i].contains(&comps[i]));
                        let ro = if dup {
                            Some(ReadOnly::RepeatedComponent)
                        } else {
                            v.read_only
                        };
                        Val::place(
                            rt,
                            Place::Swizzle {
                                base: Box::new(p.clone()),
                                base_ty: v.ty,
                                comps,
                            },
                            ro,
                        )
                    }
                    _ => {
                        let Some(h) = self.value(&v) else {
                            return Val::error();
                        };
                        let r = self.swizzle_value(h, v.ty, &comps);
                        Val::expr(rt, r)
                    }
                }
            }
            Ty::Matrix(sc, r, c) => {
                let Some(elems) =
                    parse_matrix_selector(name).filter(|e| e.iter().all(|&(i, j)| i < r && j < c))
                else {
                    return self.error(
                        codes::BAD_SWIZZLE,
                        format!(
                            "invalid matrix element selector `{}` on `{}`",
                            name,
                            self.s.ty_name(v.ty)
                        ),
                        id.span,
                        "expected `_mRC` (zero-based) or `_RC` (one-based)",
                    );
                };
                let rt = self.s.types.vector(sc, elems.len() as u8);
                match &v.kind {
                    ValKind::Place(p) => {
                        let dup = (1..elems.len()).any(|i| elems[..i].contains(&elems[i]));
                        let ro = if dup {
                            Some(ReadOnly::RepeatedComponent)
                        } else {
                            v.read_only
                        };
                        if elems.len() == 1 && c > 1 {
                            // One element through a pointer: row then component.
                            if let Place::Ptr { .. } = p {
                                let row_ty = self.s.types.vector(sc, c);
                                let row =
                                    self.index_place_const(p, v.ty, elems[0].0 as u32, row_ty);
                                let e = self.index_place_const(&row, row_ty, elems[0].1 as u32, rt);
                                return Val::place(rt, e, ro);
                            }
                        }
                        Val::place(
                            rt,
                            Place::MatElems {
                                base: Box::new(p.clone()),
                                base_ty: v.ty,
                                elems,
                            },
                            ro,
                        )
                    }
                    _ => {
                        let Some(h) = self.value(&v) else {
                            return Val::error();
                        };
                        let tmpv = Val::expr(v.ty, h);
                        let comps: Vec<Val> = elems
                            .iter()
                            .map(|&(i, j)| {
                                let e = self.matrix_element(h, sc, r, c, i, j);
                                let st = self.s.types.scalar(sc);
                                Val::expr(st, e)
                            })
                            .collect();
                        let _ = tmpv;
                        if comps.len() == 1 {
                            return comps.into_iter().next().unwrap_or_else(Val::error);
                        }
                        let mut q: VecDeque<Val> = comps.into();
                        match self.build_from(rt, &mut q, span) {
                            Some(h) => Val::expr(rt, h),
                            None => Val::error(),
                        }
                    }
                }
            }
            _ => self.error(
                codes::NO_MEMBER,
                format!("`{}` has no member `{}`", self.s.ty_name(v.ty), id.name),
                id.span,
                "unknown member",
            ),
        }
    }

    /// The index operand as a 32-bit integer value.
    fn index_value(&mut self, iv: Val, span: Span) -> Option<ir::Handle<ir::Expression>> {
        if iv.is_error() {
            return None;
        }
        let t = match self.s.types.get(iv.ty) {
            Ty::Scalar(s) if s.is_int() && s.concrete().width() == 4 => self.concrete(iv.ty),
            Ty::Scalar(Sc::LitInt) => types::INT,
            Ty::Scalar(s) if s.is_signed_int() => types::INT,
            Ty::Enum(_) => types::INT,
            _ => types::UINT,
        };
        let c = self.convert(iv, t, span);
        self.value(&c)
    }

    fn index(&mut self, b: &'a ast::Expr, i: &'a ast::Expr, span: Span) -> Val {
        let v = self.expr(b);
        if v.is_error() {
            let _ = self.expr(i);
            return v;
        }
        let iv = self.expr(i);
        self.index_val(v, iv, i.span, span)
    }

    pub fn index_val(&mut self, v: Val, iv: Val, ispan: Span, span: Span) -> Val {
        let ty = v.ty;
        // Constant indices into aggregates stay constant accesses.
        let const_index = match iv.kind {
            ValKind::Const(k) => match k.v {
                ConstVal::Int(n) if n >= 0 => Some(n as u32),
                _ => None,
            },
            _ => None,
        };
        match self.s.types.get(ty).clone() {
            Ty::Array(elem, n) => {
                if let (Some(ci), Some(n)) = (const_index, n) {
                    if ci >= n {
                        return self.error(
                            codes::NOT_INDEXABLE,
                            format!("index {ci} is out of bounds for `{}`", self.s.ty_name(ty)),
                            ispan,
                            "out of bounds",
                        );
                    }
                }
                if let Some(ci) = const_index {
                    if !self.s.types.is_resource(elem) || matches!(v.kind, ValKind::Place(_)) {
                        return self.member_of(v, ci, elem, span);
                    }
                }
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                self.dynamic_index(v, hi, elem, span)
            }
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                if let Some(ci) = const_index {
                    if ci >= n as u32 {
                        return self.error(
                            codes::NOT_INDEXABLE,
                            format!("index {ci} is out of bounds for `{}`", self.s.ty_name(ty)),
                            ispan,
                            "out of bounds",
                        );
                    }
                    return self.member_of(v, ci, st, span);
                }
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                self.dynamic_index(v, hi, st, span)
            }
            Ty::Matrix(sc, r, c) => {
                let rt = self.s.types.vector(sc, c);
                if let Some(ci) = const_index {
                    if ci >= r as u32 {
                        return self.error(
                            codes::NOT_INDEXABLE,
                            format!("row {ci} is out of bounds for `{}`", self.s.ty_name(ty)),
                            ispan,
                            "out of bounds",
                        );
                    }
                    return self.member_of(v, ci, rt, span);
                }
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                self.dynamic_index(v, hi, rt, span)
            }
            Ty::Scalar(_) if const_index == Some(0) => v,
            Ty::Struct(_) => {
                let name = Symbol::intern("operator[]");
                let cands = self.struct_methods(ty, name);
                if cands.is_empty() {
                    return self.error(
                        codes::NOT_INDEXABLE,
                        format!("cannot index `{}`", self.s.ty_name(ty)),
                        span,
                        "a struct without `operator[]`",
                    );
                }
                let arg = super::call::Arg {
                    val: iv,
                    span: ispan,
                };
                self.call_candidates(&cands, Some(v), None, vec![arg], name, span, false)
            }
            Ty::Heap { sampler } => {
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                let ty = self.s.types.intern(Ty::HeapElem { sampler });
                Val::expr(ty, hi)
            }
            Ty::Resource(kind, elem) => {
                let Some(hi) = self.index_value_for_resource(iv, kind, ispan) else {
                    return Val::error();
                };
                self.resource_index(v, kind, elem, hi, span)
            }
            _ => self.error(
                codes::NOT_INDEXABLE,
                format!("cannot index `{}`", self.s.ty_name(ty)),
                span,
                "not an array, vector, matrix or buffer",
            ),
        }
    }

    fn index_value_for_resource(
        &mut self,
        iv: Val,
        kind: ResKind,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        match kind {
            ResKind::Texture { .. } => {
                // Texture coordinates: an int or uint vector.
                let n = match *self.s.types.get(iv.ty) {
                    Ty::Vector(_, n) => n,
                    _ => 1,
                };
                let sc = match self.s.types.component(iv.ty) {
                    Some(Sc::I32) => Sc::I32,
                    _ => Sc::U32,
                };
                let t = self.s.types.vector(sc, n);
                let c = self.convert(iv, t, span);
                self.value(&c)
            }
            _ => self.index_value(iv, span),
        }
    }

    /// `v[i]` with a run-time index.
    fn dynamic_index(
        &mut self,
        v: Val,
        hi: ir::Handle<ir::Expression>,
        elem: TyId,
        _span: Span,
    ) -> Val {
        match &v.kind {
            ValKind::Place(Place::Ptr { ptr, mem, space }) => {
                let elem_mem = self.member_mem_type(*mem, 0, elem);
                let pty = self.ptr_type(elem_mem, *space);
                let p = self.add(
                    ir::Expression::Access {
                        base: *ptr,
                        index: hi,
                    },
                    pty,
                );
                Val::place(
                    elem,
                    Place::Ptr {
                        ptr: p,
                        mem: elem_mem,
                        space: *space,
                    },
                    v.read_only,
                )
            }
            _ => {
                let Some(h) = self.value(&v) else {
                    return Val::error();
                };
                if matches!(self.s.types.get(v.ty), Ty::Vector(..)) {
                    let it = self.s.ir_ty(elem);
                    let e = self.add(ir::Expression::Access { base: h, index: hi }, it);
                    return Val::expr(elem, e);
                }
                // Arrays and matrices of values: index through a copy.
                let (tmp, it) = self.temp(v.ty);
                self.stmt(ir::Statement::Store {
                    pointer: tmp,
                    value: h,
                });
                let elem_mem = self.member_mem_type(it, 0, elem);
                let pty = self.ptr_type(elem_mem, ir::AddressSpace::Function);
                let p = self.add(
                    ir::Expression::Access {
                        base: tmp,
                        index: hi,
                    },
                    pty,
                );
                Val::place(
                    elem,
                    Place::Ptr {
                        ptr: p,
                        mem: elem_mem,
                        space: ir::AddressSpace::Function,
                    },
                    Some(ReadOnly::Rvalue),
                )
            }
        }
    }

    // --- construction ---------------------------------------------------

    fn construct(&mut self, ts: &'a ast::TypeSpec, args: &'a [ast::Expr], span: Span) -> Val {
        let t = self.s.resolve_type(ts, &crate::cx_env!(self)).ty;
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
            Ty::Scalar(_) | Ty::Enum(_) => {
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
                for v in &vals {
                    if !self.s.types.is_numeric(v.ty) {
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
                    let wrapped = vec![ast::Initializer::Expr(e.clone())];
                    let _ = wrapped;
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
            if total % per != 0 || total == 0 {
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

    fn init_leaves(&mut self, items: &'a [ast::Initializer], out: &mut Vec<Val>) {
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
        let ty = self.fb.f.expr_type(h);
        let e = self.fb.f.expressions[h].clone();
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

fn unreachable_op() -> ir::BinaryOperator {
    // Shifts are handled before; keep a harmless value.
    ir::BinaryOperator::ShiftLeft
}

pub fn binop_str(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::LogicalAnd => "&&",
        BinaryOp::LogicalOr => "||",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
    }
}

fn unary_str(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "-",
        UnaryOp::Plus => "+",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::PreInc | UnaryOp::PostInc => "++",
        UnaryOp::PreDec | UnaryOp::PostDec => "--",
    }
}

/// Silences "unused" for kinds kept for later stages.
#[allow(dead_code)]
fn _kinds(_: ScKind) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles_and_selectors() {
        assert_eq!(parse_swizzle("xyz"), Some(vec![0, 1, 2]));
        assert_eq!(parse_swizzle("rgba"), Some(vec![0, 1, 2, 3]));
        assert_eq!(parse_swizzle("xg"), None);
        assert_eq!(parse_swizzle("xyzwx"), None);
        assert_eq!(
            parse_matrix_selector("_m00_m11"),
            Some(vec![(0, 0), (1, 1)])
        );
        assert_eq!(parse_matrix_selector("_11_44"), Some(vec![(0, 0), (3, 3)]));
        assert_eq!(parse_matrix_selector("_00"), None);
        assert_eq!(parse_matrix_selector("_m4"), None);
    }
}
