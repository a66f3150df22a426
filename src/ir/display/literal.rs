//! Literals in the text form: exact floats.

use crate::ir::*;

/// The text of a literal (see the module docs).
pub fn literal_to_string(lit: Literal) -> String {
    match lit {
        Literal::Bool(b) => b.to_string(),
        Literal::I16(v) => format!("{v}i16"),
        Literal::U16(v) => format!("{v}u16"),
        Literal::I32(v) => format!("{v}i32"),
        Literal::U32(v) => format!("{v}u32"),
        Literal::I64(v) => format!("{v}i64"),
        Literal::U64(v) => format!("{v}u64"),
        Literal::F16(b) => {
            let v = float::f16_to_f64(b);
            let denormal = b & 0x7c00 == 0 && b & 0x3ff != 0;
            float_text(v, "f16", || format!("{b:#06x}"), denormal)
        }
        Literal::F32(b) => {
            let v = f32::from_bits(b);
            let denormal = v.is_subnormal();
            float_text(v as f64, "f32", || format!("{b:#010x}"), denormal)
                .replace("DEC", &format!("{v:?}"))
        }
        Literal::F64(b) => {
            let v = f64::from_bits(b);
            float_text(v, "f64", || format!("{b:#018x}"), v.is_subnormal())
                .replace("DEC", &format!("{v:?}"))
        }
    }
}

/// `inf_f32`, `nan_f32(bits)`, or `DEC<suffix>[(bits)]`, where `DEC` is
/// replaced by the caller's shortest decimal (computed here for f16).
fn float_text(v: f64, suffix: &str, bits: impl Fn() -> String, denormal: bool) -> String {
    if v.is_nan() {
        return format!("nan_{suffix}({})", bits());
    }
    if v.is_infinite() {
        let sign = if v < 0.0 { "-" } else { "" };
        return format!("{sign}inf_{suffix}");
    }
    let dec = if suffix == "f16" {
        shortest_f16_decimal(v)
    } else {
        "DEC".to_string()
    };
    if denormal {
        format!("{dec}{suffix}({})", bits())
    } else {
        format!("{dec}{suffix}")
    }
}

/// The shortest decimal that narrows back to the same binary16 value.
fn shortest_f16_decimal(v: f64) -> String {
    let target = float::f64_to_f16(v);
    for digits in 1..=17 {
        let s = format!("{:.*e}", digits - 1, v);
        if let Ok(p) = s.parse::<f64>()
            && float::f64_to_f16(p) == target
        {
            // Up to 6 significant digits read back exactly from f32's
            // shortest form, which prints in Rust's usual style.
            if let Ok(f) = s.parse::<f32>() {
                return format!("{f:?}");
            }
            return s;
        }
    }
    format!("{v:?}")
}
