//! `vk::BufferPointer<T, A>` as a type: its template arguments, what it may
//! point to, and its IR type, a `PhysicalStorage` pointer to `T` laid out
//! as in a storage buffer (the HLSL proposal 0010 "Buffer Pointers in HLSL
//! With vk::BufferPointer": the pointee is a buffer; the pointer itself is
//! 8 bytes, aligned like a `uint64_t`). A struct that holds pointers to its
//! own kind (a linked list) is laid out with placeholder pointer types that
//! become pointers to it once it is done; the backend declares those with
//! `OpTypeForwardPointer`.

use super::layout::{Layouts, Rule};
use super::resolve::Env;
use super::{Ty, TyId, Types};
use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::Sema;
use crate::span::Span;

/// The largest alignment a pointer may promise (SPIR-V's `Aligned` is a
/// 32-bit literal; Vulkan limits nothing here, so keep it sane).
const MAX_ALIGNMENT: i64 = 1 << 16;

/// Whether values of `ty` live in memory: numbers, device pointers, and
/// arrays and structs of them (no resources, samplers or other objects).
pub fn is_device_data(types: &Types, ty: TyId) -> bool {
    match types.get(ty) {
        Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..) | Ty::Enum(_) | Ty::BufferPointer(..) => {
            true
        }
        Ty::Array(e, Some(_)) => is_device_data(types, *e),
        // A `vk::SpirvType` has its size and alignment; an opaque one none.
        Ty::Spirv(t) => t.layout.is_some(),
        Ty::Struct(sid) => types
            .member_types(*sid)
            .iter()
            .all(|&m| is_device_data(types, m)),
        _ => false,
    }
}

impl Layouts {
    /// Layouts whose device pointers point to data laid out by `device`.
    pub fn new(device: Rule, row_major: bool) -> Layouts {
        let mut l = Layouts::default();
        l.device = (device, row_major);
        l
    }

    /// The IR type of the `vk::BufferPointer` type `ty`.
    pub fn pointer(
        &mut self,
        types: &mut Types,
        module: &mut ir::Module,
        ty: TyId,
    ) -> ir::Handle<ir::Type> {
        if let Some(&h) = self.pointers.get(&ty) {
            return h;
        }
        let Ty::BufferPointer(pointee, align) = *types.get(ty) else {
            return module.scalar_type(ir::Scalar::U64);
        };
        let (rule, row_major) = self.device;
        let key = (pointee, rule, row_major);
        if self.in_progress.contains_key(&key) {
            // `pointee` is being laid out: a placeholder now, the pointer
            // once it is done.
            let align = match align {
                0 => self.unfinished_alignment(types, module, pointee),
                a => a,
            };
            let h = module.types.insert(ir::Type {
                name: Some(format!("forward pointer {}", module.types.len())),
                inner: ir::TypeInner::Scalar(ir::Scalar::U64),
            });
            if let Some(list) = self.in_progress.get_mut(&key) {
                list.push((h, align));
            }
            self.pointers.insert(ty, h);
            return h;
        }
        let laid = self.layout(types, module, pointee, rule, row_major);
        // Laying out the pointee may have made this pointer type already.
        if let Some(&h) = self.pointers.get(&ty) {
            return h;
        }
        let align = if align == 0 { laid.align } else { align };
        let h = module.ty(ir::TypeInner::Pointer {
            base: laid.ty,
            space: ir::AddressSpace::PhysicalStorage { align },
        });
        self.pointers.insert(ty, h);
        h
    }

    /// Turns the placeholders made while `done` was laid out into pointers
    /// to it.
    pub(super) fn finish_forward_pointers(
        &mut self,
        module: &mut ir::Module,
        done: ir::Handle<ir::Type>,
        placeholders: Vec<(ir::Handle<ir::Type>, u32)>,
    ) {
        for (h, align) in placeholders {
            module.types.replace(
                h,
                ir::Type {
                    name: None,
                    inner: ir::TypeInner::Pointer {
                        base: done,
                        space: ir::AddressSpace::PhysicalStorage { align },
                    },
                },
            );
        }
    }

    /// The alignment of `ty` under the device rule while it is being laid
    /// out: the largest of its parts' (a pointer's is 8).
    fn unfinished_alignment(
        &mut self,
        types: &mut Types,
        module: &mut ir::Module,
        ty: TyId,
    ) -> u32 {
        let (rule, row_major) = self.device;
        match types.get(ty).clone() {
            Ty::BufferPointer(..) => 8,
            Ty::Array(e, _) => self.unfinished_alignment(types, module, e),
            Ty::Struct(sid) if self.in_progress.contains_key(&(ty, rule, row_major)) => types
                .member_types(sid)
                .into_iter()
                .map(|m| self.unfinished_alignment(types, module, m))
                .max()
                .unwrap_or(1),
            _ => self.layout(types, module, ty, rule, row_major).align,
        }
    }
}

impl<'a> Sema<'a> {
    /// `vk::BufferPointer<T[, A]>`, if `path` names it.
    pub(in crate::sema) fn buffer_pointer_type(
        &mut self,
        path: &'a ast::Path,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TyId> {
        let [vk, name] = path.segments.as_slice() else {
            return None;
        };
        if path.global
            || path.qualifier.is_some()
            || vk.name.as_str() != "vk"
            || name.name.as_str() != "BufferPointer"
        {
            return None;
        }
        let (pointee, align) = match args {
            Some([t]) => (t, None),
            Some([t, a]) => (t, Some(a)),
            _ => {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    "`vk::BufferPointer` takes a type and an optional alignment",
                    span,
                    "expected `vk::BufferPointer<T>` or `vk::BufferPointer<T, A>`",
                );
                return Some(super::ERROR);
            }
        };
        let ty = self.template_type_arg(pointee, env);
        let align = match align {
            Some(a) => {
                let v = self.template_int_arg(Some(a), env, span, 0)?;
                if v <= 0 || !(v as u64).is_power_of_two() || v > MAX_ALIGNMENT {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!(
                            "the alignment of a `vk::BufferPointer` must be a power of two, not {v}"
                        ),
                        span,
                        "not a power of two",
                    );
                    return Some(super::ERROR);
                }
                v as u32
            }
            None => 0,
        };
        if ty == super::ERROR {
            return Some(super::ERROR);
        }
        if !is_device_data(&self.types, ty) {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!(
                    "`vk::BufferPointer` cannot point to a `{}`",
                    self.ty_name(ty)
                ),
                span,
                "only numbers, vectors, matrices, buffer pointers, and arrays and structs of them live in buffer memory",
            );
            return Some(super::ERROR);
        }
        Some(self.types.intern(Ty::BufferPointer(ty, align)))
    }
}
