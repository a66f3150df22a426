//! `const_fold`: evaluates operations whose operands are constants.
//!
//! Folds `Binary`, `Unary`, value conversions and bit casts (`As`), a few
//! `Math` functions (`abs`, `min`, `max`, `clamp`, `saturate`, `floor`,
//! `ceil`, `trunc`, `round`, `sqrt`, `fma`), `isnan`/`isinf`/`all`/`any`,
//! component-wise on vectors (a scalar operand of a vector `Multiply` is
//! broadcast), and the structural forms: `Swizzle` and `AccessIndex` of a
//! constant vector, `AccessIndex` of a `Compose` (constant or not), `Select`
//! with a constant condition. At -O1 and above, an `if` with a constant
//! condition is replaced by the branch taken. Operands may be literals,
//! `Splat`/`Compose` of literals, `ZeroValue`s and module constants.
//!
//! Floats follow IEEE 754 exactly, in binary16/32/64: round to nearest even,
//! signed zeros, infinities, overflow to infinity, denormals (flushed to
//! zero of the same sign, inputs and results, for 32-bit floats under
//! `-denorm ftz`, as the DenormFlushToZero mode makes the machine do).
//! binary16 is computed in binary64 and rounded once, which is exact for
//! `+ - * / sqrt` (53 ≥ 2·11 + 2 bits). What is not folded: anything whose
//! SPIR-V result is undefined (float→int out of range or NaN, integer `MIN /
//! -1`, `fmod` by zero, `min`/`max`/`clamp` with a NaN, and `min`/`max` of
//! `-0` and `+0`, which hardware may order either way) and float
//! comparisons with a NaN operand (the ordered and unordered forms differ
//! there). A NaN result folds to the canonical quiet NaN (`0x7e00`,
//! `0x7fc00000`, `0x7ff8000000000000`): a GPU may produce any NaN, so no
//! payload can be promised.
//!
//! Integers wrap (two's complement); `/` truncates and `%` takes the
//! dividend's sign (OpSDiv/OpSRem); shift amounts are masked to the width as
//! HLSL (and DXC) do. An integer division or remainder by a constant zero is
//! an error (E0701), as in DXC, and is not folded.
//!
//! Precise expressions fold only when the result is exactly what the
//! machine computes: `+ - * /`, negation, conversions and comparisons are
//! correctly rounded IEEE operations. A precise float `%`, `sqrt` or `fma`
//! is not folded (Vulkan does not make them correctly rounded). Folding never
//! rewrites `a / b` as `a * (1 / b)`.
//!
//! The pass rebuilds each function's expression arena: handles change.

#[cfg(test)]
mod tests;

pub mod eval;

use super::rewrite::{Cx, Emitted, Rewrite, rebuild_function};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::*;
use crate::span::Span;
use eval::{FloatEnv, FoldError};

/// How `const_fold` runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct FoldOptions {
    pub env: FloatEnv,
    /// Replace an `if` with a constant condition by the branch taken (-O1+).
    pub fold_branches: bool,
}

impl FoldOptions {
    pub fn from_pipeline(o: &super::PipelineOptions) -> Self {
        FoldOptions {
            env: FloatEnv {
                flush_f32_denormals: o.denorm == Some(crate::passes::DenormMode::Ftz),
            },
            fold_branches: o.opt_level >= 1,
        }
    }
}

/// Folds constants in every function of `module`.
pub fn run(module: &mut Module, options: &FoldOptions, diags: &mut Diagnostics) {
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    for h in handles {
        run_function(module, h, options, diags);
    }
}

/// Folds the functions that `forward` cannot fold as well (-O1 and up,
/// where `forward` runs next and folds every expression it rebuilds with
/// these rules: a rebuild here first would be done twice). Returns, per
/// function, whether it was left to `forward`.
pub fn run_before_forward(
    module: &mut Module,
    options: &FoldOptions,
    diags: &mut Diagnostics,
) -> Vec<bool> {
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    let mut left = vec![false; handles.len()];
    for h in handles {
        if foldable_later(module, &module.functions[h]) {
            left[h.index()] = true;
        } else {
            run_function(module, h, options, diags);
        }
    }
    left
}

/// Whether folding `f` can wait for `forward`: no `if` condition may
/// fold to a constant (its branch goes first, so that forwarding sees
/// straight code), and no integer division or remainder has a divisor
/// that may fold to zero (the error is reported here, at every level:
/// `forward` folds silently).
fn foldable_later(module: &Module, f: &Function) -> bool {
    let mut constant_condition = false;
    crate::ir::visit::walk_statements(&f.body, |s| {
        if let Statement::If { condition, .. } = s {
            constant_condition |= may_be_constant(f, *condition, 0);
        }
    });
    if constant_condition {
        return false;
    }
    !f.expressions.iter().any(|(h, e)| match *e {
        Expression::Binary {
            op: BinaryOperator::Divide | BinaryOperator::Modulo,
            right,
            ..
        } => integer(module, f.expr_type(h)) && may_fold_to_zero(f, right, 0),
        _ => false,
    })
}

/// Whether values of type `ty` are integers (scalars or vectors).
fn integer(module: &Module, ty: Handle<Type>) -> bool {
    let scalar = match module.types[ty].inner {
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => s,
        _ => return false,
    };
    matches!(scalar.kind, ScalarKind::Sint | ScalarKind::Uint)
}

/// Whether folding may make `h` a constant: never what is read or
/// computed at run time (a load, an argument, a statement's result), nor
/// an operation on such a value; maybe the rest (a part picked from a
/// composite, a choice between values).
fn may_be_constant(f: &Function, h: Handle<Expression>, depth: u32) -> bool {
    if depth > 8 {
        return true;
    }
    let may = |o| may_be_constant(f, o, depth + 1);
    match f.expressions[h] {
        ref e if e.is_statement_result() => false,
        Expression::Load { .. }
        | Expression::FunctionArgument(_)
        | Expression::LocalVariable(_)
        | Expression::GlobalVariable(_) => false,
        Expression::Select {
            condition,
            accept,
            reject,
        } => may(condition) && (may(accept) || may(reject)),
        Expression::AccessIndex { base, .. }
            if matches!(f.expressions[base], Expression::Compose { .. }) =>
        {
            true
        }
        ref e => {
            let mut all = true;
            e.for_each_operand(|o| all &= may(o));
            all
        }
    }
}

/// Whether folding may make `h` a constant with a zero component (not a
/// non-zero literal, nor what [`may_be_constant`] rules out).
fn may_fold_to_zero(f: &Function, h: Handle<Expression>, depth: u32) -> bool {
    match f.expressions[h] {
        Expression::Literal(l) => Literal::zero(l.scalar()) == Some(l),
        Expression::Splat { value, .. } if depth < 8 => may_fold_to_zero(f, value, depth + 1),
        Expression::Compose { ref components, .. } if depth < 8 => components
            .iter()
            .any(|&c| may_fold_to_zero(f, c, depth + 1)),
        _ => may_be_constant(f, h, depth),
    }
}

/// Folds function `h`.
pub(super) fn run_function(
    module: &mut Module,
    h: Handle<Function>,
    options: &FoldOptions,
    diags: &mut Diagnostics,
) {
    rebuild_function(module, h, &mut Folder::new(options, diags));
}

/// A constant value: a scalar, or the components of a vector.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Scalar(Literal),
    Vector(Vec<Literal>),
}

impl Value {
    fn components(&self) -> &[Literal] {
        match self {
            Value::Scalar(l) => std::slice::from_ref(l),
            Value::Vector(v) => v,
        }
    }
}

/// The folding rewrite (also run by `forward` on the expressions it
/// reaches).
pub(super) struct Folder<'o> {
    options: &'o FoldOptions,
    diags: &'o mut Diagnostics,
}

impl<'o> Folder<'o> {
    pub(super) fn new(options: &'o FoldOptions, diags: &'o mut Diagnostics) -> Self {
        Folder { options, diags }
    }
}

/// The value of a zero of scalar or vector type `ty`.
fn zero_value(module: &Module, ty: Handle<Type>) -> Option<Value> {
    match module.types[ty].inner {
        TypeInner::Scalar(s) => Some(Value::Scalar(Literal::zero(s)?)),
        TypeInner::Vector { size, scalar } => {
            Some(Value::Vector(vec![Literal::zero(scalar)?; size as usize]))
        }
        _ => None,
    }
}

/// The value of a module constant expression (depth-limited: constants
/// are shallow, and a limit keeps a malformed module from recursing far).
fn const_expr_value(module: &Module, c: Handle<Expression>, depth: u32) -> Option<Value> {
    if depth > 16 {
        return None;
    }
    let ty = *module.const_types.get(c.index())?;
    // A specialization constant's value is chosen when the pipeline is made.
    if module.spec_constant(c).is_some() {
        return None;
    }
    match module.const_expressions.get(c)? {
        Expression::Literal(l) => Some(Value::Scalar(*l)),
        Expression::ZeroValue(t) => zero_value(module, *t),
        Expression::Constant(inner) => const_expr_value(module, *inner, depth + 1),
        Expression::Splat { size, value } => match const_expr_value(module, *value, depth + 1)? {
            Value::Scalar(l) => Some(Value::Vector(vec![l; *size as usize])),
            Value::Vector(_) => None,
        },
        Expression::Compose { components, .. } => {
            if !matches!(module.types[ty].inner, TypeInner::Vector { .. }) {
                return None;
            }
            let mut out = Vec::new();
            for &comp in components {
                out.extend_from_slice(const_expr_value(module, comp, depth + 1)?.components());
            }
            Some(Value::Vector(out))
        }
        _ => None,
    }
}

impl Folder<'_> {
    /// The constant value of a new-arena expression, if it has one.
    fn value(&self, cx: &Cx, h: Handle<Expression>) -> Option<Value> {
        match cx.expr(h) {
            Expression::Literal(l) => Some(Value::Scalar(*l)),
            Expression::ZeroValue(t) => zero_value(cx.module, *t),
            Expression::Constant(c) => const_expr_value(cx.module, *c, 0),
            Expression::Splat { size, value } => match cx.expr(*value) {
                Expression::Literal(l) => Some(Value::Vector(vec![*l; *size as usize])),
                _ => None,
            },
            Expression::Compose { components, .. } => {
                if !matches!(cx.inner(h), TypeInner::Vector { .. }) {
                    return None;
                }
                let mut out = Vec::new();
                for &c in components {
                    out.extend_from_slice(self.value(cx, c)?.components());
                }
                Some(Value::Vector(out))
            }
            _ => None,
        }
    }

    /// Emits a folded value of type `ty`.
    fn materialize(
        &self,
        cx: &mut Cx,
        v: Value,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        match v {
            Value::Scalar(l) => cx.literal(l),
            Value::Vector(ls) => {
                let size = ls.len() as u8;
                if ls.iter().all(|l| *l == ls[0]) {
                    let value = cx.literal(ls[0]);
                    cx.emit(Expression::Splat { size, value }, ty, span)
                } else {
                    let components = ls.into_iter().map(|l| cx.literal(l)).collect();
                    cx.emit(Expression::Compose { ty, components }, ty, span)
                }
            }
        }
    }

    /// Applies `f` component-wise; a scalar operand is broadcast.
    fn zip(
        a: &Value,
        b: &Value,
        mut f: impl FnMut(Literal, Literal) -> Result<Option<Literal>, FoldError>,
    ) -> Result<Option<Value>, FoldError> {
        match (a, b) {
            (Value::Scalar(x), Value::Scalar(y)) => Ok(f(*x, *y)?.map(Value::Scalar)),
            _ => {
                let (ac, bc) = (a.components(), b.components());
                let n = ac.len().max(bc.len());
                if (ac.len() != n && ac.len() != 1) || (bc.len() != n && bc.len() != 1) {
                    return Ok(None);
                }
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let x = ac[if ac.len() == 1 { 0 } else { i }];
                    let y = bc[if bc.len() == 1 { 0 } else { i }];
                    match f(x, y)? {
                        Some(l) => out.push(l),
                        None => return Ok(None),
                    }
                }
                Ok(Some(Value::Vector(out)))
            }
        }
    }

    fn map1(a: &Value, mut f: impl FnMut(Literal) -> Option<Literal>) -> Option<Value> {
        match a {
            Value::Scalar(x) => f(*x).map(Value::Scalar),
            Value::Vector(v) => v
                .iter()
                .map(|&x| f(x))
                .collect::<Option<Vec<_>>>()
                .map(Value::Vector),
        }
    }

    /// The folded value of `e`, an existing expression it reduces to, or
    /// nothing.
    fn fold(&mut self, cx: &Cx, e: &Expression, span: Span) -> Fold {
        use Expression as E;
        let env = self.options.env;
        match *e {
            E::Binary {
                op,
                left,
                right,
                precise,
            } => {
                if op == BinaryOperator::MatMul {
                    return Fold::None;
                }
                // The right operand only when the left one is constant
                // (most operations have a variable operand).
                let Some(a) = self.value(cx, left) else {
                    return Fold::None;
                };
                let Some(b) = self.value(cx, right) else {
                    return Fold::None;
                };
                match Self::zip(&a, &b, |x, y| eval::binary(op, x, y, precise, env)) {
                    Ok(Some(v)) => Fold::Value(v),
                    Ok(None) => Fold::None,
                    Err(FoldError::DivisionByZero) => {
                        let what = if op == BinaryOperator::Divide {
                            "division"
                        } else {
                            "remainder"
                        };
                        let mut d = Diagnostic::error(
                            codes::INTEGER_DIVISION_BY_ZERO,
                            format!("integer {what} by zero"),
                        );
                        if !span.is_dummy() {
                            d = d.label(span, "the divisor is a constant zero");
                        }
                        self.diags.push(d.note(
                            "SPIR-V leaves integer division by zero undefined (OpSDiv, OpUDiv, OpSRem, OpUMod)",
                        ));
                        Fold::None
                    }
                }
            }
            E::Unary { op, expr, .. } => match self.value(cx, expr) {
                Some(a) => Self::map1(&a, |x| eval::unary(op, x)).map_or(Fold::None, Fold::Value),
                None => Fold::None,
            },
            E::As {
                expr,
                kind,
                convert,
                ..
            } => match self.value(cx, expr) {
                Some(a) => Self::map1(&a, |x| eval::convert(x, kind, convert, env))
                    .map_or(Fold::None, Fold::Value),
                None => Fold::None,
            },
            E::Math {
                fun,
                ref args,
                precise,
            } => {
                let Some(vals) = args
                    .iter()
                    .map(|&a| self.value(cx, a))
                    .collect::<Option<Vec<_>>>()
                else {
                    return Fold::None;
                };
                let n = vals.iter().map(|v| v.components().len()).max().unwrap_or(1);
                let vector = vals.iter().any(|v| matches!(v, Value::Vector(_)));
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let comps: Option<Vec<Literal>> = vals
                        .iter()
                        .map(|v| {
                            let c = v.components();
                            c.get(if c.len() == 1 { 0 } else { i }).copied()
                        })
                        .collect();
                    match comps.and_then(|c| eval::math(fun, &c, precise, env)) {
                        Some(l) => out.push(l),
                        None => return Fold::None,
                    }
                }
                if vector {
                    Fold::Value(Value::Vector(out))
                } else {
                    out.pop()
                        .map_or(Fold::None, |l| Fold::Value(Value::Scalar(l)))
                }
            }
            E::Relational { fun, argument } => {
                let Some(a) = self.value(cx, argument) else {
                    return Fold::None;
                };
                let c = a.components();
                let is = |l: &Literal, test: fn(f64) -> bool| match *l {
                    Literal::F16(b) => Some(test(crate::ir::float::f16_to_f64(b))),
                    Literal::F32(b) => Some(test(f32::from_bits(b) as f64)),
                    Literal::F64(b) => Some(test(f64::from_bits(b))),
                    _ => None,
                };
                let v = match fun {
                    RelationalFunction::All | RelationalFunction::Any => {
                        let bs: Option<Vec<bool>> = c
                            .iter()
                            .map(|l| match l {
                                Literal::Bool(b) => Some(*b),
                                _ => None,
                            })
                            .collect();
                        let Some(bs) = bs else { return Fold::None };
                        let r = if fun == RelationalFunction::All {
                            bs.iter().all(|b| *b)
                        } else {
                            bs.iter().any(|b| *b)
                        };
                        return Fold::Value(Value::Scalar(Literal::Bool(r)));
                    }
                    RelationalFunction::IsNan => {
                        Self::map1(&a, |l| is(&l, f64::is_nan).map(Literal::Bool))
                    }
                    RelationalFunction::IsInf => {
                        Self::map1(&a, |l| is(&l, f64::is_infinite).map(Literal::Bool))
                    }
                };
                v.map_or(Fold::None, Fold::Value)
            }
            E::Select {
                condition,
                accept,
                reject,
            } => match self.value(cx, condition) {
                Some(Value::Scalar(Literal::Bool(c))) => {
                    Fold::Existing(if c { accept } else { reject })
                }
                Some(Value::Vector(cs)) if cs.iter().all(|c| *c == cs[0]) => match cs[0] {
                    Literal::Bool(c) => Fold::Existing(if c { accept } else { reject }),
                    _ => Fold::None,
                },
                _ => Fold::None,
            },
            E::Swizzle {
                size,
                vector,
                pattern,
            } => match self.value(cx, vector) {
                Some(Value::Vector(v)) => {
                    let picked: Option<Vec<Literal>> = pattern[..size as usize]
                        .iter()
                        .map(|c| v.get(*c as usize).copied())
                        .collect();
                    match picked {
                        Some(p) if size == 1 => Fold::Value(Value::Scalar(p[0])),
                        Some(p) => Fold::Value(Value::Vector(p)),
                        None => Fold::None,
                    }
                }
                _ => Fold::None,
            },
            E::AccessIndex { base, index } => self.fold_access_index(cx, base, index),
            _ => Fold::None,
        }
    }

    fn fold_access_index(&self, cx: &Cx, base: Handle<Expression>, index: u32) -> Fold {
        if let Some(Value::Vector(v)) = self.value(cx, base) {
            return v
                .get(index as usize)
                .map_or(Fold::None, |l| Fold::Value(Value::Scalar(*l)));
        }
        let Expression::Compose { ref components, .. } = *cx.expr(base) else {
            return Fold::None;
        };
        match cx.inner(base) {
            // A vector compose may mix scalars and vectors: find the part
            // that holds component `index`.
            TypeInner::Vector { .. } => {
                let mut at = 0u32;
                for &c in components {
                    match *cx.inner(c) {
                        TypeInner::Scalar(_) => {
                            if at == index {
                                return Fold::Existing(c);
                            }
                            at += 1;
                        }
                        TypeInner::Vector { size, .. } => {
                            if index < at + size as u32 {
                                return Fold::Component(c, index - at);
                            }
                            at += size as u32;
                        }
                        _ => return Fold::None,
                    }
                }
                Fold::None
            }
            _ => components
                .get(index as usize)
                .map_or(Fold::None, |&c| Fold::Existing(c)),
        }
    }
}

/// What an expression folds to.
enum Fold {
    None,
    Value(Value),
    /// An expression already in the new arena.
    Existing(Handle<Expression>),
    /// Component `n` of a vector already in the new arena.
    Component(Handle<Expression>, u32),
}

impl Rewrite for Folder<'_> {
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        match self.try_fold(cx, &e.expr, e.ty, e.span) {
            Some(h) => Some(h),
            None => Some(cx.keep(e)),
        }
    }

    fn constant_condition(&self, cx: &Cx, condition: Handle<Expression>) -> Option<bool> {
        if !self.options.fold_branches {
            return None;
        }
        match cx.as_literal(condition) {
            Some(Literal::Bool(b)) => Some(b),
            _ => None,
        }
    }
}

/// Whether [`Folder::fold`] may fold `e`: false when the operand it
/// reads first (the only one of most operations) cannot have a constant
/// value, which [`Folder::value`] finds only in literals, zero values,
/// constants, splats and composes. Most expressions fail here, before
/// the call.
#[inline]
fn may_fold(cx: &Cx, e: &Expression) -> bool {
    use Expression as E;
    let constant = |h: Handle<Expression>| {
        matches!(
            cx.expr(h),
            E::Literal(_) | E::ZeroValue(_) | E::Constant(_) | E::Splat { .. } | E::Compose { .. }
        )
    };
    match *e {
        E::Binary { op, left, .. } => op != BinaryOperator::MatMul && constant(left),
        E::Unary { expr, .. } | E::As { expr, .. } => constant(expr),
        E::Math { ref args, .. } => args.iter().all(|&a| constant(a)),
        E::Relational { argument, .. } => constant(argument),
        E::Select { condition, .. } => constant(condition),
        E::Swizzle { vector, .. } => constant(vector),
        E::AccessIndex { base, .. } => constant(base),
        _ => false,
    }
}

impl Folder<'_> {
    /// What `expr` folds to, appended; `None` (nothing appended) when it
    /// does not fold.
    #[inline]
    pub(super) fn try_fold(
        &mut self,
        cx: &mut Cx,
        expr: &Expression,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        if !may_fold(cx, expr) {
            return None;
        }
        self.fold_and_emit(cx, expr, ty, span)
    }

    /// [`Folder::try_fold`] of an expression that may fold.
    fn fold_and_emit(
        &mut self,
        cx: &mut Cx,
        expr: &Expression,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        Some(match self.fold(cx, expr, span) {
            Fold::None => return None,
            Fold::Value(v) => self.materialize(cx, v, ty, span),
            Fold::Existing(h) => h,
            Fold::Component(vector, index) => {
                // Access the component of the inner vector directly (and
                // fold again if that vector is itself constant).
                let e = Expression::AccessIndex {
                    base: vector,
                    index,
                };
                match self.fold(cx, &e, span) {
                    Fold::Value(v) => self.materialize(cx, v, ty, span),
                    Fold::Existing(h) => h,
                    _ => cx.emit(e, ty, span),
                }
            }
        })
    }
}
