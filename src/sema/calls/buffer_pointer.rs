//! Values of `vk::BufferPointer<T, A>` (HLSL proposal 0010): `.Get()`, the
//! `T` it points to as a place in `PhysicalStorageBuffer` memory; the
//! conversions from and to 64-bit integers (and to `bool`, "not null");
//! and `vk::static_pointer_cast` / `vk::reinterpret_pointer_cast`.

use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val};
use crate::sema::calls::Arg;
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The IR pointer type of the `vk::BufferPointer` type `ty`: the
    /// laid-out pointee and the alignment.
    fn pointer_parts(
        &mut self,
        ty: TyId,
    ) -> Option<(ir::Handle<ir::Type>, ir::Handle<ir::Type>, u32)> {
        let h = self.s.ir_ty(ty);
        match self.s.module.types[h].inner {
            ir::TypeInner::Pointer {
                base,
                space: ir::AddressSpace::PhysicalStorage { align },
            } => Some((h, base, align)),
            _ => None,
        }
    }

    /// `p.Get()`: what `p` points to, readable and writable.
    pub(super) fn buffer_pointer_method(
        &mut self,
        obj: Val,
        pointee: TyId,
        method: ast::Ident,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if method.name.as_str() != "Get" {
            return self.error(
                codes::NO_METHOD,
                format!(
                    "`{}` has no method `{}`",
                    self.s.ty_name(obj.ty),
                    method.name
                ),
                method.span,
                "its one method is `Get()`",
            );
        }
        if !args.is_empty() {
            return self.error(
                codes::WRONG_ARG_COUNT,
                "`Get` takes no arguments",
                span,
                "no arguments expected",
            );
        }
        let Some((_, mem, align)) = self.pointer_parts(obj.ty) else {
            return Val::error();
        };
        let Some(ptr) = self.value(&obj) else {
            return Val::error();
        };
        let place = Place::Ptr {
            ptr,
            mem,
            space: ir::AddressSpace::PhysicalStorage { align },
        };
        Val::place(pointee, place, None)
    }

    /// A conversion from or to a `vk::BufferPointer` type (`v` is not of
    /// type `to` already): between pointers to one type with one
    /// alignment; a pointer to its address (`uint64_t`/`int64_t`, cast
    /// explicitly) or to `bool` (not null); an address to a pointer
    /// (explicitly, or by construction).
    pub(in crate::sema) fn pointer_conversion(
        &mut self,
        v: Val,
        to: TyId,
        span: Span,
        explicit: bool,
    ) -> Val {
        let from = v.ty;
        let u64_ty = self.s.types.scalar(Sc::U64);
        match (self.s.types.get(from).clone(), self.s.types.get(to).clone()) {
            (Ty::BufferPointer(a, _), Ty::BufferPointer(b, _)) if a == b => {
                let (Some((_, _, fa)), Some((th, _, ta))) =
                    (self.pointer_parts(from), self.pointer_parts(to))
                else {
                    return Val::error();
                };
                if fa != ta {
                    return self.mismatch(from, to, span);
                }
                let Some(h) = self.value(&v) else {
                    return Val::error();
                };
                let c = self.add(ir::Expression::AddressCast { value: h }, th);
                Val::expr(to, c)
            }
            (Ty::BufferPointer(..), Ty::Scalar(s))
                if s == Sc::Bool || (explicit && matches!(s, Sc::U64 | Sc::I64)) =>
            {
                let Some(h) = self.value(&v) else {
                    return Val::error();
                };
                let uh = self.s.ir_ty(u64_ty);
                let address = self.add(ir::Expression::AddressCast { value: h }, uh);
                let address = Val::expr(u64_ty, address);
                if explicit {
                    self.cast(address, to, span)
                } else {
                    self.convert(address, to, span)
                }
            }
            (Ty::Scalar(s), Ty::BufferPointer(..)) if explicit && s.is_int() => {
                let address = self.cast(v, u64_ty, span);
                let Some(h) = self.value(&address) else {
                    return Val::error();
                };
                let Some((th, _, _)) = self.pointer_parts(to) else {
                    return Val::error();
                };
                let c = self.add(ir::Expression::AddressCast { value: h }, th);
                Val::expr(to, c)
            }
            _ => self.mismatch(from, to, span),
        }
    }

    /// `vk::static_pointer_cast<T, A>(p)` (`T` must be the type `p`
    /// points to or one of its bases) and `vk::reinterpret_pointer_cast<T,
    /// A>(p)` (any `T`); `A` may not exceed the alignment of `p`.
    pub(super) fn pointer_cast(
        &mut self,
        name: &str,
        targs: Option<&'a [ast::TemplateArg]>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let env = crate::sema::body::cx_env!(self);
        let (target, align) = match targs {
            Some([t]) => (self.s.template_type_arg(t, &env), 0),
            Some([t, a]) => {
                let ty = self.s.template_type_arg(t, &env);
                match self.s.template_int_arg(Some(a), &env, span, 0) {
                    Some(v) if v > 0 && (v as u64).is_power_of_two() && v <= 1 << 16 => {
                        (ty, v as u32)
                    }
                    Some(v) => {
                        return self.error(
                            codes::BAD_TEMPLATE_ARGS,
                            format!("the alignment of a `vk::BufferPointer` must be a power of two, not {v}"),
                            span,
                            "not a power of two",
                        );
                    }
                    None => return Val::error(),
                }
            }
            _ => {
                return self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("`vk::{name}` takes a type and an optional alignment"),
                    span,
                    "expected `<T>` or `<T, A>`",
                );
            }
        };
        if target == types::ERROR || args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let [arg] = args.as_slice() else {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!("`vk::{name}` takes one argument, not {}", args.len()),
                span,
                "wrong number of arguments",
            );
        };
        let Ty::BufferPointer(source, _) = *self.s.types.get(arg.val.ty) else {
            let shown = self.s.ty_name(arg.val.ty);
            return self.error(
                codes::TYPE_MISMATCH,
                format!("`vk::{name}` casts a `vk::BufferPointer`, not a `{shown}`"),
                arg.span,
                "not a buffer pointer",
            );
        };
        if !crate::sema::types::pointer::is_device_data(&self.s.types, target) {
            let shown = self.s.ty_name(target);
            return self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!("`vk::BufferPointer` cannot point to a `{shown}`"),
                span,
                "only data lives in buffer memory",
            );
        }
        if name == "static_pointer_cast" && !self.derives_from(source, target) {
            let (s, t) = (self.s.ty_name(source), self.s.ty_name(target));
            return self.error(
                codes::BAD_CAST,
                format!("`vk::static_pointer_cast` needs `{t}` to be `{s}` or one of its bases"),
                span,
                "use `vk::reinterpret_pointer_cast` for unrelated types",
            );
        }
        let to = self.s.types.intern(Ty::BufferPointer(target, align));
        let (Some((_, _, have)), Some((th, _, want))) =
            (self.pointer_parts(arg.val.ty), self.pointer_parts(to))
        else {
            return Val::error();
        };
        if want > have {
            return self.error(
                codes::BAD_CAST,
                format!("a buffer pointer aligned to {have} cannot be cast to the greater alignment {want}"),
                span,
                "greater alignment",
            );
        }
        let Some(h) = self.value(&arg.val) else {
            return Val::error();
        };
        let c = self.add(ir::Expression::AddressCast { value: h }, th);
        Val::expr(to, c)
    }

    /// Marks the local variable `lv` points to `[[vk::aliased_pointer]]`.
    pub(in crate::sema) fn mark_aliased(&mut self, lv: ir::Handle<ir::Expression>) {
        if let ir::Expression::LocalVariable(l) = self.fb.body.function.expressions[lv] {
            self.fb.body.function.local_variables[l].aliased = true;
        }
    }

    /// Whether `ty` is `base` or derives from it.
    fn derives_from(&self, ty: TyId, base: TyId) -> bool {
        let mut cur = ty;
        loop {
            if cur == base {
                return true;
            }
            let next = self
                .s
                .types
                .as_struct(cur)
                .and_then(|sid| self.s.types.struct_info(sid).base);
            match next {
                Some(b) => cur = b,
                None => return false,
            }
        }
    }
}
