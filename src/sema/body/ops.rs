//! Unary and binary operators with HLSL's promotion rules (the usual
//! arithmetic conversions, shapes, literal types), short-circuit `&&`/`
//!
//! `,
//! shifts with masked amounts, increments.

use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, BinaryOp, UnaryOp};
use crate::intern::Symbol;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::expr::{binop_str, unary_str};
use crate::sema::body::place::{Val, ValKind};
use crate::sema::types::consteval::{self, FoldError, Konst};
use crate::sema::types::{self, Sc, Shape, Ty, TyId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    // --- operators ------------------------------------------------------

    pub(in crate::sema) fn unary(&mut self, op: UnaryOp, x: &'a ast::Expr, span: Span) -> Val {
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
        if let ValKind::Const(k) = v.kind
            && let Ok(r) = consteval::fold_unary(op, k)
        {
            let t = self.s.types.scalar(r.sc);
            return Val::konst(t, r);
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
                self.unary_rows(v, t, ir::UnaryOperator::Negate, span)
            }
            UnaryOp::Not => {
                let t = self.s.types.with_shape(Sc::Bool, shape);
                self.unary_rows(v, t, ir::UnaryOperator::LogicalNot, span)
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
                self.unary_rows(v, t, ir::UnaryOperator::BitwiseNot, span)
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

    pub(in crate::sema) fn inc_dec(&mut self, op: UnaryOp, v: Val, xspan: Span, span: Span) -> Val {
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

    pub(in crate::sema) fn binary(
        &mut self,
        op: BinaryOp,
        a: &'a ast::Expr,
        b: &'a ast::Expr,
        span: Span,
    ) -> Val {
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) && self.s.opts.hlsl_2021 {
            return self.short_circuit(op, a, b, span);
        }
        let va = self.expr(a);
        let vb = self.expr(b);
        self.binary_vals(op, va, vb, span)
    }

    /// `a && b`, `a || b` in HLSL 2021: scalar operands, `b` evaluated only
    /// when needed.
    pub(in crate::sema) fn short_circuit(
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

    pub(in crate::sema) fn scalar_bool(&mut self, v: Val, span: Span, op: BinaryOp) -> Val {
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
    pub(in crate::sema) fn common_type(&mut self, a: TyId, b: TyId, span: Span) -> Option<TyId> {
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

    pub(in crate::sema) fn truncation_warning(&mut self, what: &str, span: Span) {
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
                let arg = crate::sema::calls::Arg {
                    val: vb,
                    span,
                    vertex: None,
                    mesh: None,
                    local: None,
                };
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
        // Fold constants (both scalars); an integer division by zero is an
        // error here, as in DXC.
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
        if let Some(v) = self.same_type_binary(op, &va, &vb) {
            return v;
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
        let is_cmp = is_comparison(op);
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
        let rt = if is_cmp {
            self.s.types.with_shape(Sc::Bool, shape)
        } else {
            ct
        };
        let h = self.binary_ir(ir_binary_op(op), ha, hb, ct, rt);
        Val::expr(rt, h)
    }

    /// [`FnCtx::binary_vals`] on two operands of one scalar or vector type
    /// of a concrete component other than `bool` (the commonest case),
    /// once constants are folded and shifts lowered: their common type is
    /// theirs, and converting them to it changes nothing, so the operation
    /// applies to them as they are. `None`: any other operands, for the
    /// general path.
    fn same_type_binary(&mut self, op: BinaryOp, va: &Val, vb: &Val) -> Option<Val> {
        if va.ty != vb.ty || !fast_paths() {
            return None;
        }
        let (sc, shape) = match *self.s.types.get(va.ty) {
            Ty::Scalar(sc) => (sc, Shape::Scalar),
            Ty::Vector(sc, n) if n > 1 => (sc, Shape::Vector(n)),
            _ => return None,
        };
        let bitwise = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
        if sc == Sc::Bool
            || sc.is_literal()
            || (bitwise && sc.is_float())
            || matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr)
        {
            return None;
        }
        let (Some(ha), Some(hb)) = (self.value(va), self.value(vb)) else {
            return Some(Val::error());
        };
        let rt = if is_comparison(op) {
            self.s.types.with_shape(Sc::Bool, shape)
        } else {
            va.ty
        };
        let h = self.bin(ir_binary_op(op), ha, hb, rt);
        Some(Val::expr(rt, h))
    }

    /// `v` converted to `t`, then `op` applied (row by row for matrices).
    fn unary_rows(&mut self, v: Val, t: TyId, op: ir::UnaryOperator, span: Span) -> Val {
        let c = self.convert(v, t, span);
        let Some(h) = self.value(&c) else {
            return Val::error();
        };
        let r = self.map_rows(h, t, |cx, row, rt| {
            cx.add(
                ir::Expression::Unary {
                    op,
                    expr: row,
                    precise: false,
                },
                rt,
            )
        });
        Val::expr(t, r)
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
                    self.bin(op, ra, rb, rowt)
                })
                .collect();
            return self.compose_matrix(rt, rows);
        }
        self.bin(op, a, b, rt)
    }

    /// Converts without the truncation warning (already given for the
    /// operator).
    pub(in crate::sema) fn convert_quiet(&mut self, v: Val, to: TyId, span: Span) -> Val {
        let before = self.s.diagnostic_mark();
        let r = self.convert(v, to, span);
        // Drop truncation warnings the conversion added.
        if self.s.diagnostic_mark() > before {
            self.s
                .drop_diagnostics_since(before, |d| d.code == codes::IMPLICIT_TRUNCATION);
        }
        r
    }

    /// `<<`, `>>`: the result has the (promoted) left operand's type; the
    /// amount counts modulo the bit width (SPIR-V.rst, "Bitwise operators").
    pub(in crate::sema) fn shift(&mut self, op: BinaryOp, va: Val, vb: Val, span: Span) -> Val {
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
        // IR shifts take the amount modulo the width, as HLSL does (the
        // backend masks it, SPIR-V.rst "Bitwise operators").
        let irop = if op == BinaryOp::Shl {
            ir::BinaryOperator::ShiftLeft
        } else {
            ir::BinaryOperator::ShiftRight
        };
        let h = self.binary_ir(irop, hl, hr, lt, lt);
        Val::expr(lt, h)
    }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=`: the operators that give `bool`s.
fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
    )
}

/// The IR operator of a binary operator (shifts too, which `shift`
/// lowers without converting their operands to a common type).
fn ir_binary_op(op: BinaryOp) -> ir::BinaryOperator {
    match op {
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
        BinaryOp::Shl => ir::BinaryOperator::ShiftLeft,
        BinaryOp::Shr => ir::BinaryOperator::ShiftRight,
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: operators and conversions by their general paths only, to
    /// compare the fast paths with.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether operators and conversions may take their fast paths: always,
/// but in the tests that compare them with the general paths.
pub(in crate::sema) fn fast_paths() -> bool {
    #[cfg(test)]
    {
        !GENERAL_ONLY.with(std::cell::Cell::get)
    }
    #[cfg(not(test))]
    {
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::common;

    /// Operands of every kind the fast paths take or leave: mixed
    /// signedness, `bool`s, `half` and minimum precision, 64-bit types,
    /// vectors with scalars, one-component vectors, matrices, enums,
    /// literals of every kind, `precise`, shifts, casts and implicit
    /// conversions of constants.
    const VALID: &str = r#"
enum E { A, B = 3 };
cbuffer C {
    int i; uint u; float f; half h; min16float m; min16int mi; double d; bool b;
    int2 i2; uint2 u2; float3 f3; float4 f4; bool2 b2; float2x2 m2; int64_t l;
    uint64_t ul; float1 v1; int1 w1; E e;
};
RWStructuredBuffer<float4> Out;
[numthreads(1, 1, 1)]
void main() {
    int a0 = i + i; uint a1 = u * u; int a2 = i + u; uint a3 = u - i; bool a4 = i < u;
    float a5 = f * f; float a6 = f + i; half a7 = h * h; half a8 = h + f;
    min16float a9 = m * m; min16float a10 = m + 1; min16int a11 = mi / mi;
    double a12 = d / d; double a13 = d + f; int64_t a14 = l * l; int64_t a15 = l + i;
    uint64_t a16 = ul % ul; bool a17 = l == ul;
    int a18 = b + b; bool a19 = b == b; bool a20 = b && b; bool a21 = b || b;
    bool a22 = b != b; int a23 = b & b; bool a24 = b < b; bool a25 = i && f;
    int2 a26 = i2 * i2; int2 a27 = i2 * i; int2 a28 = i2 + 1; uint2 a29 = u2 & u2;
    uint2 a30 = u2 ^ 7u; bool2 a31 = i2 < i2; bool2 a32 = b2 == b2; bool2 a33 = !b2;
    bool2 a34 = b2 & b2; int2 a35 = b2 + b2; bool2 a36 = u2 >= u2; uint2 a37 = u2 | i2;
    float3 a38 = f3 * 2; float3 a39 = f3 - f3; float4 a40 = f4 / f4; bool4 a41 = f4 != f4;
    float a42 = f % f; float2x2 a43 = m2 * m2; float2x2 a44 = m2 + 1; bool2x2 a45 = m2 < m2;
    float1 a46 = v1 + v1; float a47 = v1 * f; int1 a48 = w1 - w1; bool1 a49 = w1 == w1;
    int a50 = 1 + 2; float a51 = 1.5 * 2; uint a52 = 3u - 5; int a53 = -1 % 3;
    float a54 = 1.0 / 3.0; uint a55 = 0xffffffff + 1u; int a56 = 7 - 7u; float a57 = 2.5f * 2.5h;
    precise float a58 = f * f + f; precise float3 a59 = f3 * f3;
    int a60 = A + B; int a61 = e + 1; int a62 = e | e; bool a63 = e == e; int a64 = e * e;
    uint a65 = u << 3; int a66 = i >> u; uint2 a67 = u2 << u2; int a68 = 1 << 31;
    int a69 = (int)2.5; uint a70 = (uint)-1; float a71 = float(3); bool a72 = (bool)2;
    half a73 = (half)1.1; int a74 = 3.7; bool a75 = 0; float a76 = true; E a77 = (E)1;
    int a78 = 3000000000; uint a79 = -1; float a80 = 16777217; double a81 = 0.1;
    int64_t a82 = 5000000000; half a83 = 65536.0; min16float a84 = 0.1; uint a85 = 2.9;
    int a86 = i + 2.5; float a87 = f + 1u; uint a88 = u + true; float a89 = f3.x * 0.5h;
    Out[0] = float4(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12,
        a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25,
        dot(a26 + a27 + a28 + a29 + a30 + a31 + a32 + a33 + a34 + a35 + a36 + a37, 1),
        a38.x + a39.y + a40.z + a41.w + a42 + a43._11 + a44._22 + a45._12 + a46 + a47
            + a48 + a49 + a50 + a51 + a52 + a53 + a54 + a55 + a56 + a57 + a58 + a59.z
            + a60 + a61 + a62 + a63 + a64 + a65 + a66 + a67.y + a68 + a69 + a70 + a71
            + a72 + a73 + a74 + a75 + a76 + a77 + a78 + a79 + a80 + a81 + a82 + a83
            + a84 + a85 + a86 + a87 + a88 + a89);
}
"#;

    /// Operators and conversions that report errors or warnings.
    const INVALID: &str = r#"
struct S { int x; };
cbuffer C { int i; uint u; float f; float3 f3; float4 f4; float2 v2; S s; bool b; };
[numthreads(1, 1, 1)]
void main() {
    float a0 = f & f; float3 a1 = f3 | f3; int a2 = 7 / 0; int a3 = i % 0;
    float3 a4 = f3 + f4; float a5 = f3 * f3; float2 a6 = v2 ^ v2; int a7 = s + s;
    int a8 = i + s; float a9 = f << 1; bool a10 = f3 && f3; uint a11 = -2 - u;
    float a12 = f4; float3 a13 = (float3)f4 + f3 * f4; int a14 = 1 / (i - i);
    bool2 a15 = bool2(b, b) || bool2(b, b);
}
"#;

    /// The IR lowering gives `src`, its diagnostics and the SPIR-V of
    /// the whole compile, with or without the fast paths.
    fn outputs(src: &str, options: &crate::Options, general_only: bool) -> [String; 3] {
        super::GENERAL_ONLY.with(|g| g.set(general_only));
        let (loader, path) = common::single_file(src);
        let (c, module) = crate::compile_to_ir(&path, &loader, options);
        let ir = module.map(|m| crate::ir::display::module_to_string(&m));
        let full = crate::compile(&path, &loader, options);
        super::GENERAL_ONLY.with(|g| g.set(false));
        [
            format!("{ir:?}"),
            format!("{:?}", c.diagnostics.list),
            format!("{:?}", full.artifact.map(|a| a.spirv)),
        ]
    }

    /// The fast paths of binary operators and constant conversions give
    /// what the general paths give: the same IR, diagnostics and SPIR-V,
    /// with and without 16-bit types, in HLSL 2018 and 2021.
    #[test]
    fn fast_paths_agree_with_the_general_paths() {
        for (src, valid) in [(VALID, true), (INVALID, false)] {
            for (enable_16bit, hlsl_version) in [(false, 2021), (true, 2021), (false, 2018)] {
                let mut o = common::options_for("cs_6_0");
                o.enable_16bit_types = enable_16bit;
                o.hlsl_version = hlsl_version;
                let fast = outputs(src, &o, false);
                let general = outputs(src, &o, true);
                let what = format!("16-bit {enable_16bit}, HLSL {hlsl_version}");
                assert_eq!(fast, general, "{what}");
                // The valid source compiles; the other reports errors.
                assert_eq!(fast[2] != "None", valid, "{what}: {}", fast[1]);
            }
        }
    }
}
