//! Indexing: `a[i]` on arrays, vectors and matrices (constant indices
//! folded, dynamic ones through a copy when the value is not in memory),
//! and on resources (`buf[i]`, `tex[uv]`).

use crate::diag::codes;
use crate::front::ast::{self};
use crate::intern::Symbol;
use crate::ir;
use crate::sema::ReadOnly;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::types::consteval::ConstVal;
use crate::sema::types::{self, ResKind, Sc, Ty, TyId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The index operand as a 32-bit integer value.
    pub(in crate::sema) fn index_value(
        &mut self,
        iv: Val,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        if iv.is_error() {
            return None;
        }
        let t = match self.s.types.get(iv.ty) {
            Ty::Scalar(s) if s.is_int() && s.concrete().width() == 4 => self.concrete(iv.ty),
            Ty::Scalar(Sc::LitInt) => types::INT,
            Ty::Scalar(s) if s.is_signed_int() => types::INT,
            Ty::Enum(_) => types::INT,
            _ => types::UINT,
        };
        let c = self.convert(iv, t, span);
        self.value(&c)
    }

    pub(in crate::sema) fn index(&mut self, b: &'a ast::Expr, i: &'a ast::Expr, span: Span) -> Val {
        // `tex.mips[level][coord]`, `msTex.sample[s][coord]`.
        if let ast::ExprKind::Index(m, sel) = &b.kind
            && let ast::ExprKind::Member(obj, id) = &m.kind
            && matches!(id.name.as_str(), "mips" | "sample")
        {
            let ov = self.expr(obj);
            if let Ty::Resource(ResKind::Texture { ms, rw: false, .. }, _) =
                self.s.types.get(ov.ty).clone()
                && ms == (id.name.as_str() == "sample")
            {
                let sv = self.expr(sel);
                let cv = self.expr(i);
                return self.texture_element(ov, sv, sel.span, cv, i.span, span);
            }
            if ov.is_error() {
                return ov;
            }
            return self.error(
                codes::NO_MEMBER,
                format!("`{}` has no member `{}`", self.s.ty_name(ov.ty), id.name),
                id.span,
                "unknown member",
            );
        }
        let v = self.expr(b);
        if v.is_error() {
            let _ = self.expr(i);
            return v;
        }
        let iv = self.expr(i);
        self.index_val(v, iv, i.span, span)
    }

    pub fn index_val(&mut self, v: Val, iv: Val, ispan: Span, span: Span) -> Val {
        let ty = v.ty;
        // Constant indices into aggregates stay constant accesses.
        let const_index = match iv.kind {
            ValKind::Const(k) => match k.v {
                ConstVal::Int(n) if n >= 0 => Some(n as u32),
                _ => None,
            },
            _ => None,
        };
        match self.s.types.get(ty).clone() {
            Ty::Node(..) => self.node_index(v, iv, ispan, span),
            Ty::Array(elem, n) => {
                if let (Some(ci), Some(n)) = (const_index, n)
                    && ci >= n
                {
                    return self.error(
                        codes::NOT_INDEXABLE,
                        format!("index {ci} is out of bounds for `{}`", self.s.ty_name(ty)),
                        ispan,
                        "out of bounds",
                    );
                }
                if let Some(ci) = const_index
                    && (!self.s.types.is_resource(elem) || matches!(v.kind, ValKind::Place(_)))
                {
                    return self.member_of(v, ci, elem, span);
                }
                // The elements of an array of structs holding resources are
                // different resources: which one must be known here.
                if matches!(v.kind, ValKind::Agg(_)) {
                    return self.error(
                        codes::RESOURCE_MISUSE,
                        "an array of structs holding resources must be indexed with a constant",
                        ispan,
                        "not known at compile time",
                    );
                }
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                self.dynamic_index(v, hi, elem, span)
            }
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                if let Some(ci) = const_index {
                    if ci >= n as u32 {
                        return self.error(
                            codes::NOT_INDEXABLE,
                            format!("index {ci} is out of bounds for `{}`", self.s.ty_name(ty)),
                            ispan,
                            "out of bounds",
                        );
                    }
                    return self.member_of(v, ci, st, span);
                }
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                self.dynamic_index(v, hi, st, span)
            }
            Ty::Matrix(sc, r, c) => {
                let rt = self.s.types.vector(sc, c);
                if let Some(ci) = const_index {
                    if ci >= r as u32 {
                        return self.error(
                            codes::NOT_INDEXABLE,
                            format!("row {ci} is out of bounds for `{}`", self.s.ty_name(ty)),
                            ispan,
                            "out of bounds",
                        );
                    }
                    return self.member_of(v, ci, rt, span);
                }
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                self.dynamic_index(v, hi, rt, span)
            }
            Ty::Scalar(_) if const_index == Some(0) => v,
            // A `float1` (or a row of an Nx1 matrix) is a `float` here: any
            // index in bounds picks the one component.
            Ty::Scalar(_) if const_index.is_none() && self.s.types.is_scalar(iv.ty) => {
                if self.index_value(iv, ispan).is_none() {
                    return Val::error();
                }
                v
            }
            Ty::Struct(_) => {
                let name = Symbol::intern("operator[]");
                let cands = self.struct_methods(ty, name);
                if cands.is_empty() {
                    return self.error(
                        codes::NOT_INDEXABLE,
                        format!("cannot index `{}`", self.s.ty_name(ty)),
                        span,
                        "a struct without `operator[]`",
                    );
                }
                let arg = crate::sema::calls::Arg {
                    val: iv,
                    span: ispan,
                    vertex: None,
                    mesh: None,
                    local: None,
                };
                self.call_candidates(&cands, Some(v), None, vec![arg], name, span, false)
            }
            Ty::Heap { sampler } => {
                let Some(hi) = self.index_value(iv, ispan) else {
                    return Val::error();
                };
                let ty = self.s.types.intern(Ty::HeapElem { sampler });
                Val::expr(ty, hi)
            }
            Ty::Resource(kind, elem) => {
                let Some(hi) = self.index_value_for_resource(iv, kind, ispan) else {
                    return Val::error();
                };
                self.resource_index(v, kind, elem, hi, span)
            }
            _ => self.error(
                codes::NOT_INDEXABLE,
                format!("cannot index `{}`", self.s.ty_name(ty)),
                span,
                "not an array, vector, matrix or buffer",
            ),
        }
    }

    pub(in crate::sema) fn index_value_for_resource(
        &mut self,
        iv: Val,
        kind: ResKind,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        match kind {
            ResKind::Texture { .. } => {
                // Texture coordinates: an int or uint vector.
                let n = match *self.s.types.get(iv.ty) {
                    Ty::Vector(_, n) => n,
                    _ => 1,
                };
                let sc = match self.s.types.component(iv.ty) {
                    Some(Sc::I32) => Sc::I32,
                    _ => Sc::U32,
                };
                let t = self.s.types.vector(sc, n);
                let c = self.convert(iv, t, span);
                self.value(&c)
            }
            _ => self.index_value(iv, span),
        }
    }

    /// `v[i]` with a run-time index.
    pub(in crate::sema) fn dynamic_index(
        &mut self,
        v: Val,
        hi: ir::Handle<ir::Expression>,
        elem: TyId,
        span: Span,
    ) -> Val {
        match &v.kind {
            ValKind::Place(Place::Ptr { ptr, mem, space }) => {
                let elem_mem = self.member_mem_type(*mem, 0, elem);
                let pty = self.ptr_type(elem_mem, *space);
                let p = self.add(
                    ir::Expression::Access {
                        base: *ptr,
                        index: hi,
                    },
                    pty,
                );
                // A resource picked at run time: later passes may need
                // its element constant (-fspv-flatten-resource-arrays).
                if *space == ir::AddressSpace::Handle {
                    self.tag_span(p, span);
                }
                Val::place(
                    elem,
                    Place::Ptr {
                        ptr: p,
                        mem: elem_mem,
                        space: *space,
                    },
                    v.read_only,
                )
            }
            _ => {
                let Some(h) = self.value(&v) else {
                    return Val::error();
                };
                if matches!(self.s.types.get(v.ty), Ty::Vector(..)) {
                    let it = self.s.ir_ty(elem);
                    let e = self.add(ir::Expression::Access { base: h, index: hi }, it);
                    return Val::expr(elem, e);
                }
                // Arrays and matrices of values: index through a copy.
                let (tmp, it) = self.temp(v.ty);
                self.stmt(ir::Statement::Store {
                    pointer: tmp,
                    value: h,
                });
                let elem_mem = self.member_mem_type(it, 0, elem);
                let pty = self.ptr_type(elem_mem, ir::AddressSpace::Function);
                let p = self.add(
                    ir::Expression::Access {
                        base: tmp,
                        index: hi,
                    },
                    pty,
                );
                Val::place(
                    elem,
                    Place::Ptr {
                        ptr: p,
                        mem: elem_mem,
                        space: ir::AddressSpace::Function,
                    },
                    Some(ReadOnly::Rvalue),
                )
            }
        }
    }
}
