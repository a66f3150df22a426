//! `algebra`: algebraic simplifications that keep results bit-exact, plus
//! the division rewrite D3D allows.
//!
//! On non-precise expressions:
//! - canonical operand order: a constant operand of a commutative operation
//!   (`+ * & | ^ == != && ||`) moves to the right (exact in IEEE too);
//! - identities that hold bit for bit: for every type `x * 1`, `x / 1`; for
//!   integers also `x + 0`, `x - 0`, `x | 0`, `x ^ 0`, `x << 0`, `x >> 0`,
//!   `x & ~0`, `x * 0 = 0`, `x & 0 = 0`, `x - x = 0`, `x ^ x = 0`; for floats
//!   `x + (-0.0)`, `x - (+0.0)` and `x * -1 = -x` (not `x * 0`, `x - x` or
//!   `x + 0.0`: NaN, infinities and signed zeros make them wrong);
//!   `-(-x) = x`, `!!b = b`;
//! - integer constant chains `(x + 1) + 2 → x + 3` (also `* & | ^`), which
//!   wraparound keeps exact. Floats are not reassociated: `(x + 1) + 2` and
//!   `x + 3` round differently, and DXC (LLVM without fast-math) does not
//!   do it either;
//! - strength reduction: `x * 2^k → x << k` (integers), and for unsigned
//!   `x / 2^k → x >> k`, `x % 2^k → x & (2^k - 1)`;
//! - `x / c → x * (1/c)` for a float constant `c` when `1/c` is a finite,
//!   normal number: D3D's `div` permits `a * (1/b)`;
//! - on every expression (they only move values): a swizzle or constant
//!   index of a compose, splat or swizzle picks the components directly
//!   (`float3(v, 0).xy → v`), and a vector composed of lanes of one vector
//!   is a swizzle of it (`float2(v.x, v.y) → v.xy`).
//!
//! On precise expressions only one rewrite is made: `x / c → x * (1/c)`
//! when `c` is a power of two whose reciprocal is normal, because then
//! both compute the exact same value for every `x` (a scaling by a power of
//! two rounds once, the same way). Nothing else touches a precise
//! expression's operation or operand order.
//!
//! The rules run inside `forward`'s walk (from -O2: one rebuild for both),
//! or on their own on a function `forward` leaves alone. They rebuild
//! expression arenas: handles change.

use super::const_fold::eval::{self, FloatEnv};
use super::rewrite::{Cx, Emitted, Rewrite, rebuild_function};
use crate::ir::*;
use crate::span::Span;
use BinaryOperator as B;

/// Simplifies function `h` (`forward` applies the same rules in its own
/// walk to the functions it rebuilds).
pub(super) fn run_function(module: &mut Module, h: Handle<Function>) {
    rebuild_function(module, h, &mut Algebra);
}

struct Algebra;

impl Rewrite for Algebra {
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        Some(emit(cx, e.expr, e.ty, e.span))
    }
}

/// Appends `expr` (operands in the new arena), simplified when it can be.
pub(super) fn emit(cx: &mut Cx, expr: Expression, ty: Handle<Type>, span: Span) -> Handle<Expression> {
    if let Some(h) = composite::simplify(cx, &expr, ty, span) {
        return h;
    }
    if let Expression::Compose { ty, ref components } = expr
        && let Some(h) = regroup(cx, ty, components, span)
    {
        return h;
    }
    match simplify(cx, &expr, ty, span) {
        Some(h) => h,
        None => cx.emit(expr, ty, span),
    }
}

/// Whether old expression `e`, its operands mapped to the new arena by
/// `cx`, is one that neither `const_fold`'s rules (which need a constant
/// operand) nor [`emit`]'s change: `forward` then appends it as it is,
/// without handing it through them. Errs on the side of `false`, which
/// only costs the full check; kept in step with `simplify`, the
/// composite shortcuts and `const_fold::may_fold`.
pub(super) fn leaves_alone(cx: &Cx, e: &Expression) -> bool {
    // What `may_fold` takes for a constant; a superset of `constant`.
    let folds = |old: Handle<Expression>| {
        matches!(
            cx.expr(cx.map(old)),
            Expression::Literal(_)
                | Expression::ZeroValue(_)
                | Expression::Constant(_)
                | Expression::Splat { .. }
                | Expression::Compose { .. }
        )
    };
    match *e {
        // Every rule needs a constant operand, or the same one twice.
        Expression::Binary { left, right, .. } => {
            !folds(left) && !folds(right) && cx.map(left) != cx.map(right)
        }
        // `-(-x)`, `!!b`, `~~x`.
        Expression::Unary { expr, .. } => {
            !folds(expr) && !matches!(cx.expr(cx.map(expr)), Expression::Unary { .. })
        }
        Expression::As { expr, .. } => !folds(expr),
        Expression::Relational { argument, .. } => !folds(argument),
        Expression::Select { condition, .. } => !folds(condition),
        Expression::Math { ref args, .. } => !args.iter().all(|&a| folds(a)),
        Expression::Swizzle { .. } | Expression::AccessIndex { .. } | Expression::Compose { .. } => {
            composite::leaves_alone(cx, e)
        }
        Expression::Access { .. }
        | Expression::Splat { .. }
        | Expression::Derivative { .. }
        | Expression::ImageSample(_)
        | Expression::ImageLoad { .. }
        | Expression::ImageQuery { .. }
        | Expression::NonUniform { .. }
        | Expression::ArrayLength { .. } => true,
        // Loads (`forward`'s own), and the rest.
        _ => false,
    }
}

/// A vector composed of the components of other vectors, in order
/// (`float4(v.x, v.y, v.z, 1)` as sema lowers `float4(v, 1)`): composed of
/// those vectors (`float4(v, 1)`), or the vector itself when it is all of
/// it. `None` when no run of components is a whole vector.
fn regroup(
    cx: &mut Cx,
    ty: Handle<Type>,
    components: &[Handle<Expression>],
    span: Span,
) -> Option<Handle<Expression>> {
    let TypeInner::Vector { scalar, .. } = cx.module.types[ty].inner else {
        return None;
    };
    let mut out = Vec::with_capacity(components.len());
    let mut i = 0;
    while i < components.len() {
        let c = components[i];
        if let Expression::AccessIndex { base, index: 0 } = *cx.expr(c)
            && let TypeInner::Vector { size, scalar: s } = *cx.inner(base)
            && s == scalar
            && components.len() - i >= size as usize
            && (1..size as u32).all(|k| {
                matches!(*cx.expr(components[i + k as usize]),
                    Expression::AccessIndex { base: b, index } if b == base && index == k)
            })
        {
            out.push(base);
            i += size as usize;
        } else {
            out.push(c);
            i += 1;
        }
    }
    if out.len() == components.len() {
        return None;
    }
    if let [whole] = out[..]
        && cx.ty(whole) == ty
    {
        return Some(whole);
    }
    Some(cx.emit(
        Expression::Compose {
            ty,
            components: out,
        },
        ty,
        span,
    ))
}

/// The scalar constant of a literal or a splat of one.
fn constant(cx: &Cx, h: Handle<Expression>) -> Option<Literal> {
    match *cx.expr(h) {
        Expression::Literal(l) => Some(l),
        Expression::Splat { value, .. } => cx.as_literal(value),
        _ => None,
    }
}

/// A constant of type `ty` (a literal, or a splat for vectors).
fn make_constant(cx: &mut Cx, lit: Literal, ty: Handle<Type>, span: Span) -> Handle<Expression> {
    let value = cx.literal(lit);
    match cx.module.types[ty].inner {
        TypeInner::Vector { size, .. } => cx.emit(Expression::Splat { size, value }, ty, span),
        _ => value,
    }
}

fn scalar_of(cx: &Cx, ty: Handle<Type>) -> Option<Scalar> {
    match cx.module.types[ty].inner {
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => Some(s),
        _ => None,
    }
}

/// The integer value of a literal, for identity tests.
fn int_value(l: Literal) -> Option<i128> {
    Some(match l {
        Literal::I16(v) => v as i128,
        Literal::U16(v) => v as i128,
        Literal::I32(v) => v as i128,
        Literal::U32(v) => v as i128,
        Literal::I64(v) => v as i128,
        Literal::U64(v) => v as i128,
        _ => return None,
    })
}

/// An integer literal of the same type as `like`.
fn int_like(like: Literal, v: i128) -> Literal {
    match like {
        Literal::I16(_) => Literal::I16(v as i16),
        Literal::U16(_) => Literal::U16(v as u16),
        Literal::I32(_) => Literal::I32(v as i32),
        Literal::U32(_) => Literal::U32(v as u32),
        Literal::I64(_) => Literal::I64(v as i64),
        _ => Literal::U64(v as u64),
    }
}

fn float_value(l: Literal) -> Option<f64> {
    Some(match l {
        Literal::F16(b) => float::f16_to_f64(b),
        Literal::F32(b) => f32::from_bits(b) as f64,
        Literal::F64(b) => f64::from_bits(b),
        _ => return None,
    })
}

/// True if the float literal is ±2^k (normal) — its reciprocal is then
/// exact whenever it is itself normal.
fn is_power_of_two(l: Literal) -> bool {
    match l {
        Literal::F16(b) => b & 0x3ff == 0 && b & 0x7c00 != 0 && b & 0x7c00 != 0x7c00,
        Literal::F32(b) => {
            b & 0x7f_ffff == 0 && b & 0x7f80_0000 != 0 && b & 0x7f80_0000 != 0x7f80_0000
        }
        Literal::F64(b) => {
            let e = b & 0x7ff0_0000_0000_0000;
            b & 0xf_ffff_ffff_ffff == 0 && e != 0 && e != 0x7ff0_0000_0000_0000
        }
        _ => false,
    }
}

fn is_normal(l: Literal) -> bool {
    match l {
        Literal::F16(b) => b & 0x7c00 != 0 && b & 0x7c00 != 0x7c00,
        Literal::F32(b) => f32::from_bits(b).is_normal(),
        Literal::F64(b) => f64::from_bits(b).is_normal(),
        _ => false,
    }
}

fn one_like(l: Literal) -> Literal {
    match l {
        Literal::F16(_) => Literal::F16(0x3c00),
        Literal::F32(_) => Literal::f32(1.0),
        Literal::F64(_) => Literal::f64(1.0),
        other => int_like(other, 1),
    }
}

fn binary(
    cx: &mut Cx,
    op: BinaryOperator,
    left: Handle<Expression>,
    right: Handle<Expression>,
    ty: Handle<Type>,
    span: Span,
    precise: bool,
) -> Handle<Expression> {
    cx.emit(
        Expression::Binary {
            op,
            left,
            right,
            precise,
        },
        ty,
        span,
    )
}

fn simplify(
    cx: &mut Cx,
    e: &Expression,
    ty: Handle<Type>,
    span: Span,
) -> Option<Handle<Expression>> {
    match *e {
        Expression::Binary {
            op,
            left,
            right,
            precise,
        } => {
            if precise {
                return exact_division(cx, op, left, right, ty, span);
            }
            simplify_binary(cx, op, left, right, ty, span)
        }
        Expression::Unary {
            op,
            expr,
            precise: false,
        } => match *cx.expr(expr) {
            Expression::Unary {
                op: inner_op,
                expr: inner,
                ..
            } if inner_op == op
                && matches!(
                    op,
                    UnaryOperator::Negate | UnaryOperator::LogicalNot | UnaryOperator::BitwiseNot
                ) =>
            {
                Some(inner)
            }
            _ => None,
        },
        _ => None,
    }
}

/// `x / 2^k → x * 2^-k` (also on precise expressions: bit-identical).
fn exact_division(
    cx: &mut Cx,
    op: BinaryOperator,
    left: Handle<Expression>,
    right: Handle<Expression>,
    ty: Handle<Type>,
    span: Span,
) -> Option<Handle<Expression>> {
    if op != B::Divide || cx.ty(left) != ty || cx.ty(right) != ty {
        return None;
    }
    let c = constant(cx, right)?;
    if !is_power_of_two(c) {
        return None;
    }
    let r = eval::binary(B::Divide, one_like(c), c, true, FloatEnv::default()).ok()??;
    if !is_normal(r) {
        return None;
    }
    let rc = make_constant(cx, r, ty, span);
    Some(binary(cx, B::Multiply, left, rc, ty, span, true))
}

fn simplify_binary(
    cx: &mut Cx,
    op: BinaryOperator,
    mut left: Handle<Expression>,
    mut right: Handle<Expression>,
    ty: Handle<Type>,
    span: Span,
) -> Option<Handle<Expression>> {
    let commutative = matches!(
        op,
        B::Add
            | B::Multiply
            | B::And
            | B::InclusiveOr
            | B::ExclusiveOr
            | B::Equal
            | B::NotEqual
            | B::LogicalAnd
            | B::LogicalOr
    );
    let mut swapped = false;
    if commutative && constant(cx, left).is_some() && constant(cx, right).is_none() {
        std::mem::swap(&mut left, &mut right);
        swapped = true;
    }
    if let Some(r) = unsigned_against_zero(cx, op, left, right) {
        return Some(make_constant(cx, Literal::Bool(r), ty, span));
    }
    let scalar = scalar_of(cx, ty);
    let same = cx.ty(left) == ty;
    let result = match scalar.map(|s| s.kind) {
        Some(ScalarKind::Sint | ScalarKind::Uint) => int_rules(cx, op, left, right, ty, span, same),
        Some(ScalarKind::Float) => float_rules(cx, op, left, right, ty, span, same),
        _ => None,
    };
    match result {
        Some(h) => Some(h),
        None if swapped => Some(binary(cx, op, left, right, ty, span, false)),
        None => None,
    }
}

/// An unsigned value against zero: `x < 0` is false, `x >= 0` true, and
/// the same with zero on the left.
fn unsigned_against_zero(
    cx: &Cx,
    op: BinaryOperator,
    left: Handle<Expression>,
    right: Handle<Expression>,
) -> Option<bool> {
    let unsigned = scalar_of(cx, cx.ty(left)).is_some_and(|s| s.kind == ScalarKind::Uint);
    let zero = |h| constant(cx, h).and_then(int_value) == Some(0);
    match op {
        B::Less if unsigned && zero(right) => Some(false),
        B::GreaterEqual if unsigned && zero(right) => Some(true),
        B::Greater if unsigned && zero(left) => Some(false),
        B::LessEqual if unsigned && zero(left) => Some(true),
        _ => None,
    }
}

fn int_rules(
    cx: &mut Cx,
    op: BinaryOperator,
    left: Handle<Expression>,
    right: Handle<Expression>,
    ty: Handle<Type>,
    span: Span,
    same: bool,
) -> Option<Handle<Expression>> {
    let unsigned = scalar_of(cx, ty).is_some_and(|s| s.kind == ScalarKind::Uint);
    // x - x = 0, x ^ x = 0.
    if left == right && matches!(op, B::Subtract | B::ExclusiveOr) && same {
        let l = Literal::zero(scalar_of(cx, ty)?)?;
        return Some(make_constant(cx, l, ty, span));
    }
    let c = constant(cx, right)?;
    let v = int_value(c)?;
    let bits = match c {
        Literal::I16(_) | Literal::U16(_) => 16,
        Literal::I32(_) | Literal::U32(_) => 32,
        _ => 64,
    };
    let all_ones = (1i128 << bits) - 1;
    let is_all_ones = v == -1 || v == all_ones;
    match op {
        B::Add | B::Subtract | B::InclusiveOr | B::ExclusiveOr | B::ShiftLeft | B::ShiftRight
            if v == 0 && same =>
        {
            return Some(left);
        }
        B::Multiply | B::Divide if v == 1 && same => return Some(left),
        B::And if is_all_ones && same => return Some(left),
        B::Multiply | B::And if v == 0 => return Some(make_constant(cx, c, ty, span)),
        _ => {}
    }
    // (x op c1) op c2 → x op (c1 op c2) for associative, commutative ops.
    if matches!(
        op,
        B::Add | B::Multiply | B::And | B::InclusiveOr | B::ExclusiveOr
    ) && let Expression::Binary {
        op: inner_op,
        left: x,
        right: c1h,
        precise: false,
    } = *cx.expr(left)
        && inner_op == op
        && let Some(c1) = constant(cx, c1h)
        && cx.ty(x) == ty
        && cx.ty(c1h) == cx.ty(right)
        && let Ok(Some(c12)) = eval::binary(op, c1, c, false, FloatEnv::default())
    {
        let k = make_constant(cx, c12, ty, span);
        return Some(binary(cx, op, x, k, ty, span, false));
    }
    // Strength reduction by powers of two.
    if v > 1 && (v & (v - 1)) == 0 && same {
        let k = v.trailing_zeros() as i128;
        let (new_op, amount) = match op {
            B::Multiply => (B::ShiftLeft, k),
            B::Divide if unsigned => (B::ShiftRight, k),
            B::Modulo if unsigned => (B::And, v - 1),
            _ => return None,
        };
        let a = make_constant(cx, int_like(c, amount), ty, span);
        return Some(binary(cx, new_op, left, a, ty, span, false));
    }
    None
}

fn float_rules(
    cx: &mut Cx,
    op: BinaryOperator,
    left: Handle<Expression>,
    right: Handle<Expression>,
    ty: Handle<Type>,
    span: Span,
    same: bool,
) -> Option<Handle<Expression>> {
    let c = constant(cx, right)?;
    let v = float_value(c)?;
    let negative_zero = v == 0.0 && v.is_sign_negative();
    let positive_zero = v == 0.0 && !v.is_sign_negative();
    match op {
        B::Multiply | B::Divide if v == 1.0 && same => return Some(left),
        B::Add if negative_zero && same => return Some(left),
        B::Subtract if positive_zero && same => return Some(left),
        B::Multiply if v == -1.0 && same => {
            return Some(cx.emit(
                Expression::Unary {
                    op: UnaryOperator::Negate,
                    expr: left,
                    precise: false,
                },
                ty,
                span,
            ));
        }
        B::Divide if same && cx.ty(right) == ty => {
            // D3D allows a / b as a * (1 / b); keep 1/c finite and normal so
            // the rewrite does not flush or overflow where a / c would not.
            let r = eval::binary(B::Divide, one_like(c), c, false, FloatEnv::default()).ok()??;
            if !is_normal(r) {
                return None;
            }
            let rc = make_constant(cx, r, ty, span);
            return Some(binary(cx, B::Multiply, left, rc, ty, span, false));
        }
        _ => {}
    }
    None
}

pub(super) mod composite;
#[cfg(test)]
mod tests;
