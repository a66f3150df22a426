//! Constant evaluation of scalar operations on constants: what the
//! language requires to be constant (array sizes, template value
//! arguments, `numthreads`, enum values, `case` labels, the `static const`
//! scalars those use), and every operation whose operands are both
//! constant scalars, which sema folds as it lowers them.
//!
//! Integer arithmetic wraps at the width of its type (literal ints are
//! 64-bit, as in DXC); integer division or remainder by zero is an error.
//! Float arithmetic is done in `f64` and rounded to the type's width after
//! each operation, which for `+ - * /` gives the correctly rounded `f32`
//! and `f16` result (`f64` has more than twice their precision). What
//! becomes constant only after lowering (vectors, values of inlined calls)
//! is folded by the `const_fold` pass.

use crate::front::ast::{BinaryOp, UnaryOp};
use crate::sema::types::{Sc, ScKind};

/// A constant scalar value. Integers of every width are kept sign- or
/// zero-extended in an `i64` (a `uint64_t` keeps its bits).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstVal {
    Bool(bool),
    Int(i64),
    Float(f64),
}

/// A constant with its scalar type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Konst {
    pub sc: Sc,
    pub v: ConstVal,
}

/// Why folding failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldError {
    DivisionByZero,
    /// The operation does not apply to these operand types.
    BadOperands,
}

impl Konst {
    pub fn int(v: i64) -> Konst {
        Konst {
            sc: Sc::LitInt,
            v: ConstVal::Int(v),
        }
    }
    pub fn bool(b: bool) -> Konst {
        Konst {
            sc: Sc::Bool,
            v: ConstVal::Bool(b),
        }
    }
    /// The value as a (sign-interpreted) integer, converting if needed.
    pub fn as_i64(self) -> i64 {
        match self.v {
            ConstVal::Bool(b) => b as i64,
            ConstVal::Int(i) => i,
            ConstVal::Float(f) => f as i64,
        }
    }
    pub fn as_f64(self) -> f64 {
        match self.v {
            ConstVal::Bool(b) => b as u8 as f64,
            ConstVal::Int(i) => {
                if self.sc == Sc::U64 {
                    i as u64 as f64
                } else {
                    i as f64
                }
            }
            ConstVal::Float(f) => f,
        }
    }
    pub fn as_bool(self) -> bool {
        match self.v {
            ConstVal::Bool(b) => b,
            ConstVal::Int(i) => i != 0,
            ConstVal::Float(f) => f != 0.0,
        }
    }

    /// Converts to `to` as an HLSL conversion does (float→int truncates
    /// toward zero, saturating; int→bool compares with zero).
    pub fn convert(self, to: Sc) -> Konst {
        let v = match to.kind() {
            ScKind::Bool => ConstVal::Bool(self.as_bool()),
            ScKind::Float => ConstVal::Float(round_float(self.as_f64(), to)),
            ScKind::Sint | ScKind::Uint => {
                let i = match self.v {
                    ConstVal::Bool(b) => b as i64,
                    ConstVal::Int(i) => i,
                    ConstVal::Float(f) => {
                        if to.kind() == ScKind::Uint {
                            f as u64 as i64
                        } else {
                            f as i64
                        }
                    }
                };
                ConstVal::Int(wrap_int(i, to))
            }
        };
        Konst { sc: to, v }
    }
}

/// Wraps an integer to the width and signedness of `sc`.
pub fn wrap_int(i: i64, sc: Sc) -> i64 {
    match sc {
        Sc::I16 => i as i16 as i64,
        Sc::U16 => i as u16 as i64,
        Sc::I32 => i as i32 as i64,
        Sc::U32 => i as u32 as i64,
        _ => i,
    }
}

/// The value of a float literal's digits (`12.92`, `.5`, `3.`, `1e-3`)
/// when it is m × 10^e with an integer m below 2^53 and |e| ≤ 22: both
/// are then exact doubles, and one multiplication or division rounds
/// their product or quotient correctly, as `str::parse` does. `None` for
/// any other text (longer mantissas, large exponents, anything else),
/// which `str::parse` reads instead. Most literals in shaders are short.
pub fn short_decimal(text: &str) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    const LIMIT: u64 = 1 << 53;
    let mut bytes = text.bytes().peekable();
    let (mut m, mut scale, mut digits) = (0u64, 0i32, 0u32);
    let mut push = |m: &mut u64, d: u8| -> Option<()> {
        *m = m.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        digits += 1;
        (*m < LIMIT).then_some(())
    };
    while let Some(d) = bytes.next_if(u8::is_ascii_digit) {
        push(&mut m, d)?;
    }
    if bytes.next_if_eq(&b'.').is_some() {
        while let Some(d) = bytes.next_if(u8::is_ascii_digit) {
            push(&mut m, d)?;
            scale -= 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if bytes.next_if(|&c| c == b'e' || c == b'E').is_some() {
        let negative = matches!(bytes.next_if(|&c| c == b'+' || c == b'-'), Some(b'-'));
        let mut exp = 0i32;
        let mut exp_digits = 0;
        while let Some(d) = bytes.next_if(u8::is_ascii_digit) {
            exp = exp * 10 + i32::from(d - b'0');
            exp_digits += 1;
            if exp > 1000 {
                return None;
            }
        }
        if exp_digits == 0 {
            return None;
        }
        scale += if negative { -exp } else { exp };
    }
    if bytes.next().is_some() {
        return None;
    }
    let m = m as f64;
    match scale {
        0 => Some(m),
        1..=22 => Some(m * POW10[scale as usize]),
        -22..=-1 => Some(m / POW10[(-scale) as usize]),
        _ => None,
    }
}

/// Rounds an `f64` to the precision of float type `sc`.
pub fn round_float(f: f64, sc: Sc) -> f64 {
    match sc {
        Sc::F32 | Sc::F16 => f as f32 as f64,
        _ => f,
    }
}

/// The common scalar type of a binary arithmetic operation: the operand of
/// higher rank wins; a literal adapts to the other operand; `bool` with
/// `bool` in arithmetic becomes `int`.
pub fn common_scalar(a: Sc, b: Sc) -> Sc {
    let (hi, lo) = if a.arith_rank() >= b.arith_rank() {
        (a, b)
    } else {
        (b, a)
    };
    match (hi, lo) {
        // A literal float meets an integer: the literal decides (float).
        (Sc::LitFloat, l) if l.is_int() && l != Sc::LitInt => Sc::F32,
        (Sc::LitFloat, Sc::LitInt) => Sc::LitFloat,
        (Sc::LitInt, Sc::Bool) => Sc::I32,
        (Sc::Bool, Sc::Bool) => Sc::Bool,
        (h, _) => h,
    }
}

/// Folds a unary operator.
pub fn fold_unary(op: UnaryOp, a: Konst) -> Result<Konst, FoldError> {
    Ok(match op {
        UnaryOp::Plus => a,
        UnaryOp::Neg => match a.v {
            ConstVal::Int(i) => {
                let sc = if a.sc == Sc::Bool { Sc::I32 } else { a.sc };
                Konst {
                    sc,
                    v: ConstVal::Int(wrap_int(i.wrapping_neg(), sc)),
                }
            }
            ConstVal::Float(f) => Konst {
                sc: a.sc,
                v: ConstVal::Float(-f),
            },
            ConstVal::Bool(b) => Konst {
                sc: Sc::I32,
                v: ConstVal::Int(-(b as i64)),
            },
        },
        UnaryOp::Not => Konst::bool(!a.as_bool()),
        UnaryOp::BitNot => match a.v {
            ConstVal::Int(i) => Konst {
                sc: a.sc,
                v: ConstVal::Int(wrap_int(!i, a.sc)),
            },
            ConstVal::Bool(b) => Konst {
                sc: Sc::I32,
                v: ConstVal::Int(!(b as i64)),
            },
            ConstVal::Float(_) => return Err(FoldError::BadOperands),
        },
        _ => return Err(FoldError::BadOperands),
    })
}

/// Folds a binary operator on two scalars.
pub fn fold_binary(op: BinaryOp, a: Konst, b: Konst) -> Result<Konst, FoldError> {
    use BinaryOp as B;
    if matches!(op, B::LogicalAnd | B::LogicalOr) {
        let r = match op {
            B::LogicalAnd => a.as_bool() && b.as_bool(),
            _ => a.as_bool() || b.as_bool(),
        };
        return Ok(Konst::bool(r));
    }
    if matches!(op, B::Shl | B::Shr) {
        // The result has the left operand's type; the shift amount is
        // masked to the bit width (DXC culls it to n-1 bits).
        let sc = match a.sc {
            Sc::Bool => Sc::I32,
            s => s,
        };
        if !sc.is_int() || !matches!(b.v, ConstVal::Int(_) | ConstVal::Bool(_)) {
            return Err(FoldError::BadOperands);
        }
        let bits = if sc == Sc::LitInt {
            64
        } else {
            sc.width() as u32 * 8
        };
        let n = (b.as_i64() as u32) & (bits - 1);
        let x = a.as_i64();
        let r = match op {
            B::Shl => x.wrapping_shl(n),
            _ if sc.is_signed_int() => x.wrapping_shr(n),
            _ => {
                let ux = match sc {
                    Sc::U16 => x as u16 as u64,
                    Sc::U32 => x as u32 as u64,
                    _ => x as u64,
                };
                (ux >> n) as i64
            }
        };
        return Ok(Konst {
            sc,
            v: ConstVal::Int(wrap_int(r, sc)),
        });
    }
    let mut sc = common_scalar(a.sc, b.sc);
    if sc == Sc::Bool && !matches!(op, B::Eq | B::Ne) {
        sc = Sc::I32;
    }
    let (x, y) = (a.convert(sc), b.convert(sc));
    let cmp = |o: std::cmp::Ordering| -> Konst {
        use std::cmp::Ordering::*;
        Konst::bool(match op {
            B::Eq => o == Equal,
            B::Ne => o != Equal,
            B::Lt => o == Less,
            B::Le => o != Greater,
            B::Gt => o == Greater,
            _ => o != Less,
        })
    };
    match (x.v, y.v) {
        (ConstVal::Float(p), ConstVal::Float(q)) => {
            let r = match op {
                B::Add => p + q,
                B::Sub => p - q,
                B::Mul => p * q,
                B::Div => p / q,
                B::Rem => p % q,
                B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge => {
                    return Ok(match p.partial_cmp(&q) {
                        Some(o) => cmp(o),
                        // NaN: ordered comparisons are false, != is true.
                        None => Konst::bool(op == B::Ne),
                    });
                }
                _ => return Err(FoldError::BadOperands),
            };
            Ok(Konst {
                sc,
                v: ConstVal::Float(round_float(r, sc)),
            })
        }
        (ConstVal::Int(p), ConstVal::Int(q)) => {
            let unsigned = sc.kind() == ScKind::Uint;
            let r = match op {
                B::Add => p.wrapping_add(q),
                B::Sub => p.wrapping_sub(q),
                B::Mul => p.wrapping_mul(q),
                B::Div | B::Rem => {
                    if q == 0 {
                        return Err(FoldError::DivisionByZero);
                    }
                    match (op, unsigned) {
                        (B::Div, true) => ((p as u64) / (q as u64)) as i64,
                        (B::Rem, true) => ((p as u64) % (q as u64)) as i64,
                        (B::Div, false) => p.wrapping_div(q),
                        _ => p.wrapping_rem(q),
                    }
                }
                B::BitAnd => p & q,
                B::BitOr => p | q,
                B::BitXor => p ^ q,
                B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge => {
                    let o = if unsigned {
                        (p as u64).cmp(&(q as u64))
                    } else {
                        p.cmp(&q)
                    };
                    return Ok(cmp(o));
                }
                _ => return Err(FoldError::BadOperands),
            };
            Ok(Konst {
                sc,
                v: ConstVal::Int(wrap_int(r, sc)),
            })
        }
        (ConstVal::Bool(p), ConstVal::Bool(q)) => match op {
            B::Eq => Ok(Konst::bool(p == q)),
            B::Ne => Ok(Konst::bool(p != q)),
            _ => Err(FoldError::BadOperands),
        },
        _ => Err(FoldError::BadOperands),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short path reads what `str::parse` reads, bit for bit, and
    /// leaves the rest to it.
    #[test]
    fn short_decimals_parse_as_str_parse_does() {
        let cases = [
            "0", "0.0", "1", "1.0", "12.92", ".5", "3.", "0.0031308", "1.055", "2.4",
            "16777216.0", "0.1", "0.2", "0.3", "1e3", "1E-3", "2.5e+2", "1e22", "1e-22",
            "9007199254740991", "123456789.123456", "0.000001", "3.14159265", "0.31830989",
            "0.1031526", "0.0139602", "007.250", "900719925474099.1e3",
        ];
        for t in cases {
            let parsed: f64 = t.parse().expect("valid");
            let short = short_decimal(t);
            assert!(short.is_some(), "{t}");
            assert_eq!(short.map(f64::to_bits), Some(parsed.to_bits()), "{t}");
        }
        // Too long, too large, or not a plain decimal: left to `str::parse`.
        for t in [
            "9007199254740992", "1.7976931348623157", "1e23", "1e-23", "0.12345678901234567",
            "1e", "1e+", ".",
            "", "e5", "+1", "-1", "1.#INF", "1..2", "0x10", "1e99999999999", "1.0f",
        ] {
            assert_eq!(short_decimal(t), None, "{t}");
        }
    }

    fn k(sc: Sc, i: i64) -> Konst {
        Konst {
            sc,
            v: ConstVal::Int(i),
        }
    }

    #[test]
    fn integer_folding_wraps_and_checks_division() {
        let r = fold_binary(BinaryOp::Add, k(Sc::U32, 0xffff_ffff), k(Sc::LitInt, 1)).unwrap();
        assert_eq!(r, k(Sc::U32, 0));
        let r = fold_binary(BinaryOp::Sub, k(Sc::I32, i32::MIN as i64), k(Sc::I32, 1)).unwrap();
        assert_eq!(r, k(Sc::I32, i32::MAX as i64));
        assert_eq!(
            fold_binary(BinaryOp::Div, k(Sc::LitInt, 4), k(Sc::LitInt, 0)),
            Err(FoldError::DivisionByZero)
        );
        assert_eq!(
            fold_binary(BinaryOp::Rem, k(Sc::LitInt, -7), k(Sc::LitInt, 2)).unwrap(),
            k(Sc::LitInt, -1)
        );
        // Unsigned division of a "negative" bit pattern.
        let r = fold_binary(BinaryOp::Div, k(Sc::U32, 0xffff_fffe), k(Sc::U32, 2)).unwrap();
        assert_eq!(r, k(Sc::U32, 0x7fff_ffff));
    }

    #[test]
    fn shifts_mask_the_amount() {
        let r = fold_binary(BinaryOp::Shl, k(Sc::U32, 1), k(Sc::LitInt, 33)).unwrap();
        assert_eq!(r, k(Sc::U32, 2));
        let r = fold_binary(BinaryOp::Shr, k(Sc::I32, -8), k(Sc::LitInt, 1)).unwrap();
        assert_eq!(r, k(Sc::I32, -4));
        let r = fold_binary(BinaryOp::Shr, k(Sc::U32, 0x8000_0000), k(Sc::LitInt, 31)).unwrap();
        assert_eq!(r, k(Sc::U32, 1));
    }

    #[test]
    fn literal_types_adapt() {
        assert_eq!(common_scalar(Sc::LitInt, Sc::U32), Sc::U32);
        assert_eq!(common_scalar(Sc::LitFloat, Sc::I32), Sc::F32);
        assert_eq!(common_scalar(Sc::LitFloat, Sc::F16), Sc::F16);
        assert_eq!(common_scalar(Sc::LitInt, Sc::LitFloat), Sc::LitFloat);
        assert_eq!(common_scalar(Sc::I32, Sc::U32), Sc::U32);
        assert_eq!(common_scalar(Sc::I64, Sc::U32), Sc::I64);
        assert_eq!(common_scalar(Sc::I32, Sc::F16), Sc::F16);
        let r = fold_binary(
            BinaryOp::Mul,
            k(Sc::LitInt, 3),
            Konst {
                sc: Sc::LitFloat,
                v: ConstVal::Float(0.5),
            },
        )
        .unwrap();
        assert_eq!(r.v, ConstVal::Float(1.5));
        assert_eq!(r.sc, Sc::LitFloat);
    }

    #[test]
    fn comparisons_give_bool() {
        let r = fold_binary(BinaryOp::Lt, k(Sc::I32, -1), k(Sc::I32, 0)).unwrap();
        assert_eq!(r, Konst::bool(true));
        // -1 as uint is large.
        let r = fold_binary(BinaryOp::Lt, k(Sc::U32, 0xffff_ffff), k(Sc::U32, 0)).unwrap();
        assert_eq!(r, Konst::bool(false));
    }
}
