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
    }
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
