//! Resource objects: how they are reached (pointers to Handle-space
//! images and samplers, to storage blocks, to uniform blocks), indexing
//! (`buf[i]`, `tex[uv]`), and their methods (SPIR-V.rst, "HLSL Methods"):
//! structured-buffer `Load`/`GetDimensions`/counters, `Append`/`Consume`,
//! byte-address `Load*`/`Store*`/`Interlocked*`, texture `Load`, `Sample*`,
//! `Gather`, `GetDimensions`.

use super::call::Arg;
use super::func::FnCtx;
use super::layout::{BufferKind, Rule};
use super::place::{Place, Val, ValKind};
use super::types::{self, ResKind, Sc, Shape, TexDim, Ty, TyId};
use super::{ReadOnly, Sema};
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
fn coord_count(dim: TexDim, array: bool) -> u8 {
    let n = match dim {
        TexDim::D1 => 1,
        TexDim::D2 => 2,
        TexDim::D3 | TexDim::Cube => 3,
    };
    n + array as u8
}

/// Number of offset components (no array layer; cubes take none).
fn offset_count(dim: TexDim) -> u8 {
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
            match self.fb.f.expressions[cur] {
                ir::Expression::GlobalVariable(gv) => {
                    indices.reverse();
                    return Some(super::ResPath { gv, indices });
                }
                ir::Expression::AccessIndex { base, index } => {
                    indices.push(index);
                    cur = base;
                }
                ir::Expression::Access { base, index } => {
                    let i = match self.fb.f.expressions[index] {
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

    /// The place of an interned resource path, in this function.
    pub fn res_path_place(&mut self, id: u32, ty: TyId, read_only: Option<ReadOnly>) -> Val {
        let p = self.s.res_paths[id as usize].clone();
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
        let gv = match self.s.heap_globals.get(&(mem, sampler)) {
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
                self.s.heap_globals.insert((mem, sampler), g);
                g
            }
        };
        let arr = self.s.module.globals[gv].ty;
        let apty = self.ptr_type(arr, space);
        let base = self.add(ir::Expression::GlobalVariable(gv), apty);
        let pty = self.ptr_type(mem, space);
        let ptr = self.add(ir::Expression::Access { base, index }, pty);
        let ro = self.s.resource_read_only(ty, crate::sema::place::NO_SPAN);
        Val::place(ty, Place::Ptr { ptr, mem, space }, ro)
    }

    fn res_error(&mut self, kind: ResKind, method: ast::Ident) -> Val {
        self.error(
            codes::NO_METHOD,
            format!("`{}` has no method `{}`", kind.name(), method.name),
            method.span,
            "unknown method",
        )
    }

    fn wrong_args(&mut self, what: &str, span: Span) -> Val {
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
    fn int_coord(&mut self, a: &Arg, n: u8, signed: bool) -> Option<ir::Handle<ir::Expression>> {
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

    fn float_coord(&mut self, a: &Arg, n: u8) -> Option<ir::Handle<ir::Expression>> {
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
    fn structured_elem(
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
                if ms {
                    return self.unsupported("`[]` on multisampled textures (use Load)", span);
                }
                let level = Some(self.i32_lit(0));
                let v4 = self.image_load(image, coord, level, None, None, elem_ty);
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
                let v4 = self.image_load(image, index, None, None, None, elem_ty);
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
    fn fit_coord(
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
        let zero = super::place::konst_literal(super::consteval::Konst::int(0).convert(sc));
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

    fn image_load(
        &mut self,
        image: ir::Handle<ir::Expression>,
        coord: ir::Handle<ir::Expression>,
        level: Option<ir::Handle<ir::Expression>>,
        sample: Option<ir::Handle<ir::Expression>>,
        offset: Option<ir::Handle<ir::Expression>>,
        elem: TyId,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.component(elem).unwrap_or(Sc::F32);
        let v4 = self.s.types.vector(sc, 4);
        let it = self.s.ir_ty(v4);
        self.add(
            ir::Expression::ImageLoad {
                image,
                coordinate: coord,
                level,
                sample,
                offset,
                sparse: false,
            },
            it,
        )
    }

    /// The counter global of the buffer behind `v` (created on first use
    /// for RW structured buffers).
    fn counter_of(&mut self, v: &Val, span: Span) -> Option<ir::Handle<ir::Expression>> {
        let ValKind::Place(Place::Ptr { ptr, .. }) = &v.kind else {
            self.s
                .unsupported("counters of this buffer expression", span);
            return None;
        };
        let sb = ir::AddressSpace::Storage { writable: true };
        // A buffer from the descriptor heap: its counter is the same
        // element of the counter heap.
        let heap_index = match self.fb.f.expressions[*ptr] {
            ir::Expression::Access { base, index } => Some((base, Some(index), 0)),
            ir::Expression::AccessIndex { base, index } => Some((base, None, index)),
            _ => None,
        }
        .filter(|(base, _, _)| {
            matches!(self.fb.f.expressions[*base], ir::Expression::GlobalVariable(g) if self.s.heap_globals.values().any(|&h| h == g))
        });
        let gv = match self.fb.f.expressions[*ptr] {
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
                let rindex = self.s.resources.iter().position(|r| r.gv == gv)? as u32;
                let name = self.s.resources[rindex as usize].name;
                let rspan = self.s.resources[rindex as usize].span;
                self.s.make_counter(gv, rindex, name, rspan)
            }
        };
        let cty = self.s.module.globals[c].ty;
        let cpty = self.ptr_type(cty, sb);
        Some(self.add(ir::Expression::GlobalVariable(c), cpty))
    }

    /// The runtime array of counters for heap resources.
    fn counter_heap(&mut self) -> ir::Handle<ir::GlobalVariable> {
        if let Some(h) = self.s.counter_heap {
            return h;
        }
        let block = self.s.counter_block_type();
        let arr = self.s.module.ty(ir::TypeInner::Array {
            base: block,
            size: ir::ArraySize::Runtime,
            stride: None,
        });
        let g = self.s.module.globals.append(ir::GlobalVariable {
            name: Some("counter.var.ResourceDescriptorHeap".into()),
            space: ir::AddressSpace::Storage { writable: true },
            ty: arr,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        self.s.counter_heap = Some(g);
        g
    }

    /// Atomically adds `delta` to a buffer's counter; gives the old value.
    fn counter_op(&mut self, v: &Val, add: bool, span: Span) -> Option<ir::Handle<ir::Expression>> {
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

    fn as_uint(&mut self, h: ir::Handle<ir::Expression>) -> ir::Handle<ir::Expression> {
        let u = self.s.ir_ty(types::UINT);
        self.add(
            ir::Expression::As {
                expr: h,
                kind: ir::ScalarKind::Uint,
                convert: None,
                precise: false,
            },
            u,
        )
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
                "Load" => {
                    let Some(image) = self.value(&obj) else {
                        return Val::error();
                    };
                    let n = coord_count(dim, array);
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
                            Some(o) => {
                                let ot = self.s.types.vector(Sc::I32, offset_count(dim));
                                self.arg_as(o, ot)
                            }
                            None => None,
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
                        if args.len() > 2 {
                            return self.unsupported("Load with a status argument", span);
                        }
                        (c, Some(lvl), None, off)
                    };
                    let v4 = self.image_load(image, coord, level, sample, offset, elem_ty);
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
                    self.s.uses_derivatives = true;
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
                "Sample" | "SampleLevel" | "SampleBias" | "SampleGrad" | "SampleCmp"
                | "SampleCmpLevelZero" | "SampleCmpLevel" | "Gather" | "GatherRed"
                | "GatherGreen" | "GatherBlue" | "GatherAlpha"
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
                    if args.len() > 1 {
                        return self.unsupported("Load with a status argument", span);
                    }
                    let _ = rw;
                    let v4 = self.image_load(image, i, None, None, None, elem_ty);
                    let h = self.from_texel(v4, elem_ty);
                    Val::expr(elem_ty, h)
                }
                "GetDimensions" => self.texture_dims(obj, kind, args, span),
                _ => self.res_error(kind, method),
            },
            _ => self.res_error(kind, method),
        }
    }

    fn structured_method(
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
                if args.len() > 1 {
                    return self.unsupported("Load with a status argument", span);
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

    /// Pointer to the `uint` holding byte `addr + off` of a byte-address
    /// buffer.
    fn bab_word_ptr(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        span: Span,
    ) -> Option<(ir::Handle<ir::Expression>, ir::AddressSpace)> {
        let ValKind::Place(Place::Ptr { ptr, mem, space }) = &obj.kind else {
            self.s
                .unsupported("byte-address access on this buffer expression", span);
            return None;
        };
        let (ptr, mem, space) = (*ptr, *mem, *space);
        let arr = match &self.s.module.types[mem].inner {
            ir::TypeInner::Struct { members, .. } => members.first()?.ty,
            _ => return None,
        };
        let byte = self.bab_byte(addr, off);
        let u = self.s.ir_ty(types::UINT);
        let two = self.u32_lit(2);
        let idx = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::ShiftRight,
                left: byte,
                right: two,
                precise: false,
            },
            u,
        );
        let apty = self.ptr_type(arr, space);
        let a = self.add(
            ir::Expression::AccessIndex {
                base: ptr,
                index: 0,
            },
            apty,
        );
        let upty = self.ptr_type(u, space);
        Some((
            self.add(
                ir::Expression::Access {
                    base: a,
                    index: idx,
                },
                upty,
            ),
            space,
        ))
    }

    /// The byte address `addr + off`.
    fn bab_byte(
        &mut self,
        addr: ir::Handle<ir::Expression>,
        off: u32,
    ) -> ir::Handle<ir::Expression> {
        if off == 0 {
            return addr;
        }
        let u = self.s.ir_ty(types::UINT);
        let o = self.u32_lit(off);
        self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::Add,
                left: addr,
                right: o,
                precise: false,
            },
            u,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn byte_address_method(
        &mut self,
        obj: Val,
        kind: ResKind,
        method: ast::Ident,
        targs: Option<&'a [ast::TemplateArg]>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let m = method.name.as_str();
        let rw = kind == ResKind::RWByteAddressBuffer;
        let templ_ty = match targs.and_then(|t| t.first()) {
            Some(a) => {
                let env = crate::cx_env!(self);
                Some(self.s.template_type_arg(a, &env))
            }
            None => None,
        };
        match m {
            "GetDimensions" => {
                let Some(a) = args.first() else {
                    return self.wrong_args("GetDimensions", span);
                };
                let ValKind::Place(Place::Ptr { ptr, .. }) = obj.kind else {
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
                let four = self.u32_lit(4);
                let bytes = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::Multiply,
                        left: len,
                        right: four,
                        precise: false,
                    },
                    u,
                );
                self.write_out(a, bytes, types::UINT);
                Val::void()
            }
            "Load" | "Load2" | "Load3" | "Load4" => {
                let n: u8 = match m {
                    "Load" => 1,
                    "Load2" => 2,
                    "Load3" => 3,
                    _ => 4,
                };
                let Some(a) = args.first() else {
                    return self.wrong_args(m, span);
                };
                if args.len() > 1 {
                    return self.unsupported("Load with a status argument", span);
                }
                let Some(addr) = self.arg_as(a, types::UINT) else {
                    return Val::error();
                };
                let t = match templ_ty {
                    Some(t) if m == "Load" => t,
                    _ => self.s.types.vector(Sc::U32, n),
                };
                if t == types::ERROR {
                    return Val::error();
                }
                match self.bab_load(&obj, addr, t, span) {
                    Some(h) => Val::expr(t, h),
                    None => Val::error(),
                }
            }
            "Store" | "Store2" | "Store3" | "Store4" if rw => {
                let n: u8 = match m {
                    "Store" => 1,
                    "Store2" => 2,
                    "Store3" => 3,
                    _ => 4,
                };
                let (Some(a), Some(v)) = (args.first(), args.get(1)) else {
                    return self.wrong_args(m, span);
                };
                let Some(addr) = self.arg_as(a, types::UINT) else {
                    return Val::error();
                };
                let t = match templ_ty {
                    Some(t) if m == "Store" => t,
                    // Store(addr, value) of a non-32-bit or aggregate value
                    // stores it as it is (as Store<T>).
                    None if m == "Store"
                        && !matches!(v.val.kind, ValKind::Const(_))
                        && (!self.s.types.is_numeric(v.val.ty)
                            || self
                                .s
                                .types
                                .component(v.val.ty)
                                .is_some_and(|c| c.width() != 4)) =>
                    {
                        v.val.ty
                    }
                    _ => self.s.types.vector(Sc::U32, n),
                };
                let Some(val) = self.arg_as(v, t) else {
                    return Val::error();
                };
                self.bab_store(&obj, addr, val, t, span);
                Val::void()
            }
            _ if rw && m.starts_with("Interlocked") => self.bab_interlocked(&obj, m, &args, span),
            _ => self.res_error(kind, method),
        }
    }

    /// Loads a value of `ty` from byte address `addr`: components packed
    /// in order, each aligned to its own size (as DXC's templated loads).
    fn bab_load(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        ty: TyId,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        self.bab_load_at(obj, addr, 0, ty, span)
    }

    /// Bytes per component of a scalar in a byte-address buffer.
    fn bab_scalar_size(s: Sc) -> u32 {
        match s {
            Sc::Bool => 4,
            s => s.concrete().width() as u32,
        }
    }

    /// Size and alignment of a type in a byte-address buffer.
    fn bab_layout(&mut self, ty: TyId, span: Span) -> Option<(u32, u32)> {
        Some(match self.s.types.get(ty).clone() {
            Ty::Scalar(s) => {
                let n = Self::bab_scalar_size(s);
                (n, n)
            }
            Ty::Enum(_) => (4, 4),
            Ty::Vector(s, n) => {
                let c = Self::bab_scalar_size(s);
                (c * n as u32, c)
            }
            Ty::Matrix(s, r, c) => {
                let e = Self::bab_scalar_size(s);
                (e * r as u32 * c as u32, e)
            }
            Ty::Array(e, Some(n)) => {
                let (sz, al) = self.bab_layout(e, span)?;
                (sz.div_ceil(al) * al * n, al)
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let (mut off, mut al) = (0u32, 1u32);
                for t in member_tys {
                    let (sz, a) = self.bab_layout(t, span)?;
                    off = off.div_ceil(a) * a + sz;
                    al = al.max(a);
                }
                (off.div_ceil(al) * al, al)
            }
            _ => {
                self.s.unsupported(
                    format_args!("byte-address access to `{}`", self.s.ty_name(ty)),
                    span,
                );
                return None;
            }
        })
    }

    /// A 16-bit value from the word at byte `addr + off`.
    fn bab_load16(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        sc: Sc,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let (p, _) = self.bab_word_ptr(obj, addr, off, span)?;
        let u = self.s.ir_ty(types::UINT);
        let w = self.add(ir::Expression::Load { pointer: p }, u);
        // The half word: shift by 16 when the address is 2 mod 4.
        let byte = self.bab_byte(addr, off);
        let three = self.u32_lit(3);
        let bits = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::ShiftLeft,
                left: byte,
                right: three,
                precise: false,
            },
            u,
        );
        let sixteen = self.u32_lit(16);
        let sh = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::And,
                left: bits,
                right: sixteen,
                precise: false,
            },
            u,
        );
        let v = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::ShiftRight,
                left: w,
                right: sh,
                precise: false,
            },
            u,
        );
        let u16t = self.s.types.scalar(Sc::U16);
        let u16i = self.s.ir_ty(u16t);
        let h = self.add(
            ir::Expression::As {
                expr: v,
                kind: ir::ScalarKind::Uint,
                convert: Some(2),
                precise: false,
            },
            u16i,
        );
        if sc == Sc::U16 {
            return Some(h);
        }
        let st = self.s.types.scalar(sc);
        let it = self.s.ir_ty(st);
        let kind = if sc.is_float() {
            ir::ScalarKind::Float
        } else {
            ir::ScalarKind::Sint
        };
        Some(self.add(
            ir::Expression::As {
                expr: h,
                kind,
                convert: None,
                precise: false,
            },
            it,
        ))
    }

    fn bab_load_at(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        ty: TyId,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let u = self.s.ir_ty(types::UINT);
        match self.s.types.get(ty).clone() {
            Ty::Enum(_) => {
                let (p, _) = self.bab_word_ptr(obj, addr, off, span)?;
                let w = self.add(ir::Expression::Load { pointer: p }, u);
                let sc = self.s.types.component(ty).unwrap_or(Sc::I32);
                Some(self.word_to(w, sc))
            }
            Ty::Scalar(sc) if sc.concrete().width() == 4 || sc == Sc::Bool => {
                let (p, _) = self.bab_word_ptr(obj, addr, off, span)?;
                let w = self.add(ir::Expression::Load { pointer: p }, u);
                Some(self.word_to(w, sc))
            }
            Ty::Scalar(sc) if sc.concrete().width() == 2 => {
                self.bab_load16(obj, addr, off, sc, span)
            }
            Ty::Scalar(sc) => {
                // 64-bit: two words, low first.
                let (p0, _) = self.bab_word_ptr(obj, addr, off, span)?;
                let (p1, _) = self.bab_word_ptr(obj, addr, off + 4, span)?;
                let lo = self.add(ir::Expression::Load { pointer: p0 }, u);
                let hi = self.add(ir::Expression::Load { pointer: p1 }, u);
                let u64t = self.s.types.scalar(Sc::U64);
                let u64i = self.s.ir_ty(u64t);
                let lo64 = self.add(
                    ir::Expression::As {
                        expr: lo,
                        kind: ir::ScalarKind::Uint,
                        convert: Some(8),
                        precise: false,
                    },
                    u64i,
                );
                let hi64 = self.add(
                    ir::Expression::As {
                        expr: hi,
                        kind: ir::ScalarKind::Uint,
                        convert: Some(8),
                        precise: false,
                    },
                    u64i,
                );
                let sh = self.lit(ir::Literal::U64(32));
                let hs = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftLeft,
                        left: hi64,
                        right: sh,
                        precise: false,
                    },
                    u64i,
                );
                let v = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::InclusiveOr,
                        left: lo64,
                        right: hs,
                        precise: false,
                    },
                    u64i,
                );
                if sc == Sc::U64 {
                    return Some(v);
                }
                let it = self.s.ir_ty(ty);
                let kind = if sc.is_float() {
                    ir::ScalarKind::Float
                } else {
                    ir::ScalarKind::Sint
                };
                Some(self.add(
                    ir::Expression::As {
                        expr: v,
                        kind,
                        convert: None,
                        precise: false,
                    },
                    it,
                ))
            }
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                let c = Self::bab_scalar_size(sc);
                let mut comps = Vec::new();
                for i in 0..n as u32 {
                    comps.push(self.bab_load_at(obj, addr, off + i * c, st, span)?);
                }
                let it = self.s.ir_ty(ty);
                Some(self.add(
                    ir::Expression::Compose {
                        ty: it,
                        components: comps,
                    },
                    it,
                ))
            }
            Ty::Matrix(sc, r, c) => {
                // Row-major order in memory, as DXC's templated loads.
                let rt = self.s.types.vector(sc, c);
                let e = Self::bab_scalar_size(sc);
                let mut rows = Vec::new();
                for i in 0..r as u32 {
                    rows.push(self.bab_load_at(obj, addr, off + i * c as u32 * e, rt, span)?);
                }
                Some(self.compose_matrix(ty, rows))
            }
            Ty::Array(e, Some(n)) => {
                let (sz, al) = self.bab_layout(e, span)?;
                let stride = sz.div_ceil(al) * al;
                let mut comps = Vec::new();
                for i in 0..n {
                    comps.push(self.bab_load_at(obj, addr, off + i * stride, e, span)?);
                }
                let it = self.s.ir_ty(ty);
                Some(self.add(
                    ir::Expression::Compose {
                        ty: it,
                        components: comps,
                    },
                    it,
                ))
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let mut comps = Vec::new();
                let mut o = 0u32;
                for t in member_tys {
                    let (sz, al) = self.bab_layout(t, span)?;
                    o = o.div_ceil(al) * al;
                    comps.push(self.bab_load_at(obj, addr, off + o, t, span)?);
                    o += sz;
                }
                let it = self.s.ir_ty(ty);
                Some(self.add(
                    ir::Expression::Compose {
                        ty: it,
                        components: comps,
                    },
                    it,
                ))
            }
            _ => {
                self.s.unsupported(
                    format_args!("byte-address loads of `{}`", self.s.ty_name(ty)),
                    span,
                );
                None
            }
        }
    }

    /// A 32-bit word as scalar `sc`.
    fn word_to(&mut self, w: ir::Handle<ir::Expression>, sc: Sc) -> ir::Handle<ir::Expression> {
        match sc.concrete() {
            Sc::U32 => w,
            Sc::Bool => {
                let z = self.u32_lit(0);
                let b = self.s.ir_ty(types::BOOL);
                self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::NotEqual,
                        left: w,
                        right: z,
                        precise: false,
                    },
                    b,
                )
            }
            s => {
                let st = self.s.types.scalar(s);
                let it = self.s.ir_ty(st);
                let kind = if s.is_float() {
                    ir::ScalarKind::Float
                } else {
                    ir::ScalarKind::Sint
                };
                self.add(
                    ir::Expression::As {
                        expr: w,
                        kind,
                        convert: None,
                        precise: false,
                    },
                    it,
                )
            }
        }
    }

    fn bab_store(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        val: ir::Handle<ir::Expression>,
        ty: TyId,
        span: Span,
    ) {
        self.bab_store_at(obj, addr, 0, val, ty, span);
    }

    fn bab_store_word(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        w: ir::Handle<ir::Expression>,
        span: Span,
    ) {
        if let Some((p, _)) = self.bab_word_ptr(obj, addr, off, span) {
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: w,
            });
        }
    }

    fn bab_store_at(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        val: ir::Handle<ir::Expression>,
        ty: TyId,
        span: Span,
    ) {
        let u = self.s.ir_ty(types::UINT);
        match self.s.types.get(ty).clone() {
            Ty::Scalar(sc) if sc.concrete().width() == 4 || sc == Sc::Bool => {
                let w = match sc.concrete() {
                    Sc::U32 => val,
                    Sc::Bool => {
                        self.bool_to_int(val, 1, u, ir::Literal::U32(1), ir::Literal::U32(0))
                    }
                    _ => self.add(
                        ir::Expression::As {
                            expr: val,
                            kind: ir::ScalarKind::Uint,
                            convert: None,
                            precise: false,
                        },
                        u,
                    ),
                };
                self.bab_store_word(obj, addr, off, w, span);
            }
            Ty::Enum(_) => {
                let w = self.add(
                    ir::Expression::As {
                        expr: val,
                        kind: ir::ScalarKind::Uint,
                        convert: None,
                        precise: false,
                    },
                    u,
                );
                self.bab_store_word(obj, addr, off, w, span);
            }
            Ty::Scalar(sc) if sc.concrete().width() == 2 => {
                // Read-modify-write of the word holding the half word.
                let u16t = self.s.types.scalar(Sc::U16);
                let u16i = self.s.ir_ty(u16t);
                let bits16 = if sc == Sc::U16 {
                    val
                } else {
                    self.add(
                        ir::Expression::As {
                            expr: val,
                            kind: ir::ScalarKind::Uint,
                            convert: None,
                            precise: false,
                        },
                        u16i,
                    )
                };
                let v32 = self.add(
                    ir::Expression::As {
                        expr: bits16,
                        kind: ir::ScalarKind::Uint,
                        convert: Some(4),
                        precise: false,
                    },
                    u,
                );
                let Some((p, _)) = self.bab_word_ptr(obj, addr, off, span) else {
                    return;
                };
                let byte = self.bab_byte(addr, off);
                let three = self.u32_lit(3);
                let bits = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftLeft,
                        left: byte,
                        right: three,
                        precise: false,
                    },
                    u,
                );
                let sixteen = self.u32_lit(16);
                let sh = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::And,
                        left: bits,
                        right: sixteen,
                        precise: false,
                    },
                    u,
                );
                let ffff = self.u32_lit(0xffff);
                let mask = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftLeft,
                        left: ffff,
                        right: sh,
                        precise: false,
                    },
                    u,
                );
                let keep = self.add(
                    ir::Expression::Unary {
                        op: ir::UnaryOperator::BitwiseNot,
                        expr: mask,
                        precise: false,
                    },
                    u,
                );
                let old = self.add(ir::Expression::Load { pointer: p }, u);
                let kept = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::And,
                        left: old,
                        right: keep,
                        precise: false,
                    },
                    u,
                );
                let moved = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftLeft,
                        left: v32,
                        right: sh,
                        precise: false,
                    },
                    u,
                );
                let new = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::InclusiveOr,
                        left: kept,
                        right: moved,
                        precise: false,
                    },
                    u,
                );
                self.stmt(ir::Statement::Store {
                    pointer: p,
                    value: new,
                });
            }
            Ty::Scalar(sc) => {
                let u64t = self.s.types.scalar(Sc::U64);
                let u64i = self.s.ir_ty(u64t);
                let v = if sc == Sc::U64 {
                    val
                } else {
                    self.add(
                        ir::Expression::As {
                            expr: val,
                            kind: ir::ScalarKind::Uint,
                            convert: None,
                            precise: false,
                        },
                        u64i,
                    )
                };
                let lo = self.add(
                    ir::Expression::As {
                        expr: v,
                        kind: ir::ScalarKind::Uint,
                        convert: Some(4),
                        precise: false,
                    },
                    u,
                );
                let sh = self.lit(ir::Literal::U64(32));
                let hs = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftRight,
                        left: v,
                        right: sh,
                        precise: false,
                    },
                    u64i,
                );
                let hi = self.add(
                    ir::Expression::As {
                        expr: hs,
                        kind: ir::ScalarKind::Uint,
                        convert: Some(4),
                        precise: false,
                    },
                    u,
                );
                self.bab_store_word(obj, addr, off, lo, span);
                self.bab_store_word(obj, addr, off + 4, hi, span);
            }
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                let sit = self.s.ir_ty(st);
                let c = Self::bab_scalar_size(sc);
                for i in 0..n as u32 {
                    let e = self.add(
                        ir::Expression::AccessIndex {
                            base: val,
                            index: i,
                        },
                        sit,
                    );
                    self.bab_store_at(obj, addr, off + i * c, e, st, span);
                }
            }
            Ty::Matrix(sc, r, c) => {
                let rt = self.s.types.vector(sc, c);
                let e = Self::bab_scalar_size(sc);
                for i in 0..r {
                    let row = self.matrix_row(val, sc, r, c, i);
                    self.bab_store_at(obj, addr, off + i as u32 * c as u32 * e, row, rt, span);
                }
            }
            Ty::Array(e, Some(n)) => {
                let Some((sz, al)) = self.bab_layout(e, span) else {
                    return;
                };
                let stride = sz.div_ceil(al) * al;
                let eit = self.s.ir_ty(e);
                for i in 0..n {
                    let c = self.add(
                        ir::Expression::AccessIndex {
                            base: val,
                            index: i,
                        },
                        eit,
                    );
                    self.bab_store_at(obj, addr, off + i * stride, c, e, span);
                }
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let mut o = 0u32;
                for (i, t) in member_tys.into_iter().enumerate() {
                    let Some((sz, al)) = self.bab_layout(t, span) else {
                        return;
                    };
                    o = o.div_ceil(al) * al;
                    let it = self.s.ir_ty(t);
                    let c = self.add(
                        ir::Expression::AccessIndex {
                            base: val,
                            index: i as u32,
                        },
                        it,
                    );
                    self.bab_store_at(obj, addr, off + o, c, t, span);
                    o += sz;
                }
            }
            _ => {
                self.s.unsupported(
                    format_args!("byte-address stores of `{}`", self.s.ty_name(ty)),
                    span,
                );
            }
        }
    }

    fn bab_interlocked(&mut self, obj: &Val, m: &str, args: &[Arg], span: Span) -> Val {
        let Some(a) = args.first() else {
            return self.wrong_args(m, span);
        };
        let Some(addr) = self.arg_as(a, types::UINT) else {
            return Val::error();
        };
        let Some((p, _)) = self.bab_word_ptr(obj, addr, 0, span) else {
            return Val::error();
        };
        self.interlocked_on(p, types::UINT, m, &args[1..], span)
    }

    /// `Interlocked*` on a pointer to a 32-bit integer (`ty`); `rest` are
    /// the arguments after the destination.
    pub fn interlocked_on(
        &mut self,
        p: ir::Handle<ir::Expression>,
        ty: TyId,
        m: &str,
        rest: &[Arg],
        span: Span,
    ) -> Val {
        let fun = match m {
            "InterlockedAdd" => ir::AtomicFunction::Add,
            "InterlockedAnd" => ir::AtomicFunction::And,
            "InterlockedOr" => ir::AtomicFunction::InclusiveOr,
            "InterlockedXor" => ir::AtomicFunction::ExclusiveOr,
            "InterlockedMin" => ir::AtomicFunction::Min,
            "InterlockedMax" => ir::AtomicFunction::Max,
            "InterlockedExchange" => ir::AtomicFunction::Exchange,
            "InterlockedCompareExchange" | "InterlockedCompareStore" => {
                ir::AtomicFunction::CompareExchange
            }
            _ => {
                return self.error(
                    codes::NO_METHOD,
                    format!("unknown atomic operation `{m}`"),
                    span,
                    "unknown",
                );
            }
        };
        let it = self.s.ir_ty(ty);
        if fun == ir::AtomicFunction::CompareExchange {
            let (Some(c), Some(v)) = (rest.first(), rest.get(1)) else {
                return self.wrong_args(m, span);
            };
            let (Some(ch), Some(vh)) = (self.arg_as(c, ty), self.arg_as(v, ty)) else {
                return Val::error();
            };
            let r = self.add(ir::Expression::AtomicResult, it);
            self.stmt(ir::Statement::Atomic {
                pointer: p,
                fun,
                value: Some(vh),
                compare: Some(ch),
                result: Some(r),
            });
            if m == "InterlockedCompareExchange" {
                let Some(o) = rest.get(2) else {
                    return self.wrong_args(m, span);
                };
                self.write_out(o, r, ty);
            }
            return Val::void();
        }
        let Some(v) = rest.first() else {
            return self.wrong_args(m, span);
        };
        let Some(vh) = self.arg_as(v, ty) else {
            return Val::error();
        };
        let r = self.add(ir::Expression::AtomicResult, it);
        self.stmt(ir::Statement::Atomic {
            pointer: p,
            fun,
            value: Some(vh),
            compare: None,
            result: Some(r),
        });
        if let Some(o) = rest.get(1) {
            self.write_out(o, r, ty);
        }
        Val::void()
    }

    /// `GetDimensions` of textures and texel buffers.
    fn texture_dims(&mut self, obj: Val, kind: ResKind, args: Vec<Arg>, span: Span) -> Val {
        let Some(image) = self.value(&obj) else {
            return Val::error();
        };
        let (dims, array, ms, has_levels) = match kind {
            ResKind::Texture { dim, array, ms, rw } => (
                match dim {
                    TexDim::D1 => 1,
                    TexDim::D2 | TexDim::Cube => 2,
                    TexDim::D3 => 3,
                },
                array,
                ms,
                !rw && !ms,
            ),
            ResKind::TexelBuffer { .. } => (1, false, false, false),
            _ => return Val::error(),
        };
        let base = dims + array as usize + ms as usize;
        let with_mip = has_levels && args.len() == base + 2;
        if args.len() != base && !with_mip {
            return self.wrong_args("GetDimensions", span);
        }
        let (level, outs) = if with_mip {
            (self.arg_as(&args[0], types::UINT), &args[1..])
        } else if has_levels {
            (Some(self.u32_lit(0)), &args[..])
        } else {
            (None, &args[..])
        };
        let n = (dims + array as usize) as u8;
        let st = self.s.types.vector(Sc::U32, n);
        let sit = self.s.ir_ty(st);
        let size = self.add(
            ir::Expression::ImageQuery {
                image,
                query: ir::ImageQuery::Size { level },
            },
            sit,
        );
        for i in 0..n as usize {
            let c = if n == 1 {
                size
            } else {
                let u = self.s.ir_ty(types::UINT);
                self.add(
                    ir::Expression::AccessIndex {
                        base: size,
                        index: i as u32,
                    },
                    u,
                )
            };
            self.write_out(&outs[i], c, types::UINT);
        }
        let u = self.s.ir_ty(types::UINT);
        if ms {
            let s = self.add(
                ir::Expression::ImageQuery {
                    image,
                    query: ir::ImageQuery::NumSamples,
                },
                u,
            );
            self.write_out(&outs[n as usize], s, types::UINT);
        }
        if with_mip {
            let l = self.add(
                ir::Expression::ImageQuery {
                    image,
                    query: ir::ImageQuery::NumLevels,
                },
                u,
            );
            self.write_out(&outs[n as usize], l, types::UINT);
        }
        Val::void()
    }

    #[allow(clippy::too_many_arguments)]
    fn sample(
        &mut self,
        obj: Val,
        dim: TexDim,
        array: bool,
        elem: TyId,
        m: &str,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let Some(image) = self.value(&obj) else {
            return Val::error();
        };
        let (Some(sa), Some(ca)) = (args.first(), args.get(1)) else {
            return self.wrong_args(m, span);
        };
        if !matches!(self.s.types.get(sa.val.ty), Ty::Sampler { .. }) {
            return self.error(
                codes::TYPE_MISMATCH,
                format!("the first argument of `{m}` must be a sampler"),
                sa.span,
                "not a sampler",
            );
        }
        let Some(sampler) = self.value(&sa.val) else {
            return Val::error();
        };
        let n = coord_count(dim, array);
        let Some(coord) = self.float_coord(ca, n) else {
            return Val::error();
        };
        let on = offset_count(dim);
        let mut rest = &args[2..];
        let mut depth_ref = None;
        let level = match m {
            "Sample" | "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha" => {
                ir::SampleLevel::Auto
            }
            "SampleLevel" | "SampleBias" => {
                let Some(l) = rest.first() else {
                    return self.wrong_args(m, span);
                };
                let Some(lh) = self.arg_as(l, types::FLOAT) else {
                    return Val::error();
                };
                rest = &rest[1..];
                if m == "SampleLevel" {
                    ir::SampleLevel::Exact(lh)
                } else {
                    ir::SampleLevel::Bias(lh)
                }
            }
            "SampleGrad" => {
                let (Some(x), Some(y)) = (rest.first(), rest.get(1)) else {
                    return self.wrong_args(m, span);
                };
                let gn = match dim {
                    TexDim::D1 => 1,
                    TexDim::D2 => 2,
                    _ => 3,
                };
                let (Some(xh), Some(yh)) = (self.float_coord(x, gn), self.float_coord(y, gn))
                else {
                    return Val::error();
                };
                rest = &rest[2..];
                ir::SampleLevel::Gradient { x: xh, y: yh }
            }
            "SampleCmp" | "SampleCmpLevelZero" | "SampleCmpLevel" => {
                let Some(r) = rest.first() else {
                    return self.wrong_args(m, span);
                };
                depth_ref = self.arg_as(r, types::FLOAT);
                rest = &rest[1..];
                match m {
                    "SampleCmp" => ir::SampleLevel::Auto,
                    "SampleCmpLevelZero" => ir::SampleLevel::Zero,
                    _ => {
                        let Some(l) = rest.first() else {
                            return self.wrong_args(m, span);
                        };
                        let Some(lh) = self.arg_as(l, types::FLOAT) else {
                            return Val::error();
                        };
                        rest = &rest[1..];
                        ir::SampleLevel::Exact(lh)
                    }
                }
            }
            _ => return self.wrong_args(m, span),
        };
        let offset = match rest.first() {
            Some(o) if on > 0 => {
                let ot = self.s.types.vector(Sc::I32, on);
                let h = self.arg_as(o, ot);
                rest = &rest[1..];
                h
            }
            _ => None,
        };
        let clamp = match rest.first() {
            Some(c) if m.starts_with("Sample") && m != "SampleLevel" => {
                let h = self.arg_as(c, types::FLOAT);
                rest = &rest[1..];
                h
            }
            _ => None,
        };
        if !rest.is_empty() {
            return self.unsupported(format_args!("`{m}` with a status argument"), span);
        }
        if matches!(level, ir::SampleLevel::Auto | ir::SampleLevel::Bias(_))
            && m.starts_with("Sample")
        {
            self.s.uses_derivatives = true;
        }
        let gather = match m {
            "Gather" | "GatherRed" => Some(0),
            "GatherGreen" => Some(1),
            "GatherBlue" => Some(2),
            "GatherAlpha" => Some(3),
            _ => None,
        };
        let sc = self.s.types.component(elem).unwrap_or(Sc::F32);
        let (rty, result_ty) = if depth_ref.is_some() {
            let f = self.s.types.scalar(Sc::F32);
            (f, f)
        } else if gather.is_some() {
            let v4 = self.s.types.vector(sc, 4);
            (v4, v4)
        } else {
            (self.s.types.vector(sc, 4), elem)
        };
        let it = self.s.ir_ty(rty);
        let h = self.add(
            ir::Expression::ImageSample {
                image,
                sampler,
                coordinate: coord,
                offset,
                level,
                depth_ref,
                clamp,
                gather,
                sparse: false,
            },
            it,
        );
        if depth_ref.is_some() || gather.is_some() {
            return Val::expr(result_ty, h);
        }
        let r = self.from_texel(h, elem);
        let _ = Shape::Scalar;
        Val::expr(elem, r)
    }
}
