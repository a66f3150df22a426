//! `fuse_mad`: `a * b + c` and `c + a * b` → `fma(a, b, c)` (float scalars
//! and vectors), at -O1 and above.
//!
//! Only when neither the multiply nor the add is precise, the multiply has
//! no other use, and `a`, `b` and `c` all have the result's type (a scalar
//! times a vector is left alone). A fused multiply-add rounds once, so it
//! changes results: that is exactly what `precise` forbids, and why a
//! precise expression is never fused. An explicit `mad()` (sema lowers it to
//! `Fma`) that is precise stays an `Fma`; the backend decorates it
//! `NoContraction` like every precise result, as DXC does. `a * b - c` is
//! not fused (it would need a new negation).
//!
//! Then what is left of `v * splat(s)` multiplies by `s` itself (the
//! backend's OpVectorTimesScalar, as DXC and spirv-opt write it; precise
//! or not, the same operation), and a matrix composed of its rows times
//! one scalar becomes the matrix times it (OpMatrixTimesScalar).
//!
//! The add is rewritten in place; the multiply is left dead for `dce`.
//! Use counts are computed per function and kept up to date; nothing else
//! is invalidated.

use super::rewrite::use_counts;
use crate::ir::*;

/// Fuses multiply-adds in every function.
pub fn run(module: &mut Module) {
    let types = &module.types;
    for (_, f) in module.functions.iter_mut() {
        let mut uses = use_counts(f);
        for h in f.expressions.handles() {
            let Expression::Binary {
                op: BinaryOperator::Add,
                left,
                right,
                precise: false,
            } = f.expressions[h]
            else {
                continue;
            };
            let ty = f.expr_type(h);
            let float = match types[ty].inner {
                TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => {
                    s.kind == ScalarKind::Float
                }
                _ => false,
            };
            if !float {
                continue;
            }
            for (mul, addend) in [(left, right), (right, left)] {
                let Expression::Binary {
                    op: BinaryOperator::Multiply,
                    left: a,
                    right: b,
                    precise: false,
                } = f.expressions[mul]
                else {
                    continue;
                };
                if uses[mul.index()] != 1
                    || f.expr_type(a) != ty
                    || f.expr_type(b) != ty
                    || f.expr_type(addend) != ty
                {
                    continue;
                }
                f.expressions[h] = Expression::Math {
                    fun: MathFunction::Fma,
                    args: vec![a, b, addend],
                    precise: false,
                };
                uses[mul.index()] = 0;
                uses[a.index()] += 1;
                uses[b.index()] += 1;
                break;
            }
        }
        scale_by_scalars(types, f);
    }
}

/// What is left of `v * splat(s)` on floats multiplies by `s` itself
/// (OpVectorTimesScalar); a matrix composed of its rows each times the
/// same splat is the matrix times the scalar (OpMatrixTimesScalar). The
/// same operation and rounding, precise or not. After fusing, which
/// needs operands of one type; the splats and rows left unused go in
/// `dce`.
fn scale_by_scalars(types: &UniqueArena<Type>, f: &mut Function) {
    let float_vector = |ty: Handle<Type>| {
        matches!(types[ty].inner, TypeInner::Vector { scalar, .. } if scalar.kind == ScalarKind::Float)
    };
    for h in f.expressions.handles() {
        match f.expressions[h] {
            Expression::Binary {
                op: BinaryOperator::Multiply,
                left,
                right,
                precise,
            } if float_vector(f.expr_type(h)) => {
                let splat = |x: Handle<Expression>| match f.expressions[x] {
                    Expression::Splat { value, .. } => Some(value),
                    _ => None,
                };
                let (left, right) = match (splat(left), splat(right)) {
                    (None, Some(s)) => (left, s),
                    (Some(s), None) => (s, right),
                    _ => continue,
                };
                f.expressions[h] = Expression::Binary {
                    op: BinaryOperator::Multiply,
                    left,
                    right,
                    precise,
                };
            }
            Expression::Compose { ty, ref components } => {
                if let Some(scaled) = matrix_times_scalar(types, f, ty, components) {
                    f.expressions[h] = scaled;
                }
            }
            _ => {}
        }
    }
}

/// `compose(m[0] * s, m[1] * s, …)` of a float matrix type, every row
/// of `m` in order times one scalar `s` (already rewritten from a splat
/// above; on either side), all precise or none: `m * s`.
fn matrix_times_scalar(
    types: &UniqueArena<Type>,
    f: &Function,
    ty: Handle<Type>,
    components: &[Handle<Expression>],
) -> Option<Expression> {
    let TypeInner::Matrix {
        rows,
        columns,
        scalar,
    } = types[ty].inner
    else {
        return None;
    };
    // (A matrix of one row or column is a vector in SPIR-V.)
    if scalar.kind != ScalarKind::Float
        || rows < 2
        || columns < 2
        || components.len() != rows as usize
    {
        return None;
    }
    let mut found: Option<(Handle<Expression>, Handle<Expression>, bool)> = None;
    for (i, &c) in components.iter().enumerate() {
        let Expression::Binary {
            op: BinaryOperator::Multiply,
            left,
            right,
            precise,
        } = f.expressions[c]
        else {
            return None;
        };
        let (row, s) = match types[f.expr_type(left)].inner {
            TypeInner::Scalar(_) => (right, left),
            _ => (left, right),
        };
        let Expression::AccessIndex { base, index } = f.expressions[row] else {
            return None;
        };
        if index != i as u32
            || f.expr_type(base) != ty
            || !matches!(types[f.expr_type(s)].inner, TypeInner::Scalar(_))
        {
            return None;
        }
        match found {
            None => found = Some((base, s, precise)),
            Some(prev) if prev == (base, s, precise) => {}
            Some(_) => return None,
        }
    }
    let (base, s, precise) = found?;
    Some(Expression::Binary {
        op: BinaryOperator::Multiply,
        left: base,
        right: s,
        precise,
    })
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::ir::build::FunctionBuilder;
    use crate::ir::display::module_to_string;
    use crate::ir::*;
    use crate::passes::test_util::{check_valid, private_float};
    use BinaryOperator::*;

    fn build(precise_mul: bool, precise_add: bool, second_use: bool) -> Module {
        let mut m = Module::default();
        let (_, out) = private_float(&mut m, "out");
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let o = fb.global(out);
        let x = fb.load(o);
        let mul = fb.binary(Multiply, x, x);
        let one = fb.f32(1.0);
        let add = fb.binary(Add, one, mul);
        for (h, p) in [(mul, precise_mul), (add, precise_add)] {
            if let Expression::Binary { precise, .. } = &mut fb.body.function.expressions[h] {
                *precise = p;
            }
        }
        fb.store(o, add);
        if second_use {
            fb.store(o, mul);
        }
        fb.finish();
        m
    }

    #[test]
    fn fuses_plain_multiply_add() {
        let mut m = build(false, false, false);
        run(&mut m);
        check_valid(&m);
        let text = module_to_string(&m);
        assert!(text.contains("= fma %1, %1, 1.0f32"), "{text}");
    }

    #[test]
    fn never_fuses_precise_or_shared_multiplies() {
        for (pm, pa, second) in [
            (true, false, false),
            (false, true, false),
            (false, false, true),
        ] {
            let mut m = build(pm, pa, second);
            run(&mut m);
            check_valid(&m);
            let text = module_to_string(&m);
            assert!(!text.contains("fma"), "{pm} {pa} {second}: {text}");
        }
    }
}
