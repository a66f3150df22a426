//! The IR types sema asks for at nearly every expression, remembered by
//! small keys: the module's type arena finds a type by hashing and
//! comparing a whole [`ir::Type`], which costs more than the rest of
//! lowering a literal or a variable's address.

use super::{TyId, Types};
use crate::ir;
use crate::sema::table::Id;
use rustc_hash::FxHashMap;

type TypeHandle = ir::Handle<ir::Type>;

/// Handles of the module's type arena, each the one the arena gives for
/// its key (so a hit returns what inserting again would).
pub struct IrTypes {
    /// The canonical IR type of each HLSL type, by [`TyId`], filled lazily.
    by_ty: Vec<Option<TypeHandle>>,
    /// Unnamed scalar types, by [`ir::Scalar::slot`].
    scalars: [Option<TypeHandle>; ir::Scalar::SLOTS],
    /// Unnamed pointer types, by pointee and address space.
    pointers: FxHashMap<(TypeHandle, ir::AddressSpace), TypeHandle>,
}

impl Default for IrTypes {
    fn default() -> Self {
        IrTypes {
            by_ty: Vec::new(),
            scalars: Default::default(),
            // Room for a small shader's pointer types (a dozen or so): the
            // map grew into them rehashing three times.
            pointers: FxHashMap::with_capacity_and_hasher(16, Default::default()),
        }
    }
}

impl IrTypes {
    #[inline]
    pub(super) fn get(&self, ty: TyId) -> Option<TypeHandle> {
        self.by_ty.get(ty.index()).copied().flatten()
    }

    pub(super) fn set(&mut self, ty: TyId, h: TypeHandle) {
        let i = ty.index();
        if self.by_ty.len() <= i {
            self.by_ty.resize(i + 1, None);
        }
        self.by_ty[i] = Some(h);
    }
}

impl Types {
    /// The unnamed IR scalar type `s` (`module.scalar_type(s)`).
    pub fn ir_scalar(&mut self, module: &mut ir::Module, s: ir::Scalar) -> TypeHandle {
        let Some(slot) = s.slot() else {
            return module.scalar_type(s);
        };
        *self.ir_cache.scalars[slot].get_or_insert_with(|| module.scalar_type(s))
    }

    /// The unnamed IR pointer type to `base` in `space`.
    pub fn ir_pointer(
        &mut self,
        module: &mut ir::Module,
        base: TypeHandle,
        space: ir::AddressSpace,
    ) -> TypeHandle {
        *self
            .ir_cache
            .pointers
            .entry((base, space))
            .or_insert_with(|| module.ty(ir::TypeInner::Pointer { base, space }))
    }

    /// Forgets the IR types from the `len`th of the module's arena on: the
    /// module was put back to a copy holding only those before.
    pub fn forget_ir_types_from(&mut self, len: usize) {
        let stale = |h: &TypeHandle| h.index() >= len;
        let c = &mut self.ir_cache;
        for slot in c.by_ty.iter_mut().chain(&mut c.scalars) {
            if slot.as_ref().is_some_and(stale) {
                *slot = None;
            }
        }
        c.pointers.retain(|(base, _), h| !stale(base) && !stale(h));
    }
}
