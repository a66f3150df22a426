//! Resources as paths known at compile time: a global and constant
//! indices (`bufs[2]`), resolved through locals, parameters and returns;
//! indexing into arrays of resources and the descriptor heaps; the pointer
//! to the resource a path names.

use super::coord_count;
use crate::diag::codes;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::types::{self, ResKind, Sc, TyId};
use crate::sema::{ReadOnly, ResPathId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The resource a value names, as a global and constant indices.
    pub fn res_path(&self, v: &Val) -> Option<crate::sema::ResPath> {
        let ValKind::Place(Place::Ptr { ptr, .. }) = &v.kind else {
            return None;
        };
        let mut indices = Vec::new();
        let mut cur = *ptr;
        loop {
            match self.fb.body.function.expressions[cur] {
                ir::Expression::GlobalVariable(gv) => {
                    indices.reverse();
                    return Some(crate::sema::ResPath { gv, indices });
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
            // A loop counter of an `[unroll]` loop.
            E::Load { pointer } => {
                self.fb.unroll_depth > 0
                    && matches!(self.fb.body.function.expressions[*pointer], E::LocalVariable(_))
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
                let name = if sampler {
                    "SamplerDescriptorHeap"
                } else {
                    "ResourceDescriptorHeap"
                };
                let g = ir::build::add_global(&mut self.s.module, name, space, arr);
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
            ResKind::Texture {
                dim, array, ms, rw, ..
            } => {
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
                let h = self.texel_element(v4, elem_ty);
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
                let h = self.texel_element(v4, elem_ty);
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
}
