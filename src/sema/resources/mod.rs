//! Resource objects: how they are reached (pointers to Handle-space
//! images and samplers, to storage blocks, to uniform blocks), indexing
//! (`buf[i]`, `tex[uv]`), and their methods (SPIR-V.rst, "HLSL Methods"):
//! structured-buffer `Load`/`GetDimensions`/counters, `Append`/`Consume`,
//! byte-address `Load*`/`Store*`/`Interlocked*`, texture `Load`, `Sample*`,
//! `Gather`, `GetDimensions`.

pub mod aggregate;
pub mod byte_address;
pub mod texture;
pub mod texture_rules;

use super::body::FnCtx;
use super::body::place::{Place, Val, ValKind};
use super::calls::Arg;
use super::types::layout::{BufferKind, Rule};
use super::types::{self, ResKind, Sc, TexDim, Ty, TyId};
use super::{ReadOnly, ResPathId, Sema};
use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::span::Span;

impl<'a> Sema<'a> {
    /// The memory type and address space a resource of HLSL type `ty`
    /// lives in.
    pub fn resource_mem(&mut self, ty: TyId) -> (ir::Handle<ir::Type>, ir::AddressSpace) {
        match self.types.get(ty).clone() {
            Ty::Array(e, n) => {
                let (m, space) = self.resource_mem(e);
                let t = self.module.ty(ir::TypeInner::Array {
                    base: m,
                    size: match n {
                        Some(n) => ir::ArraySize::Constant(n),
                        None => ir::ArraySize::Runtime,
                    },
                    stride: None,
                });
                (t, space)
            }
            Ty::Resource(kind, _) if kind.is_structured() || kind.is_byte_address() => (
                self.buffer_block(ty),
                ir::AddressSpace::Storage {
                    writable: kind.is_rw(),
                },
            ),
            Ty::Resource(ResKind::ConstantBuffer, Some(t)) => {
                let rule = Rule::for_buffer(self.opts.layout, BufferKind::Uniform);
                let name = format!("type.ConstantBuffer.{}", self.ty_name(t));
                (self.struct_block(t, name, rule), ir::AddressSpace::Uniform)
            }
            Ty::Resource(ResKind::TextureBuffer, Some(t)) => {
                let rule = Rule::for_buffer(self.opts.layout, BufferKind::Storage);
                let name = format!("type.TextureBuffer.{}", self.ty_name(t));
                (
                    self.struct_block(t, name, rule),
                    ir::AddressSpace::Storage { writable: false },
                )
            }
            _ => (self.ir_ty(ty), ir::AddressSpace::Handle),
        }
    }

    /// The pointer type a resource parameter takes.
    pub fn resource_pointer_type(&mut self, ty: TyId) -> ir::Handle<ir::Type> {
        let (base, space) = self.resource_mem(ty);
        self.module.ty(ir::TypeInner::Pointer { base, space })
    }
}

/// Number of coordinate components a texture takes (array layer included).
pub(super) fn coord_count(dim: TexDim, array: bool) -> u8 {
    let n = match dim {
        TexDim::D1 => 1,
        TexDim::D2 => 2,
        TexDim::D3 | TexDim::Cube => 3,
    };
    n + array as u8
}

/// Number of offset components (no array layer; cubes take none).
pub(super) fn offset_count(dim: TexDim) -> u8 {
    match dim {
        TexDim::D1 => 1,
        TexDim::D2 => 2,
        TexDim::D3 => 3,
        TexDim::Cube => 0,
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The resource a value names, as a global and constant indices.
    pub fn res_path(&self, v: &Val) -> Option<super::ResPath> {
        let ValKind::Place(Place::Ptr { ptr, .. }) = &v.kind else {
            return None;
        };
        let mut indices = Vec::new();
        let mut cur = *ptr;
        loop {
            match self.fb.body.function.expressions[cur] {
                ir::Expression::GlobalVariable(gv) => {
                    indices.reverse();
                    return Some(super::ResPath { gv, indices });
                }
                ir::Expression::AccessIndex { base, index } => {
                    indices.push(index);
                    cur = base;
                }
                ir::Expression::Access { base, index } => {
                    let i = match self.fb.body.function.expressions[index] {
                        ir::Expression::Literal(ir::Literal::U32(u)) => u,
                        ir::Expression::Literal(ir::Literal::I32(i)) if i >= 0 => i as u32,
                        _ => return None,
                    };
                    indices.push(i);
                    cur = base;
                }
                _ => return None,
            }
        }
    }

    /// Whether `h` is built from constants and parameter values only, so
    /// that it is a constant once its function is inlined.
    pub fn may_become_constant(&self, h: ir::Handle<ir::Expression>) -> bool {
        use ir::Expression as E;
        match &self.fb.body.function.expressions[h] {
            E::Literal(_) | E::Constant(_) | E::ZeroValue(_) => true,
            // The entry function's arguments are stage inputs.
            E::FunctionArgument(_) => self.s.entry.user != Some(self.fb.handle),
            E::Compose { components, .. } => {
                components.iter().all(|&c| self.may_become_constant(c))
            }
            E::Splat { value, .. } | E::Swizzle { vector: value, .. } => {
                self.may_become_constant(*value)
            }
            E::As { expr, .. } | E::Unary { expr, .. } => self.may_become_constant(*expr),
            E::AccessIndex { base, .. } => self.may_become_constant(*base),
            E::Binary { left, right, .. } => {
                self.may_become_constant(*left) && self.may_become_constant(*right)
            }
            _ => false,
        }
    }

    /// A resource place as a global and index values (constant or not):
    /// `textures[i]`, `ResourceDescriptorHeap[k]`.
    pub fn dyn_res_path(
        &mut self,
        v: &Val,
    ) -> Option<(
        ir::Handle<ir::GlobalVariable>,
        Vec<ir::Handle<ir::Expression>>,
    )> {
        let ValKind::Place(Place::Ptr { ptr, .. }) = &v.kind else {
            return None;
        };
        let mut steps = Vec::new();
        let mut cur = *ptr;
        let gv = loop {
            match self.fb.body.function.expressions[cur] {
                ir::Expression::GlobalVariable(gv) => break gv,
                ir::Expression::AccessIndex { base, index } => {
                    steps.push(Err(index));
                    cur = base;
                }
                ir::Expression::Access { base, index } => {
                    steps.push(Ok(index));
                    cur = base;
                }
                _ => return None,
            }
        };
        steps.reverse();
        let u = self.s.ir_ty(types::UINT);
        let mut out = Vec::with_capacity(steps.len());
        for s in steps {
            out.push(match s {
                Err(i) => self.u32_lit(i),
                Ok(h) => {
                    let t = self.expr_ty(h);
                    if t == u {
                        h
                    } else {
                        self.as_kind(h, ir::ScalarKind::Uint, Some(4), u)
                    }
                }
            });
        }
        Some((gv, out))
    }

    /// The IR type carrying `count` resource indices: `uint` or `uintN`.
    pub fn index_result_type(&mut self, count: u8) -> ir::Handle<ir::Type> {
        let t = if count == 1 {
            types::UINT
        } else {
            self.s.types.vector(Sc::U32, count)
        };
        self.s.ir_ty(t)
    }

    /// The indices as one value of [`Self::index_result_type`].
    pub fn indices_value(
        &mut self,
        idx: &[ir::Handle<ir::Expression>],
    ) -> ir::Handle<ir::Expression> {
        if let [one] = idx {
            return *one;
        }
        let ty = self.index_result_type(idx.len() as u8);
        self.add(
            ir::Expression::Compose {
                ty,
                components: idx.to_vec(),
            },
            ty,
        )
    }

    /// The place of `gv[indices…]`, a resource of type `ty`.
    pub fn indexed_res_place(
        &mut self,
        gv: ir::Handle<ir::GlobalVariable>,
        indices: &[ir::Handle<ir::Expression>],
        ty: TyId,
        read_only: Option<ReadOnly>,
    ) -> Val {
        let g = &self.s.module.globals[gv];
        let (mut mem, space) = (g.ty, g.space);
        let pty = self.ptr_type(mem, space);
        let mut ptr = self.add(ir::Expression::GlobalVariable(gv), pty);
        for &index in indices {
            mem = self.member_mem_type(mem, 0, ty);
            let pty = self.ptr_type(mem, space);
            ptr = self.add(ir::Expression::Access { base: ptr, index }, pty);
        }
        Val::place(ty, Place::Ptr { ptr, mem, space }, read_only)
    }

    /// The place of an interned resource path, in this function.
    pub fn res_path_place(&mut self, id: ResPathId, ty: TyId, read_only: Option<ReadOnly>) -> Val {
        let p = self.s.res.path(id).clone();
        let g = &self.s.module.globals[p.gv];
        let (mut mem, space) = (g.ty, g.space);
        let pty = self.ptr_type(mem, space);
        let mut ptr = self.add(ir::Expression::GlobalVariable(p.gv), pty);
        for &i in &p.indices {
            mem = self.member_mem_type(mem, i, ty);
            let pty = self.ptr_type(mem, space);
            ptr = self.add(
                ir::Expression::AccessIndex {
                    base: ptr,
                    index: i,
                },
                pty,
            );
        }
        Val::place(ty, Place::Ptr { ptr, mem, space }, read_only)
    }

    /// Element `index` of a descriptor heap, as a resource of type `ty`
    /// (SM 6.6): one runtime array per resource type, all bound to the
    /// heap's binding (SPIR-V.rst, "ResourceDescriptorHeaps").
    pub fn heap_place(
        &mut self,
        ty: TyId,
        index: ir::Handle<ir::Expression>,
        sampler: bool,
    ) -> Val {
        let (mem, space) = self.s.resource_mem(ty);
        let gv = match self.s.res.heaps.get(&(mem, sampler)) {
            Some(&g) => g,
            None => {
                let arr = self.s.module.ty(ir::TypeInner::Array {
                    base: mem,
                    size: ir::ArraySize::Runtime,
                    stride: None,
                });
                let g = self.s.module.globals.append(ir::GlobalVariable {
                    name: Some(
                        if sampler {
                            "SamplerDescriptorHeap"
                        } else {
                            "ResourceDescriptorHeap"
                        }
                        .into(),
                    ),
                    space,
                    ty: arr,
                    init: None,
                    binding: None,
                    io: None,
                    precise: false,
                    invariant: false,
                    semantic: None,
                    counter: None,
                });
                self.s.res.heaps.insert((mem, sampler), g);
                g
            }
        };
        let arr = self.s.module.globals[gv].ty;
        let apty = self.ptr_type(arr, space);
        let base = self.add(ir::Expression::GlobalVariable(gv), apty);
        let pty = self.ptr_type(mem, space);
        let ptr = self.add(ir::Expression::Access { base, index }, pty);
        let ro = self
            .s
            .resource_read_only(ty, crate::sema::body::place::NO_SPAN);
        Val::place(ty, Place::Ptr { ptr, mem, space }, ro)
    }

    pub(super) fn res_error(&mut self, kind: ResKind, method: ast::Ident) -> Val {
        self.error(
            codes::NO_METHOD,
            format!("`{}` has no method `{}`", kind.name(), method.name),
            method.span,
            "unknown method",
        )
    }

    pub(super) fn wrong_args(&mut self, what: &str, span: Span) -> Val {
        self.error(
            codes::WRONG_ARG_COUNT,
            format!("wrong arguments for `{what}`"),
            span,
            "check the number and kinds of arguments",
        )
    }

    /// A value converted to `ty`, as an IR expression.
    pub fn arg_as(&mut self, a: &Arg, ty: TyId) -> Option<ir::Handle<ir::Expression>> {
        let c = self.convert(a.val.clone(), ty, a.span);
        self.value(&c)
    }

    /// An integer or uint vector coordinate of `n` components.
    pub(super) fn int_coord(
        &mut self,
        a: &Arg,
        n: u8,
        signed: bool,
    ) -> Option<ir::Handle<ir::Expression>> {
        let sc = if signed { Sc::I32 } else { Sc::U32 };
        let t = self.s.types.vector(sc, n);
        // Keep the argument's signedness when it is already an int vector.
        let t = match self.s.types.component(a.val.ty) {
            Some(Sc::I32) | Some(Sc::U32)
                if self.s.types.shape(a.val.ty) == self.s.types.shape(t) =>
            {
                a.val.ty
            }
            _ => t,
        };
        self.arg_as(a, t)
    }

    pub(super) fn float_coord(&mut self, a: &Arg, n: u8) -> Option<ir::Handle<ir::Expression>> {
        let t = self.s.types.vector(Sc::F32, n);
        self.arg_as(a, t)
    }

    /// Writes `value` (HLSL type `vty`) to an out argument.
    pub fn write_out(&mut self, a: &Arg, value: ir::Handle<ir::Expression>, vty: TyId) {
        if !self.check_writable(&a.val, a.span) {
            return;
        }
        let Some(place) = a.val.as_place().cloned() else {
            return;
        };
        let c = self.convert(Val::expr(vty, value), a.val.ty, a.span);
        if let Some(h) = self.value(&c) {
            self.write_place(&place, a.val.ty, h);
        }
    }

    /// The element pointer of a structured buffer: `buf[i]`.
    pub(super) fn structured_elem(
        &mut self,
        buf: &Val,
        elem: TyId,
        index: ir::Handle<ir::Expression>,
    ) -> Option<Place> {
        let ValKind::Place(Place::Ptr { ptr, mem, space }) = &buf.kind else {
            return None;
        };
        let (ptr, mem, space) = (*ptr, *mem, *space);
        let arr = match &self.s.module.types[mem].inner {
            ir::TypeInner::Struct { members, .. } => members.first()?.ty,
            _ => return None,
        };
        let elem_mem = match self.s.module.types[arr].inner {
            ir::TypeInner::Array { base, .. } => base,
            _ => return None,
        };
        let _ = elem;
        let apty = self.ptr_type(arr, space);
        let a = self.add(
            ir::Expression::AccessIndex {
                base: ptr,
                index: 0,
            },
            apty,
        );
        let epty = self.ptr_type(elem_mem, space);
        let p = self.add(ir::Expression::Access { base: a, index }, epty);
        Some(Place::Ptr {
            ptr: p,
            mem: elem_mem,
            space,
        })
    }

    /// `res[i]` for buffers and textures.
    /// `tex.mips[level][coord]` / `tex.sample[s][coord]`: a texel of a mip
    /// level, or a sample of a multisampled texture.
    pub fn texture_element(
        &mut self,
        tex: Val,
        sel: Val,
        sel_span: Span,
        coord: Val,
        coord_span: Span,
        span: Span,
    ) -> Val {
        let Ty::Resource(ResKind::Texture { dim, array, ms, .. }, elem) =
            self.s.types.get(tex.ty).clone()
        else {
            return Val::error();
        };
        let elem_ty = elem.unwrap_or(types::FLOAT);
        let Some(image) = self.value(&tex) else {
            return Val::error();
        };
        let sv = self.convert(sel, types::INT, sel_span);
        let Some(s) = self.value(&sv) else {
            return Val::error();
        };
        let n = coord_count(dim, array);
        let ct = if n == 1 {
            types::INT
        } else {
            self.s.types.vector(Sc::I32, n)
        };
        let cv = self.convert(coord, ct, coord_span);
        let Some(c) = self.value(&cv) else {
            return Val::error();
        };
        let _ = span;
        let (level, sample) = if ms { (None, Some(s)) } else { (Some(s), None) };
        let v4 = self.image_load(image, c, level, sample, None, elem_ty, None);
        let h = self.from_texel(v4, elem_ty);
        Val::expr(elem_ty, h)
    }

    pub fn resource_index(
        &mut self,
        v: Val,
        kind: ResKind,
        elem: Option<TyId>,
        index: ir::Handle<ir::Expression>,
        span: Span,
    ) -> Val {
        let elem_ty = elem.unwrap_or(types::UINT);
        match kind {
            k if k.is_structured() => {
                if matches!(
                    k,
                    ResKind::AppendStructuredBuffer | ResKind::ConsumeStructuredBuffer
                ) {
                    return self.error(
                        codes::NOT_INDEXABLE,
                        format!("`{}` cannot be indexed", k.name()),
                        span,
                        "use Append()/Consume()",
                    );
                }
                match self.structured_elem(&v, elem_ty, index) {
                    Some(p) => {
                        let ro = if k.is_rw() {
                            None
                        } else {
                            v.read_only.or(Some(ReadOnly::Rvalue))
                        };
                        Val::place(elem_ty, p, ro)
                    }
                    None => self.unsupported("indexing this buffer expression", span),
                }
            }
            ResKind::Texture { dim, array, ms, rw } => {
                let Some(image) = self.value(&v) else {
                    return Val::error();
                };
                let n = coord_count(dim, array);
                let coord = self.fit_coord(index, n, span);
                if rw {
                    return Val::place(
                        elem_ty,
                        Place::Texel {
                            image,
                            coord,
                            elem: elem_ty,
                        },
                        None,
                    );
                }
                // `[]` reads mip level 0, or sample 0 of a multisampled
                // texture.
                let (level, sample) = if ms {
                    (None, Some(self.i32_lit(0)))
                } else {
                    (Some(self.i32_lit(0)), None)
                };
                let v4 = self.image_load(image, coord, level, sample, None, elem_ty, None);
                let h = self.from_texel(v4, elem_ty);
                Val::expr(elem_ty, h)
            }
            ResKind::TexelBuffer { rw } => {
                let Some(image) = self.value(&v) else {
                    return Val::error();
                };
                if rw {
                    return Val::place(
                        elem_ty,
                        Place::Texel {
                            image,
                            coord: index,
                            elem: elem_ty,
                        },
                        None,
                    );
                }
                let v4 = self.image_load(image, index, None, None, None, elem_ty, None);
                let h = self.from_texel(v4, elem_ty);
                Val::expr(elem_ty, h)
            }
            _ => self.error(
                codes::NOT_INDEXABLE,
                format!("`{}` cannot be indexed", kind.name()),
                span,
                "not indexable",
            ),
        }
    }

    /// A coordinate with exactly `n` components (truncating or padding with
    /// zeros as needed).
    pub(super) fn fit_coord(
        &mut self,
        c: ir::Handle<ir::Expression>,
        n: u8,
        _span: Span,
    ) -> ir::Handle<ir::Expression> {
        let cty = self.expr_ty(c);
        let (have, scalar) = match self.s.module.types[cty].inner {
            ir::TypeInner::Vector { size, scalar } => (size, scalar),
            ir::TypeInner::Scalar(s) => (1, s),
            _ => return c,
        };
        if have == n {
            return c;
        }
        let sc = Sc::from_ir(scalar);
        let from = self.s.types.vector(sc, have);
        if have > n {
            let comps: Vec<u8> = (0..n).collect();
            return self.swizzle_value(c, from, &comps);
        }
        let mut parts = Vec::new();
        if have == 1 {
            parts.push(c);
        } else {
            let st = self.s.types.scalar(sc);
            let sit = self.s.ir_ty(st);
            for i in 0..have as u32 {
                parts.push(self.add(ir::Expression::AccessIndex { base: c, index: i }, sit));
            }
        }
        let zero =
            super::body::place::konst_literal(super::types::consteval::Konst::int(0).convert(sc));
        let z = self.lit(zero);
        while parts.len() < n as usize {
            parts.push(z);
        }
        let t = self.s.types.vector(sc, n);
        let it = self.s.ir_ty(t);
        self.add(
            ir::Expression::Compose {
                ty: it,
                components: parts,
            },
            it,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn image_load(
        &mut self,
        image: ir::Handle<ir::Expression>,
        coord: ir::Handle<ir::Expression>,
        level: Option<ir::Handle<ir::Expression>>,
        sample: Option<ir::Handle<ir::Expression>>,
        offset: Option<ir::Handle<ir::Expression>>,
        elem: TyId,
        status: Option<&Arg>,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(elem).unwrap_or(Sc::F32);
        let v4 = self.s.types.vector(sc, 4);
        let it = self.s.ir_ty(v4);
        let load = |sparse| ir::Expression::ImageLoad {
            image,
            coordinate: coord,
            level,
            sample,
            offset,
            sparse,
        };
        match status {
            Some(st) => self.sparse_read(load(true), it, st),
            None => self.add(load(false), it),
        }
    }

    /// Checks the trailing `status` argument of a texture read: the
    /// residency code is written to it, so it must be an lvalue
    /// (SPIR-V.rst, "Texture methods": OpImageSparse* when a status is
    /// present).
    pub(super) fn status_arg_ok(&mut self, a: &Arg) -> bool {
        if a.val.is_error() {
            return false;
        }
        if a.val.as_place().is_none() {
            self.s.error(
                codes::OUT_ARG_NOT_LVALUE,
                "the status argument must be an lvalue: the operation writes its residency code there",
                a.span,
                "not an lvalue",
            );
            return false;
        }
        self.status_type_ok(a) && self.check_writable(&a.val, a.span)
    }

    /// Emits the sparse form `op` of a read whose dense result has IR type
    /// `texel`: its result is `{ uint code; texel }`; the code goes to
    /// `status` and the texel is returned.
    pub(super) fn sparse_read(
        &mut self,
        op: ir::Expression,
        texel: ir::Handle<ir::Type>,
        status: &Arg,
    ) -> ir::Handle<ir::Expression> {
        let (code, texel) = self.sparse_parts(op, texel);
        self.write_out(status, code, types::UINT);
        texel
    }

    /// Emits the sparse read `op` (dense result type `texel`) and returns
    /// its residency code and texel.
    pub(super) fn sparse_parts(
        &mut self,
        op: ir::Expression,
        texel: ir::Handle<ir::Type>,
    ) -> (ir::Handle<ir::Expression>, ir::Handle<ir::Expression>) {
        let u = self.s.ir_ty(types::UINT);
        let member = |name: &str, ty| ir::StructMember {
            name: Some(name.into()),
            ty,
            offset: None,
            matrix_layout: None,
            precise: false,
            binding: None,
        };
        let rty = self.s.module.types.insert(ir::Type {
            name: Some("SparseResidencyStruct".into()),
            inner: ir::TypeInner::Struct {
                members: vec![member("code", u), member("texel", texel)],
                size: 0,
            },
        });
        let r = self.add(op, rty);
        let code = self.add(ir::Expression::AccessIndex { base: r, index: 0 }, u);
        let texel = self.add(ir::Expression::AccessIndex { base: r, index: 1 }, texel);
        (code, texel)
    }

    /// The counter global of the buffer behind `v` (created on first use
    /// for RW structured buffers).
    pub(super) fn counter_of(&mut self, v: &Val, span: Span) -> Option<ir::Handle<ir::Expression>> {
        let ValKind::Place(Place::Ptr { ptr, .. }) = &v.kind else {
            self.s
                .unsupported("counters of this buffer expression", span);
            return None;
        };
        let sb = ir::AddressSpace::Storage { writable: true };
        // A buffer from the descriptor heap: its counter is the same
        // element of the counter heap.
        let heap_index = match self.fb.body.function.expressions[*ptr] {
            ir::Expression::Access { base, index } => Some((base, Some(index), 0)),
            ir::Expression::AccessIndex { base, index } => Some((base, None, index)),
            _ => None,
        }
        .filter(|(base, _, _)| {
            matches!(self.fb.body.function.expressions[*base], ir::Expression::GlobalVariable(g) if self.s.res.heaps.values().any(|&h| h == g))
        });
        let gv = match self.fb.body.function.expressions[*ptr] {
            ir::Expression::GlobalVariable(gv) => gv,
            _ if heap_index.is_some() => {
                let (_, dynamic, constant) = heap_index?;
                let index = match dynamic {
                    Some(i) => i,
                    None => self.u32_lit(constant),
                };
                let heap = self.counter_heap();
                let hty = self.s.module.globals[heap].ty;
                let block = match self.s.module.types[hty].inner {
                    ir::TypeInner::Array { base, .. } => base,
                    _ => hty,
                };
                let hpty = self.ptr_type(hty, sb);
                let h = self.add(ir::Expression::GlobalVariable(heap), hpty);
                let bpty = self.ptr_type(block, sb);
                return Some(self.add(ir::Expression::Access { base: h, index }, bpty));
            }
            _ => {
                self.s.unsupported(
                    "counters of buffers passed as parameters or in arrays",
                    span,
                );
                return None;
            }
        };
        let c = match self.s.module.globals[gv].counter {
            Some(c) => c,
            None => {
                let (rindex, r) = self.s.res.decl_of(gv)?;
                let (name, rspan) = (r.name, r.span);
                self.s.make_counter(gv, rindex, name, rspan)
            }
        };
        let cty = self.s.module.globals[c].ty;
        let cpty = self.ptr_type(cty, sb);
        Some(self.add(ir::Expression::GlobalVariable(c), cpty))
    }

    /// The runtime array of counters for heap resources.
    pub(super) fn counter_heap(&mut self) -> ir::Handle<ir::GlobalVariable> {
        if let Some(h) = self.s.res.counter_heap {
            return h;
        }
        let block = self.s.counter_block_type();
        let arr = self.s.module.ty(ir::TypeInner::Array {
            base: block,
            size: ir::ArraySize::Runtime,
            stride: None,
        });
        let g = ir::build::add_global(
            &mut self.s.module,
            "counter.var.ResourceDescriptorHeap",
            ir::AddressSpace::Storage { writable: true },
            arr,
        );
        self.s.res.counter_heap = Some(g);
        g
    }

    /// Atomically adds `delta` to a buffer's counter; gives the old value.
    pub(super) fn counter_op(
        &mut self,
        v: &Val,
        add: bool,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let base = self.counter_of(v, span)?;
        let int = self.s.ir_ty(types::INT);
        let ipty = self.ptr_type(int, ir::AddressSpace::Storage { writable: true });
        let p = self.add(ir::Expression::AccessIndex { base, index: 0 }, ipty);
        let one = self.i32_lit(1);
        let r = self.add(ir::Expression::AtomicResult, int);
        self.stmt(ir::Statement::Atomic {
            pointer: p,
            fun: if add {
                ir::AtomicFunction::Add
            } else {
                ir::AtomicFunction::Subtract
            },
            value: Some(one),
            compare: None,
            result: Some(r),
        });
        Some(r)
    }

    pub(super) fn as_uint(&mut self, h: ir::Handle<ir::Expression>) -> ir::Handle<ir::Expression> {
        let u = self.s.ir_ty(types::UINT);
        self.as_kind(h, ir::ScalarKind::Uint, None, u)
    }

    /// Methods of resource objects.
    #[allow(clippy::too_many_arguments)]
    pub fn resource_method(
        &mut self,
        obj: Val,
        kind: ResKind,
        elem: Option<TyId>,
        method: ast::Ident,
        targs: Option<&'a [ast::TemplateArg]>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let m = method.name.as_str();
        let elem_ty = elem.unwrap_or(types::UINT);
        if kind.is_structured() {
            return self.structured_method(obj, kind, elem_ty, method, args, span);
        }
        if kind.is_byte_address() {
            return self.byte_address_method(obj, kind, method, targs, args, span);
        }
        match kind {
            ResKind::Texture { dim, array, ms, rw } => match m {
                "GetDimensions" => self.texture_dims(obj, kind, args, span),
                // Cubes are sampled, never fetched (OpImageFetch: "Dim
                // cannot be Cube").
                "Load" if dim == TexDim::Cube => self.res_error(kind, method),
                "Load" => {
                    let Some(image) = self.value(&obj) else {
                        return Val::error();
                    };
                    let n = coord_count(dim, array);
                    // Load(location[, sample][, offset][, status]); RW
                    // textures have neither sample nor offset.
                    let status_at = if rw {
                        1
                    } else if ms {
                        3
                    } else {
                        2
                    };
                    if args.len() > status_at + 1 {
                        return self.wrong_args("Load", span);
                    }
                    let status = args.get(status_at);
                    if let Some(st) = status
                        && !self.status_arg_ok(st)
                    {
                        return Val::error();
                    }
                    let (coord, level, sample, offset) = if rw {
                        let Some(a) = args.first() else {
                            return self.wrong_args("Load", span);
                        };
                        let Some(c) = self.int_coord(a, n, true) else {
                            return Val::error();
                        };
                        (c, None, None, None)
                    } else if ms {
                        let (Some(a), Some(s)) = (args.first(), args.get(1)) else {
                            return self.wrong_args("Load", span);
                        };
                        let Some(c) = self.int_coord(a, n, true) else {
                            return Val::error();
                        };
                        let Some(sh) = self.arg_as(s, types::INT) else {
                            return Val::error();
                        };
                        let off = match args.get(2) {
                            Some(o) if status_at > 2 => {
                                let ot = self.s.types.vector(Sc::I32, offset_count(dim));
                                self.arg_as(o, ot)
                            }
                            _ => None,
                        };
                        (c, None, Some(sh), off)
                    } else {
                        // The last component of the location is the mip level.
                        let Some(a) = args.first() else {
                            return self.wrong_args("Load", span);
                        };
                        let Some(all) = self.int_coord(a, n + 1, true) else {
                            return Val::error();
                        };
                        let it = self.s.types.vector(Sc::I32, n + 1);
                        let comps: Vec<u8> = (0..n).collect();
                        let c = self.swizzle_value(all, it, &comps);
                        let lvl = self.swizzle_value(all, it, &[n]);
                        let off = match args.get(1) {
                            Some(o) => {
                                let ot = self.s.types.vector(Sc::I32, offset_count(dim));
                                self.arg_as(o, ot)
                            }
                            None => None,
                        };
                        (c, Some(lvl), None, off)
                    };
                    // Vulkan takes only constant offsets outside gathers
                    // (VUID-StandaloneSpirv-Offset-04663); a parameter may
                    // still become one once the call is inlined.
                    if let Some(o) = offset
                        && !self.may_become_constant(o)
                    {
                        let at = args.get(if ms { 2 } else { 1 }).map_or(span, |a| a.span);
                        return self.error(
                            codes::TYPE_MISMATCH,
                            "the offset of `Load` must be a constant",
                            at,
                            "not a constant",
                        );
                    }
                    let v4 = self.image_load(image, coord, level, sample, offset, elem_ty, status);
                    self.tag_span(v4, span);
                    let h = self.from_texel(v4, elem_ty);
                    Val::expr(elem_ty, h)
                }
                "CalculateLevelOfDetail" | "CalculateLevelOfDetailUnclamped" if !rw && !ms => {
                    let Some(image) = self.value(&obj) else {
                        return Val::error();
                    };
                    let (Some(sa), Some(ca)) = (args.first(), args.get(1)) else {
                        return self.wrong_args(m, span);
                    };
                    if !matches!(self.s.types.get(sa.val.ty), Ty::Sampler { .. }) {
                        return self.error(
                            codes::TYPE_MISMATCH,
                            "the first argument must be a sampler",
                            sa.span,
                            "not a sampler",
                        );
                    }
                    let Some(sampler) = self.value(&sa.val) else {
                        return Val::error();
                    };
                    // The coordinate has no array layer.
                    let n = coord_count(dim, false);
                    let Some(coordinate) = self.float_coord(ca, n) else {
                        return Val::error();
                    };
                    if !self.derivatives_available(m, span) {
                        return Val::error();
                    }
                    self.s.entry.uses_derivatives = true;
                    let f = self.s.ir_ty(types::FLOAT);
                    let clamped = m == "CalculateLevelOfDetail";
                    let query = ir::ImageQuery::Lod {
                        sampler,
                        coordinate,
                        clamped,
                    };
                    let h = self.add(ir::Expression::ImageQuery { image, query }, f);
                    Val::expr(types::FLOAT, h)
                }
                "GatherCmpGreen" | "GatherCmpBlue" | "GatherCmpAlpha" if !rw && !ms => {
                    // SPIR-V.rst, "Unsupported HLSL features": OpImageDrefGather
                    // takes no component.
                    self.error(
                        codes::NO_METHOD,
                        format!("`{m}` has no Vulkan equivalent"),
                        method.span,
                        "use `GatherCmp` or `GatherCmpRed`",
                    )
                }
                "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha"
                | "GatherCmp" | "GatherCmpRed"
                    if matches!(dim, TexDim::D1 | TexDim::D3) =>
                {
                    self.res_error(kind, method)
                }
                // No depth comparison on 3D images (SPIR-V.rst; Vulkan:
                // VUID-StandaloneSpirv-OpImage-04777).
                "SampleCmp" | "SampleCmpLevelZero" | "SampleCmpLevel" | "SampleCmpBias"
                | "SampleCmpGrad"
                    if dim == TexDim::D3 =>
                {
                    self.res_error(kind, method)
                }
                "Sample" | "SampleLevel" | "SampleBias" | "SampleGrad" | "SampleCmp"
                | "SampleCmpLevelZero" | "SampleCmpLevel" | "SampleCmpBias" | "SampleCmpGrad"
                | "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha"
                | "GatherCmp" | "GatherCmpRed"
                    if !rw && !ms =>
                {
                    self.sample(obj, dim, array, elem_ty, m, args, span)
                }
                _ => self.res_error(kind, method),
            },
            ResKind::TexelBuffer { rw } => match m {
                "Load" => {
                    let Some(image) = self.value(&obj) else {
                        return Val::error();
                    };
                    let Some(a) = args.first() else {
                        return self.wrong_args("Load", span);
                    };
                    let Some(i) = self.arg_as(a, types::INT) else {
                        return Val::error();
                    };
                    if args.len() > 2 {
                        return self.wrong_args("Load", span);
                    }
                    let status = args.get(1);
                    if let Some(st) = status
                        && !self.status_arg_ok(st)
                    {
                        return Val::error();
                    }
                    let _ = rw;
                    let v4 = self.image_load(image, i, None, None, None, elem_ty, status);
                    let h = self.from_texel(v4, elem_ty);
                    Val::expr(elem_ty, h)
                }
                "GetDimensions" => self.texture_dims(obj, kind, args, span),
                _ => self.res_error(kind, method),
            },
            _ => self.res_error(kind, method),
        }
    }

    pub(super) fn structured_method(
        &mut self,
        obj: Val,
        kind: ResKind,
        elem: TyId,
        method: ast::Ident,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        match method.name.as_str() {
            "Load"
                if matches!(
                    kind,
                    ResKind::StructuredBuffer | ResKind::RWStructuredBuffer
                ) =>
            {
                let Some(a) = args.first() else {
                    return self.wrong_args("Load", span);
                };
                if let Some(st) = args.get(1) {
                    return self.buffer_status_error(&format!("{}.Load", kind.name()), st);
                }
                let Some(i) = self.arg_as(a, types::UINT) else {
                    return Val::error();
                };
                match self.structured_elem(&obj, elem, i) {
                    Some(p) => {
                        let h = self.read_place(&p, elem);
                        match h {
                            Some(h) => Val::expr(elem, h),
                            None => Val::error(),
                        }
                    }
                    None => self.unsupported("Load on this buffer expression", span),
                }
            }
            "GetDimensions" => {
                if args.len() != 2 {
                    return self.wrong_args("GetDimensions", span);
                }
                let ValKind::Place(Place::Ptr { ptr, mem, .. }) = obj.kind else {
                    return self.unsupported("GetDimensions on this buffer expression", span);
                };
                let u = self.s.ir_ty(types::UINT);
                let len = self.add(
                    ir::Expression::ArrayLength {
                        pointer: ptr,
                        member: 0,
                    },
                    u,
                );
                let stride = match &self.s.module.types[mem].inner {
                    ir::TypeInner::Struct { members, .. } => {
                        match members.first().map(|m| &self.s.module.types[m.ty].inner) {
                            Some(ir::TypeInner::Array {
                                stride: Some(s), ..
                            }) => *s,
                            _ => 0,
                        }
                    }
                    _ => 0,
                };
                let st = self.u32_lit(stride);
                self.write_out(&args[0], len, types::UINT);
                self.write_out(&args[1], st, types::UINT);
                Val::void()
            }
            "IncrementCounter" | "DecrementCounter" if kind == ResKind::RWStructuredBuffer => {
                if !args.is_empty() {
                    return self.wrong_args(method.name.as_str(), span);
                }
                let add = method.name.as_str() == "IncrementCounter";
                let Some(old) = self.counter_op(&obj, add, span) else {
                    return Val::error();
                };
                // DecrementCounter returns the new value.
                let r = if add {
                    old
                } else {
                    let one = self.i32_lit(1);
                    let it = self.s.ir_ty(types::INT);
                    self.add(
                        ir::Expression::Binary {
                            op: ir::BinaryOperator::Subtract,
                            left: old,
                            right: one,
                            precise: false,
                        },
                        it,
                    )
                };
                let u = self.as_uint(r);
                Val::expr(types::UINT, u)
            }
            "Append" if kind == ResKind::AppendStructuredBuffer => {
                let Some(a) = args.first() else {
                    return self.wrong_args("Append", span);
                };
                if args.len() != 1 {
                    return self.wrong_args("Append", span);
                }
                let c = self.convert(a.val.clone(), elem, a.span);
                let Some(v) = self.value(&c) else {
                    return Val::error();
                };
                let Some(old) = self.counter_op(&obj, true, span) else {
                    return Val::error();
                };
                let idx = self.as_uint(old);
                match self.structured_elem(&obj, elem, idx) {
                    Some(p) => self.write_place(&p, elem, v),
                    None => return self.unsupported("Append on this buffer expression", span),
                }
                Val::void()
            }
            "Consume" if kind == ResKind::ConsumeStructuredBuffer => {
                if !args.is_empty() {
                    return self.wrong_args("Consume", span);
                }
                let Some(old) = self.counter_op(&obj, false, span) else {
                    return Val::error();
                };
                let one = self.i32_lit(1);
                let it = self.s.ir_ty(types::INT);
                let newv = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::Subtract,
                        left: old,
                        right: one,
                        precise: false,
                    },
                    it,
                );
                let idx = self.as_uint(newv);
                match self.structured_elem(&obj, elem, idx) {
                    Some(p) => match self.read_place(&p, elem) {
                        Some(h) => Val::expr(elem, h),
                        None => Val::error(),
                    },
                    None => self.unsupported("Consume on this buffer expression", span),
                }
            }
            _ => self.res_error(kind, method),
        }
    }
}
