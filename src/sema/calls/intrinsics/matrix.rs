//! Products and matrix intrinsics: `dot` (integer forms expanded), `mul` in
//! its nine forms (MatMul for float matrices, dot products otherwise), and
//! `transpose`.

use crate::diag::codes;
use crate::front::ast::BinaryOp;
use crate::ir::{self, MathFunction as M};
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::types::{Sc, Shape, Ty, TyId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The dot product of two values of type `t` (scalars multiply; integer
    /// vectors sum their products).
    pub(super) fn dot(
        &mut self,
        a: ir::Handle<ir::Expression>,
        b: ir::Handle<ir::Expression>,
        t: TyId,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(t).unwrap_or(Sc::F32);
        let st = self.s.types.scalar(sc);
        let sit = self.s.ir_ty(st);
        match *self.s.types.get(t) {
            Ty::Vector(_, n) => {
                if sc.is_float() {
                    return self.add(
                        ir::Expression::Math {
                            fun: M::Dot,
                            args: vec![a, b],
                            precise: false,
                        },
                        sit,
                    );
                }
                let mut acc = None;
                for i in 0..n as u32 {
                    let x = self.add(ir::Expression::AccessIndex { base: a, index: i }, sit);
                    let y = self.add(ir::Expression::AccessIndex { base: b, index: i }, sit);
                    let p = self.add(
                        ir::Expression::Binary {
                            op: ir::BinaryOperator::Multiply,
                            left: x,
                            right: y,
                            precise: false,
                        },
                        sit,
                    );
                    acc = Some(match acc {
                        None => p,
                        Some(s) => self.add(
                            ir::Expression::Binary {
                                op: ir::BinaryOperator::Add,
                                left: s,
                                right: p,
                                precise: false,
                            },
                            sit,
                        ),
                    });
                }
                acc.unwrap_or(a)
            }
            _ => self.add(
                ir::Expression::Binary {
                    op: ir::BinaryOperator::Multiply,
                    left: a,
                    right: b,
                    precise: false,
                },
                sit,
            ),
        }
    }

    /// Element (i, j) of a matrix value, or component i of a vector.
    pub(super) fn elem(
        &mut self,
        h: ir::Handle<ir::Expression>,
        t: TyId,
        i: u8,
        j: u8,
    ) -> ir::Handle<ir::Expression> {
        match *self.s.types.get(t) {
            Ty::Matrix(sc, r, c) => self.matrix_element(h, sc, r, c, i, j),
            Ty::Vector(sc, _) => {
                let st = self.s.types.scalar(sc);
                let sit = self.s.ir_ty(st);
                self.add(
                    ir::Expression::AccessIndex {
                        base: h,
                        index: (i.max(j)) as u32,
                    },
                    sit,
                )
            }
            _ => h,
        }
    }

    pub(in crate::sema) fn transpose(&mut self, h: ir::Handle<ir::Expression>, t: TyId) -> Val {
        let Ty::Matrix(sc, r, c) = *self.s.types.get(t) else {
            return Val::expr(t, h);
        };
        let rt = self.s.types.matrix(sc, c, r);
        if sc.is_float() && r > 1 && c > 1 {
            let it = self.s.ir_ty(rt);
            let x = self.add(
                ir::Expression::Math {
                    fun: M::Transpose,
                    args: vec![h],
                    precise: false,
                },
                it,
            );
            return Val::expr(rt, x);
        }
        let st = self.s.types.scalar(sc);
        let mut rows = Vec::new();
        for j in 0..c {
            let comps: Vec<_> = (0..r)
                .map(|i| self.matrix_element(h, sc, r, c, i, j))
                .collect();
            if r == 1 {
                rows.push(comps[0]);
            } else {
                let vt = self.s.types.vector(sc, r);
                rows.push(self.compose(vt, comps));
            }
        }
        let _ = st;
        let h = self.compose_matrix(rt, rows);
        Val::expr(rt, h)
    }

    /// `mul(a, b)` in its nine forms.
    pub(super) fn mul(&mut self, args: &[Arg], span: Span) -> Val {
        let (va, vb) = (args[0].val.clone(), args[1].val.clone());
        let (Some(sa), Some(sb)) = (self.s.types.shape(va.ty), self.s.types.shape(vb.ty)) else {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                "`mul` takes scalars, vectors and matrices",
                span,
                "invalid operands",
            );
        };
        if sa == Shape::Scalar || sb == Shape::Scalar {
            return self.binary_vals(BinaryOp::Mul, va, vb, span);
        }
        let ca = self.s.types.component(va.ty).unwrap_or(Sc::F32);
        let cb = self.s.types.component(vb.ty).unwrap_or(Sc::F32);
        let mut sc = crate::sema::types::consteval::common_scalar(ca, cb).concrete();
        if sc == Sc::Bool {
            sc = Sc::I32;
        }
        let mismatch = |cx: &mut Self| {
            let (x, y) = (cx.s.ty_name(va.ty), cx.s.ty_name(vb.ty));
            cx.error(
                codes::NO_MATCHING_OVERLOAD,
                format!("`mul` cannot multiply `{x}` by `{y}`"),
                span,
                "dimensions do not match",
            )
        };
        let (ta, tb, rt) = match (sa, sb) {
            (Shape::Vector(n), Shape::Vector(m)) => {
                let k = n.min(m);
                let t = self.s.types.vector(sc, k);
                let a = self.convert(va, t, args[0].span);
                let b = self.convert(vb, t, args[1].span);
                let (Some(ha), Some(hb)) = (self.value(&a), self.value(&b)) else {
                    return Val::error();
                };
                let st = self.s.types.scalar(sc);
                let h = self.dot(ha, hb, t);
                return Val::expr(st, h);
            }
            // A longer vector is truncated (with DXC's warning), as an
            // argument to `mul(vector<T, r>, matrix<T, r, c>)` would be.
            (Shape::Vector(n), Shape::Matrix(r, c)) => {
                if n < r {
                    return mismatch(self);
                }
                (
                    self.s.types.vector(sc, r),
                    self.s.types.matrix(sc, r, c),
                    self.s.types.vector(sc, c),
                )
            }
            (Shape::Matrix(r, c), Shape::Vector(n)) => {
                if n < c {
                    return mismatch(self);
                }
                (
                    self.s.types.matrix(sc, r, c),
                    self.s.types.vector(sc, c),
                    self.s.types.vector(sc, r),
                )
            }
            (Shape::Matrix(r, c), Shape::Matrix(r2, c2)) => {
                if c != r2 {
                    return mismatch(self);
                }
                (
                    self.s.types.matrix(sc, r, c),
                    self.s.types.matrix(sc, r2, c2),
                    self.s.types.matrix(sc, r, c2),
                )
            }
            _ => return mismatch(self),
        };
        let a = self.convert(va, ta, args[0].span);
        let b = self.convert(vb, tb, args[1].span);
        let (Some(ha), Some(hb)) = (self.value(&a), self.value(&b)) else {
            return Val::error();
        };
        let degenerate = |t: &Ty| matches!(t, Ty::Matrix(_, r, c) if *r == 1 || *c == 1);
        let simple = sc.is_float()
            && !degenerate(self.s.types.get(ta))
            && !degenerate(self.s.types.get(tb))
            && !self.s.types.is_scalar(rt)
            && !degenerate(self.s.types.get(rt));
        if simple {
            let it = self.s.ir_ty(rt);
            let h = self.add(
                ir::Expression::Binary {
                    op: ir::BinaryOperator::MatMul,
                    left: ha,
                    right: hb,
                    precise: false,
                },
                it,
            );
            return Val::expr(rt, h);
        }
        // Expand: each result element is a row of `a` dotted with a column of `b`.
        let dims = |t: &Ty| match *t {
            Ty::Matrix(_, r, c) => (r, c),
            Ty::Vector(_, n) => (1, n),
            _ => (1, 1),
        };
        let (ar, ac) = match *self.s.types.get(ta) {
            Ty::Vector(_, n) => (1, n),
            ref t => dims(t),
        };
        let (br, bc) = match *self.s.types.get(tb) {
            Ty::Vector(_, n) => (n, 1),
            ref t => dims(t),
        };
        let kt = self.s.types.vector(sc, ac);
        let kit = self.s.ir_ty(kt);
        let st = self.s.types.scalar(sc);
        let a_is_vec = matches!(self.s.types.get(ta), Ty::Vector(..));
        let b_is_vec = matches!(self.s.types.get(tb), Ty::Vector(..));
        let mut out_rows = Vec::new();
        for i in 0..ar {
            let mut row = Vec::new();
            for j in 0..bc {
                let ai: Vec<_> = (0..ac)
                    .map(|k| {
                        if a_is_vec {
                            self.elem(ha, ta, 0, k)
                        } else {
                            self.elem(ha, ta, i, k)
                        }
                    })
                    .collect();
                let bj: Vec<_> = (0..br)
                    .map(|k| {
                        if b_is_vec {
                            self.elem(hb, tb, k, 0)
                        } else {
                            self.elem(hb, tb, k, j)
                        }
                    })
                    .collect();
                let d = if ac == 1 {
                    let sit = self.s.ir_ty(st);
                    self.add(
                        ir::Expression::Binary {
                            op: ir::BinaryOperator::Multiply,
                            left: ai[0],
                            right: bj[0],
                            precise: false,
                        },
                        sit,
                    )
                } else {
                    let x = self.add(
                        ir::Expression::Compose {
                            ty: kit,
                            components: ai,
                        },
                        kit,
                    );
                    let y = self.add(
                        ir::Expression::Compose {
                            ty: kit,
                            components: bj,
                        },
                        kit,
                    );
                    self.dot(x, y, kt)
                };
                row.push(d);
            }
            out_rows.push(row);
        }
        let h = match *self.s.types.get(rt) {
            Ty::Matrix(_, r, c) => {
                let rows: Vec<_> = out_rows
                    .into_iter()
                    .map(|row| {
                        if c == 1 {
                            row[0]
                        } else {
                            let vt = self.s.types.vector(sc, c);
                            self.compose(vt, row)
                        }
                    })
                    .collect();
                let _ = r;
                self.compose_matrix(rt, rows)
            }
            Ty::Vector(_, _) => {
                let comps: Vec<_> = if a_is_vec {
                    out_rows.remove(0)
                } else {
                    out_rows.into_iter().map(|r| r[0]).collect()
                };
                self.compose(rt, comps)
            }
            _ => out_rows[0][0],
        };
        Val::expr(rt, h)
    }
}
