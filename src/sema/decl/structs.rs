//! Struct declarations: the struct's scope and type, its fields (bit-fields,
//! matrix orientation), methods, nested types, bases and forward
//! declarations.

use super::*;
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::sema::decl::storage::{DeclSite, Storage};
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::{ScopeId, ScopeKind, Sym, TypeEntry};
use crate::sema::types::{self, Field, StructInfo, Ty, TyId};
use crate::sema::{Sema, Template, TemplateKind};
use crate::span::Span;

impl<'a> Sema<'a> {
    // --- structs ----------------------------------------------------------

    /// Declares a struct (or registers a struct template) and returns its
    /// type.
    pub fn declare_struct(&mut self, sd: &'a ast::StructDecl, scope: ScopeId) -> TyId {
        if let Some(params) = &sd.template {
            let Some(name) = sd.name else {
                return types::ERROR;
            };
            if sd.specialization.is_some() {
                self.declare_specialization(sd, name, scope);
                return types::ERROR;
            }
            if self.define_declared_template(sd, name, scope) {
                return types::ERROR;
            }
            let id = self.decls.templates.next_id();
            self.decls.templates.push(Template::new(
                name.name,
                params,
                TemplateKind::Struct(sd),
                scope,
                sd.span,
            ));
            self.declare_name(scope, name, Sym::Template(id));
            return types::ERROR;
        }
        if sd.specialization.is_some() {
            // `struct Trait<half> {…}` without `template<>`.
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                "a specialisation needs a template head",
                sd.name.map_or(sd.span, |n| n.span),
                "write `template<>` before `struct`",
            );
            return types::ERROR;
        }
        self.declare_struct_named(sd, scope, None, true)
    }

    /// Declares a struct type. Template instances pass their display name;
    /// they and local structs are not declared by name in `scope` (the
    /// template is; the block scope declares a local struct).
    pub fn declare_struct_named(
        &mut self,
        sd: &'a ast::StructDecl,
        scope: ScopeId,
        display: Option<String>,
        by_name: bool,
    ) -> TyId {
        let name = sd
            .name
            .map_or_else(|| Symbol::intern("<anonymous>"), |n| n.name);
        let display = display.unwrap_or_else(|| {
            let q = self.scopes.qualified_name(scope);
            if q.is_empty() || sd.name.is_none() {
                name.to_string()
            } else {
                format!("{q}::{name}")
            }
        });
        // The definition of a struct declared `struct S;` before fills that
        // struct in, so the declarations that named it see the members.
        let forward = sd
            .name
            .filter(|_| by_name && sd.template.is_none())
            .and_then(|n| self.forward_declared(scope, n.name));
        let (ty, sid, sscope) = match forward {
            Some((ty, sid)) => {
                self.decls.forward_structs.retain(|&t| t != ty);
                let info = self.types.struct_info_mut(sid);
                info.span = sd.span;
                info.is_interface = sd.kind == ast::StructKind::Interface;
                (ty, sid, info.scope)
            }
            None => {
                let Some((ty, sid, sscope)) =
                    self.struct_shell(name, display, scope, sd.kind, sd.span)
                else {
                    return types::ERROR;
                };
                if by_name && let Some(n) = sd.name {
                    self.declare_name(
                        scope,
                        n,
                        Sym::Type(TypeEntry {
                            ty,
                            major: None,
                            features: None,
                        }),
                    );
                }
                if let Some((id, key)) = self.decls.pending_instance.take() {
                    self.decls.templates[id].instances.insert(key.clone(), ty);
                    self.decls.struct_instances.insert(ty, (id, key));
                }
                (ty, sid, sscope)
            }
        };
        let env = Env::at(sscope);
        self.types.struct_info_mut(sid).track_rw_sharing =
            find_attr(&sd.attrs, Attr::NodeTrackRwInputSharing).is_some();
        for b in &sd.bases {
            let bt = self.resolve_type(b, &env).ty;
            match self.types.get(bt) {
                Ty::Struct(bs) => {
                    if self.types.struct_info(*bs).is_interface {
                        continue;
                    }
                    if self.types.struct_info_mut(sid).base.is_some() {
                        self.unsupported("multiple inheritance", b.span);
                        continue;
                    }
                    self.types.struct_info_mut(sid).base = Some(bt);
                }
                Ty::Error => {}
                _ => {
                    self.error(
                        codes::UNKNOWN_TYPE,
                        format!("cannot inherit from `{}`", self.ty_name(bt)),
                        b.span,
                        "not a struct",
                    );
                }
            }
        }
        for m in &sd.members {
            match m {
                ast::StructMember::Field(vd) => self.declare_fields(vd, sid, ty, sscope),
                ast::StructMember::Method(f) => {
                    self.declare_function(f, sscope, Some(ty));
                }
                ast::StructMember::Struct(nested) => {
                    self.declare_struct(nested, sscope);
                }
                ast::StructMember::Typedef(td) => self.declare_typedef(td, &env, sscope, None),
                ast::StructMember::Enum(ed) => {
                    self.declare_enum(ed, &env, sscope, None);
                }
                ast::StructMember::Error => {}
            }
        }
        self.types.struct_info_mut(sid).complete = true;
        ty
    }

    /// A struct type with no members yet, its scope and injected name.
    fn struct_shell(
        &mut self,
        name: Symbol,
        display: String,
        scope: ScopeId,
        kind: ast::StructKind,
        span: Span,
    ) -> Option<(TyId, crate::sema::types::StructId, ScopeId)> {
        let sscope = self.scopes.add(scope, ScopeKind::Namespace, Some(name));
        let ty = self.types.add_struct(StructInfo {
            display,
            base: None,
            fields: Vec::new(),
            methods: Default::default(),
            scope: sscope,
            is_interface: kind == ast::StructKind::Interface,
            complete: false,
            track_rw_sharing: false,
            span,
        });
        self.scopes.get_mut(sscope).kind = ScopeKind::Struct(ty);
        let sid = match self.types.get(ty) {
            Ty::Struct(s) => *s,
            _ => return None,
        };
        // The struct's own name inside it (injected name).
        let _ = self.scopes.declare(
            sscope,
            name,
            Sym::Type(TypeEntry {
                ty,
                major: None,
                features: None,
            }),
        );
        Some((ty, sid, sscope))
    }

    /// The struct `name` of `scope` when it was declared `struct S;` and
    /// is not defined yet.
    fn forward_declared(
        &self,
        scope: ScopeId,
        name: Symbol,
    ) -> Option<(TyId, crate::sema::types::StructId)> {
        let Some(Sym::Type(TypeEntry { ty, .. })) = self.scopes.lookup_in(scope, name) else {
            return None;
        };
        let ty = *ty;
        if !self.decls.forward_structs.contains(&ty) {
            return None;
        }
        match self.types.get(ty) {
            Ty::Struct(sid) => Some((ty, *sid)),
            _ => None,
        }
    }

    /// `struct S;`: declares `S` as a struct whose members come with its
    /// definition. Declaring it again, or after its definition, changes
    /// nothing.
    pub(super) fn forward_struct(&mut self, n: ast::Ident, span: Span, scope: ScopeId) {
        if let Some(Sym::Type(_)) = self.scopes.lookup_in(scope, n.name) {
            return;
        }
        let q = self.scopes.qualified_name(scope);
        let display = if q.is_empty() {
            n.name.to_string()
        } else {
            format!("{q}::{}", n.name)
        };
        let Some((ty, _, _)) =
            self.struct_shell(n.name, display, scope, ast::StructKind::Struct, span)
        else {
            return;
        };
        self.decls.forward_structs.push(ty);
        self.declare_name(
            scope,
            n,
            Sym::Type(TypeEntry {
                ty,
                major: None,
                features: None,
            }),
        );
    }

    pub(super) fn declare_fields(
        &mut self,
        vd: &'a ast::VarDecl,
        sid: types::StructId,
        sty: TyId,
        sscope: ScopeId,
    ) {
        let st = self.check_modifiers(&vd.modifiers, DeclSite::Field);
        let env = Env::at(sscope);
        let base = self.resolve_type(&vd.ty, &env);
        if st.is_static.is_some() {
            // Static members are globals in the struct's scope.
            for d in &vd.declarators {
                self.declare_one_global(vd, d, &st, base, sscope);
                if d.init.is_none()
                    && vd.modifiers.has(ast::Modifier::Const)
                    && let Some(Sym::Global(g)) = self.scopes.lookup_in(sscope, d.name.name)
                {
                    let name = format!("{}::{}", self.ty_name(sty), d.name.name);
                    let g = *g;
                    self.decls.undefined_statics.insert(g, (d.name.span, name));
                }
            }
            return;
        }
        let decorations = self.member_decorations(&vd.attrs, &env);
        for d in &vd.declarators {
            let ty = self.array_type(base.ty, &d.array, &env, None);
            if let Ty::Array(elem, None) = *self.types.get(ty)
                && !self.types.contains_resource(elem)
            {
                // Vulkan allows a runtime array only as the last member of
                // a buffer's block, which hlslc makes itself.
                self.error(
                    codes::UNSIZED_ARRAY,
                    format!("struct member `{}` is an unsized array", d.name.name),
                    d.name.span,
                    "give it a size",
                );
            }
            let bits = match &d.bit_width {
                Some(w) => self.bit_field(sid, ty, w, &env),
                None => None,
            };
            self.check_major(&st, ty);
            let major = st
                .major
                .map(|(m, _)| m)
                .or(base.major)
                .or(Some(self.decls.default_row_major()));
            let attrs = &vd.attrs;
            let vk_offset = find_attr(attrs, Attr::VkOffset)
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32);
            let vk_location = find_attr(attrs, Attr::VkLocation)
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32);
            let vk_index = find_attr(attrs, Attr::VkIndex)
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32);
            let vk_builtin = find_attr(attrs, Attr::VkBuiltin)
                .and_then(|a| a.string_arg(0))
                .map(Symbol::intern);
            if let Some(prev) = self
                .types
                .struct_info_mut(sid)
                .fields
                .iter()
                .find(|f| f.name == d.name.name)
            {
                let ps = prev.span;
                self.push(
                    Diagnostic::error(
                        codes::REDEFINITION,
                        format!("duplicate member `{}`", d.name.name),
                    )
                    .label(d.name.span, "declared again here")
                    .label(ps, "first declared here"),
                );
                continue;
            }
            let info = &self.types.struct_info_mut(sid);
            let owners = info
                .fields
                .iter()
                .filter(|f| !f.bits.is_some_and(|b| b.shares))
                .count() as u32;
            let base_members = info.base.is_some() as u32;
            let member = if bits.is_some_and(|b| b.shares) {
                base_members + owners - 1
            } else {
                base_members + owners
            };
            self.types.struct_info_mut(sid).fields.push(Field {
                member,
                bits,
                name: d.name.name,
                ty,
                major,
                precise: st.precise,
                interp: st.interp,
                sampling: st.sampling,
                semantic: d.annotations.semantic.map(|s| (s.name, s.span)),
                vk_offset,
                vk_location,
                vk_index,
                vk_builtin,
                vk_spans: crate::sema::types::VkAttrSpans {
                    location: find_attr(attrs, Attr::VkLocation).map(|a| a.span),
                    index: find_attr(attrs, Attr::VkIndex).map(|a| a.span),
                    builtin: find_attr(attrs, Attr::VkBuiltin).map(|a| a.span),
                },
                decorations: decorations.clone(),
                span: d.name.span,
            });
        }
    }

    /// Places a bit-field of `ty` and `width` bits after the struct's last
    /// field: in the same storage unit when it is a bit-field of the same
    /// type with room left, else at the start of a new unit (as C and DXC).
    pub(super) fn bit_field(
        &mut self,
        sid: types::StructId,
        ty: TyId,
        w: &'a ast::Expr,
        env: &Env,
    ) -> Option<types::BitField> {
        let width = self.const_int(w, env)?;
        let bits_of = match self.types.get(ty) {
            Ty::Scalar(s) if s.is_int() => s.width() as i64 * 8,
            _ => {
                self.error(
                    codes::UNKNOWN_TYPE,
                    format!(
                        "a bit-field must have an integer type, not `{}`",
                        self.ty_name(ty)
                    ),
                    w.span,
                    "not an integer bit-field",
                );
                return None;
            }
        };
        if width < 1 || width > bits_of {
            self.error(
                codes::BAD_ARRAY_SIZE,
                format!(
                    "a bit-field of `{}` must be 1 to {bits_of} bits wide, not {width}",
                    self.ty_name(ty)
                ),
                w.span,
                "invalid width",
            );
            return None;
        }
        let last = self.types.struct_info_mut(sid).fields.last();
        let (offset, shares) = match last {
            Some(f) if f.ty == ty => match f.bits {
                Some(b) if b.offset as i64 + b.width as i64 + width <= bits_of => {
                    (b.offset + b.width, true)
                }
                _ => (0, false),
            },
            _ => (0, false),
        };
        Some(types::BitField {
            offset,
            width: width as u8,
            shares,
        })
    }

    /// `row_major`/`column_major` on a non-matrix: DXC ignores it with a
    /// warning.
    pub(super) fn check_major(&mut self, st: &Storage, ty: TyId) {
        if let Some((m, span)) = st.major {
            let mut t = ty;
            while let Ty::Array(e, _) = self.types.get(t) {
                t = *e;
            }
            if !matches!(self.types.get(t), Ty::Matrix(..) | Ty::Error) {
                self.warn(
                    codes::MAJOR_ON_NON_MATRIX,
                    format!(
                        "`{}` has no effect on `{}`",
                        if m { "row_major" } else { "column_major" },
                        self.ty_name(ty)
                    ),
                    span,
                    "applies to matrices only",
                );
            }
        }
    }
}
