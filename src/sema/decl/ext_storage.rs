//! `[[vk::ext_storage_class(N)]]` (inline SPIR-V): the storage class a
//! global or local variable lives in, named by its SPIR-V number. Classes
//! hlslc has an address space for (`Private`, `Workgroup`,
//! `UniformConstant`, the ray tracing ones…) take it; the rest
//! (`CrossWorkgroup`, `Image`…) are [`ir::AddressSpace::Raw`]. A local in
//! any class but `Function` is a module-level variable, as SPIR-V wants.
//! On an `ext_reference` parameter of an `ext_instruction` function, the
//! class is the one the argument's variable must live in.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::decl::find_attr;
use crate::sema::decl::storage::Storage;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::ScopeId;
use crate::sema::{GlobalInfo, GlobalKind, Sema};
use spirv::StorageClass as SC;

/// Where a variable with `[[vk::ext_storage_class]]` is declared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum StorageSite {
    Global,
    Local,
    /// A `[[vk::ext_reference]]` parameter of an `ext_instruction` function.
    Reference,
}

/// The address space a storage class gives a variable, or why none can
/// be declared in it.
fn space_of(class: SC, site: StorageSite) -> Result<ir::AddressSpace, &'static str> {
    use ir::{AddressSpace as A, RayStorage as R};
    Ok(match class {
        SC::Function if site == StorageSite::Global => {
            return Err("a variable outside functions cannot be in `Function` storage");
        }
        SC::Function => A::Function,
        SC::Private => A::Private,
        SC::Workgroup => A::Workgroup,
        SC::UniformConstant => A::Handle,
        SC::Input => A::Input,
        SC::Output => A::Output,
        SC::RayPayloadKHR => A::Ray(R::Payload),
        SC::IncomingRayPayloadKHR => A::Ray(R::IncomingPayload),
        SC::HitAttributeKHR => A::Ray(R::HitAttribute),
        SC::CallableDataKHR => A::Ray(R::CallableData),
        SC::IncomingCallableDataKHR => A::Ray(R::IncomingCallableData),
        SC::TaskPayloadWorkgroupEXT => A::TaskPayload,
        SC::NodePayloadAMDX => A::NodePayload,
        SC::TileImageEXT
        | SC::TileAttachmentQCOM
        | SC::HitObjectAttributeNV
        | SC::HitObjectAttributeEXT => A::Raw(class),
        SC::Generic => return Err("no variable can be declared in `Generic` storage"),
        SC::PhysicalStorageBuffer => {
            return Err(
                "no variable lives in `PhysicalStorageBuffer` storage: use `vk::BufferPointer` or `vk::RawBufferLoad`",
            );
        }
        SC::Uniform | SC::StorageBuffer | SC::PushConstant | SC::ShaderRecordBufferKHR
            if site != StorageSite::Reference =>
        {
            return Err(
                "variables in this storage class are blocks: declare a `cbuffer`, a buffer or a `[[vk::push_constant]]` struct",
            );
        }
        SC::Uniform | SC::StorageBuffer => A::Storage { writable: true },
        SC::PushConstant => A::PushConstant,
        SC::ShaderRecordBufferKHR => A::Ray(R::ShaderRecord),
        // CrossWorkgroup, AtomicCounter, Image and the vendors' kernel
        // classes (VUID-StandaloneSpirv-None-04643).
        _ => return Err("Vulkan has no variables in this storage class (OpenCL kernels do)"),
    })
}

/// Whether a variable in `space` is in storage class `class`.
fn space_is(space: ir::AddressSpace, class: SC) -> bool {
    match (space, class) {
        (ir::AddressSpace::Storage { .. }, SC::Uniform | SC::StorageBuffer) => true,
        (ir::AddressSpace::Uniform, SC::Uniform) => true,
        (space, class) => space_of(class, StorageSite::Reference).is_ok_and(|s| s == space),
    }
}

impl<'a> Sema<'a> {
    /// The address space `[[vk::ext_storage_class(N)]]` in `attrs` asks
    /// for at `site`: `Ok(None)` without the attribute, `Err(())` after an
    /// error.
    pub(in crate::sema) fn ext_storage_space(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
        site: StorageSite,
    ) -> Result<Option<ir::AddressSpace>, ()> {
        let Some(a) = find_attr(attrs, Attr::VkExtStorageClass) else {
            return Ok(None);
        };
        let Some(n) = self.const_int(&a.args[0], env) else {
            return Err(());
        };
        let Some(class) = u32::try_from(n).ok().and_then(SC::from_u32) else {
            self.push(
                Diagnostic::error(codes::BAD_ATTRIBUTE, format!("{n} is not a SPIR-V storage class"))
                    .label(a.args[0].span, "no storage class has this number")
                    .note("the numbers are those of the SPIR-V specification's Storage Class table"),
            );
            return Err(());
        };
        match space_of(class, site) {
            Ok(space) => Ok(Some(space)),
            Err(why) => {
                self.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("a variable cannot be declared in storage class `{class:?}` here"),
                    )
                    .label(a.span, "this storage class")
                    .note(why),
                );
                Err(())
            }
        }
    }

    /// Whether an `ext_reference` argument in `space` may stand for a
    /// parameter declared with `attrs`: with `[[vk::ext_storage_class]]`,
    /// its variable must be in that class. Reports the mismatch.
    pub(in crate::sema) fn check_reference_class(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
        space: ir::AddressSpace,
        arg: crate::span::Span,
    ) -> bool {
        let Ok(Some(want)) = self.ext_storage_space(attrs, env, StorageSite::Reference) else {
            return find_attr(attrs, Attr::VkExtStorageClass).is_none();
        };
        if want == space || space_is(space, storage_class_of(want)) {
            return true;
        }
        self.push(
            Diagnostic::error(
                codes::TYPE_MISMATCH,
                format!(
                    "this argument is not a variable in storage class `{:?}`",
                    storage_class_of(want)
                ),
            )
            .label(arg, "a variable in another storage class")
            .note("the parameter's `vk::ext_storage_class` says where the instruction's pointer points"),
        );
        false
    }

    /// A global declared with `[[vk::ext_storage_class(N)]]` (checked to be
    /// one: `a`): a variable in that class, without an initializer; one in
    /// `Private` or `Workgroup` storage is a `static` or `groupshared` one;
    /// one in `UniformConstant` storage is bound like a resource.
    pub(in crate::sema) fn declare_ext_storage_global(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        st: &Storage,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let env = Env::at(scope);
        let space = match self.ext_storage_space(&vd.attrs, &env, StorageSite::Global) {
            Ok(Some(space)) => space,
            _ => {
                self.new_global(info, scope, d.name);
                return;
            }
        };
        match space {
            ir::AddressSpace::Private => return self.declare_static(d, st, scope, info),
            ir::AddressSpace::Workgroup => {
                let a = find_attr(&vd.attrs, Attr::VkExtStorageClass).map_or(d.span, |a| a.span);
                return self.declare_groupshared(d, a, st.precise, scope, info);
            }
            _ => {}
        }
        if let Some(init) = &d.init {
            self.error(
                codes::BAD_ATTRIBUTE,
                format!("a variable in storage class `{:?}` cannot have an initializer", storage_class_of(space)),
                init.span(),
                "only `Private` and `Function` variables start with a value",
            );
        }
        let (gv, irt) = self.add_variable(d.name.name, space, info.ty, st.precise);
        info.kind = GlobalKind::Var { gv, mem: irt };
        if space == ir::AddressSpace::Handle {
            let (vk_binding, _) = self.binding_attrs(&vd.attrs, &env);
            let register = self.register_annotation(&d.annotations, space);
            let rindex = self.res.decls.push(crate::sema::context::ResourceDecl {
                gv,
                name: d.name.name,
                vk_binding,
                register,
                counter_binding: None,
                input_attachment: None,
                class: crate::sema::options::RegisterClass::T,
                counter_of: None,
                in_struct: false,
                combined: None,
                span: d.name.span,
            });
            info.resource = Some(rindex);
        }
        self.new_global(info, scope, d.name);
    }
}

/// The storage class of an address space the shader named.
fn storage_class_of(space: ir::AddressSpace) -> SC {
    use ir::{AddressSpace as A, RayStorage as R};
    match space {
        A::Function => SC::Function,
        A::Private => SC::Private,
        A::Workgroup => SC::Workgroup,
        A::TaskPayload => SC::TaskPayloadWorkgroupEXT,
        A::Uniform => SC::Uniform,
        A::Storage { .. } => SC::StorageBuffer,
        A::PushConstant => SC::PushConstant,
        A::Input => SC::Input,
        A::Output => SC::Output,
        A::Handle => SC::UniformConstant,
        A::Ray(R::Payload) => SC::RayPayloadKHR,
        A::Ray(R::IncomingPayload) => SC::IncomingRayPayloadKHR,
        A::Ray(R::HitAttribute) => SC::HitAttributeKHR,
        A::Ray(R::CallableData) => SC::CallableDataKHR,
        A::Ray(R::IncomingCallableData) => SC::IncomingCallableDataKHR,
        A::Ray(R::ShaderRecord) => SC::ShaderRecordBufferKHR,
        A::NodePayload => SC::NodePayloadAMDX,
        A::PhysicalStorage { .. } => SC::PhysicalStorageBuffer,
        A::Raw(class) => class,
    }
}
