//! Intrinsic functions: the catalog (`table`), overload resolution over
//! its patterns (here), and lowering to IR (`lower`).
//!
//! The lowering interface is [`FnCtx`]: `value`, `convert`, `add`, `stmt`,
//! `write_out` and the type helpers on `cx.s.types`; a new intrinsic needs
//! a table entry and, if no generic lowering fits, a `Custom` case.

pub mod bits;
pub mod describe;
pub mod lower;
pub mod lookup;
pub mod lower_more;
pub mod matrix;
pub mod more;
pub mod table;

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::sema::Sema;
use crate::sema::body::FnCtx;
use crate::sema::body::convert::conversion_cost;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::types::consteval::common_scalar;
use crate::sema::types::{self, Sc, ScKind, Shape, TyId};
use crate::span::Span;
use table::{Comp, Overload, Ret, Shp};

/// An overload resolved against arguments.
pub struct Resolved {
    pub overload: &'static Overload,
    /// The type of each parameter.
    pub params: Vec<TyId>,
    pub ret: TyId,
}

fn shape_ok(class: Shp, s: Shape) -> bool {
    match class {
        Shp::Scalar => s == Shape::Scalar,
        Shp::Vector => matches!(s, Shape::Vector(_)),
        Shp::ScalarOrVector => !matches!(s, Shape::Matrix(..)),
        Shp::Matrix => matches!(s, Shape::Matrix(..)),
        Shp::Vec2 => s == Shape::Vector(2),
        Shp::Vec3 => s == Shape::Vector(3),
        Shp::Vec4 => s == Shape::Vector(4),
        Shp::Any => true,
    }
}

impl Sema<'_> {
    /// Resolves one overload against arguments of the types `arg_ty`
    /// gives (`n` of them); `None` if they do not fit. (Also asked by the
    /// check of functions nothing calls, which has types and no values.)
    pub(in crate::sema) fn resolve_overload(
        &mut self,
        ov: &'static Overload,
        n: usize,
        arg_ty: impl Fn(usize) -> TyId,
    ) -> Option<(Resolved, u64)> {
        if ov.params.len() != n {
            return None;
        }
        let mut slots = [types::ERROR; 4];
        for slot in 0..4u8 {
            // The parameters of this slot, walked without collecting them
            // (every overload of every intrinsic call is tried).
            let mut members = ov
                .params
                .iter()
                .enumerate()
                .filter(|(_, p)| p.slot == slot)
                .map(|(i, _)| i)
                .peekable();
            let Some(&first) = members.peek() else {
                continue;
            };
            let mut shape: Option<Shape> = None;
            let mut comp: Option<Sc> = None;
            for i in members {
                let t = arg_ty(i);
                let s = self.types.shape(t)?;
                let c = self.types.component(t)?;
                shape = Some(match (shape, s) {
                    (None, s) => s,
                    (Some(Shape::Scalar), s) | (Some(s), Shape::Scalar) => s,
                    (Some(Shape::Vector(n)), Shape::Vector(m)) => Shape::Vector(n.min(m)),
                    (Some(Shape::Matrix(r, c1)), Shape::Matrix(r2, c2)) => {
                        Shape::Matrix(r.min(r2), c1.min(c2))
                    }
                    (Some(a), b) if a == b => a,
                    _ => return None,
                });
                // Out parameters do not decide the component type.
                if !ov.params[i].out || comp.is_none() {
                    comp = Some(match comp {
                        None => c,
                        Some(x) if ov.params[i].out => x,
                        Some(x) => common_scalar(x, c),
                    });
                }
            }
            let p0 = ov.params[first];
            // A slot of a fixed vector size takes a scalar (splatted) or a
            // longer vector (truncated, with the usual warning), as DXC's
            // `half2`/`uint4` parameters do.
            let shape = match (p0.shape, shape?) {
                (Shp::Vec2, Shape::Scalar | Shape::Vector(2..)) => Shape::Vector(2),
                (Shp::Vec4, Shape::Scalar | Shape::Vector(4..)) => Shape::Vector(4),
                (_, s) => s,
            };
            if !shape_ok(p0.shape, shape) {
                return None;
            }
            let c = comp?.concrete();
            let c = match p0.comp {
                Comp::Float => {
                    if c.is_float() {
                        c
                    } else {
                        Sc::F32
                    }
                }
                Comp::Float32 => Sc::F32,
                Comp::Half if self.opts.enable_16bit_types => Sc::F16,
                Comp::Half => Sc::F32,
                Comp::Uint32 => Sc::U32,
                Comp::Int32 => Sc::I32,
                Comp::Sint => match c.kind() {
                    ScKind::Bool => Sc::I32,
                    ScKind::Sint => c,
                    _ => return None,
                },
                Comp::Numeric => {
                    if c == Sc::Bool {
                        Sc::I32
                    } else {
                        c
                    }
                }
                Comp::Int => match c.kind() {
                    ScKind::Bool => Sc::I32,
                    ScKind::Float => return None,
                    _ => c,
                },
                Comp::Uint => match c.kind() {
                    ScKind::Float => return None,
                    _ => c.to_unsigned(),
                },
                Comp::Bool => Sc::Bool,
                Comp::Any => c,
            };
            slots[slot as usize] = self.types.with_shape(c, shape);
        }
        let mut cost = 0;
        let mut params = Vec::with_capacity(n);
        for (i, p) in ov.params.iter().enumerate() {
            let t = slots[p.slot as usize];
            if p.out {
                // The result is converted back to the argument's type.
                conversion_cost(&self.types, t, arg_ty(i))?;
            } else {
                cost += conversion_cost(&self.types, arg_ty(i), t)?;
            }
            params.push(t);
        }
        let ret = match ov.ret {
            Ret::Void => types::VOID,
            Ret::Slot(s) => slots[s as usize],
            Ret::SlotWith(s, sc) => self.types.with_component(slots[s as usize], sc),
            Ret::ScalarOf(s) => {
                let c = self.types.component(slots[s as usize]).unwrap_or(Sc::F32);
                self.types.scalar(c)
            }
            Ret::Bool => types::BOOL,
            Ret::Uint => types::UINT,
            Ret::Uint4 => self.types.vector(Sc::U32, 4),
            Ret::Vec4(sc) => self.types.vector(sc, 4),
        };
        Some((
            Resolved {
                overload: ov,
                params,
                ret,
            },
            cost,
        ))
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Calls the intrinsic `name`, if there is one. Reports a missing
    /// overload (listing the forms) and gives an error value.
    pub fn intrinsic(
        &mut self,
        name: Symbol,
        targs: Option<&'a [ast::TemplateArg]>,
        args: &[Arg],
        span: Span,
    ) -> Option<Val> {
        let intr = table::find_symbol(name)?;
        if args.iter().any(|a| a.val.is_error()) {
            return Some(Val::error());
        }
        if targs.is_some() {
            return Some(self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!("`{name}` takes no template arguments"),
                span,
                "template arguments given here",
            ));
        }
        let mut best: Option<(Resolved, u64)> = None;
        for ov in intr.overloads {
            if let Some((r, c)) = self.s.resolve_overload(ov, args.len(), |i| args[i].val.ty)
                && best.as_ref().is_none_or(|(_, bc)| c < *bc)
            {
                best = Some((r, c));
            }
        }
        let Some((r, _)) = best else {
            let tys: Vec<String> = args.iter().map(|a| self.s.ty_name(a.val.ty)).collect();
            let forms: Vec<String> = intr
                .overloads
                .iter()
                .map(|o| {
                    format!(
                        "{}({} argument{})",
                        intr.name,
                        o.params.len(),
                        if o.params.len() == 1 { "" } else { "s" }
                    )
                })
                .collect();
            // The forms taking as many arguments, with what each type
            // slot accepts; else every form's argument count.
            let same_count: Vec<String> = intr
                .overloads
                .iter()
                .filter(|o| o.params.len() == args.len())
                .map(|o| {
                    let (sig, _, slots) = o.describe(intr.name);
                    format!("`{sig}` where {}", slots.join(", "))
                })
                .collect();
            let note = if same_count.is_empty() || same_count.iter().any(|f| f.ends_with(" where "))
            {
                format!("available: {}", forms.join(", "))
            } else {
                format!("expected {}", same_count.join(", or "))
            };
            self.s.push(
                Diagnostic::error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of intrinsic `{}` takes ({})",
                        intr.name,
                        tys.join(", ")
                    ),
                )
                .label(span, "no matching overload")
                .note(note),
            );
            return Some(Val::error());
        };
        // The results of wave operations remember the call, for the backend's
        // target checks (a wave operation under Vulkan 1.0).
        let first = self.fb.body.function.expressions.len();
        let v = self.lower_intrinsic(intr.name, &r, args, span);
        for i in first..self.fb.body.function.expressions.len() {
            let h = ir::Handle::from_index(i);
            if matches!(self.fb.body.function.expressions[h], ir::Expression::SubgroupResult) {
                self.tag_span(h, span);
            }
        }
        Some(v)
    }
}
