//! Structured buffers: the element place, and their methods (`Load`,
//! `GetDimensions`, `IncrementCounter`/`DecrementCounter`, `Append`,
//! `Consume`).

use crate::front::ast;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::{self, ResKind, TyId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// A pointer to the runtime array of a storage buffer's block (its
    /// member 0, of IR type `arr`), from a pointer to the block.
    pub(super) fn block_array(
        &mut self,
        ptr: ir::Handle<ir::Expression>,
        arr: ir::Handle<ir::Type>,
        space: ir::AddressSpace,
    ) -> ir::Handle<ir::Expression> {
        let apty = self.ptr_type(arr, space);
        self.add(
            ir::Expression::AccessIndex {
                base: ptr,
                index: 0,
            },
            apty,
        )
    }

    /// The length of the runtime array of the block that `ptr` points to.
    pub(super) fn runtime_array_length(
        &mut self,
        ptr: ir::Handle<ir::Expression>,
    ) -> ir::Handle<ir::Expression> {
        let u = self.s.ir_ty(types::UINT);
        self.add(
            ir::Expression::ArrayLength {
                pointer: ptr,
                member: 0,
            },
            u,
        )
    }

    /// `old - 1` for a counter's value `old` (an `int`): what a decrement
    /// leaves, since the atomic gives the value before it.
    fn decremented(&mut self, old: ir::Handle<ir::Expression>) -> ir::Handle<ir::Expression> {
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
    }

    /// The element pointer of a structured buffer: `buf[i]`.
    pub(in crate::sema) fn structured_elem(
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
        let a = self.block_array(ptr, arr, space);
        let epty = self.ptr_type(elem_mem, space);
        let p = self.add(ir::Expression::Access { base: a, index }, epty);
        Some(Place::Ptr {
            ptr: p,
            mem: elem_mem,
            space,
        })
    }

    pub(in crate::sema) fn structured_method(
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
                let len = self.runtime_array_length(ptr);
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
                let r = if add { old } else { self.decremented(old) };
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
                let newv = self.decremented(old);
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
