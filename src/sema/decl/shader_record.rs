//! Shader record buffers: a `ConstantBuffer<T>` or `cbuffer` marked
//! `[[vk::shader_record_ext]]` (or `[[vk::shader_record_nv]]`) is the
//! shader binding table record of a ray tracing shader, a block in
//! ShaderRecordBufferKHR storage laid out as a storage buffer, with no
//! descriptor (SPIR-V.rst, "Vulkan specific attributes").

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::decl::find_attr;
use crate::sema::types::layout::{BufferKind, Rule};
use crate::sema::types::scope::ScopeId;
use crate::sema::types::{ResKind, Ty, TyId};
use crate::sema::{GlobalInfo, GlobalKind, ReadOnly, Sema};
use crate::span::Span;

/// The attribute that marks a shader record buffer, if one does.
pub(in crate::sema) fn shader_record_attr(attrs: &[ast::Attribute]) -> Option<&ast::Attribute> {
    find_attr(attrs, Attr::VkShaderRecordExt).or_else(|| find_attr(attrs, Attr::VkShaderRecordNv))
}

impl<'a> Sema<'a> {
    /// The layout rule of shader record blocks: that of storage buffers.
    pub(in crate::sema) fn shader_record_rule(&self) -> Rule {
        Rule::for_buffer(self.opts.layout, BufferKind::Storage)
    }

    /// A shader record block has no descriptor: `vk::binding` beside it
    /// is an error.
    pub(in crate::sema) fn check_shader_record_binding(&mut self, attrs: &[ast::Attribute]) {
        if let Some(r) = shader_record_attr(attrs) {
            let which = if find_attr(attrs, Attr::VkShaderRecordExt).is_some() {
                "vk::shader_record_ext"
            } else {
                "vk::shader_record_nv"
            };
            self.refuse_binding(
                attrs,
                which,
                r.span,
                "for a shader record buffer, which has no descriptor",
            );
        }
    }

    /// `vk::binding` beside `attr` (at `at`), which makes a block without a
    /// descriptor (`why` says which), is an error.
    pub(in crate::sema) fn refuse_binding(
        &mut self,
        attrs: &[ast::Attribute],
        attr: &str,
        at: Span,
        why: &str,
    ) {
        if let Some(b) = find_attr(attrs, Attr::VkBinding) {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("`{attr}` cannot be used together with `vk::binding`"),
                )
                .label(b.span, "a binding")
                .label(at, why),
            );
        }
    }

    /// A block variable without a descriptor (push constants, a shader
    /// record): `elem` laid out by `rule` as block type `block_name`, in
    /// `space`, read-only as a cbuffer is.
    pub(in crate::sema) fn declare_block_var(
        &mut self,
        d: &'a ast::Declarator,
        scope: ScopeId,
        mut info: GlobalInfo,
        elem: TyId,
        block_name: String,
        rule: Rule,
        space: ir::AddressSpace,
    ) {
        let block = self.struct_block(elem, block_name, rule);
        let gv = ir::build::add_global(&mut self.module, d.name.name.as_str(), space, block);
        info.ty = elem;
        info.kind = GlobalKind::Var { gv, mem: block };
        info.read_only = Some(ReadOnly::CBuffer(d.name.span));
        self.new_global(info, scope, d.name);
    }

    /// `[[vk::shader_record_ext]] ConstantBuffer<T> name;`
    pub(in crate::sema) fn declare_shader_record(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        scope: ScopeId,
        info: GlobalInfo,
    ) {
        self.check_shader_record_binding(&vd.attrs);
        let Ty::Resource(ResKind::ConstantBuffer, Some(elem)) = *self.types.get(ty) else {
            self.error(
                codes::RESOURCE_MISUSE,
                "a shader record buffer is a `ConstantBuffer<T>` or a `cbuffer`",
                d.span,
                "not a constant buffer",
            );
            self.new_global(info, scope, d.name);
            return;
        };
        let name = format!("type.ConstantBuffer.{}", self.ty_name(elem));
        let rule = self.shader_record_rule();
        let space = ir::AddressSpace::Ray(ir::RayStorage::ShaderRecord);
        self.declare_block_var(d, scope, info, elem, name, rule, space);
    }
}
