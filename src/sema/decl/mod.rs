//! Declarations: the items of a translation unit in order — structs
//! (fields, methods, nested types, static members, bases), enums,
//! typedefs, templates, namespaces and `using`, function signatures, global
//! variables with their storage classes, cbuffers and resources.

pub mod ast_scan;
pub mod attrs;
pub mod bindings;
pub mod cbuffer;
pub mod ext_storage;
pub mod ext_type;
pub mod checks;
pub mod combined;
mod ext_builtin;
pub mod globals;
pub mod inline_spirv;
mod literal_init;
pub mod res_struct;
pub mod resource_decl;
pub mod shader_record;
pub mod storage;
mod structs;

use super::body::FnBuilder;
use super::decl::storage::DeclSite;
use super::types::consteval::{ConstVal, Konst};
use super::types::resolve::Env;
use super::types::scope::{FuncDeclId, GLOBAL_SCOPE, ScopeId, ScopeKind, Sym, TypeEntry};
use super::types::{self, EnumInfo, Sc, Ty, TyId};
use super::{Dir, FuncDecl, ParamSig, Sema, Sig, Template, TemplateKind};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir;
use crate::span::Span;

/// A builder for a scratch lowering context at global scope (an
/// initializer lowered to find its type or constant value): its function
/// is discarded, under a handle no function has.
pub fn scratch_builder(scope: ScopeId) -> FnBuilder {
    FnBuilder::new(
        ir::Function::default(),
        ir::Handle::from_index(0x7fff_fff0),
        types::VOID,
        scope,
    )
}

/// The first of `attrs` that is `kind` (the parser resolved each
/// attribute's name: `[NumThreads]` is `Attr::NumThreads`).
pub fn find_attr(attrs: &[ast::Attribute], kind: Attr) -> Option<&ast::Attribute> {
    attrs.iter().find(|a| a.kind == Some(kind))
}

/// `t3` → ('t', 3); `space2` handled by [`parse_space`].
pub fn parse_register_slot(s: &str) -> Option<(char, u32)> {
    let mut chars = s.chars();
    let c = chars.next()?.to_ascii_lowercase();
    let n: u32 = chars.as_str().parse().ok()?;
    Some((c, n))
}

pub fn parse_space(s: &str) -> Option<u32> {
    s.strip_prefix("space")?.parse().ok()
}

impl<'a> Sema<'a> {
    pub fn declare_items(&mut self, items: &'a [ast::Item], scope: ScopeId) {
        for item in items {
            self.declare_item(item, scope);
        }
    }

    pub(super) fn declare_item(&mut self, item: &'a ast::Item, scope: ScopeId) {
        match item {
            ast::Item::Var(vd) => self.declare_global_vars(vd, scope),
            ast::Item::StaticMemberTemplate(params, vd) => {
                self.static_member_template(params, vd, scope);
            }
            ast::Item::Function(f) => {
                self.declare_function(f, scope, None);
            }
            ast::Item::Struct(sd) => {
                self.declare_struct(sd, scope);
            }
            ast::Item::CBuffer(cb) => self.declare_cbuffer(cb, scope),
            ast::Item::Typedef(td) => self.declare_typedef(td, &Env::at(scope), scope, None),
            ast::Item::Enum(ed) => {
                self.declare_enum(ed, &Env::at(scope), scope, None);
            }
            ast::Item::Namespace(ns) => {
                let sub = match self.scopes.lookup_in(scope, ns.name.name) {
                    Some(Sym::Namespace(s)) => *s,
                    _ => {
                        let s = self
                            .scopes
                            .add(scope, ScopeKind::Namespace, Some(ns.name.name));
                        self.declare_name(scope, ns.name, Sym::Namespace(s));
                        s
                    }
                };
                self.declare_items(&ns.items, sub);
            }
            ast::Item::Using(u) => self.declare_using(u, &Env::at(scope), scope, None),
            ast::Item::Pragma(p) => self.pragma(p),
            ast::Item::ForwardStruct(name, span) => self.forward_struct(*name, *span, scope),
            ast::Item::Technique | ast::Item::Empty | ast::Item::Error => {}
        }
    }

    /// `#pragma pack_matrix(row_major|column_major)` sets the default
    /// majorness of matrices declared after it.
    pub(super) fn pragma(&mut self, p: &ast::Pragma) {
        let text: String = p
            .text
            .as_str()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if let Some(rest) = text.strip_prefix("pack_matrix(") {
            match rest.trim_end_matches(')') {
                "row_major" => self.decls.set_pack_matrix(true),
                "column_major" => self.decls.set_pack_matrix(false),
                _ => {}
            }
        }
    }

    /// Declares `name` in `scope`, reporting a redefinition.
    pub fn declare_name(&mut self, scope: ScopeId, name: ast::Ident, sym: Sym) {
        if let Some(ix) = self.index.as_deref_mut() {
            ix.declared(name.name, name.span, &sym);
        }
        if let Err(_old) = self.scopes.declare(scope, name.name, sym) {
            self.error(
                codes::REDEFINITION,
                format!("`{}` is already declared in this scope", name.name),
                name.span,
                "redefined here",
            );
        }
    }

    pub fn declare_using(
        &mut self,
        u: &'a ast::Using,
        env: &Env,
        scope: ScopeId,
        locals: Option<&mut super::body::Locals>,
    ) {
        match u {
            ast::Using::Namespace { path, span } => {
                // `using namespace a::b;` — the path names a namespace.
                let full = ast::Path {
                    global: path.global,
                    qualifier: None,
                    segments: path.segments.clone(),
                    span: *span,
                };
                let mut cur = if path.global { GLOBAL_SCOPE } else { scope };
                let mut ok = true;
                for (i, seg) in full.segments.iter().enumerate() {
                    let found = if i == 0 && !path.global {
                        self.scopes.lookup(cur, seg.name).cloned()
                    } else {
                        self.scopes.lookup_in(cur, seg.name).cloned()
                    };
                    match found {
                        Some(Sym::Namespace(s)) => cur = s,
                        _ => {
                            self.error(
                                codes::UNKNOWN_NAME,
                                format!("unknown namespace `{}`", seg.name),
                                seg.span,
                                "not a namespace",
                            );
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    self.scopes.get_mut(scope).usings.push(cur);
                }
            }
            ast::Using::Name { path, span } => match locals {
                Some(l) => self.using_name_local(path, *span, env, l),
                None => self.using_name(path, *span, env, scope),
            },
            ast::Using::Alias {
                template,
                attrs,
                name,
                ty,
                is_const,
                span,
            } => {
                if let Some(params) = template {
                    if let Some(a) = attrs.first() {
                        self.unsupported("attributes on an alias template", a.span);
                    }
                    let id = self.decls.templates.next_id();
                    self.decls.templates.push(Template::new(
                        name.name,
                        params,
                        TemplateKind::Alias(ty),
                        scope,
                        *span,
                    ));
                    if is_const.is_some() {
                        self.decls.const_alias_templates.insert(id);
                    }
                    self.declare_name(scope, *name, Sym::Template(id));
                    return;
                }
                if let Some(c) = is_const {
                    self.warn(
                        codes::IGNORED_SYNTAX,
                        "`const` in a type alias is ignored (an alias template keeps it)",
                        *c,
                        "ignored",
                    );
                }
                let mut t = self.resolve_type(ty, env);
                t.features = self.alias_features(attrs, scope);
                match locals {
                    Some(l) => {
                        l.declare(name.name, super::body::LocalSym::Type(t));
                    }
                    None => self.declare_name(scope, *name, Sym::Type(t)),
                }
            }
        }
    }

    /// The symbol `using ns::name;` names: what `name` is in `ns` now.
    fn using_target(&mut self, path: &'a ast::Path, span: Span, env: &Env) -> Option<Sym> {
        let s = self.resolve_scope_path(path, env)?;
        let name = path.last();
        let found = self.scopes.lookup_in(s, name.name).cloned();
        if found.is_none() {
            self.error(
                codes::UNKNOWN_NAME,
                format!("no `{}` in `{}`", name.name, self.scopes.qualified_name(s)),
                name.span,
                "not declared there",
            );
        }
        if matches!(found, Some(Sym::Namespace(_))) {
            self.error(
                codes::UNKNOWN_NAME,
                format!("`{}` is a namespace: write `using namespace`", name.name),
                span,
                "a namespace",
            );
            return None;
        }
        found
    }

    /// `using ns::name;` at namespace scope: `name` declared here as what
    /// it is in `ns` (a function's overloads join those of the same name
    /// here).
    fn using_name(&mut self, path: &'a ast::Path, span: Span, env: &Env, scope: ScopeId) {
        let Some(sym) = self.using_target(path, span, env) else {
            return;
        };
        let name = path.last();
        // Naming a function or variable this scope already declares as the
        // same thing is no redefinition.
        if let (Some(old), Sym::Global(g)) = (self.scopes.get(scope).names.get(&name.name), &sym)
            && matches!(old, Sym::Global(o) if o == g)
        {
            return;
        }
        if let Sym::Funcs(fs) = &sym
            && let Some(Sym::Funcs(old)) = self.scopes.get(scope).names.get(&name.name)
        {
            let new: Vec<_> = fs.iter().filter(|f| !old.contains(f)).copied().collect();
            self.declare_name(scope, name, Sym::Funcs(new));
            return;
        }
        self.declare_name(scope, name, sym);
    }

    /// `using ns::name;` in a function: a type or constant becomes a local
    /// name; functions and variables are not supported there yet.
    fn using_name_local(
        &mut self,
        path: &'a ast::Path,
        span: Span,
        env: &Env,
        locals: &mut super::body::Locals,
    ) {
        let Some(sym) = self.using_target(path, span, env) else {
            return;
        };
        let name = path.last().name;
        match sym {
            Sym::Type(t) => {
                locals.declare(name, super::body::LocalSym::Type(t));
            }
            _ => {
                self.unsupported(
                    "`using` declarations of functions and variables inside a function",
                    span,
                );
            }
        }
    }

    pub fn declare_typedef(
        &mut self,
        td: &'a ast::Typedef,
        env: &Env,
        scope: ScopeId,
        locals: Option<&mut super::body::Locals>,
    ) {
        let st = self.check_modifiers(&td.modifiers, DeclSite::Typedef);
        let base = self.resolve_type(&td.ty, env);
        let ty = self.array_type(base.ty, &td.array, env, None);
        let major = st.major.map(|(m, _)| m).or(base.major);
        let features = self.alias_features(&td.attrs, scope);
        let entry = TypeEntry {
            ty,
            major,
            features,
        };
        match locals {
            Some(l) => {
                l.declare(td.name.name, super::body::LocalSym::Type(entry));
            }
            None => self.declare_name(scope, td.name, Sym::Type(entry)),
        }
    }

    /// Applies array dimensions (outermost first) to a type. An unsized
    /// dimension stays unsized (`None`) unless `init_count` gives the
    /// number of elements.
    pub fn array_type(
        &mut self,
        base: TyId,
        dims: &'a [Option<ast::Expr>],
        env: &Env,
        init_count: Option<u32>,
    ) -> TyId {
        let mut ty = base;
        for (i, d) in dims.iter().enumerate().rev() {
            let n = match d {
                Some(e) => match self.const_int(e, env) {
                    Some(n) if n > 0 && n <= u32::MAX as i64 => Some(n as u32),
                    Some(n) => {
                        self.error(
                            codes::BAD_ARRAY_SIZE,
                            format!("array size must be positive, not {n}"),
                            e.span,
                            "invalid size",
                        );
                        return types::ERROR;
                    }
                    None => return types::ERROR,
                },
                None if i == 0 => init_count,
                None => None,
            };
            ty = self.types.array(ty, n);
        }
        ty
    }

    // --- enums ------------------------------------------------------------

    pub fn declare_enum(
        &mut self,
        ed: &'a ast::EnumDecl,
        env: &Env,
        scope: ScopeId,
        locals: Option<&mut super::body::Locals>,
    ) -> TyId {
        let underlying = match &ed.underlying {
            Some(ts) => {
                let t = self.resolve_type(ts, env).ty;
                match self.types.get(t) {
                    Ty::Scalar(s) if s.is_int() => *s,
                    _ => {
                        if t != types::ERROR {
                            self.error(
                                codes::UNKNOWN_TYPE,
                                "an enum's underlying type must be an integer type",
                                ts.span,
                                "not an integer type",
                            );
                        }
                        Sc::I32
                    }
                }
            }
            None => Sc::I32,
        };
        let name = ed
            .name
            .map_or_else(|| Symbol::intern("<anonymous enum>"), |n| n.name);
        let escope = self.scopes.add(scope, ScopeKind::Enum, Some(name));
        let ty = self.types.add_enum(EnumInfo {
            name,
            underlying,
            values: Vec::new(),
            scope: escope,
            span: ed.span,
        });
        let eid = match self.types.get(ty) {
            Ty::Enum(e) => *e,
            _ => return types::ERROR,
        };
        let mut locals = locals;
        if let Some(n) = ed.name {
            let entry = TypeEntry {
                ty,
                major: None,
                features: None,
            };
            match locals.as_deref_mut() {
                Some(l) => {
                    l.declare(n.name, super::body::LocalSym::Type(entry));
                }
                None => self.declare_name(scope, n, Sym::Type(entry)),
            }
        }
        let mut next: i64 = 0;
        for (id, value) in &ed.variants {
            let v = match value {
                Some(e) => {
                    // Earlier values are visible by their plain name.
                    let eenv = Env {
                        scope: escope,
                        locals: None,
                    };
                    self.const_int(e, &eenv).unwrap_or(next)
                }
                None => next,
            };
            let v = super::types::consteval::wrap_int(v, underlying);
            next = v.wrapping_add(1);
            self.types.enum_info_mut(eid).values.push((id.name, v));
            if let Some(ix) = self.index.as_deref_mut() {
                ix.enum_value(crate::sema::index::EnumValueDef {
                    name: id.name,
                    span: id.span,
                    ty,
                    value: v,
                    scoped: ed.scoped,
                });
            }
            let sym = Sym::Value(ConstVal::Int(v), ty);
            let _ = self.scopes.declare(escope, id.name, sym.clone());
            if !ed.scoped {
                match locals.as_deref_mut() {
                    Some(l) => {
                        l.declare(
                            id.name,
                            super::body::LocalSym::Value(Konst {
                                sc: underlying,
                                v: ConstVal::Int(v),
                            }),
                        );
                    }
                    None => self.declare_name(scope, *id, sym),
                }
            }
        }
        ty
    }

    // --- functions --------------------------------------------------------

    /// Declares a function, method or function template; attaches a
    /// definition to an earlier prototype with the same signature.
    pub fn declare_function(
        &mut self,
        f: &'a ast::Function,
        scope: ScopeId,
        this_struct: Option<TyId>,
    ) -> Option<FuncDeclId> {
        let is_static = f.modifiers.has(ast::Modifier::Static);
        let name = f.name.last();
        let (scope, this_struct) = if f.name.segments.len() > 1 {
            // `float S::get() { … }` or `void ns::f() { … }`.
            let s = self.resolve_scope_path(&f.name, &Env::at(scope))?;
            let st = match self.scopes.get(s).kind {
                ScopeKind::Struct(t) => Some(t),
                _ => None,
            };
            (s, st)
        } else {
            (scope, this_struct)
        };
        let this_ty = if is_static { None } else { this_struct };
        if f.specialization.is_some() {
            self.declare_function_specialization(f, name, scope);
            return None;
        }
        if f.template.is_some() {
            return Some(self.new_function(f, name, scope, this_ty, this_struct, None));
        }
        let sig = self.resolve_sig(f, &Env::at(scope));
        // A matching earlier declaration?
        if let Some(Sym::Funcs(list)) = self.scopes.lookup_in(scope, name.name).cloned() {
            for id in list {
                let d = &self.decls.funcs[id];
                if d.is_template {
                    continue;
                }
                let Some(old) = &d.sig else {
                    continue;
                };
                let same = old.params.len() == sig.params.len()
                    && old
                        .params
                        .iter()
                        .zip(&sig.params)
                        .all(|(a, b)| a.ty == b.ty && a.dir == b.dir);
                if !same {
                    continue;
                }
                if f.body.is_some() {
                    if let Some(prev) = d.def {
                        let ps = prev.name.span;
                        self.push(
                            Diagnostic::error(
                                codes::REDEFINITION,
                                format!("redefinition of `{}`", name.name),
                            )
                            .label(name.span, "defined again here")
                            .label(ps, "first defined here"),
                        );
                        return Some(id);
                    }
                    let d = &mut self.decls.funcs[id];
                    d.def = Some(f);
                    // The definition's parameter names are the ones the body uses.
                    d.sig = Some(sig);
                }
                return Some(id);
            }
        }
        Some(self.new_function(f, name, scope, this_ty, this_struct, Some(sig)))
    }

    /// Declares a new function `f` named `name` in `scope`: a template when
    /// it has no signature yet.
    fn new_function(
        &mut self,
        f: &'a ast::Function,
        name: ast::Ident,
        scope: ScopeId,
        this_ty: Option<TyId>,
        this_struct: Option<TyId>,
        sig: Option<Sig<'a>>,
    ) -> FuncDeclId {
        let id = self.decls.funcs.next_id();
        self.decls.funcs.push(FuncDecl {
            name: name.name,
            ast: f,
            def: f.body.as_ref().map(|_| f),
            scope,
            this_ty,
            is_template: sig.is_none(),
            sig,
            ir: None,
            instances: Default::default(),
            specializations: Default::default(),
        });
        self.register_func(scope, name, id, this_struct);
        id
    }

    pub(super) fn register_func(
        &mut self,
        scope: ScopeId,
        name: ast::Ident,
        id: FuncDeclId,
        this_struct: Option<TyId>,
    ) {
        if let Some(ix) = self.index.as_deref_mut() {
            ix.declared(name.name, name.span, &Sym::Funcs(vec![id]));
        }
        if let Err(old) = self.scopes.declare(scope, name.name, Sym::Funcs(vec![id])) {
            let _ = old;
            self.error(
                codes::REDEFINITION,
                format!(
                    "`{}` is already declared as something other than a function",
                    name.name
                ),
                name.span,
                "redefined here",
            );
        }
        if let Some(t) = this_struct
            && let Some(sid) = self.types.as_struct(t)
        {
            self.types
                .struct_info_mut(sid)
                .methods
                .entry(name.name)
                .or_default()
                .push(id);
        }
    }

    /// Resolves a function's signature.
    pub fn resolve_sig(&mut self, f: &'a ast::Function, env: &Env) -> Sig<'a> {
        let fst = self.check_modifiers(&f.modifiers, DeclSite::Function);
        // `ConstantBuffer<T>` and `TextureBuffer<T>` pass and return as
        // copies of their `T`.
        let ret = self.resolve_type(&f.return_type, env).ty;
        let ret = self.types.buffer_view_value(ret);
        let mut params = Vec::with_capacity(f.params.len());
        for p in &f.params {
            let st = self.check_modifiers(&p.modifiers, DeclSite::Param);
            let base = self.resolve_type(&p.ty, env);
            let base = self.types.buffer_view_value(base.ty);
            let ty = self.array_type(base, &p.array, env, None);
            if ty == types::VOID {
                // `f(void)`: no parameters.
                if f.params.len() == 1 && p.name.is_none() {
                    break;
                }
            }
            params.push(ParamSig {
                name: p.name.map(|n| n.name),
                ty,
                dir: st.dir.unwrap_or(Dir::In),
                default: p.default.as_deref(),
                precise: st.precise,
                interp: st.interp,
                sampling: st.sampling,
                semantic: p.annotations.semantic.map(|s| (s.name, s.span)),
                modifiers: p.modifiers.clone(),
                attrs: &p.attrs,
                span: p.span,
            });
        }
        Sig {
            params,
            ret,
            ret_precise: fst.precise,
            ret_semantic: f.return_annotations.semantic.map(|s| (s.name, s.span)),
        }
    }
}
