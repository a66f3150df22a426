use super::eval::{self, FloatEnv, FoldError};
use crate::ir::float::f16_to_f64;
use crate::ir::{BinaryOperator, Literal, MathFunction, ScalarKind, UnaryOperator};
use BinaryOperator::*;
use std::cmp::Ordering;

mod ir_level;

const OPS: [BinaryOperator; 4] = [Add, Subtract, Multiply, Divide];

fn fold(op: BinaryOperator, a: Literal, b: Literal) -> Option<Literal> {
    eval::binary(op, a, b, false, FloatEnv::default()).expect("no error")
}

/// `a op b` in Rust's floating-point arithmetic (IEEE 754, round to
/// nearest even), for the four operators in `OPS`.
fn ieee<T>(op: BinaryOperator, a: T, b: T) -> T
where
    T: std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>,
{
    match op {
        Add => a + b,
        Subtract => a - b,
        Multiply => a * b,
        _ => a / b,
    }
}

/// Folding `a op b` in binary16 gives what `f16_reference` computes.
fn assert_f16_fold(op: BinaryOperator, a: u16, b: u16) {
    let got = fold(op, Literal::F16(a), Literal::F16(b));
    assert_eq!(
        got,
        Some(Literal::F16(f16_reference(op, a, b))),
        "{a:#06x} {op:?} {b:#06x}"
    );
}

/// The special values: −inf, −F, −denormal, −0, +0, +denormal, +F, +inf, NaN
/// (plus the largest finite, for overflow).
fn f32_specials() -> Vec<f32> {
    vec![
        f32::NEG_INFINITY,
        -1.5,
        -f32::from_bits(1),
        -f32::from_bits(0x007f_ffff),
        -0.0,
        0.0,
        f32::from_bits(1),
        f32::from_bits(0x0040_0000),
        2.5,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::INFINITY,
        f32::NAN,
    ]
}

fn canon32(v: f32) -> u32 {
    if v.is_nan() { 0x7fc0_0000 } else { v.to_bits() }
}
fn canon64(v: f64) -> u64 {
    if v.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        v.to_bits()
    }
}

/// Rust's f32/f64 arithmetic is IEEE 754 with round to nearest even: the
/// folds must agree bit for bit (NaNs canonical).
#[test]
fn f32_and_f64_special_values_match_ieee() {
    let s = f32_specials();
    for &a in &s {
        for &b in &s {
            for op in OPS {
                let want = ieee(op, a, b);
                let got = fold(op, Literal::f32(a), Literal::f32(b));
                assert_eq!(got, Some(Literal::F32(canon32(want))), "{a:e} {op:?} {b:e}");
                let (x, y) = (a as f64, b as f64);
                let want = ieee(op, x, y);
                let got = fold(op, Literal::f64(x), Literal::f64(y));
                assert_eq!(got, Some(Literal::F64(canon64(want))), "{x:e} {op:?} {y:e}");
            }
        }
    }
    // f64-only specials: denormals and the overflow edge.
    let d = [
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::MAX,
        f64::MIN_POSITIVE,
        1e-310,
    ];
    for &a in &d {
        for &b in &d {
            for op in OPS {
                let want = ieee(op, a, b);
                assert_eq!(
                    fold(op, Literal::f64(a), Literal::f64(b)),
                    Some(Literal::F64(canon64(want)))
                );
            }
        }
    }
}

/// Named IEEE facts, independent of Rust's arithmetic.
#[test]
fn ieee_facts() {
    let f = |op, a: f32, b: f32| fold(op, Literal::f32(a), Literal::f32(b));
    assert_eq!(f(Divide, 1.0, 0.0), Some(Literal::f32(f32::INFINITY)));
    assert_eq!(f(Divide, -1.0, 0.0), Some(Literal::f32(f32::NEG_INFINITY)));
    assert_eq!(f(Divide, 1.0, -0.0), Some(Literal::f32(f32::NEG_INFINITY)));
    assert_eq!(f(Divide, 0.0, 0.0), Some(Literal::F32(0x7fc0_0000)));
    assert_eq!(
        f(Divide, f32::INFINITY, f32::INFINITY),
        Some(Literal::F32(0x7fc0_0000))
    );
    assert_eq!(f(Divide, 3.0, f32::NEG_INFINITY), Some(Literal::f32(-0.0)));
    assert_eq!(f(Add, -0.0, -0.0), Some(Literal::f32(-0.0)));
    assert_eq!(f(Add, -0.0, 0.0), Some(Literal::f32(0.0)));
    assert_eq!(f(Subtract, 1.0, 1.0), Some(Literal::f32(0.0)));
    assert_eq!(f(Multiply, -0.0, 5.0), Some(Literal::f32(-0.0)));
    assert_eq!(
        f(Multiply, f32::MAX, 2.0),
        Some(Literal::f32(f32::INFINITY))
    );
    assert_eq!(
        f(Multiply, 0.0, f32::INFINITY),
        Some(Literal::F32(0x7fc0_0000))
    );
    // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: to even (1).
    assert_eq!(f(Add, 1.0, 2f32.powi(-24)), Some(Literal::f32(1.0)));
    // Smallest denormal halved: a tie between 0 and 2^-149, to even (0).
    assert_eq!(f(Multiply, f32::from_bits(1), 0.5), Some(Literal::f32(0.0)));
    assert_eq!(f(Multiply, f32::from_bits(3), 0.5), Some(Literal::F32(2)));
    // A NaN input with a payload still folds to the canonical NaN.
    assert_eq!(
        fold(Add, Literal::F32(0xffc0_1234), Literal::f32(1.0)),
        Some(Literal::F32(0x7fc0_0000))
    );
}

/// The binary16 reference: the exact result is compared with candidate
/// halves through a comparator that is exact in f64, and the nearest one is
/// taken (ties to even, overflow to infinity), without `f64_to_f16`.
fn f16_reference(op: BinaryOperator, a: u16, b: u16) -> u16 {
    let (x, y) = (f16_to_f64(a), f16_to_f64(b));
    let approx = ieee(op, x, y);
    if approx.is_nan() {
        return 0x7e00;
    }
    if approx.is_infinite() {
        return if approx < 0.0 { 0xfc00 } else { 0x7c00 };
    }
    if approx == 0.0 && (op != Divide || x == 0.0 || y.is_infinite()) {
        // Exact zero: + - * are exact in f64 for halves; 0/y is exact.
        return if approx.is_sign_negative() { 0x8000 } else { 0 };
    }
    let negative = approx < 0.0;
    // cmp(c) = the order of c against |exact result|, exactly.
    let cmp = |c: f64| -> Ordering {
        match op {
            Divide => {
                // c vs |x/y|  ⇔  c·|y| vs |x|; both sides exact in f64.
                (c * y.abs()).partial_cmp(&x.abs()).expect("finite")
            }
            // + - * of halves are exact in f64.
            _ => c.partial_cmp(&approx.abs()).expect("finite"),
        }
    };
    // Largest positive half <= |r| (binary search on the bit pattern,
    // which is monotone for positive values); 0x7c00 stands for 65536.
    let value = |bits: u16| {
        if bits == 0x7c00 {
            65536.0
        } else {
            f16_to_f64(bits)
        }
    };
    let (mut lo, mut hi) = (0u16, 0x7c00u16);
    if cmp(value(hi)) != Ordering::Greater {
        return if negative { 0xfc00 } else { 0x7c00 };
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if cmp(value(mid)) == Ordering::Greater {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let bits = match cmp(value(lo)) {
        Ordering::Equal => lo,
        _ => match cmp((value(lo) + value(hi)) / 2.0) {
            Ordering::Less => hi,
            Ordering::Greater => lo,
            Ordering::Equal => {
                if lo % 2 == 0 {
                    lo
                } else {
                    hi
                }
            }
        },
    };
    // 0x7c00 is infinity itself.
    if negative { bits | 0x8000 } else { bits }
}

#[test]
fn f16_matches_the_reference() {
    let specials: [u16; 11] = [
        0xfc00, // -inf
        0xbe00, // -1.5
        0x8001, // -denormal
        0x8000, // -0
        0x0000, // +0
        0x0001, // +denormal
        0x03ff, // largest denormal
        0x4100, // 2.5
        0x7bff, // 65504
        0x7c00, // +inf
        0x7e00, // NaN
    ];
    for &a in &specials {
        for &b in &specials {
            for op in OPS {
                assert_f16_fold(op, a, b);
            }
        }
    }
    // Many ordinary pairs from a fixed pseudo-random sequence.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let b = (seed >> 16) as u16;
        if b & 0x7c00 == 0x7c00 { b & 0xbfff } else { b }
    };
    for _ in 0..3000 {
        let (a, b) = (next(), next());
        for op in OPS {
            assert_f16_fold(op, a, b);
        }
    }
}

#[test]
fn integers_wrap_and_divide_by_zero_is_an_error() {
    let i = Literal::I32;
    let u = Literal::U32;
    assert_eq!(fold(Add, i(i32::MAX), i(1)), Some(i(i32::MIN)));
    assert_eq!(fold(Subtract, u(0), u(1)), Some(u(u32::MAX)));
    assert_eq!(fold(Multiply, i(0x1000_0000), i(16)), Some(i(0)));
    assert_eq!(
        fold(Multiply, Literal::U64(u64::MAX), Literal::U64(u64::MAX)),
        Some(Literal::U64(1))
    );
    assert_eq!(fold(Divide, i(-7), i(2)), Some(i(-3)));
    assert_eq!(fold(Modulo, i(-7), i(2)), Some(i(-1)));
    assert_eq!(fold(Modulo, i(7), i(-2)), Some(i(1)));
    assert_eq!(fold(Divide, u(7), u(2)), Some(u(3)));
    assert_eq!(fold(Divide, i(i32::MIN), i(-1)), None);
    assert_eq!(fold(Modulo, i(i32::MIN), i(-1)), None);
    for op in [Divide, Modulo] {
        assert_eq!(
            eval::binary(op, i(5), i(0), false, FloatEnv::default()),
            Err(FoldError::DivisionByZero)
        );
        assert_eq!(
            eval::binary(op, u(5), u(0), false, FloatEnv::default()),
            Err(FoldError::DivisionByZero)
        );
    }
    // Shift amounts are masked to the width.
    assert_eq!(fold(ShiftLeft, i(1), i(33)), Some(i(2)));
    assert_eq!(
        fold(ShiftLeft, Literal::I16(1), Literal::I16(17)),
        Some(Literal::I16(2))
    );
    assert_eq!(fold(ShiftRight, i(-8), u(1)), Some(i(-4)));
    assert_eq!(fold(ShiftRight, u(0x8000_0000), u(31)), Some(u(1)));
    assert_eq!(fold(ShiftLeft, i(1), i(31)), Some(i(i32::MIN)));
    assert_eq!(fold(Less, i(-1), i(0)), Some(Literal::Bool(true)));
    assert_eq!(fold(Less, u(u32::MAX), u(0)), Some(Literal::Bool(false)));
    assert_eq!(
        eval::unary(UnaryOperator::Negate, i(i32::MIN)),
        Some(i(i32::MIN))
    );
    assert_eq!(
        eval::unary(UnaryOperator::BitwiseNot, u(0)),
        Some(u(u32::MAX))
    );
}

#[test]
fn comparisons_leave_nan_alone() {
    let nan = Literal::f32(f32::NAN);
    let one = Literal::f32(1.0);
    for op in [Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual] {
        assert_eq!(fold(op, nan, one), None, "{op:?}");
    }
    assert_eq!(
        fold(Equal, Literal::f32(-0.0), Literal::f32(0.0)),
        Some(Literal::Bool(true))
    );
    assert_eq!(
        fold(
            Less,
            Literal::f32(f32::NEG_INFINITY),
            Literal::f32(-f32::MAX)
        ),
        Some(Literal::Bool(true))
    );
}

#[test]
fn precise_folds_only_what_the_machine_computes_exactly() {
    let env = FloatEnv::default();
    let (a, b) = (Literal::f32(7.5), Literal::f32(2.0));
    assert_eq!(
        eval::binary(Add, a, b, true, env),
        Ok(Some(Literal::f32(9.5)))
    );
    assert_eq!(
        eval::binary(Divide, a, b, true, env),
        Ok(Some(Literal::f32(3.75)))
    );
    assert_eq!(eval::binary(Modulo, a, b, true, env), Ok(None));
    assert_eq!(
        eval::binary(Modulo, a, b, false, env),
        Ok(Some(Literal::f32(1.5)))
    );
    assert_eq!(
        eval::binary(Modulo, a, Literal::f32(0.0), false, env),
        Ok(None)
    );
    assert_eq!(eval::math(MathFunction::Sqrt, &[b], true, env), None);
    assert_eq!(
        eval::math(MathFunction::Sqrt, &[Literal::f32(2.25)], false, env),
        Some(Literal::f32(1.5))
    );
    let third = Literal::f32(1.0 / 3.0);
    assert_eq!(
        eval::math(MathFunction::Fma, &[third, b, third], true, env),
        None
    );
    assert_eq!(
        eval::math(
            MathFunction::Fma,
            &[third, Literal::f32(3.0), Literal::f32(-1.0)],
            false,
            env
        ),
        Some(Literal::f32((1.0f32 / 3.0).mul_add(3.0, -1.0)))
    );
}

#[test]
fn min_max_and_friends() {
    let env = FloatEnv::default();
    let f = Literal::f32;
    let m = |fun, args: &[Literal]| eval::math(fun, args, false, env);
    assert_eq!(m(MathFunction::Min, &[f(1.0), f(-2.0)]), Some(f(-2.0)));
    assert_eq!(m(MathFunction::Max, &[f(1.0), f(-2.0)]), Some(f(1.0)));
    assert_eq!(m(MathFunction::Min, &[f(f32::NAN), f(1.0)]), None);
    assert_eq!(m(MathFunction::Max, &[f(1.0), f(f32::NAN)]), None);
    assert_eq!(m(MathFunction::Min, &[f(-0.0), f(0.0)]), None);
    assert_eq!(m(MathFunction::Abs, &[f(-0.0)]), Some(f(0.0)));
    assert_eq!(m(MathFunction::Round, &[f(2.5)]), Some(f(2.0)));
    assert_eq!(m(MathFunction::Round, &[f(-3.5)]), Some(f(-4.0)));
    assert_eq!(m(MathFunction::Trunc, &[f(-2.7)]), Some(f(-2.0)));
    assert_eq!(m(MathFunction::Floor, &[f(-0.5)]), Some(f(-1.0)));
    assert_eq!(m(MathFunction::Ceil, &[f(-0.5)]), Some(f(-0.0)));
    assert_eq!(
        m(MathFunction::Clamp, &[f(5.0), f(0.0), f(1.0)]),
        Some(f(1.0))
    );
    assert_eq!(m(MathFunction::Saturate, &[f(-3.0)]), Some(f(0.0)));
    let i = Literal::I32;
    assert_eq!(m(MathFunction::Abs, &[i(i32::MIN)]), None);
    assert_eq!(m(MathFunction::Min, &[i(-3), i(2)]), Some(i(-3)));
}

#[test]
fn conversions() {
    let env = FloatEnv::default();
    let c = |l, kind, w| eval::convert(l, kind, w, env);
    let f = Literal::f32;
    assert_eq!(c(f(2.9), ScalarKind::Sint, Some(4)), Some(Literal::I32(2)));
    assert_eq!(
        c(f(-2.9), ScalarKind::Sint, Some(4)),
        Some(Literal::I32(-2))
    );
    assert_eq!(c(f(-0.5), ScalarKind::Uint, Some(4)), Some(Literal::U32(0)));
    assert_eq!(c(f(-1.0), ScalarKind::Uint, Some(4)), None);
    assert_eq!(c(f(3e9), ScalarKind::Sint, Some(4)), None);
    assert_eq!(c(f(2147483648.0), ScalarKind::Sint, Some(4)), None);
    assert_eq!(
        c(f(-2147483648.0), ScalarKind::Sint, Some(4)),
        Some(Literal::I32(i32::MIN))
    );
    assert_eq!(c(f(f32::NAN), ScalarKind::Sint, Some(4)), None);
    assert_eq!(c(f(f32::INFINITY), ScalarKind::Uint, Some(4)), None);
    // 2^24 + 1 rounds to even.
    assert_eq!(
        c(Literal::I32(16_777_217), ScalarKind::Float, Some(4)),
        Some(f(16_777_216.0))
    );
    assert_eq!(
        c(Literal::U64(u64::MAX), ScalarKind::Float, Some(4)),
        Some(f(18_446_744_073_709_551_615.0))
    );
    // f64 → f32 and f32 → f16 round once; overflow to infinity.
    assert_eq!(
        c(
            Literal::f64(1.0 + 2f64.powi(-24)),
            ScalarKind::Float,
            Some(4)
        ),
        Some(f(1.0))
    );
    assert_eq!(
        c(f(65520.0), ScalarKind::Float, Some(2)),
        Some(Literal::F16(0x7c00))
    );
    assert_eq!(
        c(f(-0.0), ScalarKind::Float, Some(2)),
        Some(Literal::F16(0x8000))
    );
    assert_eq!(
        c(Literal::F16(0x0001), ScalarKind::Float, Some(4)),
        Some(f(2f32.powi(-24)))
    );
    // Integer width changes sign- or zero-extend, then wrap.
    assert_eq!(
        c(Literal::I32(-1), ScalarKind::Sint, Some(8)),
        Some(Literal::I64(-1))
    );
    assert_eq!(
        c(Literal::U32(u32::MAX), ScalarKind::Sint, Some(8)),
        Some(Literal::I64(0xffff_ffff))
    );
    assert_eq!(
        c(Literal::I32(-1), ScalarKind::Uint, Some(4)),
        Some(Literal::U32(u32::MAX))
    );
    assert_eq!(
        c(Literal::I32(70000), ScalarKind::Sint, Some(2)),
        Some(Literal::I16(4464))
    );
    assert_eq!(
        c(Literal::Bool(true), ScalarKind::Float, Some(4)),
        Some(f(1.0))
    );
    assert_eq!(
        c(f(-0.0), ScalarKind::Bool, Some(1)),
        Some(Literal::Bool(false))
    );
    // Bit casts keep every bit, NaN payloads included.
    assert_eq!(
        c(Literal::U32(0x7f80_0001), ScalarKind::Float, None),
        Some(Literal::F32(0x7f80_0001))
    );
    assert_eq!(
        c(f(-0.0), ScalarKind::Uint, None),
        Some(Literal::U32(0x8000_0000))
    );
}

#[test]
fn flush_to_zero_mode() {
    let ftz = FloatEnv {
        flush_f32_denormals: true,
    };
    let d = Literal::F32(1);
    assert_eq!(
        eval::binary(Add, d, d, false, ftz),
        Ok(Some(Literal::f32(0.0)))
    );
    assert_eq!(
        eval::binary(
            Multiply,
            Literal::f32(-f32::MIN_POSITIVE),
            Literal::f32(0.5),
            false,
            ftz
        ),
        Ok(Some(Literal::f32(-0.0)))
    );
    // Without the mode, denormals are kept.
    assert_eq!(
        eval::binary(Add, d, d, false, FloatEnv::default()),
        Ok(Some(Literal::F32(2)))
    );
    // f64 is not affected by the 32-bit mode.
    let dd = Literal::F64(1);
    assert_eq!(
        eval::binary(Add, dd, dd, false, ftz),
        Ok(Some(Literal::F64(2)))
    );
}
