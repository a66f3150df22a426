//! Values in memory: converting between the memory representation of
//! buffers (bool stored as uint, laid-out structs and arrays, non-float
//! matrices as arrays of rows) and the value representation, and the texel
//! form of storage images.

use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{NO_SPAN, Val};
use crate::sema::types::{Sc, Ty, TyId};

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Converts a value loaded from memory of IR type `mem` (the type of
    /// `h`) to the value type of `ty` (bools stored as uint, laid-out
    /// structs and arrays rebuilt member by member).
    pub fn loaded_value(
        &mut self,
        h: ir::Handle<ir::Expression>,
        ty: TyId,
    ) -> ir::Handle<ir::Expression> {
        let target = self.s.ir_ty(ty);
        let have = self.expr_ty(h);
        if have == target {
            return h;
        }
        self.convert_repr(h, ty, target, true)
    }

    /// Converts a value of the value type of `ty` to memory type `mem`.
    pub fn stored_value(
        &mut self,
        h: ir::Handle<ir::Expression>,
        ty: TyId,
        mem: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        if self.expr_ty(h) == mem {
            return h;
        }
        self.convert_repr(h, ty, mem, false)
    }

    /// Rebuilds `h` (HLSL type `ty`) with IR type `target`. `loading`: the
    /// source is memory representation (uint for bool).
    pub(in crate::sema) fn convert_repr(
        &mut self,
        h: ir::Handle<ir::Expression>,
        ty: TyId,
        target: ir::Handle<ir::Type>,
        loading: bool,
    ) -> ir::Handle<ir::Expression> {
        let src_ty = self.expr_ty(h);
        match self.s.types.get(ty).clone() {
            Ty::Scalar(Sc::Bool) | Ty::Vector(Sc::Bool, _) => {
                let n = match *self.s.types.get(ty) {
                    Ty::Vector(_, n) => n,
                    _ => 1,
                };
                if loading {
                    // uint → bool: compare with zero.
                    let z = self.u32_lit(0);
                    let z = if n > 1 {
                        let zt = self.s.module.ty(ir::TypeInner::Vector {
                            size: n,
                            scalar: ir::Scalar::U32,
                        });
                        self.add(ir::Expression::Splat { size: n, value: z }, zt)
                    } else {
                        z
                    };
                    self.is_nonzero(h, z, target)
                } else {
                    self.bool_to_int(h, n, target, ir::Literal::U32(1), ir::Literal::U32(0))
                }
            }
            Ty::Matrix(msc, r, c) => {
                // Row by row (bool matrices store uint rows; non-float
                // matrices in buffers are arrays of rows).
                let row_sem = self.s.types.vector(msc, c);
                let mut rows = Vec::new();
                for i in 0..r as u32 {
                    let src_row = self.member_mem_type(src_ty, i, row_sem);
                    let dst_row = self.member_mem_type(target, i, row_sem);
                    let e = self.add(ir::Expression::AccessIndex { base: h, index: i }, src_row);
                    rows.push(if src_row == dst_row {
                        e
                    } else {
                        self.convert_repr(e, row_sem, dst_row, loading)
                    });
                }
                self.add(
                    ir::Expression::Compose {
                        ty: target,
                        components: rows,
                    },
                    target,
                )
            }
            Ty::Array(elem, n) => {
                let n = n.unwrap_or(0);
                let src_elem = self.member_mem_type(src_ty, 0, elem);
                let dst_elem = self.member_mem_type(target, 0, elem);
                let mut comps = Vec::with_capacity(n as usize);
                for i in 0..n {
                    let e = self.add(ir::Expression::AccessIndex { base: h, index: i }, src_elem);
                    comps.push(if src_elem == dst_elem {
                        e
                    } else {
                        self.convert_repr(e, elem, dst_elem, loading)
                    });
                }
                self.add(
                    ir::Expression::Compose {
                        ty: target,
                        components: comps,
                    },
                    target,
                )
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let mut comps = Vec::with_capacity(member_tys.len());
                for (i, mt) in member_tys.iter().enumerate() {
                    let src_m = self.member_mem_type(src_ty, i as u32, *mt);
                    let dst_m = self.member_mem_type(target, i as u32, *mt);
                    let e = self.add(
                        ir::Expression::AccessIndex {
                            base: h,
                            index: i as u32,
                        },
                        src_m,
                    );
                    comps.push(if src_m == dst_m {
                        e
                    } else {
                        self.convert_repr(e, *mt, dst_m, loading)
                    });
                }
                self.add(
                    ir::Expression::Compose {
                        ty: target,
                        components: comps,
                    },
                    target,
                )
            }
            // Same shape, other decorations only (matrices, vectors): the
            // types should be equal; keep the value.
            _ => h,
        }
    }

    /// `b ? one : zero`, component-wise.
    pub fn bool_to_int(
        &mut self,
        h: ir::Handle<ir::Expression>,
        n: u8,
        target: ir::Handle<ir::Type>,
        one: ir::Literal,
        zero: ir::Literal,
    ) -> ir::Handle<ir::Expression> {
        let (o, z) = (self.lit(one), self.lit(zero));
        let (o, z) = if n > 1 {
            (
                self.add(ir::Expression::Splat { size: n, value: o }, target),
                self.add(ir::Expression::Splat { size: n, value: z }, target),
            )
        } else {
            (o, z)
        };
        self.add(
            ir::Expression::Select {
                condition: h,
                accept: o,
                reject: z,
            },
            target,
        )
    }

    /// Reads a storage image / texel buffer texel: a 4-vector of the
    /// sampled type.
    pub fn image_read(
        &mut self,
        image: ir::Handle<ir::Expression>,
        coord: ir::Handle<ir::Expression>,
        elem: TyId,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.texel_scalar(elem);
        let v4 = self.s.types.vector(sc, 4);
        let v4ir = self.s.ir_ty(v4);
        self.add(
            ir::Expression::ImageLoad {
                image,
                coordinate: coord,
                level: None,
                sample: None,
                offset: None,
                sparse: false,
            },
            v4ir,
        )
    }

    /// The element value from a 4-vector texel.
    pub fn texel_element(
        &mut self,
        v4: ir::Handle<ir::Expression>,
        elem: TyId,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.texel_scalar(elem);
        let v4t = self.s.types.vector(sc, 4);
        let (h, n) = match *self.s.types.get(elem) {
            Ty::Vector(_, 4) => (v4, 4),
            Ty::Vector(_, n) => (self.swizzle_value(v4, v4t, &[0, 1, 2, 3][..n as usize]), n),
            _ => (self.swizzle_value(v4, v4t, &[0]), 1),
        };
        if self.s.types.component(elem) != Some(Sc::Bool) {
            return h;
        }
        // Bool texels are uints: a bool is a texel that is not zero.
        let uint = if n == 1 {
            self.s.types.scalar(sc)
        } else {
            self.s.types.vector(sc, n)
        };
        let b = self.convert(Val::expr(uint, h), elem, NO_SPAN);
        self.value(&b).unwrap_or(h)
    }
}
