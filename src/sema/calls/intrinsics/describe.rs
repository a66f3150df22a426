//! How hover and signature help show an intrinsic's overloads.

use super::table::{Comp, Lower, Overload, Ret, Shp};

impl Overload {
    /// The overload as hover and signature help show it: the signature
    /// with one template type per slot (`T0 lerp(T0, T0, T0)`), each
    /// parameter's label, and what each slot accepts
    /// (`T0: float scalar, vector or matrix`).
    pub fn describe(&self, name: &str) -> (String, Vec<String>, Vec<String>) {
        let slot = |s: u8| format!("T{s}");
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let dir = if p.out { "out " } else { "" };
                format!("{dir}{}", slot(p.slot))
            })
            .collect();
        let ret = match self.ret {
            Ret::Void if matches!(self.lower, Lower::Custom(_)) => "auto".to_string(),
            Ret::Void => "void".to_string(),
            Ret::Slot(s) => slot(s),
            Ret::SlotWith(s, sc) => format!("{} of {}", slot(s), sc.name()),
            Ret::ScalarOf(s) => format!("component of {}", slot(s)),
            Ret::Bool => "bool".to_string(),
            Ret::Uint => "uint".to_string(),
            Ret::Uint4 => "uint4".to_string(),
            Ret::Vec4(sc) => format!("{}4", sc.name()),
        };
        let mut slots: Vec<String> = Vec::new();
        for p in self.params {
            let line = format!(
                "{}: {} {}",
                slot(p.slot),
                comp_text(p.comp),
                shape_text(p.shape)
            );
            if !slots
                .iter()
                .any(|l| l.starts_with(&format!("{}:", slot(p.slot))))
            {
                slots.push(line);
            }
        }
        (
            format!("{ret} {name}({})", params.join(", ")),
            params,
            slots,
        )
    }
}

fn comp_text(c: Comp) -> &'static str {
    match c {
        Comp::Float => "float-like",
        Comp::Float32 => "float",
        Comp::Half => "half",
        Comp::Uint32 => "uint",
        Comp::Int32 => "int",
        Comp::Sint => "signed integer",
        Comp::Numeric | Comp::Any => "numeric",
        Comp::Int => "integer",
        Comp::Uint => "uint",
        Comp::Bool => "bool",
    }
}

fn shape_text(s: Shp) -> &'static str {
    match s {
        Shp::Scalar => "scalar",
        Shp::Vector => "vector",
        Shp::ScalarOrVector => "scalar or vector",
        Shp::Matrix => "matrix",
        Shp::Any => "scalar, vector or matrix",
        Shp::Vec2 => "2-component vector",
        Shp::Vec3 => "3-component vector",
        Shp::Vec4 => "4-component vector",
    }
}
