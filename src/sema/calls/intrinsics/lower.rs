//! Lowering intrinsic calls to IR (SPIR-V.rst, "Intrinsic functions":
//! which map to GLSL.std.450, which to SPIR-V opcodes, which need several
//! operations).

use super::Resolved;
use super::table::{Custom, Lower};
use crate::diag::{Diagnostic, codes};
use crate::front::ast::BinaryOp;
use crate::ir::Stage;
use crate::ir::{self, MathFunction as M};
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::{self, Sc, Shape, Ty, TyId};
use crate::span::Span;

/// Math functions that work on whole vectors (not component by component).
fn is_vector_fn(f: M) -> bool {
    matches!(
        f,
        M::Dot
            | M::Cross
            | M::Length
            | M::Distance
            | M::Normalize
            | M::Reflect
            | M::Refract
            | M::FaceForward
            | M::Transpose
            | M::Determinant
    )
}

/// An operation on one row of matrix operands: the rows and the row's IR
/// type give the row's result.
type RowOp<'f, C> = dyn FnMut(&mut C, &[ir::Handle<ir::Expression>], ir::Handle<ir::Type>) -> ir::Handle<ir::Expression>
    + 'f;

impl<'s, 'a> FnCtx<'s, 'a> {
    pub(super) fn lower_intrinsic(
        &mut self,
        name: &str,
        r: &Resolved,
        args: &[Arg],
        span: Span,
    ) -> Val {
        let ov = r.overload;
        if let Lower::Custom(Custom::Interlocked(m)) = ov.lower {
            return self.interlocked(m, r, args, span);
        }
        if let Lower::Custom(Custom::Mul) = ov.lower {
            return self.mul(args, span);
        }
        let mut vals = Vec::with_capacity(args.len());
        for (i, p) in ov.params.iter().enumerate() {
            if p.out {
                continue;
            }
            match self.arg_as(&args[i], r.params[i]) {
                Some(h) => vals.push(h),
                None => return Val::error(),
            }
        }
        let ret = r.ret;
        match ov.lower {
            Lower::Math(f) => {
                let arg_ty = r.params.first().copied().unwrap_or(ret);
                if let Some(v) = self.bits_of_other_width(f, &vals, arg_ty, ret, args, span) {
                    return v;
                }
                let h = self.math(f, &vals, arg_ty, ret);
                Val::expr(ret, h)
            }
            Lower::Rel(f) => {
                let h = self.per_row(ret, &vals, &mut |cx, a, rt| {
                    cx.add(
                        ir::Expression::Relational {
                            fun: f,
                            argument: a[0],
                        },
                        rt,
                    )
                });
                Val::expr(ret, h)
            }
            Lower::Deriv(axis, control) => {
                if !self.use_derivatives(name, span) {
                    return Val::error();
                }
                let h = self.per_row(ret, &vals, &mut |cx, a, rt| {
                    // SPIR-V's derivatives take 32-bit floats: 16- and
                    // 64-bit values go through them (as DXC does).
                    let wide = match cx.s.module.types[rt].inner {
                        ir::TypeInner::Scalar(s) if s.width != 4 => {
                            Some(cx.s.module.scalar_type(ir::Scalar::F32))
                        }
                        ir::TypeInner::Vector { size, scalar } if scalar.width != 4 => {
                            Some(cx.s.module.ty(ir::TypeInner::Vector {
                                size,
                                scalar: ir::Scalar::F32,
                            }))
                        }
                        _ => None,
                    };
                    let arg = match wide {
                        Some(w) => cx.as_kind(a[0], ir::ScalarKind::Float, Some(4), w),
                        None => a[0],
                    };
                    let d = cx.add(
                        ir::Expression::Derivative {
                            axis,
                            control,
                            expr: arg,
                        },
                        wide.unwrap_or(rt),
                    );
                    let width = match cx.s.module.types[rt].inner {
                        ir::TypeInner::Scalar(s) | ir::TypeInner::Vector { scalar: s, .. } => {
                            s.width
                        }
                        _ => 4,
                    };
                    match wide {
                        Some(_) => cx.as_kind(d, ir::ScalarKind::Float, Some(width), rt),
                        None => d,
                    }
                });
                Val::expr(ret, h)
            }
            Lower::Wave(op) => {
                let h = self.per_row(ret, &vals, &mut |cx, a, rt| {
                    let res = cx.add(ir::Expression::SubgroupResult, rt);
                    cx.stmt(ir::Statement::Subgroup {
                        op,
                        args: a.to_vec(),
                        result: res,
                    });
                    res
                });
                Val::expr(ret, h)
            }
            Lower::Barrier {
                workgroup,
                device,
                sync,
            } => {
                if sync && !self.group_sync_ok(name, span) {
                    return Val::error();
                }
                self.stmt(ir::Statement::Barrier {
                    memory: ir::BarrierMemory {
                        workgroup,
                        device,
                        image: device,
                    },
                    execution: sync,
                });
                Val::void()
            }
            Lower::Custom(c) => self.custom(c, r, &vals, args, span),
        }
    }

    /// Applies `f` to the operands, row by row when the result (or the
    /// first operand) is a matrix. `f` gets the operand rows and the row's
    /// IR type.
    pub(super) fn per_row(
        &mut self,
        ret: TyId,
        vals: &[ir::Handle<ir::Expression>],
        f: &mut RowOp<'_, Self>,
    ) -> ir::Handle<ir::Expression> {
        if let Ty::Matrix(sc, r, c) = *self.s.types.get(ret) {
            let mut rows = Vec::with_capacity(r as usize);
            for i in 0..r {
                let ops: Vec<_> = vals
                    .iter()
                    .map(|&v| {
                        let vt = self.expr_ty(v);
                        match self.s.module.types[vt].inner {
                            ir::TypeInner::Matrix { .. } => {
                                let rsc = match self.s.module.types[vt].inner {
                                    ir::TypeInner::Matrix { scalar, .. } => Sc::from_ir(scalar),
                                    _ => sc,
                                };
                                self.matrix_row(v, rsc, r, c, i)
                            }
                            _ => v,
                        }
                    })
                    .collect();
                let rowt = self.s.types.vector(sc, c);
                let rit = self.s.ir_ty(rowt);
                rows.push(f(self, &ops, rit));
            }
            return self.compose_matrix(ret, rows);
        }
        let it = self.s.ir_ty(ret);
        f(self, vals, it)
    }

    /// `reversebits` of a signed integer: the bits computed as unsigned,
    /// reinterpreted as the signed result type.
    fn bits_as_signed(
        &mut self,
        r: ir::Handle<ir::Expression>,
        signed: bool,
        ret: TyId,
    ) -> ir::Handle<ir::Expression> {
        if !signed {
            return r;
        }
        let it = self.s.ir_ty(ret);
        self.as_kind(r, ir::ScalarKind::Sint, None, it)
    }

    /// `countbits`, `firstbithigh`, `firstbitlow` and `reversebits` on 16-
    /// and 64-bit integers: Vulkan's bit instructions take 32-bit operands
    /// only (VUID-StandaloneSpirv-Base-04781), so 16-bit values are
    /// widened and 64-bit ones split in halves (as DXC does; DXC rejects
    /// 64-bit `firstbit*`). `None` for 32-bit operands.
    fn bits_of_other_width(
        &mut self,
        f: M,
        vals: &[ir::Handle<ir::Expression>],
        arg_ty: TyId,
        ret: TyId,
        args: &[Arg],
        span: Span,
    ) -> Option<Val> {
        if !matches!(
            f,
            M::CountOneBits | M::FirstLeadingBit | M::FirstTrailingBit | M::ReverseBits
        ) {
            return None;
        }
        let sc = self.s.types.component(arg_ty)?;
        let width = sc.width();
        if width == 4 || !sc.is_int() {
            return None;
        }
        let shape = self.s.types.shape(arg_ty).unwrap_or(Shape::Scalar);
        let signed = sc.kind() == crate::sema::types::ScKind::Sint;
        let unsigned_sc = if width == 2 { Sc::U16 } else { Sc::U64 };
        // The bit pattern as an unsigned value of the same width.
        let bits = if signed {
            let ut = self.s.types.with_shape(unsigned_sc, shape);
            let uit = self.s.ir_ty(ut);
            self.as_kind(vals[0], ir::ScalarKind::Uint, None, uit)
        } else {
            vals[0]
        };
        let u32t = self.s.types.with_shape(Sc::U32, shape);
        let u64t = self.s.types.with_shape(Sc::U64, shape);
        let lit = |cx: &mut Self, n: i64, t: TyId| {
            let c = cx.convert(
                Val::konst(types::LIT_INT, crate::sema::types::consteval::Konst::int(n)),
                t,
                span,
            );
            cx.value(&c)
        };
        let h = if width == 2 {
            let wide = if f == M::FirstLeadingBit && signed {
                // Sign-extended, the first bit differing from the sign
                // keeps its index.
                self.convert_components(vals[0], sc, Sc::I32, shape)
            } else {
                self.convert_components(bits, Sc::U16, Sc::U32, shape)
            };
            let wt = if f == M::FirstLeadingBit && signed {
                self.s.types.with_shape(Sc::I32, shape)
            } else {
                u32t
            };
            if f == M::ReverseBits {
                let r = self.math(f, &[wide], u32t, u32t);
                let sixteen = lit(self, 16, u32t)?;
                let r = self.binary_ir(ir::BinaryOperator::ShiftRight, r, sixteen, u32t, u32t);
                let r = self.convert_components(r, Sc::U32, Sc::U16, shape);
                self.bits_as_signed(r, signed, ret)
            } else {
                self.math(f, &[wide], wt, ret)
            }
        } else {
            if matches!(f, M::FirstLeadingBit | M::FirstTrailingBit) {
                let name = if f == M::FirstLeadingBit {
                    "firstbithigh"
                } else {
                    "firstbitlow"
                };
                return Some(self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!("`{name}` takes 32-bit integers when targeting SPIR-V"),
                    args.first().map_or(span, |a| a.span),
                    "a 64-bit value",
                ));
            }
            let lo = self.convert_components(bits, Sc::U64, Sc::U32, shape);
            let thirty_two = lit(self, 32, u64t)?;
            let high = self.binary_ir(ir::BinaryOperator::ShiftRight, bits, thirty_two, u64t, u64t);
            let hi = self.convert_components(high, Sc::U64, Sc::U32, shape);
            if f == M::CountOneBits {
                let a = self.math(f, &[lo], u32t, u32t);
                let b = self.math(f, &[hi], u32t, u32t);
                self.binary_ir(ir::BinaryOperator::Add, a, b, u32t, u32t)
            } else {
                // reversebits: the reversed low half becomes the high half.
                let rl = self.math(f, &[lo], u32t, u32t);
                let rh = self.math(f, &[hi], u32t, u32t);
                let rl = self.convert_components(rl, Sc::U32, Sc::U64, shape);
                let rh = self.convert_components(rh, Sc::U32, Sc::U64, shape);
                let up = self.binary_ir(ir::BinaryOperator::ShiftLeft, rl, thirty_two, u64t, u64t);
                let r = self.binary_ir(ir::BinaryOperator::InclusiveOr, up, rh, u64t, u64t);
                self.bits_as_signed(r, signed, ret)
            }
        };
        Some(Val::expr(ret, h))
    }

    pub(super) fn math(
        &mut self,
        f: M,
        vals: &[ir::Handle<ir::Expression>],
        arg_ty: TyId,
        ret: TyId,
    ) -> ir::Handle<ir::Expression> {
        if is_vector_fn(f) {
            let it = self.s.ir_ty(ret);
            return self.add(
                ir::Expression::Math {
                    fun: f,
                    args: vals.to_vec(),
                    precise: false,
                },
                it,
            );
        }
        if matches!(f, M::PackHalf | M::UnpackHalf) {
            // One scalar at a time.
            if let Ty::Vector(rs, n) = *self.s.types.get(ret) {
                let asc = self.s.types.component(arg_ty).unwrap_or(Sc::F32);
                let ast_ = self.s.types.scalar(asc);
                let ait = self.s.ir_ty(ast_);
                let rst = self.s.types.scalar(rs);
                let rit = self.s.ir_ty(rst);
                let comps: Vec<_> = (0..n as u32)
                    .map(|i| {
                        let c = self.add(
                            ir::Expression::AccessIndex {
                                base: vals[0],
                                index: i,
                            },
                            ait,
                        );
                        self.add(
                            ir::Expression::Math {
                                fun: f,
                                args: vec![c],
                                precise: false,
                            },
                            rit,
                        )
                    })
                    .collect();
                return self.compose(ret, comps);
            }
        }
        self.per_row(ret, vals, &mut |cx, a, rt| {
            cx.add(
                ir::Expression::Math {
                    fun: f,
                    args: a.to_vec(),
                    precise: false,
                },
                rt,
            )
        })
    }

    pub(super) fn splat_f(&mut self, v: f64, ty: TyId) -> ir::Handle<ir::Expression> {
        let k = crate::sema::types::consteval::Konst {
            sc: Sc::LitFloat,
            v: crate::sema::types::consteval::ConstVal::Float(v),
        };
        let c = self.convert(
            Val::konst(types::LIT_FLOAT, k),
            ty,
            crate::sema::body::place::NO_SPAN,
        );
        self.value(&c).unwrap_or_else(|| self.u32_lit(0))
    }

    pub(super) fn custom(
        &mut self,
        c: Custom,
        r: &Resolved,
        vals: &[ir::Handle<ir::Expression>],
        args: &[Arg],
        span: Span,
    ) -> Val {
        let ret = r.ret;
        let t0 = r.params.first().copied().unwrap_or(ret);
        match c {
            Custom::Abs => {
                if self
                    .s
                    .types
                    .component(ret)
                    .is_some_and(|c| c.kind() == crate::sema::types::ScKind::Uint)
                {
                    return Val::expr(ret, vals[0]);
                }
                let h = self.math(M::Abs, vals, t0, ret);
                Val::expr(ret, h)
            }
            Custom::Fma => {
                let h = self.math(M::Fma, vals, t0, ret);
                Val::expr(ret, h)
            }
            Custom::Mad => {
                if self.s.types.component(ret).is_some_and(|c| c.is_float()) {
                    let h = self.math(M::Fma, vals, t0, ret);
                    return Val::expr(ret, h);
                }
                let p = self.binary_ir(ir::BinaryOperator::Multiply, vals[0], vals[1], ret, ret);
                let h = self.binary_ir(ir::BinaryOperator::Add, p, vals[2], ret, ret);
                Val::expr(ret, h)
            }
            Custom::Log10 => {
                let l = self.math(M::Log2, vals, t0, ret);
                let k = self.splat_f(std::f64::consts::LOG10_2, ret);
                let h = self.binary_ir(ir::BinaryOperator::Multiply, l, k, ret, ret);
                Val::expr(ret, h)
            }
            Custom::Fmod => {
                let h = self.binary_ir(ir::BinaryOperator::Modulo, vals[0], vals[1], ret, ret);
                Val::expr(ret, h)
            }
            Custom::Ldexp => {
                let e = self.math(M::Exp2, &vals[1..2], t0, ret);
                let h = self.binary_ir(ir::BinaryOperator::Multiply, vals[0], e, ret, ret);
                Val::expr(ret, h)
            }
            Custom::Sign => {
                let sc = self.s.types.component(t0).unwrap_or(Sc::F32);
                let s = self.math(M::Sign, vals, t0, t0);
                if sc.is_float() || sc != Sc::I32 {
                    let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
                    let h = self.convert_components(s, sc, Sc::I32, shape);
                    return Val::expr(ret, h);
                }
                Val::expr(ret, s)
            }
            Custom::Dot => {
                let h = self.dot(vals[0], vals[1], t0);
                Val::expr(ret, h)
            }
            Custom::Length => {
                if self.s.types.is_scalar(t0) {
                    let h = self.math(M::Abs, vals, t0, ret);
                    return Val::expr(ret, h);
                }
                let h = self.math(M::Length, vals, t0, ret);
                Val::expr(ret, h)
            }
            Custom::Normalize => {
                if self.s.types.is_scalar(t0) {
                    let h = self.math(M::Sign, vals, t0, ret);
                    return Val::expr(ret, h);
                }
                let h = self.math(M::Normalize, vals, t0, ret);
                Val::expr(ret, h)
            }
            Custom::Transpose => self.transpose(vals[0], t0),
            Custom::Isfinite => self.is_finite(ret, vals),
            Custom::Any | Custom::All => self.any_all(c == Custom::Any, t0, vals[0], span),
            Custom::AsUint
            | Custom::AsInt
            | Custom::AsFloat
            | Custom::AsUint16
            | Custom::AsInt16
            | Custom::AsFloat16 => self.reinterpret(c, ret, t0, vals, args),
            Custom::AsUintDouble => self.as_uint_double(t0, vals, args),
            Custom::AsDouble => self.as_double(ret, t0, vals),
            Custom::Select => {
                let (tc, ta) = (r.params[0], r.params[1]);
                self.select_vals(
                    Val::expr(tc, vals[0]),
                    Val::expr(ta, vals[1]),
                    Val::expr(ta, vals[2]),
                    span,
                )
            }
            Custom::And | Custom::Or => {
                let op = if c == Custom::And {
                    BinaryOp::LogicalAnd
                } else {
                    BinaryOp::LogicalOr
                };
                self.binary_vals(op, Val::expr(t0, vals[0]), Val::expr(t0, vals[1]), span)
            }
            Custom::Modf => {
                let ip = self.math(M::Trunc, &vals[..1], t0, ret);
                let fr = self.binary_ir(ir::BinaryOperator::Subtract, vals[0], ip, ret, ret);
                self.write_out(&args[1], ip, ret);
                Val::expr(ret, fr)
            }
            Custom::Sincos => {
                let s = self.math(M::Sin, vals, t0, t0);
                let co = self.math(M::Cos, vals, t0, t0);
                self.write_out(&args[1], s, t0);
                self.write_out(&args[2], co, t0);
                Val::void()
            }
            Custom::Clip => self.clip(t0, vals[0], span),
            Custom::Frexp
            | Custom::Msad4
            | Custom::IsNormal
            | Custom::Lit
            | Custom::Dst
            | Custom::D3dColorToUbyte4
            | Custom::Dot2Add
            | Custom::Dot4Add { .. }
            | Custom::Pack { .. }
            | Custom::Unpack { .. } => self.custom_more(c, r, vals, args),
            Custom::DebugBreak => {
                self.stmt(ir::Statement::DebugBreak);
                Val::void()
            }
            Custom::QuadAny | Custom::QuadAll => self.quad_any_all(c == Custom::QuadAny, vals[0]),
            Custom::NonUniform => {
                let it = self.s.ir_ty(ret);
                let h = self.add(ir::Expression::NonUniform { value: vals[0] }, it);
                Val::expr(ret, h)
            }
            Custom::CheckAccessFullyMapped => {
                let b = self.s.ir_ty(types::BOOL);
                let h = self.add(ir::Expression::SparseTexelsResident { code: vals[0] }, b);
                Val::expr(types::BOOL, h)
            }
            Custom::GroupWaveCount | Custom::GroupWaveIndex => {
                self.group_wave_builtin(c == Custom::GroupWaveCount, span)
            }
            Custom::IsHelperLane => self.is_helper_lane(),
            // Library checking: the pixel shaders that reach the call check
            // it with their inputs.
            Custom::GetAttributeAtVertex if self.s.stage == Stage::Library => Val::error(),
            Custom::GetAttributeAtVertex if self.s.stage != Stage::Pixel => {
                let stage = self.s.stage.name();
                self.s.push(
                    Diagnostic::error(
                        codes::STAGE_STATEMENT,
                        format!("`GetAttributeAtVertex` cannot be called in {stage} shaders"),
                    )
                    .label(span, "not in a pixel shader")
                    .note("it reads a `nointerpolation` pixel shader input at one vertex of the primitive"),
                );
                Val::error()
            }
            // In pixel shaders the call never gets here (`entry/vertex.rs`).
            Custom::GetAttributeAtVertex => Val::error(),
            Custom::Mul | Custom::Interlocked(_) => Val::error(),
        }
    }

    /// `isfinite`: neither NaN nor infinite, row by row.
    fn is_finite(&mut self, ret: TyId, vals: &[ir::Handle<ir::Expression>]) -> Val {
        let nan = self.per_row(ret, vals, &mut |cx, a, rt| {
            cx.add(
                ir::Expression::Relational {
                    fun: ir::RelationalFunction::IsNan,
                    argument: a[0],
                },
                rt,
            )
        });
        let inf = self.per_row(ret, vals, &mut |cx, a, rt| {
            cx.add(
                ir::Expression::Relational {
                    fun: ir::RelationalFunction::IsInf,
                    argument: a[0],
                },
                rt,
            )
        });
        let either = self.binary_ir(ir::BinaryOperator::LogicalOr, nan, inf, ret, ret);
        let h = self.per_row(ret, &[either], &mut |cx, a, rt| {
            cx.add(
                ir::Expression::Unary {
                    op: ir::UnaryOperator::LogicalNot,
                    expr: a[0],
                    precise: false,
                },
                rt,
            )
        });
        Val::expr(ret, h)
    }

    /// `any`/`all` of a scalar, vector or matrix (a matrix row by row,
    /// then across the rows).
    fn any_all(&mut self, any: bool, t0: TyId, v: ir::Handle<ir::Expression>, span: Span) -> Val {
        let fun = if any {
            ir::RelationalFunction::Any
        } else {
            ir::RelationalFunction::All
        };
        let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
        let bt = self.s.types.with_shape(Sc::Bool, shape);
        let b = self.convert(Val::expr(t0, v), bt, span);
        let Some(h) = self.value(&b) else {
            return Val::error();
        };
        let bool_ir = self.s.ir_ty(types::BOOL);
        let h = match shape {
            Shape::Scalar => h,
            Shape::Vector(_) => self.add(ir::Expression::Relational { fun, argument: h }, bool_ir),
            Shape::Matrix(r, cc) => {
                let rows: Vec<_> = (0..r)
                    .map(|i| {
                        let row = self.matrix_row(h, Sc::Bool, r, cc, i);
                        if cc == 1 {
                            row
                        } else {
                            self.add(ir::Expression::Relational { fun, argument: row }, bool_ir)
                        }
                    })
                    .collect();
                if rows.len() == 1 {
                    rows[0]
                } else {
                    let vt = self.s.types.vector(Sc::Bool, r);
                    let v = self.compose(vt, rows);
                    self.add(ir::Expression::Relational { fun, argument: v }, bool_ir)
                }
            }
        };
        Val::expr(types::BOOL, h)
    }

    /// `clip(x)`: discard when any component of `x` is negative.
    fn clip(&mut self, t0: TyId, v: ir::Handle<ir::Expression>, span: Span) -> Val {
        if !matches!(self.s.stage, Stage::Pixel | Stage::Library) {
            return self.error(
                codes::STAGE_STATEMENT,
                "`clip` in a shader that is not a pixel shader",
                span,
                "only pixel shaders can discard",
            );
        }
        let zero = self.splat_f(0.0, t0);
        let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
        let bt = self.s.types.with_shape(Sc::Bool, shape);
        let lt = self.binary_ir(ir::BinaryOperator::Less, v, zero, t0, bt);
        let anyv = self.any_all(true, bt, lt, span);
        if let ValKind::Expr(c) = anyv.kind {
            self.stmt(ir::Statement::If {
                condition: c,
                accept: vec![ir::Statement::Kill],
                reject: Vec::new(),
                control: ir::SelectionControl::None,
            });
        }
        Val::void()
    }

    /// `QuadAny`/`QuadAll`: the quad's four values by swaps, combined
    /// (DXC's form without SPV_KHR_quad_control).
    fn quad_any_all(&mut self, any: bool, v: ir::Handle<ir::Expression>) -> Val {
        let b = self.s.ir_ty(types::BOOL);
        let op = if any {
            ir::BinaryOperator::LogicalOr
        } else {
            ir::BinaryOperator::LogicalAnd
        };
        let mut acc = v;
        for swap in [
            ir::SubgroupOperation::QuadReadAcrossX,
            ir::SubgroupOperation::QuadReadAcrossY,
            ir::SubgroupOperation::QuadReadAcrossDiagonal,
        ] {
            let res = self.add(ir::Expression::SubgroupResult, b);
            self.stmt(ir::Statement::Subgroup {
                op: swap,
                args: vec![v],
                result: res,
            });
            acc = self.add(
                ir::Expression::Binary {
                    op,
                    left: acc,
                    right: res,
                    precise: false,
                },
                b,
            );
        }
        Val::expr(types::BOOL, acc)
    }

    /// `IsHelperLane()`. Only pixel shaders have helper invocations: false
    /// elsewhere. As DXC emits it: from SPIR-V 1.6 (Vulkan 1.3) the
    /// HelperInvocation built-in, before it OpIsHelperInvocationEXT
    /// (SPV_EXT_demote_to_helper_invocation), which stays right after a
    /// demote.
    fn is_helper_lane(&mut self) -> Val {
        let b = self.s.ir_ty(types::BOOL);
        if self.s.stage != crate::ir::Stage::Pixel {
            let h = self.add(ir::Expression::Literal(ir::Literal::Bool(false)), b);
            return Val::expr(types::BOOL, h);
        }
        if self.s.opts.target_env >= crate::ir::TargetEnv::Vulkan1_3 {
            let g = self.s.builtin_input(
                spirv::BuiltIn::HelperInvocation,
                "gl_HelperInvocation",
                types::BOOL,
            );
            let pty = self.ptr_type(b, ir::AddressSpace::Input);
            let p = self.add(ir::Expression::GlobalVariable(g), pty);
            let h = self.add(ir::Expression::Load { pointer: p }, b);
            return Val::expr(types::BOOL, h);
        }
        let res = self.add(ir::Expression::SubgroupResult, b);
        self.stmt(ir::Statement::Subgroup {
            op: ir::SubgroupOperation::IsHelperLane,
            args: vec![],
            result: res,
        });
        Val::expr(types::BOOL, res)
    }

    /// `GetGroupWaveCount`/`GetGroupWaveIndex`: a subgroup builtin input.
    /// Their built-ins are the wave operations' (GroupNonUniform): SPIR-V
    /// 1.3, Vulkan 1.1.
    fn group_wave_builtin(&mut self, count: bool, span: Span) -> Val {
        let env = self.s.opts.target_env;
        let (major, minor) = env.spirv_version();
        if (major, minor) < (1, 3) {
            self.s.push(
                Diagnostic::error(
                    codes::TARGET_TOO_OLD,
                    format!(
                        "a wave operation needs SPIR-V 1.3, but the target is {} (SPIR-V {major}.{minor})",
                        env.name()
                    ),
                )
                .label(span, "a wave operation")
                .note("choose a newer target environment, e.g. -fspv-target-env=vulkan1.1"),
            );
            return Val::error();
        }
        let (bi, name) = if count {
            (spirv::BuiltIn::NumSubgroups, "gl_NumSubgroups")
        } else {
            (spirv::BuiltIn::SubgroupId, "gl_SubgroupID")
        };
        let g = self.s.builtin_input(bi, name, types::UINT);
        let u = self.s.ir_ty(types::UINT);
        let pty = self.ptr_type(u, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let h = self.add(ir::Expression::Load { pointer: p }, u);
        Val::expr(types::UINT, h)
    }

    /// `InterlockedOp(dest, …)` on groupshared memory, buffer elements or
    /// storage-image texels.
    pub(super) fn interlocked(
        &mut self,
        m: &'static str,
        _r: &Resolved,
        args: &[Arg],
        span: Span,
    ) -> Val {
        let dest = &args[0];
        if dest.val.is_error() {
            return Val::error();
        }
        let ty = dest.val.ty;
        let float_ok = m == "InterlockedExchange";
        if !matches!(self.s.types.get(ty), Ty::Scalar(s) if s.is_int() || (float_ok && s.is_float()))
        {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!(
                    "`{m}` works on int and uint values, not `{}`",
                    self.s.ty_name(ty)
                ),
                dest.span,
                "not an integer",
            );
        }
        if let Some(ro) = dest.val.read_only
            && ro != crate::sema::ReadOnly::Rvalue
        {
            self.check_writable(&dest.val, dest.span);
            return Val::error();
        }
        // Atomics need memory other invocations can see: SPIR-V's Vulkan
        // environment allows them only on StorageBuffer, Workgroup and Image
        // pointers; DXC rejects `static` and function-scope destinations.
        if let ValKind::Place(pl) = &dest.val.kind
            && let Some(space) = place_space(pl)
            && matches!(
                space,
                ir::AddressSpace::Private | ir::AddressSpace::Function
            )
        {
            return self.error(
                codes::ATOMIC_NOT_SHARED,
                format!("the destination of `{m}` cannot be a static or function-scope variable"),
                dest.span,
                "not groupshared memory, a buffer element or a texel",
            );
        }
        let Some(p) = self.place_pointer(&dest.val, span) else {
            return self.error(
                codes::NOT_ASSIGNABLE,
                format!("the destination of `{m}` must be a groupshared variable, buffer element or texel"),
                dest.span,
                "not a memory location",
            );
        };
        self.interlocked_on(p, ty, m, &args[1..], span)
    }

    /// A pointer to the scalar a place names, for atomics.
    pub fn place_pointer(&mut self, v: &Val, _span: Span) -> Option<ir::Handle<ir::Expression>> {
        let ValKind::Place(p) = &v.kind else {
            return None;
        };
        match p {
            Place::Ptr { ptr, .. } => Some(*ptr),
            Place::Swizzle {
                base,
                comps,
                base_ty,
            } if comps.len() == 1 => {
                // `tex[i].r` of a scalar texel is the texel itself.
                if let Place::Texel { .. } = &**base
                    && comps[0] == 0
                    && matches!(self.s.types.get(*base_ty), Ty::Scalar(_))
                {
                    let texel = Val {
                        kind: ValKind::Place((**base).clone()),
                        ..v.clone()
                    };
                    return self.place_pointer(&texel, _span);
                }
                let Place::Ptr { ptr, mem, space } = &**base else {
                    return None;
                };
                let sc = self.s.types.component(*base_ty).unwrap_or(Sc::U32);
                let st = self.s.types.scalar(sc);
                let elem = self.member_mem_type(*mem, comps[0] as u32, st);
                let pty = self.ptr_type(elem, *space);
                Some(self.add(
                    ir::Expression::AccessIndex {
                        base: *ptr,
                        index: comps[0] as u32,
                    },
                    pty,
                ))
            }
            Place::Texel { image, coord, elem } => {
                let pointer = match self.fb.body.function.expressions[*image] {
                    ir::Expression::Load { pointer } => pointer,
                    _ => return None,
                };
                let sc = self.s.types.component(*elem).unwrap_or(Sc::U32);
                let st = self.s.types.scalar(sc);
                let sit = self.s.ir_ty(st);
                let pty = self.ptr_type(sit, ir::AddressSpace::Handle);
                let zero = self.u32_lit(0);
                Some(self.add(
                    ir::Expression::ImageTexelPointer {
                        image: pointer,
                        coordinate: *coord,
                        sample: zero,
                    },
                    pty,
                ))
            }
            _ => None,
        }
    }
}

/// The address space a place's memory lives in, when it is a pointer.
fn place_space(p: &Place) -> Option<ir::AddressSpace> {
    match p {
        Place::Ptr { space, .. } => Some(*space),
        Place::Swizzle { base, .. } | Place::BitField { base, .. } => place_space(base),
        _ => None,
    }
}
