//! Reinterpreting bits: `asuint`, `asint`, `asfloat` and their 16-bit
//! forms, `asuint(double, out lo, out hi)` and `asdouble(lo, hi)`.

use super::table::Custom;
use crate::diag::codes;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::types::{Sc, Shape, Ty, TyId};

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `asuint`, `asint`, `asfloat`, `asuint16`, `asint16`, `asfloat16`.
    pub(super) fn reinterpret(
        &mut self,
        c: Custom,
        ret: TyId,
        t0: TyId,
        vals: &[ir::Handle<ir::Expression>],
        args: &[Arg],
    ) -> Val {
        let (kind, sc) = match c {
            Custom::AsUint => (ir::ScalarKind::Uint, Sc::U32),
            Custom::AsInt => (ir::ScalarKind::Sint, Sc::I32),
            Custom::AsUint16 => (ir::ScalarKind::Uint, Sc::U16),
            Custom::AsInt16 => (ir::ScalarKind::Sint, Sc::I16),
            Custom::AsFloat16 => (ir::ScalarKind::Float, Sc::F16),
            _ => (ir::ScalarKind::Float, Sc::F32),
        };
        let width = sc.width();
        let sixteen = width == 2;
        if sixteen && !self.s.opts.enable_16bit_types {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                "reinterpreting as 16-bit values needs -enable-16bit-types",
                args[0].span,
                "16-bit types are not enabled",
            );
        }
        // A literal takes the type of the width reinterpreted:
        // `asuint16(1)` reads an int16_t, `asfloat16(1.0)` a half.
        let (t0, vals) = match self.s.types.component(args[0].val.ty) {
            Some(l @ (Sc::LitInt | Sc::LitFloat)) if sixteen => {
                let lc = match (l, sc) {
                    (Sc::LitFloat, _) => Sc::F16,
                    (_, Sc::U16) => Sc::U16,
                    _ => Sc::I16,
                };
                let lt = self.s.types.with_component(args[0].val.ty, lc);
                let cv = self.convert(args[0].val.clone(), lt, args[0].span);
                match self.value(&cv) {
                    Some(h) => (lt, vec![h]),
                    None => return Val::error(),
                }
            }
            _ => (t0, vals.to_vec()),
        };
        let from = self.s.types.component(t0).unwrap_or(Sc::F32);
        let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
        if from.width() != width && (from != Sc::Bool || sixteen) {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!(
                    "cannot reinterpret `{}` as {}-bit values",
                    self.s.ty_name(t0),
                    width * 8
                ),
                args[0].span,
                format!("not a {}-bit type", width * 8),
            );
        }
        let mut h = vals[0];
        let mut from = from;
        if from == Sc::Bool {
            h = self.convert_components(h, Sc::Bool, Sc::U32, shape);
            from = Sc::U32;
        }
        if from == sc {
            return Val::expr(ret, h);
        }
        let h = self.per_row(ret, &[h], &mut |cx, a, rt| {
            cx.add(
                ir::Expression::As {
                    expr: a[0],
                    kind,
                    convert: None,
                    precise: false,
                },
                rt,
            )
        });
        Val::expr(ret, h)
    }

    /// `asuint(double, out uint lo, out uint hi)`.
    pub(super) fn as_uint_double(
        &mut self,
        t0: TyId,
        vals: &[ir::Handle<ir::Expression>],
        args: &[Arg],
    ) -> Val {
        let from = self.s.types.component(t0).unwrap_or(Sc::F32);
        if from != Sc::F64 {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                "the three-argument `asuint` takes a double",
                args[0].span,
                "not a double",
            );
        }
        let (lo, hi, ut) = match *self.s.types.get(t0) {
            // Row by row: SPIR-V has no integer matrices to cast to.
            Ty::Matrix(_, r, c) => {
                let (mut los, mut his) = (Vec::new(), Vec::new());
                // A row of one column is a scalar.
                let row_shape = if c == 1 {
                    Shape::Scalar
                } else {
                    Shape::Vector(c)
                };
                for i in 0..r {
                    let row = self.matrix_row(vals[0], Sc::F64, r, c, i);
                    let (lo, hi) = self.double_halves(row, row_shape);
                    los.push(lo);
                    his.push(hi);
                }
                let ut = self.s.types.matrix(Sc::U32, r, c);
                let lo = self.compose_matrix(ut, los);
                let hi = self.compose_matrix(ut, his);
                (lo, hi, ut)
            }
            _ => {
                let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
                let (lo, hi) = self.double_halves(vals[0], shape);
                (lo, hi, self.s.types.with_shape(Sc::U32, shape))
            }
        };
        self.write_out(&args[1], lo, ut);
        self.write_out(&args[2], hi, ut);
        Val::void()
    }

    /// The low and high 32 bits of a double scalar or vector of `shape`.
    fn double_halves(
        &mut self,
        v: ir::Handle<ir::Expression>,
        shape: Shape,
    ) -> (ir::Handle<ir::Expression>, ir::Handle<ir::Expression>) {
        let u64t = self.s.types.with_shape(Sc::U64, shape);
        let u64i = self.s.ir_ty(u64t);
        let bits = self.as_kind(v, ir::ScalarKind::Uint, None, u64i);
        let ut = self.s.types.with_shape(Sc::U32, shape);
        let uit = self.s.ir_ty(ut);
        let lo = self.as_kind(bits, ir::ScalarKind::Uint, Some(4), uit);
        let sh = self.lit(ir::Literal::U64(32));
        let sh = self.splat_scalar(sh, Sc::U64, shape);
        let hs = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::ShiftRight,
                left: bits,
                right: sh,
                precise: false,
            },
            u64i,
        );
        let hi = self.as_kind(hs, ir::ScalarKind::Uint, Some(4), uit);
        (lo, hi)
    }

    /// `asdouble(uint lo, uint hi)`.
    pub(super) fn as_double(
        &mut self,
        ret: TyId,
        t0: TyId,
        vals: &[ir::Handle<ir::Expression>],
    ) -> Val {
        let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
        let u64t = self.s.types.with_shape(Sc::U64, shape);
        let u64i = self.s.ir_ty(u64t);
        let lo = self.as_kind(vals[0], ir::ScalarKind::Uint, Some(8), u64i);
        let hi = self.as_kind(vals[1], ir::ScalarKind::Uint, Some(8), u64i);
        let sh = self.lit(ir::Literal::U64(32));
        let sh = self.splat_scalar(sh, Sc::U64, shape);
        let hs = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::ShiftLeft,
                left: hi,
                right: sh,
                precise: false,
            },
            u64i,
        );
        let bits = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::InclusiveOr,
                left: lo,
                right: hs,
                precise: false,
            },
            u64i,
        );
        let it = self.s.ir_ty(ret);
        let h = self.as_kind(bits, ir::ScalarKind::Float, None, it);
        Val::expr(ret, h)
    }
}
