//! cbuffers and tbuffers (members laid out in a block, `packoffset`), and
//! the `$Globals` block of the uniform globals.

use crate::diag::codes;
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::decl::storage::DeclSite;
use crate::sema::decl::{find_attr, parse_register_slot};
use crate::sema::types::layout::{BufferKind, MemberSpec, Rule};
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::ScopeId;
use crate::sema::types::{self, Ty, TyId};
use crate::sema::{GlobalInfo, GlobalKind, ReadOnly, ResourceDecl, Sema};
use crate::span::Span;

impl<'a> Sema<'a> {
    // --- cbuffers ---------------------------------------------------------

    pub(in crate::sema) fn declare_cbuffer(&mut self, cb: &'a ast::CBuffer, scope: ScopeId) {
        let env = Env::at(scope);
        let is_cb = cb.kind == ast::CBufferKind::CBuffer;
        let shader_record = is_cb && super::shader_record::shader_record_attr(&cb.attrs).is_some();
        let rule = Rule::for_buffer(
            self.opts.layout,
            if is_cb {
                BufferKind::Uniform
            } else {
                BufferKind::Storage
            },
        );
        let rule = if shader_record {
            self.shader_record_rule()
        } else {
            rule
        };
        let mut specs = Vec::new();
        let mut members: Vec<(ast::Ident, TyId)> = Vec::new();
        for vd in &cb.members {
            // `static` and `groupshared` variables written in a cbuffer are
            // ordinary globals, not members (as DXC takes them).
            if vd.modifiers.has(ast::Modifier::Static)
                || vd.modifiers.has(ast::Modifier::Groupshared)
            {
                self.declare_global_vars(vd, scope);
                continue;
            }
            let st = self.check_modifiers(&vd.modifiers, DeclSite::CBufferMember);
            let base = self.resolve_type(&vd.ty, &env);
            for d in &vd.declarators {
                let ty = self.array_type(base.ty, &d.array, &env, None);
                if ty == types::ERROR {
                    continue;
                }
                if self.types.is_resource(ty) {
                    // Resources in a cbuffer are separate globals.
                    let info = GlobalInfo::new(d.name.name, ty, d.name.span);
                    self.declare_resource_global(vd, d, ty, false, scope, info);
                    continue;
                }
                if let Ty::Array(_, None) = self.types.get(ty) {
                    // A uniform block holds no runtime array in Vulkan.
                    self.error(
                        codes::UNSIZED_ARRAY,
                        format!("cbuffer member `{}` is an unsized array", d.name.name),
                        d.name.span,
                        "give it a size",
                    );
                }
                self.check_major(&st, ty);
                let row_major = st
                    .major
                    .map(|(m, _)| m)
                    .or(base.major)
                    .unwrap_or(self.decls.default_row_major());
                self.check_int_matrices(ty, row_major, d.name.span);
                let mut offset = find_attr(&vd.attrs, Attr::VkOffset)
                    .and_then(|a| a.args.first())
                    .and_then(|e| self.const_int(e, &env))
                    .map(|v| v as u32);
                if offset.is_none()
                    && let Some(p) = &d.annotations.packoffset
                {
                    offset = self.packoffset(p);
                }
                specs.push(MemberSpec {
                    name: Some(d.name.name.to_string()),
                    ty,
                    row_major,
                    precise: st.precise,
                    offset,
                    span: Some(d.name.span),
                    decorations: self.member_decorations(&vd.attrs, &env),
                });
                members.push((d.name, ty));
            }
        }
        if let Some(ix) = self.index.as_deref_mut() {
            let spans = members.iter().map(|(n, _)| n.span).collect();
            ix.cbuffer(cb.name.name, cb.name.span, cb.span, spans);
        }
        if members.is_empty() {
            // DXC gives an empty cbuffer no binding and no variable.
            return;
        }
        let block = self
            .layouts
            .structure(
                &mut self.types,
                &mut self.module,
                Some(format!("type.{}", cb.name.name)),
                &specs,
                rule,
            )
            .ty;
        let space = if shader_record {
            self.check_shader_record_binding(&cb.attrs);
            ir::AddressSpace::Ray(ir::RayStorage::ShaderRecord)
        } else if is_cb {
            ir::AddressSpace::Uniform
        } else {
            ir::AddressSpace::Storage { writable: false }
        };
        let gv = ir::build::add_global(&mut self.module, cb.name.name.as_str(), space, block);
        let member_spans: Vec<Option<Span>> = specs.iter().map(|m| m.span).collect();
        let spans = &mut self.module.decl_spans;
        spans.set_struct(block, cb.span, &member_spans);
        spans.set_global(gv, cb.name.span);
        self.module.globals[gv].user_type = Some(if is_cb { "cbuffer" } else { "tbuffer" }.into());
        let (vk_binding, counter_binding) = self.binding_attrs(&cb.attrs, &env);
        let register = self.register_annotation(&cb.annotations, space);
        // A shader record has no descriptor.
        let decl = ResourceDecl {
            gv,
            name: cb.name.name,
            vk_binding,
            register,
            counter_binding,
            class: if is_cb {
                crate::sema::options::RegisterClass::B
            } else {
                crate::sema::options::RegisterClass::T
            },
            input_attachment: None,
            counter_of: None,
            in_struct: false,
            combined: find_attr(&cb.attrs, Attr::VkCombinedImageSampler).map(|a| a.span),
            span: cb.name.span,
        };
        if !shader_record {
            self.res.decls.push(decl);
        }
        let mem_types: Vec<ir::Handle<ir::Type>> = match &self.module.types[block].inner {
            ir::TypeInner::Struct { members, .. } => members.iter().map(|m| m.ty).collect(),
            _ => Vec::new(),
        };
        for (i, (name, ty)) in members.into_iter().enumerate() {
            let info = GlobalInfo {
                name: name.name,
                ty,
                kind: GlobalKind::Member {
                    gv,
                    index: i as u32,
                    mem: mem_types.get(i).copied().unwrap_or(block),
                },
                span: name.span,
                read_only: Some(ReadOnly::CBuffer(name.span)),
                konst: None,
                counter: None,
                resource: None,
                text: None,
            };
            self.new_global(info, scope, name);
        }
    }

    /// `packoffset(c2.y)` → 2*16 + 4.
    /// Buffers refuse column-major matrices of integers or booleans
    /// (`row_major` is whether `ty` itself is row-major).
    pub(in crate::sema) fn check_int_matrices(
        &mut self,
        ty: crate::sema::types::TyId,
        row_major: bool,
        span: crate::span::Span,
    ) {
        if crate::sema::types::layout::has_column_major_int_matrix(&self.types, ty, row_major) {
            self.push(
                crate::diag::Diagnostic::error(
                    codes::TYPE_MISMATCH,
                    "a column-major matrix of non-floating-point components in a buffer",
                )
                .label(span, "its type holds a column-major integer or boolean matrix")
                .note("SPIR-V matrices hold floats only, and buffers store these row by row: declare the matrix `row_major`"),
            );
        }
    }

    pub(in crate::sema) fn packoffset(&mut self, p: &ast::PackOffset) -> Option<u32> {
        let reg = p.register.name.as_str();
        let n = match parse_register_slot(reg) {
            Some(('c', n)) => n,
            _ => {
                self.error(
                    codes::BAD_REGISTER,
                    format!("invalid packoffset register `{reg}`"),
                    p.register.span,
                    "expected `cN`",
                );
                return None;
            }
        };
        let comp = match p.component.map(|c| c.name.as_str()) {
            None | Some("x") | Some("r") => 0,
            Some("y") | Some("g") => 1,
            Some("z") | Some("b") => 2,
            Some("w") | Some("a") => 3,
            Some(other) => {
                self.error(
                    codes::BAD_REGISTER,
                    format!("invalid packoffset component `{other}`"),
                    p.span,
                    "expected x, y, z or w",
                );
                return None;
            }
        };
        Some(n * 16 + comp * 4)
    }

    /// Builds the `$Globals` block from the collected uniform globals.
    pub(in crate::sema) fn build_globals_block(&mut self) {
        if self.res.globals_members.is_empty() {
            return;
        }
        let rule = Rule::for_buffer(self.opts.layout, BufferKind::Uniform);
        let mut specs: Vec<MemberSpec> = self
            .res
            .globals_members
            .values()
            .map(|m| MemberSpec {
                name: Some(m.name.to_string()),
                ty: m.ty,
                row_major: m.row_major,
                precise: false,
                offset: m.offset,
                span: Some(m.span),
                decorations: m.decorations.clone(),
            })
            .collect();
        // Members without register(cN) go after the highest explicit one
        // (SPIR-V.rst, "Memory layout rules").
        if specs.iter().any(|s| s.offset.is_some()) {
            let mut end = 0;
            for s in &specs {
                if let Some(o) = s.offset {
                    let l = self.layouts.layout(
                        &mut self.types,
                        &mut self.module,
                        s.ty,
                        rule,
                        s.row_major,
                    );
                    end = end.max(o + l.size);
                }
            }
            let mut cur = end;
            for spec in specs.iter_mut() {
                if spec.offset.is_none() {
                    let (l, off, _) = self.layouts.place_member(
                        &mut self.types,
                        &mut self.module,
                        spec,
                        rule,
                        cur,
                    );
                    spec.offset = Some(off);
                    cur = off + l.size;
                }
            }
        }
        let block = self
            .layouts
            .structure(
                &mut self.types,
                &mut self.module,
                Some("type.$Globals".into()),
                &specs,
                rule,
            )
            .ty;
        let gv = ir::build::add_global(
            &mut self.module,
            "$Globals",
            ir::AddressSpace::Uniform,
            block,
        );
        self.res.globals_block = Some(gv);
        let mem_types: Vec<ir::Handle<ir::Type>> = match &self.module.types[block].inner {
            ir::TypeInner::Struct { members, .. } => members.iter().map(|m| m.ty).collect(),
            _ => Vec::new(),
        };
        for (i, m) in self.res.globals_members.values().enumerate() {
            self.decls.globals[m.global].kind = GlobalKind::Member {
                gv,
                index: i as u32,
                mem: mem_types.get(i).copied().unwrap_or(block),
            };
        }
    }
}
