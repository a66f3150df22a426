//! Values and places (lvalues) during lowering, and reading and writing
//! places: through pointers (converting between the memory representation
//! of buffers, where `bool` is a `uint` and structs are laid out, and the
//! value representation), storage-image texels, swizzles and matrix
//! element selections.

use crate::ir;
use crate::sema::ReadOnly;
use crate::sema::body::FnCtx;
use crate::sema::types::consteval::{ConstVal, Konst};
use crate::sema::types::{self, Sc, Shape, Ty, TyId};
use crate::span::Span;

/// Something assignable.
#[derive(Clone, Debug)]
pub enum Place {
    /// Through a pointer. `mem` is the pointee's IR type (a laid-out
    /// variant of the HLSL type in buffers).
    Ptr {
        ptr: ir::Handle<ir::Expression>,
        mem: ir::Handle<ir::Type>,
        space: ir::AddressSpace,
    },
    /// An element of a storage image or texel buffer (`tex[uv]`).
    Texel {
        /// The loaded image.
        image: ir::Handle<ir::Expression>,
        coord: ir::Handle<ir::Expression>,
        /// HLSL type of the whole texel as stored (the element type).
        elem: TyId,
    },
    /// Components of a vector place (`v.zx`); for a scalar place
    /// (`s.xxx` read only) `base_ty` is the scalar.
    Swizzle {
        base: Box<Place>,
        base_ty: TyId,
        comps: Vec<u8>,
    },
    /// A bit-field: `width` bits at `offset` of the integer unit `base`
    /// (of HLSL type `unit`).
    BitField {
        base: Box<Place>,
        unit: TyId,
        offset: u8,
        width: u8,
    },
    /// Elements of a matrix place (`m._m01_m10`), as (row, column).
    MatElems {
        base: Box<Place>,
        base_ty: TyId,
        elems: Vec<(u8, u8)>,
    },
}

impl Place {
    /// Through a pointer to a `Function` variable (a local, a parameter, a
    /// temporary).
    pub fn function(ptr: ir::Handle<ir::Expression>, mem: ir::Handle<ir::Type>) -> Place {
        Place::Ptr {
            ptr,
            mem,
            space: ir::AddressSpace::Function,
        }
    }
}

#[derive(Clone, Debug)]
pub enum ValKind {
    /// Already diagnosed; further uses report nothing.
    Error,
    Void,
    /// An IR value of the value IR type of the HLSL type.
    Expr(ir::Handle<ir::Expression>),
    /// A scalar constant not yet materialised (literals adapt to context).
    Const(Konst),
    Place(Place),
    /// A resource known at compile time (interned in `Sema::res`);
    /// names and members holding one materialise it where it is used.
    Res(crate::sema::ResPathId),
    /// A local of a struct type that contains resources: one value per IR
    /// member (base first), resources as `Res`/`Void`, data members as
    /// places of their own locals.
    Agg(Vec<Val>),
    /// A resource local that paths chosen at run time left naming
    /// different resources: an error where it is used. The span is the
    /// statement where the paths join.
    Runtime(Span),
}

/// A lowered expression: its HLSL type and how to get at it.
#[derive(Clone, Debug)]
pub struct Val {
    pub ty: TyId,
    pub kind: ValKind,
    /// For places: why they cannot be assigned.
    pub read_only: Option<ReadOnly>,
}

impl Val {
    pub fn error() -> Val {
        Val {
            ty: types::ERROR,
            kind: ValKind::Error,
            read_only: None,
        }
    }
    pub fn void() -> Val {
        Val {
            ty: types::VOID,
            kind: ValKind::Void,
            read_only: None,
        }
    }
    pub fn expr(ty: TyId, h: ir::Handle<ir::Expression>) -> Val {
        Val {
            ty,
            kind: ValKind::Expr(h),
            read_only: Some(ReadOnly::Rvalue),
        }
    }
    pub fn konst(ty: TyId, k: Konst) -> Val {
        Val {
            ty,
            kind: ValKind::Const(k),
            read_only: Some(ReadOnly::Rvalue),
        }
    }
    pub fn place(ty: TyId, p: Place, read_only: Option<ReadOnly>) -> Val {
        Val {
            ty,
            kind: ValKind::Place(p),
            read_only,
        }
    }
    pub fn is_error(&self) -> bool {
        matches!(self.kind, ValKind::Error) || self.ty == types::ERROR
    }
    pub fn as_place(&self) -> Option<&Place> {
        match &self.kind {
            ValKind::Place(p) => Some(p),
            _ => None,
        }
    }
}

/// Swizzle pattern from component indices.
pub fn pattern(comps: &[u8]) -> [ir::SwizzleComponent; 4] {
    use ir::SwizzleComponent as C;
    let c = |i: usize| match comps.get(i).copied().unwrap_or(0) {
        1 => C::Y,
        2 => C::Z,
        3 => C::W,
        _ => C::X,
    };
    [c(0), c(1), c(2), c(3)]
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The value of `v` as an IR expression of the value type of `v.ty`.
    /// Literal constants become `int`/`float`. `None` for errors and void.
    pub fn value(&mut self, v: &Val) -> Option<ir::Handle<ir::Expression>> {
        match &v.kind {
            ValKind::Error
            | ValKind::Void
            | ValKind::Res(_)
            | ValKind::Agg(_)
            | ValKind::Runtime(_) => None,
            ValKind::Expr(h) => Some(*h),
            ValKind::Const(k) => {
                let sc = match self.s.types.get(v.ty) {
                    Ty::Scalar(s) => s.concrete(),
                    Ty::Enum(e) => self.s.types.enum_info(*e).underlying,
                    _ => k.sc.concrete(),
                };
                Some(self.const_scalar(k.convert(sc)))
            }
            ValKind::Place(p) => self.read_place(p, v.ty),
        }
    }

    /// A scalar constant as an IR literal of its (non-literal) type.
    pub fn const_scalar(&mut self, k: Konst) -> ir::Handle<ir::Expression> {
        let l = konst_literal(k);
        self.lit(l)
    }

    /// Reads a place as a value of HLSL type `ty`.
    pub fn read_place(&mut self, p: &Place, ty: TyId) -> Option<ir::Handle<ir::Expression>> {
        match p {
            Place::Ptr { ptr, mem, .. } => {
                let loaded = self.add(ir::Expression::Load { pointer: *ptr }, *mem);
                Some(self.loaded_value(loaded, ty))
            }
            Place::Texel { image, coord, elem } => {
                let v4 = self.image_read(*image, *coord, *elem);
                Some(self.texel_element(v4, *elem))
            }
            Place::Swizzle {
                base,
                base_ty,
                comps,
            } => {
                let b = self.read_place(base, *base_ty)?;
                Some(self.swizzle_value(b, *base_ty, comps))
            }
            Place::BitField {
                base,
                unit,
                offset,
                width,
            } => {
                let u = self.read_place(base, *unit)?;
                Some(self.bit_extract(u, *unit, *offset, *width))
            }
            Place::MatElems {
                base,
                base_ty,
                elems,
            } => {
                let b = self.read_place(base, *base_ty)?;
                let sc = self.s.types.component(*base_ty).unwrap_or(Sc::F32);
                let sty = self.s.types.scalar(sc);
                let sir = self.s.ir_ty(sty);
                let mut comps = Vec::new();
                let rows_are_scalars = matches!(self.s.types.get(*base_ty), Ty::Matrix(_, _, 1));
                let row_ty = match *self.s.types.get(*base_ty) {
                    Ty::Matrix(s, _, c) => self.s.types.vector(s, c),
                    _ => sty,
                };
                let row_ir = self.s.ir_ty(row_ty);
                for &(r, c) in elems {
                    let row = self.add(
                        ir::Expression::AccessIndex {
                            base: b,
                            index: r as u32,
                        },
                        row_ir,
                    );
                    let e = if rows_are_scalars {
                        row
                    } else {
                        self.add(
                            ir::Expression::AccessIndex {
                                base: row,
                                index: c as u32,
                            },
                            sir,
                        )
                    };
                    comps.push(e);
                }
                if comps.len() == 1 {
                    return comps.pop();
                }
                let vty = self.s.types.vector(sc, comps.len() as u8);
                Some(self.compose(vty, comps))
            }
        }
    }

    /// An integer constant of scalar type `ty`.
    pub(in crate::sema) fn int_const(&mut self, ty: TyId, v: i64) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(ty).unwrap_or(Sc::U32);
        self.const_scalar(Konst::int(v).convert(sc))
    }

    pub(in crate::sema) fn bin(
        &mut self,
        op: ir::BinaryOperator,
        a: ir::Handle<ir::Expression>,
        b: ir::Handle<ir::Expression>,
        ty: TyId,
    ) -> ir::Handle<ir::Expression> {
        let it = self.s.ir_ty(ty);
        self.add(
            ir::Expression::Binary {
                op,
                left: a,
                right: b,
                precise: false,
            },
            it,
        )
    }

    /// The bit-field `width` bits at `offset` of integer `u` (type `ty`),
    /// sign-extended for signed types.
    pub fn bit_extract(
        &mut self,
        u: ir::Handle<ir::Expression>,
        ty: TyId,
        offset: u8,
        width: u8,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(ty).unwrap_or(Sc::U32);
        let bits = sc.width() * 8;
        if width >= bits {
            return u;
        }
        if sc.is_signed_int() {
            let l = self.int_const(ty, (bits - offset - width) as i64);
            let r = self.int_const(ty, (bits - width) as i64);
            let up = self.bin(ir::BinaryOperator::ShiftLeft, u, l, ty);
            return self.bin(ir::BinaryOperator::ShiftRight, up, r, ty);
        }
        let sh = self.int_const(ty, offset as i64);
        let mask = self.int_const(ty, ((1u64 << width) - 1) as i64);
        let down = if offset == 0 {
            u
        } else {
            self.bin(ir::BinaryOperator::ShiftRight, u, sh, ty)
        };
        self.bin(ir::BinaryOperator::And, down, mask, ty)
    }

    /// `old` with the bit-field at `offset`/`width` replaced by `v`.
    pub fn bit_insert(
        &mut self,
        old: ir::Handle<ir::Expression>,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        offset: u8,
        width: u8,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(ty).unwrap_or(Sc::U32);
        let bits = sc.width() * 8;
        if width >= bits {
            return v;
        }
        let low = ((1u64 << width) - 1) as i64;
        let mask = self.int_const(ty, low);
        let keep = self.int_const(ty, !(low << offset));
        let sh = self.int_const(ty, offset as i64);
        let kept = self.bin(ir::BinaryOperator::And, old, keep, ty);
        let masked = self.bin(ir::BinaryOperator::And, v, mask, ty);
        let moved = if offset == 0 {
            masked
        } else {
            self.bin(ir::BinaryOperator::ShiftLeft, masked, sh, ty)
        };
        self.bin(ir::BinaryOperator::InclusiveOr, kept, moved, ty)
    }

    /// Picks components of a vector (or repeats a scalar) value.
    pub fn swizzle_value(
        &mut self,
        b: ir::Handle<ir::Expression>,
        base_ty: TyId,
        comps: &[u8],
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(base_ty).unwrap_or(Sc::F32);
        let is_scalar = self.s.types.is_scalar(base_ty);
        if comps.len() == 1 {
            if is_scalar {
                return b;
            }
            let sty = self.s.types.scalar(sc);
            let sir = self.s.ir_ty(sty);
            return self.add(
                ir::Expression::AccessIndex {
                    base: b,
                    index: comps[0] as u32,
                },
                sir,
            );
        }
        let vty = self.s.types.vector(sc, comps.len() as u8);
        let vir = self.s.ir_ty(vty);
        if is_scalar {
            return self.add(
                ir::Expression::Splat {
                    size: comps.len() as u8,
                    value: b,
                },
                vir,
            );
        }
        self.add(
            ir::Expression::Swizzle {
                size: comps.len() as u8,
                vector: b,
                pattern: pattern(comps),
            },
            vir,
        )
    }

    /// Stores a value (of the value type of `ty`) into a place.
    pub fn write_place(&mut self, p: &Place, ty: TyId, value: ir::Handle<ir::Expression>) {
        match p {
            Place::Ptr { ptr, mem, .. } => {
                let v = self.stored_value(value, ty, *mem);
                self.stmt(ir::Statement::Store {
                    pointer: *ptr,
                    value: v,
                });
            }
            Place::Texel { image, coord, .. } => {
                // OpImageWrite takes the element as it is: storage images
                // accept fewer components than four. Bool texels are
                // uints (`Types::texel_scalar`): 1 for true.
                let value = match self.s.types.shape(ty) {
                    Some(shape) if self.s.types.component(ty) == Some(Sc::Bool) => {
                        let uint = match shape {
                            Shape::Vector(n) => self.s.types.vector(Sc::U32, n),
                            _ => self.s.types.scalar(Sc::U32),
                        };
                        let u = self.convert(Val::expr(ty, value), uint, NO_SPAN);
                        self.value(&u).unwrap_or(value)
                    }
                    _ => value,
                };
                self.stmt(ir::Statement::ImageStore {
                    image: *image,
                    coordinate: *coord,
                    value,
                });
            }
            Place::Swizzle {
                base,
                base_ty,
                comps,
            } => {
                let sc = self.s.types.component(*base_ty).unwrap_or(Sc::F32);
                let sty = self.s.types.scalar(sc);
                let sir = self.s.ir_ty(sty);
                // Through a pointer, each component is stored on its own
                // (no read of the others: no race with other threads writing
                // the other components).
                if let Place::Ptr { ptr, mem, space } = &**base {
                    let mem_comp = match self.s.module.types[*mem].inner {
                        ir::TypeInner::Vector { scalar, .. } => self.s.module.scalar_type(scalar),
                        _ => *mem,
                    };
                    if self.s.types.is_scalar(*base_ty) {
                        let one = if comps.len() == 1 {
                            value
                        } else {
                            self.add(
                                ir::Expression::AccessIndex {
                                    base: value,
                                    index: (comps.len() - 1) as u32,
                                },
                                sir,
                            )
                        };
                        let v = self.stored_value(one, sty, *mem);
                        self.stmt(ir::Statement::Store {
                            pointer: *ptr,
                            value: v,
                        });
                        return;
                    }
                    let cptr_ty = self.ptr_type(mem_comp, *space);
                    for (i, &c) in comps.iter().enumerate() {
                        let comp = if comps.len() == 1 {
                            value
                        } else {
                            self.add(
                                ir::Expression::AccessIndex {
                                    base: value,
                                    index: i as u32,
                                },
                                sir,
                            )
                        };
                        let cp = self.add(
                            ir::Expression::AccessIndex {
                                base: *ptr,
                                index: c as u32,
                            },
                            cptr_ty,
                        );
                        let v = self.stored_value(comp, sty, mem_comp);
                        self.stmt(ir::Statement::Store {
                            pointer: cp,
                            value: v,
                        });
                    }
                    return;
                }
                // Otherwise read, replace the components, write back.
                let Some(old) = self.read_place(base, *base_ty) else {
                    return;
                };
                let n = match *self.s.types.get(*base_ty) {
                    Ty::Vector(_, n) => n,
                    _ => 1,
                };
                if n == 1 {
                    self.write_place(base, *base_ty, value);
                    return;
                }
                let mut parts: Vec<ir::Handle<ir::Expression>> = (0..n)
                    .map(|i| {
                        self.add(
                            ir::Expression::AccessIndex {
                                base: old,
                                index: i as u32,
                            },
                            sir,
                        )
                    })
                    .collect();
                for (i, &c) in comps.iter().enumerate() {
                    parts[c as usize] = if comps.len() == 1 {
                        value
                    } else {
                        self.add(
                            ir::Expression::AccessIndex {
                                base: value,
                                index: i as u32,
                            },
                            sir,
                        )
                    };
                }
                let vir = self.s.ir_ty(*base_ty);
                let new = self.add(
                    ir::Expression::Compose {
                        ty: vir,
                        components: parts,
                    },
                    vir,
                );
                self.write_place(base, *base_ty, new);
            }
            Place::BitField {
                base,
                unit,
                offset,
                width,
            } => {
                let Some(old) = self.read_place(base, *unit) else {
                    return;
                };
                let new = self.bit_insert(old, value, *unit, *offset, *width);
                self.write_place(base, *unit, new);
            }
            Place::MatElems {
                base,
                base_ty,
                elems,
            } => {
                let sc = self.s.types.component(*base_ty).unwrap_or(Sc::F32);
                let sty = self.s.types.scalar(sc);
                let sir = self.s.ir_ty(sty);
                let cols = match *self.s.types.get(*base_ty) {
                    Ty::Matrix(_, _, c) => c,
                    _ => 1,
                };
                for (i, &(r, c)) in elems.iter().enumerate() {
                    let comp = if elems.len() == 1 {
                        value
                    } else {
                        self.add(
                            ir::Expression::AccessIndex {
                                base: value,
                                index: i as u32,
                            },
                            sir,
                        )
                    };
                    // A row of a matrix place, then a component of it.
                    let row_ty = {
                        let s = sc;
                        self.s.types.vector(s, cols)
                    };
                    let row = self.index_place_const(base, *base_ty, r as u32, row_ty);
                    if cols == 1 {
                        self.write_place(&row, row_ty, comp);
                    } else {
                        let elem = Place::Swizzle {
                            base: Box::new(row),
                            base_ty: row_ty,
                            comps: vec![c],
                        };
                        self.write_place(&elem, row_ty, comp);
                    }
                }
            }
        }
    }

    /// The place of element `index` of an array/matrix/vector place.
    pub fn index_place_const(
        &mut self,
        base: &Place,
        base_ty: TyId,
        index: u32,
        elem_ty: TyId,
    ) -> Place {
        match base {
            Place::Ptr { ptr, mem, space } => {
                let elem_mem = self.member_mem_type(*mem, index, elem_ty);
                let pty = self.ptr_type(elem_mem, *space);
                let p = self.add(ir::Expression::AccessIndex { base: *ptr, index }, pty);
                Place::Ptr {
                    ptr: p,
                    mem: elem_mem,
                    space: *space,
                }
            }
            other => match self.s.types.get(base_ty) {
                Ty::Vector(..) => Place::Swizzle {
                    base: Box::new(other.clone()),
                    base_ty,
                    comps: vec![index as u8],
                },
                _ => {
                    // Matrix row of a non-pointer place: element selection.
                    let cols = match *self.s.types.get(base_ty) {
                        Ty::Matrix(_, _, c) => c,
                        _ => 1,
                    };
                    Place::MatElems {
                        base: Box::new(other.clone()),
                        base_ty,
                        elems: (0..cols).map(|c| (index as u8, c)).collect(),
                    }
                }
            },
        }
    }

    /// The memory type of member/element `index` of memory type `mem`.
    pub fn member_mem_type(
        &mut self,
        mem: ir::Handle<ir::Type>,
        index: u32,
        elem_ty: TyId,
    ) -> ir::Handle<ir::Type> {
        match &self.s.module.types[mem].inner {
            ir::TypeInner::Struct { members, .. } => match members.get(index as usize) {
                Some(m) => m.ty,
                None => self.s.ir_ty(elem_ty),
            },
            ir::TypeInner::Array { base, .. } => *base,
            ir::TypeInner::Vector { scalar, .. } => {
                let s = *scalar;
                self.s.module.scalar_type(s)
            }
            ir::TypeInner::Matrix {
                columns, scalar, ..
            } => {
                let (c, s) = (*columns, *scalar);
                if c == 1 {
                    self.s.module.scalar_type(s)
                } else {
                    self.s
                        .module
                        .ty(ir::TypeInner::Vector { size: c, scalar: s })
                }
            }
            _ => self.s.ir_ty(elem_ty),
        }
    }
}

/// The IR literal of a constant (of a non-literal type).
pub fn konst_literal(k: Konst) -> ir::Literal {
    match (k.sc.concrete(), k.v) {
        (Sc::Bool, v) => ir::Literal::Bool(Konst { sc: Sc::Bool, v }.as_bool()),
        (Sc::I16, ConstVal::Int(i)) => ir::Literal::I16(i as i16),
        (Sc::U16, ConstVal::Int(i)) => ir::Literal::U16(i as u16),
        (Sc::I32, ConstVal::Int(i)) => ir::Literal::I32(i as i32),
        (Sc::U32, ConstVal::Int(i)) => ir::Literal::U32(i as u32),
        (Sc::I64, ConstVal::Int(i)) => ir::Literal::I64(i),
        (Sc::U64, ConstVal::Int(i)) => ir::Literal::U64(i as u64),
        (Sc::F16, ConstVal::Float(f)) => ir::Literal::F16(f32_to_f16_bits(f as f32)),
        (Sc::F32, ConstVal::Float(f)) => ir::Literal::F32((f as f32).to_bits()),
        (Sc::F64, ConstVal::Float(f)) => ir::Literal::F64(f.to_bits()),
        (sc, _) => konst_literal(k.convert(sc)),
    }
}

/// IEEE binary16 bits of an `f32`, rounding to nearest even.
pub fn f32_to_f16_bits(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let mant = x & 0x7f_ffff;
    if exp == 0xff {
        // Inf or NaN (keep a quiet NaN).
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal half.
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && (r & 1) == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && (r & 1) == 1) {
        r += 1;
    }
    sign | r as u16
}

/// A span-less helper for call sites that have none.
pub const NO_SPAN: Span = Span {
    lo: crate::span::Loc(0),
    hi: crate::span::Loc(0),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn half_rounding() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(1e6), 0x7c00);
        assert_eq!(f32_to_f16_bits(f32::NAN) & 0x7c00, 0x7c00);
        assert_eq!(f32_to_f16_bits(5.960_464_5e-8), 0x0001);
        assert_eq!(f32_to_f16_bits(0.333_333_34), 0x3555);
    }
}
