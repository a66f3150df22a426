//! Evaluating operations on literals exactly as IEEE 754 and SPIR-V define
//! them. Each function returns `None` when the result is not defined well
//! enough to fold (SPIR-V leaves it undefined, or the machine may round
//! differently).

use crate::ir::float::{F16_QNAN, f16_to_f64, f64_to_f16};
use crate::ir::{BinaryOperator, Literal, MathFunction, ScalarKind, UnaryOperator};

/// How floats fold.
#[derive(Clone, Copy, Debug, Default)]
pub struct FloatEnv {
    /// `-denorm ftz`: 32-bit denormal inputs and results become zero of
    /// the same sign (the DenormFlushToZero execution mode).
    pub flush_f32_denormals: bool,
}

/// Why a fold was refused with a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldError {
    /// Integer `/` or `%` by a constant zero.
    DivisionByZero,
}

/// A float of one of the three widths, as the wide type that computes it.
#[derive(Clone, Copy)]
enum Float {
    Half(f64),
    Single(f32),
    Double(f64),
}

fn float_of(l: Literal) -> Option<Float> {
    Some(match l {
        Literal::F16(b) => Float::Half(f16_to_f64(b)),
        Literal::F32(b) => Float::Single(f32::from_bits(b)),
        Literal::F64(b) => Float::Double(f64::from_bits(b)),
        _ => return None,
    })
}

fn flush32(env: FloatEnv, v: f32) -> f32 {
    if env.flush_f32_denormals && v.is_subnormal() {
        if v.is_sign_negative() { -0.0 } else { 0.0 }
    } else {
        v
    }
}

/// The literal of a float result: NaNs become the canonical quiet NaN (a
/// GPU may return any NaN, so no particular payload can be promised).
fn single(env: FloatEnv, v: f32) -> Literal {
    if v.is_nan() {
        Literal::F32(0x7fc0_0000)
    } else {
        Literal::f32(flush32(env, v))
    }
}
fn double(v: f64) -> Literal {
    if v.is_nan() {
        Literal::F64(0x7ff8_0000_0000_0000)
    } else {
        Literal::f64(v)
    }
}
fn half(v: f64) -> Literal {
    if v.is_nan() {
        Literal::F16(F16_QNAN)
    } else {
        Literal::F16(f64_to_f16(v))
    }
}

/// An integer literal as (value, bits, signed).
fn int_of(l: Literal) -> Option<(i128, u32, bool)> {
    Some(match l {
        Literal::I16(v) => (v as i128, 16, true),
        Literal::U16(v) => (v as i128, 16, false),
        Literal::I32(v) => (v as i128, 32, true),
        Literal::U32(v) => (v as i128, 32, false),
        Literal::I64(v) => (v as i128, 64, true),
        Literal::U64(v) => (v as i128, 64, false),
        _ => return None,
    })
}

/// Wraps `v` to `bits` two's complement and makes the literal.
fn int_literal(v: i128, bits: u32, signed: bool) -> Literal {
    match (bits, signed) {
        (16, true) => Literal::I16(v as i16),
        (16, false) => Literal::U16(v as u16),
        (32, true) => Literal::I32(v as i32),
        (32, false) => Literal::U32(v as u32),
        (64, true) => Literal::I64(v as i64),
        _ => Literal::U64(v as u64),
    }
}

/// `a op b` for two literals of one type (the shift amount may have
/// another integer type). `precise` forbids folds whose machine result is
/// not exactly known.
pub fn binary(
    op: BinaryOperator,
    a: Literal,
    b: Literal,
    precise: bool,
    env: FloatEnv,
) -> Result<Option<Literal>, FoldError> {
    use BinaryOperator as B;
    if let (Some(x), Some(y)) = (float_of(a), float_of(b)) {
        return Ok(float_binary(op, x, y, precise, env));
    }
    if let (Literal::Bool(x), Literal::Bool(y)) = (a, b) {
        return Ok(match op {
            B::LogicalAnd => Some(Literal::Bool(x && y)),
            B::LogicalOr => Some(Literal::Bool(x || y)),
            B::Equal => Some(Literal::Bool(x == y)),
            B::NotEqual => Some(Literal::Bool(x != y)),
            _ => None,
        });
    }
    let (Some((x, bits, signed)), Some((y, ybits, _))) = (int_of(a), int_of(b)) else {
        return Ok(None);
    };
    let shift = matches!(op, B::ShiftLeft | B::ShiftRight);
    if !shift && (a.scalar() != b.scalar()) {
        return Ok(None);
    }
    let lit = |v| Some(int_literal(v, bits, signed));
    let min = if signed { -(1i128 << (bits - 1)) } else { 0 };
    Ok(match op {
        B::Add => lit(x + y),
        B::Subtract => lit(x - y),
        // i128 holds the product of two 64-bit values exactly.
        B::Multiply => lit(x.wrapping_mul(y)),
        B::Divide | B::Modulo => {
            if y == 0 {
                return Err(FoldError::DivisionByZero);
            }
            // SPIR-V OpSDiv/OpSRem: undefined for MIN / -1.
            if signed && x == min && y == -1 {
                return Ok(None);
            }
            // Truncating division; the remainder has the dividend's sign
            // (OpSRem), as HLSL `%` on integers.
            if op == B::Divide {
                lit(x / y)
            } else {
                lit(x % y)
            }
        }
        B::And => lit(x & y),
        B::InclusiveOr => lit(x | y),
        B::ExclusiveOr => lit(x ^ y),
        // HLSL masks the shift amount to the width (DXC emits `& 31` for
        // 32-bit operands), so out-of-range amounts are defined here.
        B::ShiftLeft | B::ShiftRight => {
            let _ = ybits;
            let amount = (y as u128 & (bits as u128 - 1)) as u32;
            if op == B::ShiftLeft {
                lit(x << amount)
            } else {
                // `x` holds the value with its sign: `>>` is arithmetic for
                // signed and logical for (non-negative) unsigned values.
                lit(x >> amount)
            }
        }
        B::Equal => Some(Literal::Bool(x == y)),
        B::NotEqual => Some(Literal::Bool(x != y)),
        B::Less => Some(Literal::Bool(x < y)),
        B::LessEqual => Some(Literal::Bool(x <= y)),
        B::Greater => Some(Literal::Bool(x > y)),
        B::GreaterEqual => Some(Literal::Bool(x >= y)),
        B::MatMul | B::LogicalAnd | B::LogicalOr => None,
    })
}

fn float_binary(
    op: BinaryOperator,
    x: Float,
    y: Float,
    precise: bool,
    env: FloatEnv,
) -> Option<Literal> {
    use BinaryOperator as B;
    // Comparisons: ordered and unordered forms differ only for NaN, and the
    // IR does not say which one the backend emits: leave NaN alone.
    let compare = |a: f64, b: f64| -> Option<Literal> {
        if a.is_nan() || b.is_nan() {
            return None;
        }
        Some(Literal::Bool(match op {
            B::Equal => a == b,
            B::NotEqual => a != b,
            B::Less => a < b,
            B::LessEqual => a <= b,
            B::Greater => a > b,
            B::GreaterEqual => a >= b,
            _ => return None,
        }))
    };
    // `fmod` (OpFRem): Vulkan gives it the precision of x - y * trunc(x/y),
    // not an exact result, so a precise one is left to the machine; y = 0
    // is undefined.
    let rem_ok = |y: f64| !precise && y != 0.0;
    // The arithmetic in binary64 (`None` for comparisons).
    let arith64 = |a: f64, b: f64| {
        Some(match op {
            B::Add => a + b,
            B::Subtract => a - b,
            B::Multiply => a * b,
            B::Divide => a / b,
            B::Modulo if rem_ok(b) => a % b,
            _ => return None,
        })
    };
    match (x, y) {
        (Float::Single(a), Float::Single(b)) => {
            let (a, b) = (flush32(env, a), flush32(env, b));
            Some(single(
                env,
                match op {
                    B::Add => a + b,
                    B::Subtract => a - b,
                    B::Multiply => a * b,
                    B::Divide => a / b,
                    B::Modulo if rem_ok(b as f64) => a % b,
                    _ => return compare(a as f64, b as f64),
                },
            ))
        }
        (Float::Double(a), Float::Double(b)) => match arith64(a, b) {
            Some(r) => Some(double(r)),
            None => compare(a, b),
        },
        // binary16 in binary64, rounded once: innocuous double rounding for
        // + - * / (53 >= 2 * 11 + 2); fmod is exact in any format.
        (Float::Half(a), Float::Half(b)) => match arith64(a, b) {
            Some(r) => Some(half(r)),
            None => compare(a, b),
        },
        _ => None,
    }
}

/// `op a`.
pub fn unary(op: UnaryOperator, a: Literal) -> Option<Literal> {
    match (op, a) {
        (UnaryOperator::LogicalNot, Literal::Bool(b)) => Some(Literal::Bool(!b)),
        // OpFNegate flips the sign, exactly, for every value but NaN.
        (UnaryOperator::Negate, Literal::F16(b)) if !f16_to_f64(b).is_nan() => {
            Some(Literal::F16(b ^ 0x8000))
        }
        (UnaryOperator::Negate, Literal::F32(b)) if !f32::from_bits(b).is_nan() => {
            Some(Literal::F32(b ^ 0x8000_0000))
        }
        (UnaryOperator::Negate, Literal::F64(b)) if !f64::from_bits(b).is_nan() => {
            Some(Literal::F64(b ^ (1 << 63)))
        }
        _ => {
            let (x, bits, signed) = int_of(a)?;
            match op {
                UnaryOperator::Negate => Some(int_literal(-x, bits, signed)),
                UnaryOperator::BitwiseNot => Some(int_literal(!x, bits, signed)),
                UnaryOperator::LogicalNot => None,
            }
        }
    }
}

/// A conversion (`convert = Some(width)`) or bit cast of a literal to
/// `kind`.
pub fn convert(
    a: Literal,
    kind: ScalarKind,
    convert: Option<u8>,
    env: FloatEnv,
) -> Option<Literal> {
    let Some(width) = convert else {
        return bitcast(a, kind);
    };
    let float_result = |v: f64| -> Option<Literal> {
        // One rounding from the exact value: `v` is exact here (integers up
        // to 2^53 and every narrower float), or see the i64 case below.
        Some(match width {
            2 => half(v),
            4 => single(env, v as f32),
            8 => double(v),
            _ => return None,
        })
    };
    match (float_of(a), int_of(a), a, kind) {
        (_, _, Literal::Bool(b), ScalarKind::Float) => float_result(b as u8 as f64),
        (_, _, Literal::Bool(b), ScalarKind::Sint | ScalarKind::Uint) => Some(int_literal(
            b as i128,
            width as u32 * 8,
            kind == ScalarKind::Sint,
        )),
        (_, _, Literal::Bool(b), ScalarKind::Bool) => Some(Literal::Bool(b)),
        (Some(f), _, _, ScalarKind::Float) => {
            let v = match f {
                Float::Half(v) | Float::Double(v) => v,
                Float::Single(v) => flush32(env, v) as f64,
            };
            if v.is_nan() {
                return None;
            }
            // Narrowing f64 → f32 with `as` rounds to nearest even once.
            match (f, width) {
                (Float::Double(d), 4) => Some(single(env, d as f32)),
                _ => float_result(v),
            }
        }
        (Some(f), _, _, ScalarKind::Sint | ScalarKind::Uint) => {
            let v = match f {
                Float::Half(v) | Float::Double(v) => v,
                Float::Single(v) => flush32(env, v) as f64,
            };
            // OpConvertFToS/U truncate; NaN and out-of-range values are
            // undefined: not folded.
            let t = v.trunc();
            let bits = width as u32 * 8;
            let signed = kind == ScalarKind::Sint;
            let (lo, hi) = if signed {
                (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
            } else {
                (0.0, 2f64.powi(bits as i32))
            };
            if !(t >= lo && t < hi) {
                return None;
            }
            Some(int_literal(t as i128, bits, signed))
        }
        (Some(f), _, _, ScalarKind::Bool) => {
            let v = match f {
                Float::Half(v) | Float::Double(v) => v,
                Float::Single(v) => v as f64,
            };
            (!v.is_nan()).then_some(Literal::Bool(v != 0.0))
        }
        (_, Some((x, _, _)), _, ScalarKind::Float) => match width {
            // i64/u64 → f32 via `as` rounds once; via f64 would round twice.
            4 => Some(single(env, x as f32)),
            2 => {
                // Integers below 2^53 are exact in f64; larger ones overflow
                // binary16 anyway.
                Some(half(x as f64))
            }
            8 => Some(double(x as f64)),
            _ => None,
        },
        (_, Some((x, _, _)), _, ScalarKind::Sint | ScalarKind::Uint) => {
            Some(int_literal(x, width as u32 * 8, kind == ScalarKind::Sint))
        }
        (_, Some((x, _, _)), _, ScalarKind::Bool) => Some(Literal::Bool(x != 0)),
        _ => None,
    }
}

fn bitcast(a: Literal, kind: ScalarKind) -> Option<Literal> {
    let (bits, width): (u64, u8) = match a {
        Literal::I16(v) => (v as u16 as u64, 2),
        Literal::U16(v) | Literal::F16(v) => (v as u64, 2),
        Literal::I32(v) => (v as u32 as u64, 4),
        Literal::U32(v) | Literal::F32(v) => (v as u64, 4),
        Literal::I64(v) => (v as u64, 8),
        Literal::U64(v) | Literal::F64(v) => (v, 8),
        Literal::Bool(_) => return None,
    };
    Some(match (kind, width) {
        (ScalarKind::Sint, 2) => Literal::I16(bits as u16 as i16),
        (ScalarKind::Uint, 2) => Literal::U16(bits as u16),
        (ScalarKind::Float, 2) => Literal::F16(bits as u16),
        (ScalarKind::Sint, 4) => Literal::I32(bits as u32 as i32),
        (ScalarKind::Uint, 4) => Literal::U32(bits as u32),
        (ScalarKind::Float, 4) => Literal::F32(bits as u32),
        (ScalarKind::Sint, _) => Literal::I64(bits as i64),
        (ScalarKind::Uint, _) => Literal::U64(bits),
        (ScalarKind::Float, _) => Literal::F64(bits),
        (ScalarKind::Bool, _) => return None,
    })
}

/// A math function of literals, where the result is exactly defined.
pub fn math(fun: MathFunction, args: &[Literal], precise: bool, env: FloatEnv) -> Option<Literal> {
    use MathFunction as M;
    let floats: Option<Vec<Float>> = args.iter().map(|&a| float_of(a)).collect();
    if let Some(fs) = floats {
        let wide = |f: Float| match f {
            Float::Half(v) | Float::Double(v) => v,
            Float::Single(v) => flush32(env, v) as f64,
        };
        let vals: Vec<f64> = fs.iter().map(|&f| wide(f)).collect();
        if vals.iter().any(|v| v.is_nan()) {
            // FMin/FMax/FClamp are undefined for NaN operands; the others
            // give some NaN: leave them to the machine.
            return None;
        }
        let out = |v: f64| -> Literal {
            match fs[0] {
                Float::Half(_) => half(v),
                Float::Single(_) => single(env, v as f32),
                Float::Double(_) => double(v),
            }
        };
        return Some(match (fun, vals.as_slice()) {
            (M::Abs, [x]) => out(x.abs()),
            (M::Floor, [x]) => out(x.floor()),
            (M::Ceil, [x]) => out(x.ceil()),
            (M::Trunc, [x]) => out(x.trunc()),
            (M::Round, [x]) => out(x.round_ties_even()),
            // FMin/FMax: "y if y < x, else x"; which zero comes out of
            // min(-0, +0) is up to the hardware (IEEE minNum): not folded.
            (M::Min | M::Max, [x, y]) if *x == 0.0 && *y == 0.0 && x.to_bits() != y.to_bits() => {
                return None;
            }
            (M::Min, [x, y]) => out(if y < x { *y } else { *x }),
            (M::Max, [x, y]) => out(if x < y { *y } else { *x }),
            (M::Clamp, [x, lo, hi]) if lo <= hi && *x != 0.0 => out(x.max(*lo).min(*hi)),
            (M::Saturate, [x]) if *x != 0.0 => out(x.clamp(0.0, 1.0)),
            // Vulkan: sqrt is "inherited from 1/inversesqrt", not correctly
            // rounded, so only a non-precise sqrt folds.
            (M::Sqrt, [x]) if !precise => match fs[0] {
                Float::Single(v) => single(env, flush32(env, v).sqrt()),
                _ => out(x.sqrt()),
            },
            // Fma: one rounding; Vulkan lets a precise fma be a multiply and
            // an add, so only a non-precise one folds. binary16 fma is not
            // exact in f64 and is left alone.
            (M::Fma, [_, _, _]) if !precise => match (fs[0], fs[1], fs[2]) {
                (Float::Single(a), Float::Single(b), Float::Single(c)) => single(
                    env,
                    flush32(env, a).mul_add(flush32(env, b), flush32(env, c)),
                ),
                (Float::Double(a), Float::Double(b), Float::Double(c)) => double(a.mul_add(b, c)),
                _ => return None,
            },
            _ => return None,
        });
    }
    let ints: Option<Vec<(i128, u32, bool)>> = args.iter().map(|&a| int_of(a)).collect();
    let ints = ints?;
    let (bits, signed) = (ints[0].1, ints[0].2);
    let v: Vec<i128> = ints.iter().map(|i| i.0).collect();
    let lit = |x: i128| Some(int_literal(x, bits, signed));
    match (fun, v.as_slice()) {
        // SAbs of MIN is undefined.
        (M::Abs, [x]) if !signed || *x != -(1i128 << (bits - 1)) => lit(x.abs()),
        (M::Min, [x, y]) => lit(*x.min(y)),
        (M::Max, [x, y]) => lit(*x.max(y)),
        (M::Clamp, [x, lo, hi]) if lo <= hi => lit(*x.max(lo).min(hi)),
        _ => None,
    }
}
