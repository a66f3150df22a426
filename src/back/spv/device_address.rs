//! Device addresses (SPV_KHR_physical_storage_buffer): pointers in the
//! `PhysicalStorageBuffer` storage class that `vk::RawBufferLoad`/`Store`
//! and `vk::BufferPointer` lower to, their conversions from and to
//! `uint64_t`, the forward declaration of pointers to structs that contain
//! them, and the `Aligned` operand every access through them needs
//! (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708).

use super::function::{FunctionWriter, PointerValue, Value};
use super::writer::Writer;
use super::{BackResult, internal};
use crate::back::spv::inst;
use crate::ir::{self, Expression, Handle, TypeInner};
use rspirv::dr::Operand;
use smallvec::SmallVec;
use spirv::{Capability, Decoration, Op, StorageClass, Word};

/// The alignment a `PhysicalStorage` pointer type promises, if it is one.
pub(super) fn device_alignment(inner: &TypeInner) -> Option<u32> {
    match *inner {
        TypeInner::Pointer {
            space: ir::AddressSpace::PhysicalStorage { align },
            ..
        } => Some(align),
        _ => None,
    }
}

/// The largest power of two dividing `bytes` (`u32::MAX` for 0: an offset
/// of zero keeps any alignment).
fn low_bit(bytes: u32) -> u32 {
    if bytes == 0 {
        u32::MAX
    } else {
        1 << bytes.trailing_zeros()
    }
}

impl Writer<'_> {
    /// The capability and extension of device addresses (the extension is
    /// core from SPIR-V 1.5).
    pub fn device_address_capability(&mut self) {
        self.capability(Capability::PhysicalStorageBufferAddresses);
    }

    /// A `PhysicalStorageBuffer` pointer type `h` to `base`, which comes
    /// after it in the IR's types (a struct that holds pointers to its own
    /// kind, as in a linked list): declared with `OpTypeForwardPointer`
    /// first, so that the struct can name it, then defined.
    pub fn forward_pointer_type(
        &mut self,
        h: Handle<ir::Type>,
        base: Handle<ir::Type>,
    ) -> BackResult<Word> {
        let id = self.id();
        let class = StorageClass::PhysicalStorageBuffer;
        self.globals.push(inst(
            Op::TypeForwardPointer,
            None,
            None,
            vec![Operand::IdRef(id), Operand::StorageClass(class)],
        ));
        self.types.set_ir(h, id);
        let pointee = self.type_id(base)?;
        self.globals.push(inst(
            Op::TypePointer,
            None,
            Some(id),
            vec![Operand::StorageClass(class), Operand::IdRef(pointee)],
        ));
        self.types.set_pointer(pointee, class, id);
        Ok(id)
    }
}

impl Writer<'_> {
    /// Whether values of `ty` are device pointers, or arrays of them.
    fn holds_device_pointer(&self, ty: Handle<ir::Type>) -> BackResult<bool> {
        Ok(match &self.ir_type(ty)?.inner {
            TypeInner::Array { base, .. } => self.holds_device_pointer(*base)?,
            inner => device_alignment(inner).is_some(),
        })
    }

    /// Whether `ty` has device pointers in it anywhere (they have no
    /// `OpConstantNull`).
    pub fn contains_device_pointer(&self, ty: Handle<ir::Type>) -> BackResult<bool> {
        Ok(match &self.ir_type(ty)?.inner {
            TypeInner::Array { base, .. } => self.contains_device_pointer(*base)?,
            TypeInner::Struct { members, .. } => {
                for m in members {
                    if self.contains_device_pointer(m.ty)? {
                        return Ok(true);
                    }
                }
                false
            }
            inner => device_alignment(inner).is_some(),
        })
    }

    /// A variable `id` of type `ty` that holds device pointers must say
    /// whether what they point to may alias (SPV_KHR_physical_storage_buffer:
    /// exactly one of `AliasedPointer` or `RestrictPointer`); buffer
    /// pointers are restrict unless declared `[[vk::aliased_pointer]]`.
    pub fn decorate_pointer_variable(
        &mut self,
        id: Word,
        ty: Handle<ir::Type>,
        aliased: bool,
    ) -> BackResult<()> {
        if self.holds_device_pointer(ty)? {
            let d = if aliased {
                Decoration::AliasedPointer
            } else {
                Decoration::RestrictPointer
            };
            self.decorate(id, d, &[]);
        }
        Ok(())
    }

    /// A function parameter that is a device pointer needs `Aliased` or
    /// `Restrict`: `Aliased`, the safe promise, since the callee copies it
    /// into a variable that carries what the source declared.
    pub fn decorate_pointer_parameter(&mut self, id: Word, ty: Handle<ir::Type>) -> BackResult<()> {
        if self.holds_device_pointer(ty)? {
            self.decorate(id, Decoration::Aliased, &[]);
        }
        Ok(())
    }
}

impl FunctionWriter<'_, '_> {
    /// What a value of type `ty` with id `id` is to the expressions that
    /// use it: a device pointer is the root of access chains. (Inline:
    /// every expression's value goes through here.)
    #[inline]
    pub fn device_pointer_value(&mut self, id: Word, ty: Handle<ir::Type>) -> BackResult<Value> {
        let inner = &self.w.ir_type(ty)?.inner;
        Ok(match (inner, device_alignment(inner)) {
            (&TypeInner::Pointer { base, .. }, Some(align)) => self.device_pointer(id, base, align),
            _ => Value::Id(id),
        })
    }

    /// The value of device pointer `id` to `pointee`.
    #[inline(never)]
    fn device_pointer(&mut self, id: Word, pointee: Handle<ir::Type>, align: u32) -> Value {
        self.new_pointer(PointerValue {
            root: id,
            indices: SmallVec::new(),
            const_indices: SmallVec::new(),
            class: StorageClass::PhysicalStorageBuffer,
            pointee,
            global: None,
            non_uniform: false,
            align: Some(align),
        })
    }

    /// The alignment left after stepping from a value of type `parent`
    /// to its part `index` (`None`: a dynamic index): the largest power of
    /// two that divides every offset the step can add.
    pub fn step_alignment(&self, parent: Handle<ir::Type>, index: Option<u32>) -> BackResult<u32> {
        let offset = |unit: u32| match index {
            Some(i) => low_bit(unit.wrapping_mul(i)),
            None => low_bit(unit),
        };
        Ok(match &self.w.ir_type(parent)?.inner {
            TypeInner::Struct { members, .. } => {
                let m = index.and_then(|i| members.get(i as usize));
                low_bit(m.and_then(|m| m.offset).unwrap_or(1))
            }
            TypeInner::Array {
                stride: Some(stride),
                ..
            } => offset(*stride),
            TypeInner::Vector { scalar, .. } | TypeInner::Scalar(scalar) => {
                offset(u32::from(scalar.width))
            }
            // A matrix's rows or columns are at multiples of its scalar.
            TypeInner::Matrix { scalar, .. } => low_bit(u32::from(scalar.width)),
            _ => 1,
        })
    }

    /// The memory operands of a load or store through a pointer whose
    /// [`PointerValue::align`] is `align`: `Aligned` for device pointers.
    pub fn memory_operands(align: Option<u32>) -> impl Iterator<Item = Word> {
        let aligned = spirv::MemoryAccess::ALIGNED.bits();
        align.into_iter().flat_map(move |a| [aligned, a])
    }

    /// `AddressCast`: OpConvertUToPtr, OpConvertPtrToU or OpBitcast (or
    /// the value itself when both pointer types are one SPIR-V type).
    pub fn write_address_cast(
        &mut self,
        h: Handle<Expression>,
        value: Handle<Expression>,
    ) -> BackResult<Word> {
        let from = self.expr_inner(value)?;
        let to = self.expr_inner(h)?;
        let v = self.value(value)?;
        let t = self.w.type_id(self.expr_type(h)?)?;
        let op = match (device_alignment(from), device_alignment(to)) {
            (None, Some(_)) => Op::ConvertUToPtr,
            (Some(_), None) => Op::ConvertPtrToU,
            (Some(_), Some(_)) => {
                if self.w.type_id(self.expr_type(value)?)? == t {
                    return Ok(v);
                }
                Op::Bitcast
            }
            (None, None) => {
                return Err(internal(format!(
                    "address cast {h:?} between types that are not device pointers"
                )));
            }
        };
        self.emit_value(op, t, [Operand::IdRef(v)])
    }
}
