//! Inline SPIR-V on local variables: the decorations of
//! `vk::ext_decorate*` (on the local's `OpVariable`, which passes then
//! keep) and `[[vk::ext_storage_class(N)]]`, which puts the variable in
//! another storage class: a module-level variable, stored into where
//! the declaration stands.

use crate::diag::codes;
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::body::place::{Place, Val};
use crate::sema::body::{FnCtx, cx_env};
use crate::sema::decl::ext_storage::StorageSite;
use crate::sema::decl::find_attr;
use crate::sema::types;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The decorations of `attrs` (the statement's and the declaration's)
    /// on the local variable `lv` points to.
    pub(super) fn decorate_local(
        &mut self,
        lv: ir::Handle<ir::Expression>,
        attrs: [&'a [ast::Attribute]; 2],
    ) {
        let mut all = Vec::new();
        for a in attrs {
            all.extend(self.s.spirv_decorations(a, &cx_env!(self)));
        }
        if let ir::Expression::LocalVariable(l) = self.fb.body.function.expressions[lv] {
            self.fb.body.function.local_variables[l]
                .spirv_decorations
                .extend(all);
        }
    }

    /// The storage class `[[vk::ext_storage_class]]` gives a local, when
    /// it is not `Function` (an error reported gives `None` too).
    pub(super) fn local_storage_class(
        &mut self,
        vd: &'a ast::VarDecl,
        stmt_attrs: &'a [ast::Attribute],
    ) -> Option<ir::AddressSpace> {
        let attrs = [stmt_attrs, &vd.attrs[..]]
            .into_iter()
            .find(|a| find_attr(a, Attr::VkExtStorageClass).is_some())?;
        let space = self
            .s
            .ext_storage_space(attrs, &cx_env!(self), StorageSite::Local)
            .ok()??;
        (space != ir::AddressSpace::Function).then_some(space)
    }

    /// A local in storage class `space`: a module-level variable, its
    /// initializer stored where the declaration stands, its decorations
    /// on that variable.
    pub(super) fn ext_storage_local(
        &mut self,
        d: &'a ast::Declarator,
        ty0: types::TyId,
        space: ir::AddressSpace,
        precise: bool,
        attrs: [&'a [ast::Attribute]; 2],
    ) {
        let (ty, init) = match &d.init {
            Some(init) => {
                let (t, v) = self.lower_initializer(ty0, init);
                (t, Some((v, init.span())))
            }
            None => (ty0, None),
        };
        let irt = self.s.ir_ty(ty);
        let gv = ir::build::add_global(&mut self.s.module, d.name.name.as_str(), space, irt);
        self.s.module.globals[gv].precise = precise;
        self.s.module.decl_spans.set_global(gv, d.name.span);
        for a in attrs {
            let ds = self.s.spirv_decorations(a, &cx_env!(self));
            self.s
                .module
                .spirv_decorations
                .extend(ds.into_iter().map(|d| (gv, d)));
        }
        let pty = self.ptr_type(irt, space);
        let ptr = self.add(ir::Expression::GlobalVariable(gv), pty);
        if let Some((v, span)) = init {
            let writable = !matches!(
                space,
                ir::AddressSpace::Handle
                    | ir::AddressSpace::Input
                    | ir::AddressSpace::Ray(ir::RayStorage::ShaderRecord)
            );
            if !writable {
                self.s.error(
                    codes::BAD_ATTRIBUTE,
                    "a variable in this storage class cannot be written: it takes no initializer",
                    span,
                    "an initializer",
                );
            } else if let Some(h) = self.value(&v) {
                let h = self.stored_value(h, ty, irt);
                self.stmt(ir::Statement::Store {
                    pointer: ptr,
                    value: h,
                });
            }
        }
        let val = Val::place(
            ty,
            Place::Ptr {
                ptr,
                mem: irt,
                space,
            },
            None,
        );
        self.declare_local(d.name.name, val, None, d.name.span);
    }
}
