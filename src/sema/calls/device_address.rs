//! `vk::RawBufferLoad<T>(address[, alignment])` and
//! `vk::RawBufferStore<T>(address, value[, alignment])` (SPIR-V.rst,
//! "RawBufferLoad and RawBufferStore"): a value of type `T` (default
//! `uint`) read or written at a 64-bit device address, through a
//! `PhysicalStorageBuffer` pointer to `T` laid out as in a storage buffer,
//! with the given alignment (default 4) on the access.

use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::layout::{BufferKind, Rule};
use crate::sema::types::{self, Sc, TyId};
use crate::span::Span;

/// The alignment when none is given.
const DEFAULT_ALIGNMENT: u32 = 4;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The device address calls of the `vk` namespace; `None` when
    /// `callee` names none of them.
    pub(in crate::sema) fn vk_address_call(
        &mut self,
        callee: &'a ast::Path,
        targs: Option<&'a [ast::TemplateArg]>,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Option<Val> {
        let [ns, name] = callee.segments.as_slice() else {
            return None;
        };
        if callee.global || callee.qualifier.is_some() || ns.name.as_str() != "vk" {
            return None;
        }
        let store = match name.name.as_str() {
            "RawBufferLoad" => false,
            "RawBufferStore" => true,
            cast @ ("static_pointer_cast" | "reinterpret_pointer_cast") => {
                let a = self.lower_args(args);
                return Some(self.pointer_cast(cast, targs, a, span));
            }
            _ => return None,
        };
        let ty = match targs {
            Some([t]) => {
                let env = crate::sema::body::cx_env!(self);
                self.s.template_type_arg(t, &env)
            }
            Some(_) => {
                let _ = self.lower_args(args);
                return Some(self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("`vk::{}` takes one template argument", name.name),
                    callee.span,
                    "one type expected",
                ));
            }
            None => types::UINT,
        };
        let a = self.lower_args(args);
        Some(self.raw_buffer_access(name.name.as_str(), store, ty, a, span))
    }

    fn raw_buffer_access(
        &mut self,
        name: &str,
        store: bool,
        ty: TyId,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if ty == types::ERROR || args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let wanted = if store { 2..=3 } else { 1..=2 };
        if !wanted.contains(&args.len()) {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!(
                    "`vk::{name}` takes {} arguments, not {}",
                    if store { "2 or 3" } else { "1 or 2" },
                    args.len()
                ),
                span,
                "wrong number of arguments",
            );
        }
        if !crate::sema::types::pointer::is_device_data(&self.s.types, ty) {
            let shown = self.s.ty_name(ty);
            return self.error(
                codes::TYPE_MISMATCH,
                format!("`vk::{name}` cannot access a value of type `{shown}`"),
                span,
                "only numbers, vectors, matrices, arrays and structs of them have a memory layout",
            );
        }
        let align_at = if store { 2 } else { 1 };
        let align = match args.get(align_at) {
            Some(a) => match self.alignment_argument(a) {
                Some(al) => al,
                None => return Val::error(),
            },
            None => DEFAULT_ALIGNMENT,
        };
        let u64_ty = self.s.types.scalar(Sc::U64);
        let address = self.convert(args[0].val.clone(), u64_ty, args[0].span);
        let Some(address) = self.value(&address) else {
            return Val::error();
        };
        let pointer = self.device_pointer(address, ty, align);
        let (ptr, mem) = pointer;
        if store {
            let v = self.convert(args[1].val.clone(), ty, args[1].span);
            let Some(v) = self.value(&v) else {
                return Val::error();
            };
            let value = self.stored_value(v, ty, mem);
            self.stmt(ir::Statement::Store {
                pointer: ptr,
                value,
            });
            Val::void()
        } else {
            let loaded = self.add(ir::Expression::Load { pointer: ptr }, mem);
            let v = self.loaded_value(loaded, ty);
            Val::expr(ty, v)
        }
    }

    /// A pointer to `ty` (laid out as in a storage buffer) at `address`
    /// (a `uint64_t`), aligned to `align`: the pointer and the laid-out
    /// type.
    pub(in crate::sema) fn device_pointer(
        &mut self,
        address: ir::Handle<ir::Expression>,
        ty: TyId,
        align: u32,
    ) -> (ir::Handle<ir::Expression>, ir::Handle<ir::Type>) {
        let rule = Rule::for_buffer(self.s.opts.layout, BufferKind::Storage);
        let row_major = self.s.decls.default_row_major();
        let mem = self
            .s
            .layouts
            .layout(&mut self.s.types, &mut self.s.module, ty, rule, row_major)
            .ty;
        let pty = self.ptr_type(mem, ir::AddressSpace::PhysicalStorage { align });
        (
            self.add(ir::Expression::AddressCast { value: address }, pty),
            mem,
        )
    }

    /// The alignment argument: a constant power of two.
    fn alignment_argument(&mut self, a: &Arg) -> Option<u32> {
        let k = match &a.val.kind {
            ValKind::Const(k) => Some(k.as_i64()),
            _ => None,
        };
        match k {
            Some(v) if v > 0 && (v as u64).is_power_of_two() && v <= 1 << 16 => Some(v as u32),
            Some(v) if v > 0 => {
                self.s.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!("alignment {v} is not a power of two"),
                    a.span,
                    "must be a power of two",
                );
                None
            }
            _ => {
                self.s.error(
                    codes::NOT_CONSTANT,
                    "the alignment argument must be a constant unsigned integer",
                    a.span,
                    "must be a positive integer constant",
                );
                None
            }
        }
    }
}
