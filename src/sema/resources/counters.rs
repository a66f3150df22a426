//! The counters of RW/Append/Consume structured buffers: made on first
//! use (DXC's `counter.var.NAME`), in a runtime array for buffers from the
//! heap, and the atomic operations on them.

use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::types::{self, ResKind};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The counter global of the buffer behind `v` (created on first use
    /// for RW structured buffers).
    pub(in crate::sema) fn counter_of(
        &mut self,
        v: &Val,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
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
            _ => return self.array_counter_of(*ptr, span),
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

    /// The counter of an element of an array of buffers: the same element
    /// of the array of counters (DXC's `counter.var.NAME`, an array of the
    /// same shape with a binding of its own).
    fn array_counter_of(
        &mut self,
        ptr: ir::Handle<ir::Expression>,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        // The indices from the array global down to the element.
        let mut steps = Vec::new();
        let mut cur = ptr;
        let gv = loop {
            match self.fb.body.function.expressions[cur] {
                ir::Expression::Access { base, index } => {
                    steps.push(Err(index));
                    cur = base;
                }
                ir::Expression::AccessIndex { base, index } => {
                    steps.push(Ok(index));
                    cur = base;
                }
                ir::Expression::GlobalVariable(gv) => break gv,
                _ => {
                    self.s
                        .unsupported("counters of buffers passed as parameters", span);
                    return None;
                }
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
        let sb = ir::AddressSpace::Storage { writable: true };
        let mut ty = self.s.module.globals[c].ty;
        let pty = self.ptr_type(ty, sb);
        let mut at = self.add(ir::Expression::GlobalVariable(c), pty);
        for step in steps.into_iter().rev() {
            let ir::TypeInner::Array { base, .. } = self.s.module.types[ty].inner else {
                self.s
                    .unsupported("counters of this buffer expression", span);
                return None;
            };
            ty = base;
            let pty = self.ptr_type(ty, sb);
            at = match step {
                Ok(index) => self.add(ir::Expression::AccessIndex { base: at, index }, pty),
                Err(index) => self.add(ir::Expression::Access { base: at, index }, pty),
            };
        }
        Some(at)
    }

    /// Whether `object.method()` uses the counter of an element of an
    /// array of buffers that is a struct member (`s.bufs[0].Append(x)`,
    /// or `bufs[0]` naming a member in a method): DXC cannot reach those
    /// counters and rejects it, so this reports the error and says so.
    pub(in crate::sema) fn counter_of_struct_array(
        &mut self,
        object: &ast::Expr,
        kind: ResKind,
        method: &str,
        span: Span,
    ) -> bool {
        let uses_counter = match kind {
            ResKind::RWStructuredBuffer => {
                matches!(method, "IncrementCounter" | "DecrementCounter")
            }
            ResKind::AppendStructuredBuffer => method == "Append",
            ResKind::ConsumeStructuredBuffer => method == "Consume",
            _ => false,
        };
        let ast::ExprKind::Index(array, _) = &object.kind else {
            return false;
        };
        let member = match &array.kind {
            // A member of an array type is always a struct's field.
            ast::ExprKind::Member(..) => true,
            ast::ExprKind::Name(p) if p.is_single() => {
                let name = p.last().name;
                self.fb.locals.lookup(name).is_none()
                    && self.fb.this.is_some()
                    && self
                        .fb
                        .this_struct
                        .is_some_and(|t| self.s.has_field(t, name))
            }
            _ => false,
        };
        if !uses_counter || !member {
            return false;
        }
        self.s.error(
            codes::RESOURCE_MISUSE,
            format!(
                "the counter of an element of an array of `{}` that is a struct member cannot be accessed",
                kind.name()
            ),
            span,
            "uses the counter of an array of buffers in a struct",
        );
        true
    }

    /// The runtime array of counters for heap resources.
    pub(in crate::sema) fn counter_heap(&mut self) -> ir::Handle<ir::GlobalVariable> {
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
    pub(in crate::sema) fn counter_op(
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

    pub(in crate::sema) fn as_uint(
        &mut self,
        h: ir::Handle<ir::Expression>,
    ) -> ir::Handle<ir::Expression> {
        let u = self.s.ir_ty(types::UINT);
        self.as_kind(h, ir::ScalarKind::Uint, None, u)
    }
}

impl crate::sema::Sema<'_> {
    /// Whether struct type `ty` (or one of its bases) has a field `name`.
    fn has_field(&self, ty: types::TyId, name: crate::intern::Symbol) -> bool {
        let Some(sid) = self.types.as_struct(ty) else {
            return false;
        };
        let info = self.types.struct_info(sid);
        info.fields.iter().any(|f| f.name == name)
            || info.base.is_some_and(|b| self.has_field(b, name))
    }
}
