//! IEEE binary16 conversions (Rust has no stable `f16`): exact widening to
//! `f64`, and narrowing from `f64` with one round-to-nearest-even.
//!
//! Computing a binary16 `+ - * / sqrt` in `f64` and narrowing once gives the
//! correctly rounded binary16 result: `f64`'s 53-bit significand is at least
//! 2·11 + 2 bits, so the double rounding is innocuous (Figueroa, "When is
//! double rounding innocuous?", 1995).

/// The canonical quiet NaN of binary16.
pub const F16_QNAN: u16 = 0x7e00;

/// Widens binary16 bits to `f64` (exact). NaN payloads are kept in the top
/// payload bits.
pub fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((bits >> 10) & 0x1f) as i32;
    let frac = (bits & 0x3ff) as u64;
    match exp {
        0 => sign * (frac as f64) * 2f64.powi(-24),
        0x1f if frac == 0 => sign * f64::INFINITY,
        0x1f => {
            // Keep sign and payload: binary16 payload bits go to the top of
            // the binary64 payload, as hardware widening does.
            let s = ((bits as u64) & 0x8000) << 48;
            f64::from_bits(s | 0x7ff0_0000_0000_0000 | (frac << 42) | (1 << 51))
        }
        _ => sign * ((frac | 0x400) as f64) * 2f64.powi(exp - 25),
    }
}

/// The binary exponent of a finite, non-zero `a`: the `e` with
/// 2^e <= |a| < 2^(e+1), read from the bits (exact, where `log2` may be off
/// by one near powers of two, and without the system's maths library).
fn exponent(a: f64) -> i32 {
    let bits = a.to_bits();
    match ((bits >> 52) & 0x7ff) as i32 {
        // A denormal: the position of its highest set significand bit.
        0 => -1074 + 63 - (bits & ((1 << 52) - 1)).leading_zeros() as i32,
        biased => biased - 1023,
    }
}

/// Narrows an `f64` to binary16 bits, rounding to nearest, ties to even;
/// overflow gives ±infinity, tiny values give denormals or ±0. A NaN gives
/// a quiet NaN with the top payload bits kept.
pub fn f64_to_f16(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if v.is_nan() {
        let payload = ((bits >> 42) & 0x3ff) as u16;
        return sign | 0x7c00 | 0x200 | payload;
    }
    let a = v.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a == 0.0 {
        return sign;
    }
    // Scale so that the binary16 unit in the last place becomes 1: for
    // normal results ulp = 2^(e-10), for denormals ulp = 2^-24.
    let e = exponent(a);
    let ulp_exp = if e < -14 { -24 } else { e - 10 };
    // a / 2^ulp_exp is exact (a power-of-two scaling within range).
    let scaled = a * 2f64.powi(-ulp_exp);
    let mut m = scaled.round_ties_even();
    let mut ulp_exp = ulp_exp;
    if m >= 2048.0 {
        // Rounded up to the next binade.
        m /= 2.0;
        ulp_exp += 1;
    }
    let m = m as u32;
    if m < 0x400 {
        // Denormal (or rounded to zero): exponent field 0.
        return sign | m as u16;
    }
    let biased = ulp_exp + 10 + 15;
    if biased >= 0x1f {
        return sign | 0x7c00;
    }
    sign | ((biased as u16) << 10) | (m as u16 & 0x3ff)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every finite binary16 value widens and narrows back to itself.
    #[test]
    fn all_halves_round_trip() {
        for bits in 0..=u16::MAX {
            let v = f16_to_f64(bits);
            if v.is_nan() {
                assert!(f64_to_f16(v) & 0x7c00 == 0x7c00 && f64_to_f16(v) & 0x3ff != 0);
                continue;
            }
            assert_eq!(f64_to_f16(v), bits, "bits {bits:#06x} value {v}");
        }
    }

    /// The exponent read from the bits is floor(log2 |a|) over the whole
    /// range, denormals included: each power of two and the largest value
    /// below it (where `log2` itself may round up to the power).
    #[test]
    fn exponent_brackets_the_value() {
        for e in -1074..=1023 {
            let p = if e >= -1022 {
                f64::from_bits(((e + 1023) as u64) << 52)
            } else {
                f64::from_bits(1 << (e + 1074))
            };
            assert_eq!((exponent(p), exponent(-p)), (e, e), "2^{e}");
            let below = f64::from_bits(p.to_bits() - 1);
            if below > 0.0 {
                assert_eq!(exponent(below), e - 1, "below 2^{e}");
            }
        }
        assert_eq!(exponent(f64::MAX), 1023);
    }

    /// Midpoints between neighbours round to the even one; just above or
    /// below, to the nearer one.
    #[test]
    fn rounding_is_to_nearest_even() {
        for bits in 0u16..0x7bff {
            let (lo, hi) = (f16_to_f64(bits), f16_to_f64(bits + 1));
            let mid = (lo + hi) / 2.0;
            let even = if bits & 1 == 0 { bits } else { bits + 1 };
            assert_eq!(f64_to_f16(mid), even, "midpoint after {bits:#06x}");
            assert_eq!(f64_to_f16(-mid), even | 0x8000);
            let eps = (hi - lo) / 1024.0;
            assert_eq!(f64_to_f16(mid - eps), bits);
            assert_eq!(f64_to_f16(mid + eps), bits + 1);
        }
        // 65504 is the largest half; 65520 is the midpoint to "65536" → inf.
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65519.99), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        // Half the smallest denormal rounds to (even) zero, just above to it.
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0);
        assert_eq!(f64_to_f16(2f64.powi(-25) * 1.0001), 1);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
        assert_eq!(f64_to_f16(1e-300), 0);
        assert_eq!(f64_to_f16(1e300), 0x7c00);
    }
}
