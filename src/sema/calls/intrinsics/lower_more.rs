//! Lowering the intrinsics of `more.rs` that take several IR operations:
//! `msad4`, `isnormal`, `lit`, `dst`, `D3DCOLORtoUBYTE4`, `dot2add`,
//! `dot4add_*`, the SM 6.6 byte packing, and `frexp`. Each is built from
//! operations the constant folder already knows exactly, so constant
//! arguments fold to the right value (or stay unfolded).

use super::Resolved;
use super::table::Custom;
use crate::ir::{self, BinaryOperator as B, MathFunction as M};
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::types::{self, Sc, Shape, TyId};

type H = ir::Handle<ir::Expression>;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The custom lowerings of `more.rs`.
    pub(super) fn custom_more(&mut self, c: Custom, r: &Resolved, vals: &[H], args: &[Arg]) -> Val {
        let ret = r.ret;
        let t0 = r.params.first().copied().unwrap_or(ret);
        let h = match c {
            Custom::Msad4 => self.msad4(vals[0], vals[1], vals[2]),
            Custom::IsNormal => return self.is_normal(vals[0], t0, ret),
            Custom::Lit => self.lit_fn(vals),
            Custom::Dst => self.dst_fn(vals, t0),
            Custom::D3dColorToUbyte4 => self.color_to_ubyte4(vals[0]),
            Custom::Dot2Add => self.dot2add(vals, t0),
            Custom::Dot4Add { signed } => {
                let f = if signed {
                    M::Dot4I8Packed
                } else {
                    M::Dot4U8Packed
                };
                let it = self.s.ir_ty(ret);
                let d = self.add(
                    ir::Expression::Math {
                        fun: f,
                        args: vec![vals[0], vals[1]],
                        precise: false,
                    },
                    it,
                );
                self.bin(B::Add, d, vals[2], ret)
            }
            Custom::Pack { signed, clamp } => self.pack_bytes(vals[0], t0, signed, clamp),
            Custom::Unpack { signed } => self.unpack_bytes(vals[0], signed, ret),
            Custom::Frexp => return self.frexp(vals[0], t0, &args[1]),
            _ => return Val::error(),
        };
        Val::expr(ret, h)
    }

    /// A `uint4` of constants.
    fn uint4_const(&mut self, v: [u32; 4]) -> H {
        let comps = v.iter().map(|&x| self.u32_lit(x)).collect();
        let t = self.s.types.vector(Sc::U32, 4);
        self.compose(t, comps)
    }

    /// The four bytes of `x` (a `uint`) as a `uint4`, byte 0 first.
    fn bytes_of(&mut self, x: H) -> H {
        let u4 = self.s.types.vector(Sc::U32, 4);
        let x4 = self.splat_scalar(x, Sc::U32, Shape::Vector(4));
        let sh = self.uint4_const([0, 8, 16, 24]);
        let down = self.bin(B::ShiftRight, x4, sh, u4);
        let ff = self.u32_lit(0xff);
        let ff4 = self.splat_scalar(ff, Sc::U32, Shape::Vector(4));
        self.bin(B::And, down, ff4, u4)
    }

    /// The sum of the components of a `uint4`, x first.
    fn sum4(&mut self, v: H) -> H {
        let u = self.s.ir_ty(types::UINT);
        let mut acc = self.add(ir::Expression::AccessIndex { base: v, index: 0 }, u);
        for i in 1..4 {
            let c = self.add(ir::Expression::AccessIndex { base: v, index: i }, u);
            acc = self.bin(B::Add, acc, c, types::UINT);
        }
        acc
    }

    /// `msad4(reference, source, accum)`: for each k, `accum[k]` plus the
    /// sum over the bytes j of `reference` that are not zero of
    /// |ref[j] - src[k + j]|, where `src` is the 8 bytes of `source`
    /// (x's bytes first). Alignment k reads the window
    /// `(source.x >> 8k) | (source.y << (32 - 8k))`, as Direct3D defines it.
    fn msad4(&mut self, reference: H, source: H, accum: H) -> H {
        let u = self.s.ir_ty(types::UINT);
        let u4 = self.s.types.vector(Sc::U32, 4);
        let b4 = self.s.types.vector(Sc::Bool, 4);
        let sx = self.add(
            ir::Expression::AccessIndex {
                base: source,
                index: 0,
            },
            u,
        );
        let sy = self.add(
            ir::Expression::AccessIndex {
                base: source,
                index: 1,
            },
            u,
        );
        let refs = self.bytes_of(reference);
        let zero = self.u32_lit(0);
        let zero4 = self.splat_scalar(zero, Sc::U32, Shape::Vector(4));
        let counted = self.bin(B::NotEqual, refs, zero4, b4);
        let mut sums = Vec::with_capacity(4);
        for k in 0..4u32 {
            let window = if k == 0 {
                sx
            } else {
                let lo_sh = self.u32_lit(8 * k);
                let hi_sh = self.u32_lit(32 - 8 * k);
                let lo = self.bin(B::ShiftRight, sx, lo_sh, types::UINT);
                let hi = self.bin(B::ShiftLeft, sy, hi_sh, types::UINT);
                self.bin(B::InclusiveOr, lo, hi, types::UINT)
            };
            let src = self.bytes_of(window);
            let hi = self.math(M::Max, &[refs, src], u4, u4);
            let lo = self.math(M::Min, &[refs, src], u4, u4);
            let diff = self.bin(B::Subtract, hi, lo, u4);
            let it = self.s.ir_ty(u4);
            let masked = self.add(
                ir::Expression::Select {
                    condition: counted,
                    accept: diff,
                    reject: zero4,
                },
                it,
            );
            let a = self.add(
                ir::Expression::AccessIndex {
                    base: accum,
                    index: k,
                },
                u,
            );
            let s = self.sum4(masked);
            sums.push(self.bin(B::Add, a, s, types::UINT));
        }
        self.compose(u4, sums)
    }

    /// `isnormal(x)`: the exponent bits are neither all zeros (zero,
    /// denormal) nor all ones (infinity, NaN), as DXC tests them.
    fn is_normal(&mut self, x: H, t0: TyId, ret: TyId) -> Val {
        let sc = self.s.types.component(t0).unwrap_or(Sc::F32);
        let (usc, mask): (Sc, u64) = match sc {
            Sc::F16 => (Sc::U16, 0x7c00),
            Sc::F64 => (Sc::U64, 0x7ff0_0000_0000_0000),
            _ => (Sc::U32, 0x7f80_0000),
        };
        let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
        let row_shape = match shape {
            Shape::Matrix(_, 1) | Shape::Scalar => Shape::Scalar,
            Shape::Matrix(_, c) => Shape::Vector(c),
            v => v,
        };
        let ust = self.s.types.scalar(usc);
        let m = self.int_const(ust, mask as i64);
        let z = self.int_const(ust, 0);
        let mv = self.splat_scalar(m, usc, row_shape);
        let zv = self.splat_scalar(z, usc, row_shape);
        let urow = self.s.types.with_shape(usc, row_shape);
        let brow = self.s.types.with_shape(Sc::Bool, row_shape);
        let h = self.per_row(ret, &[x], &mut |cx, a, _| {
            let uit = cx.s.ir_ty(urow);
            let bits = cx.as_kind(a[0], ir::ScalarKind::Uint, None, uit);
            let e = cx.bin(B::And, bits, mv, urow);
            let not_zero = cx.bin(B::NotEqual, e, zv, brow);
            let not_ones = cx.bin(B::NotEqual, e, mv, brow);
            cx.bin(B::LogicalAnd, not_zero, not_ones, brow)
        });
        Val::expr(ret, h)
    }

    /// `lit(n_dot_l, n_dot_h, m)`: (1, max(n_dot_l, 0), n_dot_l < 0 or
    /// n_dot_h < 0 ? 0 : pow(n_dot_h, m), 1), as the HLSL reference and
    /// D3D9's `lit` define it (DXC's SPIR-V multiplies instead of `pow`).
    fn lit_fn(&mut self, v: &[H]) -> H {
        let f = types::FLOAT;
        let zero = self.splat_f(0.0, f);
        let one = self.splat_f(1.0, f);
        let diffuse = self.math(M::Max, &[zero, v[0]], f, f);
        let least = self.math(M::Min, &[v[0], v[1]], f, f);
        let negative = self.bin(B::Less, least, zero, types::BOOL);
        let product = self.math(M::Pow, &[v[1], v[2]], f, f);
        let it = self.s.ir_ty(f);
        let specular = self.add(
            ir::Expression::Select {
                condition: negative,
                accept: zero,
                reject: product,
            },
            it,
        );
        let f4 = self.s.types.vector(Sc::F32, 4);
        self.compose(f4, vec![one, diffuse, specular, one])
    }

    /// `dst(src0, src1)`: (1, src0.y * src1.y, src0.z, src1.w).
    fn dst_fn(&mut self, v: &[H], t0: TyId) -> H {
        let sc = self.s.types.component(t0).unwrap_or(Sc::F32);
        let st = self.s.types.scalar(sc);
        let sit = self.s.ir_ty(st);
        let part = |cx: &mut Self, i: usize, c: u32| {
            cx.add(
                ir::Expression::AccessIndex {
                    base: v[i],
                    index: c,
                },
                sit,
            )
        };
        let (y0, y1, z0, w1) = (
            part(self, 0, 1),
            part(self, 1, 1),
            part(self, 0, 2),
            part(self, 1, 3),
        );
        let y = self.bin(B::Multiply, y0, y1, st);
        let one = self.splat_f(1.0, st);
        self.compose(t0, vec![one, y, z0, w1])
    }

    /// `D3DCOLORtoUBYTE4(c)`: `int4(c.zyxw * 255.002)` (the documented
    /// scale: 1.0 gives 255 after truncation).
    fn color_to_ubyte4(&mut self, c: H) -> H {
        let f4 = self.s.types.vector(Sc::F32, 4);
        let bgra = self.swizzle_value(c, f4, &[2, 1, 0, 3]);
        let k = self.splat_f(255.002, f4);
        let scaled = self.bin(B::Multiply, bgra, k, f4);
        self.convert_components(scaled, Sc::F32, Sc::I32, Shape::Vector(4))
    }

    /// `dot2add(a, b, acc)`: `a.x * b.x + a.y * b.y + acc` in `float`.
    /// The products of two halves are exact in `float`, so the halves are
    /// widened first (DXC multiplies in half, then widens).
    fn dot2add(&mut self, v: &[H], t0: TyId) -> H {
        let sc = self.s.types.component(t0).unwrap_or(Sc::F32);
        let f2 = self.s.types.vector(Sc::F32, 2);
        let a = self.convert_components(v[0], sc, Sc::F32, Shape::Vector(2));
        let b = self.convert_components(v[1], sc, Sc::F32, Shape::Vector(2));
        let p = self.bin(B::Multiply, a, b, f2);
        let f = self.s.ir_ty(types::FLOAT);
        let x = self.add(ir::Expression::AccessIndex { base: p, index: 0 }, f);
        let y = self.add(ir::Expression::AccessIndex { base: p, index: 1 }, f);
        let s = self.bin(B::Add, x, y, types::FLOAT);
        self.bin(B::Add, s, v[2], types::FLOAT)
    }

    /// `pack_[clamp_]{s8,u8}(v)`: the low byte of each component (after
    /// clamping to the signed or unsigned byte range) in a `uint`, x in
    /// the lowest byte.
    fn pack_bytes(&mut self, v: H, t0: TyId, signed: bool, clamp: bool) -> H {
        let sc = self.s.types.component(t0).unwrap_or(Sc::I32);
        let v = if clamp {
            let st = self.s.types.scalar(sc);
            let (lo, hi) = if signed { (-128, 127) } else { (0, 255) };
            let lo = self.int_const(st, lo);
            let hi = self.int_const(st, hi);
            let lo4 = self.splat_scalar(lo, sc, Shape::Vector(4));
            let hi4 = self.splat_scalar(hi, sc, Shape::Vector(4));
            self.math(M::Clamp, &[v, lo4, hi4], t0, t0)
        } else {
            v
        };
        let u4 = self.s.types.vector(Sc::U32, 4);
        let wide = match sc.width() {
            4 if sc == Sc::U32 => v,
            4 => {
                let it = self.s.ir_ty(u4);
                self.as_kind(v, ir::ScalarKind::Uint, None, it)
            }
            _ => self.convert_components(v, sc, Sc::U32, Shape::Vector(4)),
        };
        let ff = self.u32_lit(0xff);
        let ff4 = self.splat_scalar(ff, Sc::U32, Shape::Vector(4));
        let low = self.bin(B::And, wide, ff4, u4);
        let sh = self.uint4_const([0, 8, 16, 24]);
        let placed = self.bin(B::ShiftLeft, low, sh, u4);
        let u = self.s.ir_ty(types::UINT);
        let mut acc = self.add(
            ir::Expression::AccessIndex {
                base: placed,
                index: 0,
            },
            u,
        );
        for i in 1..4 {
            let c = self.add(
                ir::Expression::AccessIndex {
                    base: placed,
                    index: i,
                },
                u,
            );
            acc = self.bin(B::InclusiveOr, acc, c, types::UINT);
        }
        acc
    }

    /// `unpack_{s8,u8}{s16,s32,u16,u32}(p)`: the four bytes of `p`, x from
    /// the lowest, sign- or zero-extended to the result's components.
    fn unpack_bytes(&mut self, p: H, signed: bool, ret: TyId) -> H {
        let rsc = self.s.types.component(ret).unwrap_or(Sc::I32);
        let (h, sc) = if signed {
            // Each byte moved to the top, then shifted down arithmetically.
            let u4 = self.s.types.vector(Sc::U32, 4);
            let i4 = self.s.types.vector(Sc::I32, 4);
            let p4 = self.splat_scalar(p, Sc::U32, Shape::Vector(4));
            let up = self.uint4_const([24, 16, 8, 0]);
            let top = self.bin(B::ShiftLeft, p4, up, u4);
            let it = self.s.ir_ty(i4);
            let s = self.as_kind(top, ir::ScalarKind::Sint, None, it);
            let k = self.i32_lit(24);
            let k4 = self.splat_scalar(k, Sc::I32, Shape::Vector(4));
            (self.bin(B::ShiftRight, s, k4, i4), Sc::I32)
        } else {
            (self.bytes_of(p), Sc::U32)
        };
        self.convert_components(h, sc, rsc, Shape::Vector(4))
    }

    /// `frexp(x, out e)`: GLSL FrexpStruct per row; the exponent is
    /// converted to `x`'s type and written to `e`, the mantissa returned.
    fn frexp(&mut self, x: H, t0: TyId, out: &Arg) -> Val {
        let sc = self.s.types.component(t0).unwrap_or(Sc::F32);
        let shape = self.s.types.shape(t0).unwrap_or(Shape::Scalar);
        let (rows, row_shape) = match shape {
            Shape::Matrix(r, 1) => (Some(r), Shape::Scalar),
            Shape::Matrix(r, c) => (Some(r), Shape::Vector(c)),
            s => (None, s),
        };
        let ft = self.s.types.with_shape(sc, row_shape);
        let it = self.s.types.with_shape(Sc::I32, row_shape);
        let (fit, iit) = (self.s.ir_ty(ft), self.s.ir_ty(it));
        let member = |name: &str, ty| ir::StructMember {
            name: Some(name.to_string()),
            ty,
            offset: None,
            matrix_layout: None,
            precise: false,
            binding: None,
            decorations: Vec::new(),
        };
        let st = self.s.module.types.insert(ir::Type {
            name: Some("FrexpStructType".to_string()),
            inner: ir::TypeInner::Struct {
                members: vec![member("mantissa", fit), member("exponent", iit)],
                size: 0,
            },
        });
        let mut mants = Vec::new();
        let mut exps = Vec::new();
        for i in 0..rows.unwrap_or(1) {
            let row = match (rows, shape) {
                (Some(r), Shape::Matrix(_, c)) => self.matrix_row(x, sc, r, c, i),
                _ => x,
            };
            let both = self.add(
                ir::Expression::Math {
                    fun: M::Frexp,
                    args: vec![row],
                    precise: false,
                },
                st,
            );
            let e = self.add(
                ir::Expression::AccessIndex {
                    base: both,
                    index: 1,
                },
                iit,
            );
            exps.push(self.convert_components(e, Sc::I32, sc, row_shape));
            mants.push(self.add(
                ir::Expression::AccessIndex {
                    base: both,
                    index: 0,
                },
                fit,
            ));
        }
        let (m, e) = if rows.is_some() {
            (
                self.compose_matrix(t0, mants),
                self.compose_matrix(t0, exps),
            )
        } else {
            (mants[0], exps[0])
        };
        self.write_out(out, e, t0);
        Val::expr(t0, m)
    }
}
