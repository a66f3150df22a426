//! Global structs whose members are resources (and arrays of such
//! structs). Vulkan has no resource-valued struct variables, so, as DXC's
//! legalization does (SPIR-V.rst, "Legalization"), each resource member
//! of each element becomes a global of its own, named by its path
//! (`g[1].t`), taking the next bindings in declaration order; the struct's
//! name stands for the aggregate of those globals.

use crate::diag::codes;
use crate::front::ast;
use crate::intern::Symbol;
use crate::sema::decl::storage::Storage;
use crate::sema::types::scope::{GlobalId, ScopeId};
use crate::sema::types::{Ty, TyId};
use crate::sema::{GlobalInfo, GlobalKind, Sema};

impl<'a> Sema<'a> {
    /// A global `d` of a type that contains resources (not itself a
    /// resource or an array of them).
    pub(in crate::sema) fn declare_resource_struct(
        &mut self,
        d: &'a ast::Declarator,
        vd: &'a ast::VarDecl,
        st: &Storage,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let refusal = if st.is_static.is_some() {
            Some("`static` structs containing resources")
        } else if st.groupshared.is_some() {
            Some("`groupshared` structs containing resources")
        } else if d.init.is_some() {
            Some("initializers on structs containing resources")
        } else if self.has_data_member(info.ty) {
            Some("global structs with both resource and data members")
        } else if self.has_unsized_struct_array(info.ty) {
            Some("unsized arrays of structs containing resources")
        } else {
            None
        };
        // DXC rejects these: a buffer's counter and layout cannot follow it
        // into a struct variable.
        if refusal.is_none() && self.holds_buffer(info.ty) {
            self.error(
                codes::RESOURCE_MISUSE,
                "a global struct cannot hold a structured or byte-address buffer",
                d.span,
                "declared here",
            );
            self.new_global(info, scope, d.name);
            return;
        }
        if let Some(what) = refusal {
            self.unsupported(what, d.span);
            self.new_global(info, scope, d.name);
            return;
        }
        let path = d.name.name.to_string();
        info.kind = self.flatten_resource_struct(vd, d, info.ty, &path, scope);
        self.new_global(info, scope, d.name);
    }

    /// The members (or elements) of `ty`, each declared as a global.
    fn flatten_resource_struct(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        path: &str,
        scope: ScopeId,
    ) -> GlobalKind {
        let mut parts: Vec<(TyId, String)> = Vec::new();
        match *self.types.get(ty) {
            Ty::Array(elem, Some(n)) => {
                parts.extend((0..n).map(|i| (elem, format!("{path}[{i}]"))));
            }
            Ty::Struct(sid) => {
                let info = self.types.struct_info(sid);
                // A base is reached as the struct itself in HLSL.
                if let Some(b) = info.base {
                    parts.push((b, path.to_string()));
                }
                parts.extend(
                    self.types
                        .storage_fields(sid)
                        .map(|f| (f.ty, format!("{path}.{}", f.name))),
                );
            }
            _ => return GlobalKind::Error,
        }
        let members = parts
            .into_iter()
            .map(|(t, p)| self.flattened_member(vd, d, t, &p, scope))
            .collect();
        GlobalKind::ResStruct(members)
    }

    fn flattened_member(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        path: &str,
        scope: ScopeId,
    ) -> GlobalId {
        let mut info = GlobalInfo::new(Symbol::intern(path), ty, d.name.span);
        if self.types.is_resource(ty) {
            return self.resource_global(vd, d, ty, scope, info, true);
        }
        info.kind = self.flatten_resource_struct(vd, d, ty, path, scope);
        self.hidden_global(info)
    }

    /// Whether `ty` (a struct or array of structs with resources) has a
    /// member that is neither a resource nor holds one.
    fn has_data_member(&self, ty: TyId) -> bool {
        match self.types.get(ty) {
            Ty::Array(e, _) => self.has_data_member(*e),
            Ty::Struct(sid) => {
                let info = self.types.struct_info(*sid);
                info.base
                    .iter()
                    .chain(self.types.storage_fields(*sid).map(|f| &f.ty))
                    .any(|&t| {
                        !self.types.contains_resource(t)
                            || (!self.types.is_resource(t) && self.has_data_member(t))
                    })
            }
            _ => false,
        }
    }

    /// Whether `ty` holds a structured or byte-address buffer anywhere.
    fn holds_buffer(&self, ty: TyId) -> bool {
        match self.types.get(ty) {
            Ty::Resource(k, _) => k.is_structured() || k.is_byte_address(),
            Ty::Array(e, _) => self.holds_buffer(*e),
            Ty::Struct(_) => self.agg_parts(ty).into_iter().any(|t| self.holds_buffer(t)),
            _ => false,
        }
    }

    /// Whether an array of structs (at any depth) has no size.
    fn has_unsized_struct_array(&self, ty: TyId) -> bool {
        match self.types.get(ty) {
            _ if self.types.is_resource(ty) => false,
            Ty::Array(_, None) => true,
            Ty::Array(e, _) => self.has_unsized_struct_array(*e),
            Ty::Struct(sid) => {
                let info = self.types.struct_info(*sid);
                info.base
                    .iter()
                    .chain(self.types.storage_fields(*sid).map(|f| &f.ty))
                    .any(|&t| self.has_unsized_struct_array(t))
            }
            _ => false,
        }
    }
}
