//! Debug types: `DebugTypeBasic`, `DebugTypeVector`, `DebugTypeMatrix`,
//! `DebugTypeArray`, `DebugTypeComposite` with its `DebugTypeMember`s and
//! `DebugTypeFunction`, each describing the SPIR-V type the backend
//! writes for an IR type (a `floatRxC` is R SPIR-V columns of C
//! components, as in `types.rs`). Resources have none.

use super::table::{self, DebugOp};
use crate::back::spv::types::{MatrixRepr, matrix_repr};
use crate::back::spv::writer::Writer;
use crate::ir::{self, ArraySize, Handle, Scalar, ScalarKind, TypeInner};
use spirv::Word;

/// Size in bytes of a value of an IR type (a bool counts 4, as in
/// memory); laid-out types use their strides and struct size.
fn byte_size(ir: &ir::Module, h: Handle<ir::Type>, depth: u32) -> u32 {
    if h.index() >= ir.types.len() || depth > 64 {
        return 0;
    }
    let t = &ir.types[h];
    let scalar = |s: Scalar| {
        if s.kind == ScalarKind::Bool {
            4
        } else {
            s.width as u32
        }
    };
    match &t.inner {
        TypeInner::Scalar(s) => scalar(*s),
        TypeInner::Vector { size, scalar: s } => *size as u32 * scalar(*s),
        TypeInner::Matrix {
            rows,
            columns,
            scalar: s,
        } => *rows as u32 * *columns as u32 * scalar(*s),
        TypeInner::Array { base, size, stride } => match size {
            ArraySize::Constant(n) => {
                let elem = stride.unwrap_or_else(|| byte_size(ir, *base, depth + 1));
                n.saturating_mul(elem)
            }
            ArraySize::Runtime => 0,
        },
        TypeInner::Struct { members, size } if *size > 0 || members.is_empty() => *size,
        TypeInner::Struct { members, .. } => members
            .iter()
            .map(|m| byte_size(ir, m.ty, depth + 1))
            .fold(0u32, u32::saturating_add),
        _ => 0,
    }
}

impl Writer<'_> {
    /// The debug type of an IR type (of the pointee for a pointer), made on
    /// first use; `None` for images, samplers and other resources.
    pub(in crate::back::spv) fn debug_type(&mut self, h: Handle<ir::Type>) -> Option<Word> {
        self.debug_type_at(h, 0)
    }

    fn debug_type_at(&mut self, h: Handle<ir::Type>, depth: u32) -> Option<Word> {
        if let Some(&known) = self.debug.as_ref()?.types.get(&h) {
            return known;
        }
        if depth > 64 {
            return None;
        }
        let t = self.ir_type(h).ok()?;
        let id = match &t.inner {
            TypeInner::Scalar(s) => Some(self.debug_basic(*s)),
            TypeInner::Vector { size, scalar } => {
                let b = self.debug_basic(*scalar);
                Some(self.debug_vector(b, *size))
            }
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => Some(self.debug_matrix(*rows, *columns, *scalar)),
            TypeInner::Array { base, size, .. } => {
                let b = self.debug_type_at(*base, depth + 1)?;
                let n = match size {
                    ArraySize::Constant(n) => *n,
                    ArraySize::Runtime => 0,
                };
                let n = self.const_u32(n);
                Some(self.debug_inst(DebugOp::TypeArray, &[b, n]))
            }
            TypeInner::Struct { members, size } => {
                self.debug_struct(t.name.as_deref(), members, *size, h, depth)
            }
            TypeInner::Pointer { base, .. } => self.debug_type_at(*base, depth + 1),
            _ => None,
        };
        self.debug.as_mut()?.types.insert(h, id);
        id
    }

    fn debug_basic(&mut self, s: Scalar) -> Word {
        if let Some(&id) = self.debug.as_ref().and_then(|d| d.basics.get(&s)) {
            return id;
        }
        let name = self.debug_string(s.hlsl_name());
        let bits = if s.kind == ScalarKind::Bool {
            32
        } else {
            s.width as u32 * 8
        };
        let encoding = match s.kind {
            ScalarKind::Bool => table::encoding::BOOLEAN,
            ScalarKind::Float => table::encoding::FLOAT,
            ScalarKind::Sint => table::encoding::SIGNED,
            ScalarKind::Uint => table::encoding::UNSIGNED,
        };
        let bits = self.const_u32(bits);
        let encoding = self.const_u32(encoding);
        let flags = self.const_u32(0);
        let id = self.debug_inst(DebugOp::TypeBasic, &[name, bits, encoding, flags]);
        if let Some(d) = self.debug.as_mut() {
            d.basics.insert(s, id);
        }
        id
    }

    fn debug_vector(&mut self, component: Word, size: u8) -> Word {
        let n = self.const_u32(size as u32);
        self.debug_inst(DebugOp::TypeVector, &[component, n])
    }

    fn debug_matrix(&mut self, rows: u8, columns: u8, scalar: Scalar) -> Word {
        let basic = self.debug_basic(scalar);
        match matrix_repr(rows, columns, scalar) {
            MatrixRepr::Scalar => basic,
            MatrixRepr::Vector(n) => self.debug_vector(basic, n),
            MatrixRepr::Matrix { columns, size } => {
                let column = self.debug_vector(basic, size);
                let count = self.const_u32(columns as u32);
                let column_major = self.literal(ir::Literal::Bool(true));
                self.debug_inst(DebugOp::TypeMatrix, &[column, count, column_major])
            }
            MatrixRepr::Array { length, size } => {
                let row = self.debug_vector(basic, size);
                let n = self.const_u32(length as u32);
                self.debug_inst(DebugOp::TypeArray, &[row, n])
            }
        }
    }

    /// A struct: `DebugTypeComposite` with a `DebugTypeMember` per member
    /// that has a debug type (members are laid out one after another
    /// where the IR gives no offsets).
    fn debug_struct(
        &mut self,
        name: Option<&str>,
        members: &[ir::StructMember],
        size: u32,
        h: Handle<ir::Type>,
        depth: u32,
    ) -> Option<Word> {
        let ir = self.ir;
        let spans = &ir.decl_spans;
        let (source, line, column) = self.decl_site(spans.types.get(&h).copied());
        let public = self.const_u32(table::flags::PUBLIC);
        let mut member_ids = Vec::with_capacity(members.len());
        let mut offset = 0u32;
        for (i, m) in members.iter().enumerate() {
            let msize = byte_size(ir, m.ty, 0);
            let moffset = m.offset.unwrap_or(offset);
            offset = moffset.saturating_add(msize);
            let Some(mty) = self.debug_type_at(m.ty, depth + 1) else {
                continue;
            };
            let mname = match &m.name {
                Some(n) => n.clone(),
                None => format!("member{i}"),
            };
            let mname = self.debug_string(&mname);
            let off = self.const_u32(moffset.saturating_mul(8));
            let bits = self.const_u32(msize.saturating_mul(8));
            let at = spans.members.get(&(h, i as u32)).copied();
            let (msource, mline, mcolumn) = match at {
                Some(_) => self.decl_site(at),
                None => (source, line, column),
            };
            member_ids.push(self.debug_inst(
                DebugOp::TypeMember,
                &[mname, mty, msource, mline, mcolumn, off, bits, public],
            ));
        }
        let total = if size > 0 { size } else { byte_size(ir, h, 0) };
        let name = self.debug_string(name.unwrap_or("struct"));
        let tag = self.const_u32(table::TAG_STRUCTURE);
        let cu = self.debug.as_ref()?.compilation_unit;
        let bits = self.const_u32(total.saturating_mul(8));
        let mut ops = vec![name, tag, source, line, column, cu, name, bits, public];
        ops.extend(member_ids);
        Some(self.debug_inst(DebugOp::TypeComposite, &ops))
    }

    /// `DebugTypeFunction` of a signature (`void` for an unknown one).
    pub(super) fn debug_function_type(&mut self, signature: Option<super::Signature>) -> Word {
        let flags = self.const_u32(table::flags::PUBLIC);
        let (result, params) = signature.unwrap_or_default();
        let result = match result.and_then(|r| self.debug_type(r)) {
            Some(t) => t,
            None => self.void_type(),
        };
        let mut ops = vec![flags, result];
        for p in params {
            let t = match self.debug_type(p) {
                Some(t) => t,
                None => self.debug_none(),
            };
            ops.push(t);
        }
        self.debug_inst(DebugOp::TypeFunction, &ops)
    }
}
