//! Declarations: the items of a translation unit in order — structs
//! (fields, methods, nested types, static members, bases), enums,
//! typedefs, templates, namespaces and `using`, function signatures, global
//! variables with their storage classes, cbuffers and resources.

use super::consteval::{ConstVal, Konst};
use super::func::{FnBuilder, FnCtx};
use super::layout::{BufferKind, MemberSpec, Rule};
use super::resolve::Env;
use super::scope::{
    FuncDeclId, GLOBAL_SCOPE, GlobalId, ScopeId, ScopeKind, Sym, TemplateId, TypeEntry,
};
use super::storage::{DeclSite, Storage};
use super::types::{self, EnumInfo, Field, ResKind, Sc, StructInfo, Ty, TyId};
use super::{
    Dir, FuncDecl, GlobalInfo, GlobalKind, GlobalsMember, ParamSig, ReadOnly, ResourceDecl, Sema,
    Sig, TArg, Template, TemplateKind,
};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::options::Stage;
use crate::span::Span;

/// The handle scratch lowering contexts use for their (discarded) function.
pub fn scratch_handle() -> ir::Handle<ir::Function> {
    ir::Handle::from_index(0x7fff_fff0)
}

/// Finds an attribute by its name (`numthreads`, `vk::binding`).
pub fn find_attr<'b>(attrs: &'b [ast::Attribute], name: &str) -> Option<&'b ast::Attribute> {
    attrs.iter().find(|a| attr_name_is(a, name))
}

pub fn attr_name_is(a: &ast::Attribute, name: &str) -> bool {
    let mut segs = a.name.segments.iter().map(|s| s.name.as_str());
    let mut want = name.split("::");
    loop {
        match (segs.next(), want.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
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

    fn declare_item(&mut self, item: &'a ast::Item, scope: ScopeId) {
        match item {
            ast::Item::Var(vd) => self.declare_global_vars(vd, scope),
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
            ast::Item::Technique(_) | ast::Item::Empty(_) | ast::Item::Error(_) => {}
        }
    }

    /// `#pragma pack_matrix(row_major|column_major)` sets the default
    /// majorness of matrices declared after it.
    fn pragma(&mut self, p: &ast::Pragma) {
        let text: String = p
            .text
            .as_str()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if let Some(rest) = text.strip_prefix("pack_matrix(") {
            match rest.trim_end_matches(')') {
                "row_major" => self.pack_row_major = true,
                "column_major" => self.pack_row_major = false,
                _ => {}
            }
        }
    }

    /// Declares `name` in `scope`, reporting a redefinition.
    pub fn declare_name(&mut self, scope: ScopeId, name: ast::Ident, sym: Sym) {
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
        locals: Option<&mut super::func::Locals>,
    ) {
        match u {
            ast::Using::Namespace { path, span } => {
                // `using namespace a::b;` — the path names a namespace.
                let full = ast::Path {
                    global: path.global,
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
            ast::Using::Alias {
                template,
                name,
                ty,
                span,
            } => {
                if let Some(params) = template {
                    let id = TemplateId(self.templates.len() as u32);
                    self.templates.push(Template {
                        name: name.name,
                        params,
                        kind: TemplateKind::Alias(ty),
                        scope,
                        instances: Default::default(),
                        span: *span,
                    });
                    self.declare_name(scope, *name, Sym::Template(id));
                    return;
                }
                let t = self.resolve_type(ty, env);
                match locals {
                    Some(l) => {
                        l.declare(name.name, super::func::LocalSym::Type(t));
                    }
                    None => self.declare_name(scope, *name, Sym::Type(t)),
                }
            }
        }
    }

    pub fn declare_typedef(
        &mut self,
        td: &'a ast::Typedef,
        env: &Env,
        scope: ScopeId,
        locals: Option<&mut super::func::Locals>,
    ) {
        let st = self.check_modifiers(&td.modifiers, DeclSite::Typedef);
        let base = self.resolve_type(&td.ty, env);
        let ty = self.array_type(base.ty, &td.array, env, None);
        let major = st.major.map(|(m, _)| m).or(base.major);
        let entry = TypeEntry { ty, major };
        match locals {
            Some(l) => {
                l.declare(td.name.name, super::func::LocalSym::Type(entry));
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
        locals: Option<&mut super::func::Locals>,
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
            scoped: ed.scoped,
            underlying,
            values: Vec::new(),
            span: ed.span,
        });
        let eid = match self.types.get(ty) {
            Ty::Enum(e) => *e,
            _ => return types::ERROR,
        };
        if self.enum_scopes.len() <= eid.0 as usize {
            self.enum_scopes.resize(eid.0 as usize + 1, GLOBAL_SCOPE);
        }
        self.enum_scopes[eid.0 as usize] = escope;
        let mut locals = locals;
        if let Some(n) = ed.name {
            let entry = TypeEntry { ty, major: None };
            match locals.as_deref_mut() {
                Some(l) => {
                    l.declare(n.name, super::func::LocalSym::Type(entry));
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
            let v = super::consteval::wrap_int(v, underlying);
            next = v.wrapping_add(1);
            self.types.enums[eid.0 as usize].values.push((id.name, v));
            let sym = Sym::Value(ConstVal::Int(v), ty);
            let _ = self.scopes.declare(escope, id.name, sym.clone());
            if !ed.scoped {
                match locals.as_deref_mut() {
                    Some(l) => {
                        l.declare(
                            id.name,
                            super::func::LocalSym::Value(Konst {
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

    // --- structs ----------------------------------------------------------

    /// Declares a struct (or registers a struct template) and returns its
    /// type.
    pub fn declare_struct(&mut self, sd: &'a ast::StructDecl, scope: ScopeId) -> TyId {
        if let Some(params) = &sd.template {
            let Some(name) = sd.name else {
                return types::ERROR;
            };
            let id = TemplateId(self.templates.len() as u32);
            self.templates.push(Template {
                name: name.name,
                params,
                kind: TemplateKind::Struct(sd),
                scope,
                instances: Default::default(),
                span: sd.span,
            });
            self.declare_name(scope, name, Sym::Template(id));
            return types::ERROR;
        }
        self.declare_struct_named(sd, scope, None, None)
    }

    /// Declares a struct type. Template instances pass their display name
    /// and are not declared by name in `scope` (the template is).
    pub fn declare_struct_named(
        &mut self,
        sd: &'a ast::StructDecl,
        scope: ScopeId,
        display: Option<String>,
        instance: Option<(TemplateId, Vec<TArg>)>,
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
        let sscope = self.scopes.add(scope, ScopeKind::Namespace, Some(name));
        let ty = self.types.add_struct(StructInfo {
            name,
            display,
            base: None,
            fields: Vec::new(),
            methods: Default::default(),
            scope: sscope.0,
            is_interface: sd.kind == ast::StructKind::Interface,
            complete: false,
            span: sd.span,
        });
        self.scopes.get_mut(sscope).kind = ScopeKind::Struct(ty);
        let sid = match self.types.get(ty) {
            Ty::Struct(s) => *s,
            _ => return types::ERROR,
        };
        let entry = Sym::Type(TypeEntry { ty, major: None });
        // The struct's own name inside it (injected name).
        let _ = self.scopes.declare(sscope, name, entry.clone());
        if instance.is_none() {
            if let Some(n) = sd.name {
                self.declare_name(scope, n, entry);
            }
        }
        let env = Env::at(sscope);
        for b in &sd.bases {
            let bt = self.resolve_type(b, &env).ty;
            match self.types.get(bt) {
                Ty::Struct(bs) => {
                    if self.types.struct_info(*bs).is_interface {
                        continue;
                    }
                    if self.types.structs[sid.0 as usize].base.is_some() {
                        self.unsupported("multiple inheritance", b.span);
                        continue;
                    }
                    self.types.structs[sid.0 as usize].base = Some(bt);
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
                ast::StructMember::Error(_) => {}
            }
        }
        self.types.structs[sid.0 as usize].complete = true;
        ty
    }

    fn declare_fields(
        &mut self,
        vd: &'a ast::VarDecl,
        sid: types::StructId,
        _sty: TyId,
        sscope: ScopeId,
    ) {
        let st = self.check_modifiers(&vd.modifiers, DeclSite::Field);
        let env = Env::at(sscope);
        let base = self.resolve_type(&vd.ty, &env);
        if st.is_static.is_some() {
            // Static members are globals in the struct's scope.
            for d in &vd.declarators {
                self.declare_one_global(vd, d, &st, base, sscope);
            }
            return;
        }
        for d in &vd.declarators {
            let ty = self.array_type(base.ty, &d.array, &env, None);
            let bits = match &d.bit_width {
                Some(w) => self.bit_field(sid, ty, w, &env),
                None => None,
            };
            self.check_major(&st, ty);
            let major = st
                .major
                .map(|(m, _)| m)
                .or(base.major)
                .or(Some(self.default_row_major()));
            let attrs = &vd.attrs;
            let vk_offset = find_attr(attrs, "vk::offset")
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32);
            let vk_location = find_attr(attrs, "vk::location")
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32);
            let vk_builtin = find_attr(attrs, "vk::builtin")
                .and_then(|a| a.args.first())
                .and_then(|e| match &e.kind {
                    ast::ExprKind::Literal(ast::Literal::String(s)) => Some(*s),
                    _ => None,
                });
            if let Some(prev) = self.types.structs[sid.0 as usize]
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
            let info = &self.types.structs[sid.0 as usize];
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
            self.types.structs[sid.0 as usize].fields.push(Field {
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
                vk_builtin,
                span: d.name.span,
            });
        }
    }

    /// Places a bit-field of `ty` and `width` bits after the struct's last
    /// field: in the same storage unit when it is a bit-field of the same
    /// type with room left, else at the start of a new unit (as C and DXC).
    fn bit_field(
        &mut self,
        sid: types::StructId,
        ty: TyId,
        w: &'a ast::Expr,
        env: &Env,
    ) -> Option<types::BitField> {
        let Some(width) = self.const_int(w, env) else {
            return None;
        };
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
        let last = self.types.structs[sid.0 as usize].fields.last();
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
    fn check_major(&mut self, st: &Storage, ty: TyId) {
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
            let Some(s) = self.resolve_scope_path(&f.name, &Env::at(scope)) else {
                return None;
            };
            let st = match self.scopes.get(s).kind {
                ScopeKind::Struct(t) => Some(t),
                _ => None,
            };
            (s, st)
        } else {
            (scope, this_struct)
        };
        let this_ty = if is_static { None } else { this_struct };
        if f.template.is_some() {
            let id = FuncDeclId(self.funcs.len() as u32);
            self.funcs.push(FuncDecl {
                name: name.name,
                ast: f,
                def: f.body.as_ref().map(|_| f),
                scope,
                this_ty,
                is_template: true,
                sig: None,
                ir: None,
                instances: Default::default(),
            });
            self.register_func(scope, name, id, this_struct);
            return Some(id);
        }
        let sig = self.resolve_sig(f, &Env::at(scope));
        // A matching earlier declaration?
        if let Some(Sym::Funcs(list)) = self.scopes.lookup_in(scope, name.name).cloned() {
            for id in list {
                let d = &self.funcs[id.0 as usize];
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
                    let d = &mut self.funcs[id.0 as usize];
                    d.def = Some(f);
                    // The definition's parameter names are the ones the body uses.
                    d.sig = Some(sig);
                }
                return Some(id);
            }
        }
        let id = FuncDeclId(self.funcs.len() as u32);
        self.funcs.push(FuncDecl {
            name: name.name,
            ast: f,
            def: f.body.as_ref().map(|_| f),
            scope,
            this_ty,
            is_template: false,
            sig: Some(sig),
            ir: None,
            instances: Default::default(),
        });
        self.register_func(scope, name, id, this_struct);
        Some(id)
    }

    fn register_func(
        &mut self,
        scope: ScopeId,
        name: ast::Ident,
        id: FuncDeclId,
        this_struct: Option<TyId>,
    ) {
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
        if let Some(t) = this_struct {
            if let Some(sid) = self.types.as_struct(t) {
                self.types.structs[sid.0 as usize]
                    .methods
                    .entry(name.name)
                    .or_default()
                    .push(id.0);
            }
        }
    }

    /// Resolves a function's signature.
    pub fn resolve_sig(&mut self, f: &'a ast::Function, env: &Env) -> Sig<'a> {
        let fst = self.check_modifiers(&f.modifiers, DeclSite::Function);
        let ret = self.resolve_type(&f.return_type, env).ty;
        let mut params = Vec::with_capacity(f.params.len());
        for p in &f.params {
            let st = self.check_modifiers(&p.modifiers, DeclSite::Param);
            let base = self.resolve_type(&p.ty, env);
            let ty = self.array_type(base.ty, &p.array, env, None);
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
                default: p.default.as_ref(),
                precise: st.precise,
                major: st.major.map(|(m, _)| m).or(base.major),
                interp: st.interp,
                sampling: st.sampling,
                semantic: p.annotations.semantic.map(|s| (s.name, s.span)),
                uniform: st.uniform.is_some(),
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

    // --- global variables -----------------------------------------------

    fn declare_global_vars(&mut self, vd: &'a ast::VarDecl, scope: ScopeId) {
        let st = self.check_modifiers(&vd.modifiers, DeclSite::Global);
        let base = self.resolve_type(&vd.ty, &Env::at(scope));
        for d in &vd.declarators {
            if d.qualifier.is_some() {
                self.define_static_member(d, base, scope);
                continue;
            }
            self.declare_one_global(vd, d, &st, base, scope);
        }
    }

    /// `float4 S::M = init;`: the out-of-line definition of a static
    /// member declared in struct `S`.
    fn define_static_member(&mut self, d: &'a ast::Declarator, base: TypeEntry, scope: ScopeId) {
        let Some(q) = &d.qualifier else { return };
        let mut full = q.clone();
        full.segments.push(d.name);
        let Some(s) = self.resolve_scope_path(&full, &Env::at(scope)) else {
            return;
        };
        let Some(Sym::Global(g)) = self.scopes.lookup_in(s, d.name.name).cloned() else {
            self.error(
                codes::UNKNOWN_NAME,
                format!("no static member `{}` to define", d.name.name),
                d.name.span,
                "not declared in that struct",
            );
            return;
        };
        let ty = self.array_type(base.ty, &d.array, &Env::at(s), None);
        let Some(init) = &d.init else { return };
        if let GlobalKind::Var { gv, .. } = self.globals[g.0 as usize].kind {
            let (_, c) = self.lower_global_init(ty, init, s);
            match c {
                Some(c) => self.module.globals[gv].init = Some(c),
                None => self.static_inits.push((g, init, s)),
            }
            if self.types.is_scalar(ty) {
                if let ast::Initializer::Expr(e) = init {
                    if let Ok(k) = self.const_eval(e, &Env::at(s)) {
                        let sc = self.types.component(ty).unwrap_or(Sc::I32);
                        self.globals[g.0 as usize].konst = Some(k.convert(sc));
                    }
                }
            }
        }
    }

    fn new_global(&mut self, info: GlobalInfo, scope: ScopeId, name: ast::Ident) -> GlobalId {
        let id = GlobalId(self.globals.len() as u32);
        self.globals.push(info);
        self.declare_name(scope, name, Sym::Global(id));
        id
    }

    fn declare_one_global(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        st: &Storage,
        base: TypeEntry,
        scope: ScopeId,
    ) {
        let env = Env::at(scope);
        let mut ty = self.array_type(base.ty, &d.array, &env, None);
        let span = d.name.span;
        let mut info = GlobalInfo {
            name: d.name.name,
            ty,
            kind: GlobalKind::Error,
            span,
            read_only: None,
            konst: None,
            counter: None,
            resource: None,
        };
        if ty == types::ERROR {
            self.new_global(info, scope, d.name);
            return;
        }
        self.check_major(st, ty);
        let row_major = st
            .major
            .map(|(m, _)| m)
            .or(base.major)
            .unwrap_or(self.default_row_major());
        if self.types.is_resource(ty) || matches!(self.types.get(ty), Ty::Resource(..)) {
            if let Some(gs) = st.groupshared {
                self.unsupported("`groupshared` resource variables", gs);
                self.new_global(info, scope, d.name);
                return;
            }
            if st.is_static.is_some() {
                // A static resource is another name for a global resource,
                // given by its initializer or a later assignment.
                let mut alias = None;
                if let Some(ast::Initializer::Expr(e)) = &d.init {
                    let fb = FnBuilder::new(
                        ir::Function::default(),
                        scratch_handle(),
                        types::VOID,
                        scope,
                    );
                    let mut cx = FnCtx::new(self, fb);
                    let v = cx.expr(e);
                    let v = if v.ty != ty && !v.is_error() {
                        cx.convert(v, ty, e.span)
                    } else {
                        v
                    };
                    if !v.is_error() {
                        {
                            match cx.res_path(&v) {
                                Some(p) => alias = Some(cx.s.intern_res_path(p)),
                                None => {
                                    cx.unsupported("a static resource initialized with a resource not known at compile time", e.span);
                                }
                            }
                        }
                    }
                }
                info.kind = GlobalKind::ResAlias(alias);
                info.read_only = self.resource_read_only(ty, span);
                self.new_global(info, scope, d.name);
                return;
            }
            self.declare_resource_global(vd, d, ty, row_major, scope, info);
            return;
        }
        if self.types.contains_resource(ty) {
            self.unsupported("structs containing resources", d.span);
            self.new_global(info, scope, d.name);
            return;
        }
        // [[vk::push_constant]] on a struct variable.
        if find_attr(&vd.attrs, "vk::push_constant").is_some() {
            self.declare_push_constant(d, ty, scope, info);
            return;
        }
        if let Some(gs) = st.groupshared {
            if !matches!(
                self.stage,
                Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Library
            ) {
                self.push(
                    Diagnostic::error(
                        codes::GROUPSHARED_STAGE,
                        format!(
                            "groupshared variable `{}` in a {} shader",
                            d.name.name,
                            stage_name(self.stage)
                        ),
                    )
                    .label(
                        gs,
                        "groupshared memory exists only in compute, mesh and amplification shaders",
                    )
                    .label(span, "declared here"),
                );
            }
            if let Some(init) = &d.init {
                self.push(
                    Diagnostic::error(
                        codes::GROUPSHARED_INIT,
                        format!("groupshared variable `{}` cannot have an initializer", d.name.name),
                    )
                    .label(init.span(), "initializer not allowed")
                    .label(gs, "because the variable is groupshared")
                    .note("groupshared memory is uninitialized; write it from the threads, then sync with a barrier"),
                );
            }
            if matches!(self.types.get(ty), Ty::Array(_, None)) {
                self.error(
                    codes::UNSIZED_ARRAY,
                    "groupshared arrays need a size",
                    span,
                    "unsized array",
                );
                self.new_global(info, scope, d.name);
                return;
            }
            let irt = self.ir_ty(ty);
            let gv = self.module.globals.append(ir::GlobalVariable {
                name: Some(d.name.name.to_string()),
                space: ir::AddressSpace::Workgroup,
                ty: irt,
                init: None,
                binding: None,
                io: None,
                precise: st.precise,
                invariant: false,
                semantic: None,
                counter: None,
            });
            self.groupshared.push((d.name.name, ty, span));
            info.kind = GlobalKind::Var { gv, mem: irt };
            self.new_global(info, scope, d.name);
            return;
        }
        if st.is_static.is_some() {
            let mut init_const = None;
            if let Some(init) = &d.init {
                let (t2, c) = self.lower_global_init(ty, init, scope);
                ty = t2;
                info.ty = ty;
                init_const = c;
                if st.is_const.is_some() {
                    if let ast::Initializer::Expr(e) = init {
                        if self.types.is_scalar(ty) {
                            let sc = self.types.component(ty).unwrap_or(Sc::I32);
                            if let Ok(k) = self.const_eval(e, &env) {
                                info.konst = Some(k.convert(sc));
                            }
                        }
                    }
                }
            } else if matches!(self.types.get(ty), Ty::Array(_, None)) {
                self.error(
                    codes::UNSIZED_ARRAY,
                    "an array without size needs an initializer",
                    span,
                    "unsized array",
                );
                self.new_global(info, scope, d.name);
                return;
            }
            let irt = self.ir_ty(ty);
            let gv = self.module.globals.append(ir::GlobalVariable {
                name: Some(d.name.name.to_string()),
                space: ir::AddressSpace::Private,
                ty: irt,
                init: init_const,
                binding: None,
                io: None,
                precise: st.precise,
                invariant: false,
                semantic: None,
                counter: None,
            });
            info.kind = GlobalKind::Var { gv, mem: irt };
            if let Some(c) = st.is_const {
                info.read_only = Some(ReadOnly::Const(c));
            }
            let id = self.new_global(info, scope, d.name);
            if let (Some(init), None) = (&d.init, init_const) {
                self.static_inits.push((id, init, scope));
            }
            return;
        }
        // A uniform: a member of $Globals.
        if let Some(init) = &d.init {
            self.warn(
                codes::LOSSY_CONVERSION,
                format!("the initializer of uniform `{}` is ignored", d.name.name),
                init.span(),
                "uniforms are set by the application",
            );
        }
        if matches!(self.types.get(ty), Ty::Array(_, None)) {
            self.error(
                codes::UNSIZED_ARRAY,
                "a uniform array needs a size",
                span,
                "unsized array",
            );
            self.new_global(info, scope, d.name);
            return;
        }
        let mut offset = None;
        for r in &d.annotations.registers {
            if let Some(slot) = r.slot {
                if let Some(('c', n)) = parse_register_slot(slot.name.as_str()) {
                    offset = Some(n * 16);
                }
            }
        }
        if let Some(p) = &d.annotations.packoffset {
            self.error(
                codes::BAD_REGISTER,
                "packoffset is only allowed on cbuffer members",
                p.span,
                "not in a cbuffer",
            );
        }
        let idx = self.globals_members.len() as u32;
        self.globals_members.push(GlobalsMember {
            global: GlobalId(self.globals.len() as u32),
            name: d.name.name,
            ty,
            row_major,
            offset,
            span,
        });
        if self.globals_block_order.is_none() {
            self.globals_block_order = Some(self.resources.len());
        }
        info.kind = GlobalKind::PendingGlobal(idx);
        info.read_only = Some(ReadOnly::Uniform(span));
        self.new_global(info, scope, d.name);
    }

    /// Lowers a static global's initialiser in a scratch context: gives the
    /// (sized) type, and the module constant when the value is constant.
    fn lower_global_init(
        &mut self,
        ty: TyId,
        init: &'a ast::Initializer,
        scope: ScopeId,
    ) -> (TyId, Option<ir::Handle<ir::Expression>>) {
        let fb = FnBuilder::new(
            ir::Function::default(),
            scratch_handle(),
            types::VOID,
            scope,
        );
        let mut cx = FnCtx::new(self, fb);
        let (t2, v) = cx.lower_initializer(ty, init);
        let c = match cx.value(&v) {
            Some(h) => cx.lift_const(h),
            None => None,
        };
        (t2, c)
    }

    fn declare_push_constant(
        &mut self,
        d: &'a ast::Declarator,
        ty: TyId,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let rule = Rule::for_buffer(self.opts.layout, BufferKind::Storage);
        let (elem, name) = match self.types.get(ty) {
            Ty::Resource(ResKind::ConstantBuffer, Some(t)) => {
                (*t, format!("type.PushConstant.{}", self.ty_name(*t)))
            }
            Ty::Struct(_) => (ty, format!("type.PushConstant.{}", self.ty_name(ty))),
            _ => {
                self.error(
                    codes::RESOURCE_MISUSE,
                    "a push constant block must be a struct",
                    d.span,
                    "not a struct",
                );
                self.new_global(info, scope, d.name);
                return;
            }
        };
        let block = self.struct_block(elem, name, rule);
        let gv = self.module.globals.append(ir::GlobalVariable {
            name: Some(d.name.name.to_string()),
            space: ir::AddressSpace::PushConstant,
            ty: block,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        info.ty = elem;
        info.kind = GlobalKind::Var { gv, mem: block };
        info.read_only = Some(ReadOnly::CBuffer(d.name.span));
        self.new_global(info, scope, d.name);
    }

    /// A block whose members are those of struct `elem` (its base first),
    /// laid out under `rule`, named `name`.
    pub fn struct_block(&mut self, elem: TyId, name: String, rule: Rule) -> ir::Handle<ir::Type> {
        let mut members = Vec::new();
        if let Some(sid) = self.types.as_struct(elem) {
            let info = self.types.struct_info(sid).clone();
            if let Some(b) = info.base {
                members.push(MemberSpec {
                    name: Some(self.ty_name(b)),
                    ty: b,
                    row_major: false,
                    precise: false,
                    offset: None,
                });
            }
            for f in info
                .fields
                .iter()
                .filter(|f| !f.bits.is_some_and(|b| b.shares))
            {
                members.push(MemberSpec {
                    name: Some(f.name.to_string()),
                    ty: f.ty,
                    row_major: f.major.unwrap_or(false),
                    precise: f.precise,
                    offset: f.vk_offset,
                });
            }
        }
        self.layouts
            .structure(
                &mut self.types,
                &mut self.module,
                Some(name),
                &members,
                rule,
            )
            .ty
    }

    /// Textures, samplers, buffers, `ConstantBuffer<T>` and arrays of them.
    fn declare_resource_global(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        _row_major: bool,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let env = Env::at(scope);
        // Peel arrays: a resource array is one binding.
        let mut dims = Vec::new();
        let mut elem = ty;
        while let Ty::Array(e, n) = *self.types.get(elem) {
            dims.push(n);
            elem = e;
        }
        if d.init.is_some() {
            self.unsupported("initializers on resource variables", d.span);
        }
        if find_attr(&vd.attrs, "vk::push_constant").is_some() {
            if dims.is_empty() {
                self.declare_push_constant(d, ty, scope, info);
                return;
            }
        }
        let (mem, space, hlsl_ty, read_only) = match self.types.get(elem).clone() {
            Ty::Resource(ResKind::ConstantBuffer, Some(t))
            | Ty::Resource(ResKind::TextureBuffer, Some(t)) => {
                let is_cb = matches!(
                    self.types.get(elem),
                    Ty::Resource(ResKind::ConstantBuffer, _)
                );
                if self.types.as_struct(t).is_none() {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!(
                            "the element type of `{}` must be a struct",
                            self.ty_name(elem)
                        ),
                        vd.ty.span,
                        "not a struct",
                    );
                    self.new_global(info, scope, d.name);
                    return;
                }
                let (rule, prefix, space) = if is_cb {
                    (
                        Rule::for_buffer(self.opts.layout, BufferKind::Uniform),
                        "ConstantBuffer",
                        ir::AddressSpace::Uniform,
                    )
                } else {
                    (
                        Rule::for_buffer(self.opts.layout, BufferKind::Storage),
                        "TextureBuffer",
                        ir::AddressSpace::Storage { writable: false },
                    )
                };
                let name = format!("type.{prefix}.{}", self.ty_name(t));
                let block = self.struct_block(t, name, rule);
                if !dims.is_empty() {
                    self.unsupported("arrays of ConstantBuffer/TextureBuffer", d.span);
                }
                (block, space, t, Some(ReadOnly::CBuffer(d.name.span)))
            }
            Ty::Resource(kind, _) if kind.is_structured() || kind.is_byte_address() => {
                let block = self.buffer_block(elem);
                let ro = (!kind.is_rw()).then_some(ReadOnly::Resource(d.name.span));
                (
                    block,
                    ir::AddressSpace::Storage {
                        writable: kind.is_rw(),
                    },
                    ty,
                    ro,
                )
            }
            Ty::Resource(kind, e) => {
                let mut t = self.ir_ty(elem);
                if let Some(fmt) = find_attr(&vd.attrs, "vk::image_format") {
                    if let Some(f) = self.image_format_attr(fmt) {
                        if let Some(ir::TypeInner::Image {
                            dim,
                            arrayed,
                            multisampled,
                            sampled,
                            class: ir::ImageClass::Storage { .. },
                        }) = super::types::image_of(&self.types, kind, e)
                        {
                            t = self.module.ty(ir::TypeInner::Image {
                                dim,
                                arrayed,
                                multisampled,
                                sampled,
                                class: ir::ImageClass::Storage { format: f },
                            });
                        }
                    }
                }
                let ro = (!kind.is_rw()).then_some(ReadOnly::Resource(d.name.span));
                (t, ir::AddressSpace::Handle, ty, ro)
            }
            Ty::Sampler { .. } => {
                let t = self.ir_ty(elem);
                (
                    t,
                    ir::AddressSpace::Handle,
                    ty,
                    Some(ReadOnly::Resource(d.name.span)),
                )
            }
            _ => {
                self.new_global(info, scope, d.name);
                return;
            }
        };
        // Wrap the arrays around the element's memory type.
        let mut gty = mem;
        for n in dims.iter().rev() {
            gty = self.module.ty(ir::TypeInner::Array {
                base: gty,
                size: match n {
                    Some(n) => ir::ArraySize::Constant(*n),
                    None => ir::ArraySize::Runtime,
                },
                stride: None,
            });
        }
        let gv = self.module.globals.append(ir::GlobalVariable {
            name: Some(d.name.name.to_string()),
            space,
            ty: gty,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        let class = match self.types.get(elem) {
            Ty::Resource(k, _) => k.register_class(),
            _ => crate::options::RegisterClass::S,
        };
        let (vk_binding, counter_binding) = self.binding_attrs(&vd.attrs, &env);
        let register = self.register_annotation(&d.annotations, space);
        let rindex = self.resources.len() as u32;
        self.resources.push(ResourceDecl {
            gv,
            name: d.name.name,
            vk_binding,
            register,
            counter_binding,
            class,
            counter_of: None,
            span: d.name.span,
        });
        info.ty = hlsl_ty;
        info.kind = GlobalKind::Var { gv, mem: gty };
        info.read_only = read_only;
        info.resource = Some(rindex);
        // Append/Consume buffers always have their counter, right after them.
        if let Ty::Resource(k, _) = *self.types.get(elem) {
            if matches!(
                k,
                ResKind::AppendStructuredBuffer | ResKind::ConsumeStructuredBuffer
            ) {
                if dims.is_empty() {
                    let c = self.make_counter(gv, rindex, d.name.name, d.name.span);
                    info.counter = Some(c);
                } else {
                    self.unsupported("arrays of append/consume buffers", d.span);
                }
            }
        }
        self.new_global(info, scope, d.name);
    }

    /// The counter buffer of a RW/Append/Consume structured buffer: a block
    /// `{ int }` with its own binding (SPIR-V.rst, "Counter buffers").
    pub fn make_counter(
        &mut self,
        of: ir::Handle<ir::GlobalVariable>,
        rindex: u32,
        name: Symbol,
        span: Span,
    ) -> ir::Handle<ir::GlobalVariable> {
        let block = self.counter_block_type();
        let gv = self.module.globals.append(ir::GlobalVariable {
            name: Some(format!("counter.var.{name}")),
            space: ir::AddressSpace::Storage { writable: true },
            ty: block,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        self.module.globals[of].counter = Some(gv);
        let main = self.resources[rindex as usize].clone();
        self.resources.push(ResourceDecl {
            gv,
            name,
            vk_binding: main.vk_binding.map(|(_, set)| (u32::MAX, set)),
            register: main.register,
            counter_binding: main.counter_binding,
            class: main.class,
            counter_of: Some(rindex),
            span,
        });
        gv
    }

    /// `type.ACSBuffer.counter { int counter; }`.
    pub fn counter_block_type(&mut self) -> ir::Handle<ir::Type> {
        let int = self.module.scalar_type(ir::Scalar::I32);
        self.module.types.insert(ir::Type {
            name: Some("type.ACSBuffer.counter".into()),
            inner: ir::TypeInner::Struct {
                members: vec![ir::StructMember {
                    name: Some("counter".into()),
                    ty: int,
                    offset: Some(0),
                    matrix_layout: None,
                    precise: false,
                    binding: None,
                }],
                size: 4,
            },
        })
    }

    /// The storage block of a structured or byte-address buffer:
    /// `type.RWStructuredBuffer.T { T[] }`, `type.ByteAddressBuffer { uint[] }`.
    pub fn buffer_block(&mut self, res: TyId) -> ir::Handle<ir::Type> {
        let Ty::Resource(kind, elem) = self.types.get(res).clone() else {
            return self.module.scalar_type(ir::Scalar::U32);
        };
        let rule = Rule::for_buffer(self.opts.layout, BufferKind::Storage);
        let mut matrix_layout = None;
        let (arr, name) = match elem {
            Some(t) if kind.is_structured() => {
                let ra = self.types.array(t, None);
                let laid = self.layouts.layout(
                    &mut self.types,
                    &mut self.module,
                    ra,
                    rule,
                    self.pack_row_major,
                );
                matrix_layout = laid.matrix;
                (laid.ty, format!("type.{}.{}", kind.name(), self.ty_name(t)))
            }
            _ => {
                let u = self.module.scalar_type(ir::Scalar::U32);
                let ra = self.module.ty(ir::TypeInner::Array {
                    base: u,
                    size: ir::ArraySize::Runtime,
                    stride: Some(4),
                });
                (ra, format!("type.{}", kind.name()))
            }
        };
        self.module.types.insert(ir::Type {
            name: Some(name),
            inner: ir::TypeInner::Struct {
                members: vec![ir::StructMember {
                    name: None,
                    ty: arr,
                    offset: Some(0),
                    matrix_layout,
                    precise: false,
                    binding: None,
                }],
                size: 0,
            },
        })
    }

    fn image_format_attr(&mut self, a: &ast::Attribute) -> Option<ir::ImageFormat> {
        use ir::ImageFormat as F;
        let s = match a.args.first().map(|e| &e.kind) {
            Some(ast::ExprKind::Literal(ast::Literal::String(s))) => s.as_str(),
            _ => {
                self.error(
                    codes::BAD_ATTRIBUTE,
                    "vk::image_format takes a format name string",
                    a.span,
                    "expected a string",
                );
                return None;
            }
        };
        Some(match s {
            "unknown" => F::Unknown,
            "rgba32f" => F::Rgba32f,
            "rgba16f" => F::Rgba16f,
            "r32f" => F::R32f,
            "rgba8" => F::Rgba8,
            "rgba8snorm" => F::Rgba8Snorm,
            "rg32f" => F::Rg32f,
            "rg16f" => F::Rg16f,
            "r11g11b10f" => F::R11fG11fB10f,
            "r16f" => F::R16f,
            "rgba16" => F::Rgba16,
            "rgb10a2" => F::Rgb10A2,
            "rg16" => F::Rg16,
            "rg8" => F::Rg8,
            "r16" => F::R16,
            "r8" => F::R8,
            "rgba16snorm" => F::Rgba16Snorm,
            "rg16snorm" => F::Rg16Snorm,
            "rg8snorm" => F::Rg8Snorm,
            "r16snorm" => F::R16Snorm,
            "r8snorm" => F::R8Snorm,
            "rgba32i" => F::Rgba32i,
            "rgba16i" => F::Rgba16i,
            "rgba8i" => F::Rgba8i,
            "r32i" => F::R32i,
            "rg32i" => F::Rg32i,
            "rg16i" => F::Rg16i,
            "rg8i" => F::Rg8i,
            "r16i" => F::R16i,
            "r8i" => F::R8i,
            "rgba32ui" => F::Rgba32ui,
            "rgba16ui" => F::Rgba16ui,
            "rgba8ui" => F::Rgba8ui,
            "r32ui" => F::R32ui,
            "rgb10a2ui" => F::Rgb10a2ui,
            "rg32ui" => F::Rg32ui,
            "rg16ui" => F::Rg16ui,
            "rg8ui" => F::Rg8ui,
            "r16ui" => F::R16ui,
            "r8ui" => F::R8ui,
            "r64ui" => F::R64ui,
            "r64i" => F::R64i,
            other => {
                self.error(
                    codes::BAD_ATTRIBUTE,
                    format!("unknown image format `{other}`"),
                    a.span,
                    "not a format name",
                );
                return None;
            }
        })
    }

    /// `[[vk::binding(b, s)]]` and `[[vk::counter_binding(c)]]`.
    fn binding_attrs(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> (Option<(u32, u32)>, Option<u32>) {
        let mut b = None;
        if let Some(a) = find_attr(attrs, "vk::binding") {
            let binding = a.args.first().and_then(|e| self.const_int(e, env));
            let set = match a.args.get(1) {
                Some(e) => self.const_int(e, env),
                None => Some(0),
            };
            match (binding, set) {
                (Some(bi), Some(se)) if bi >= 0 && se >= 0 => b = Some((bi as u32, se as u32)),
                _ => {
                    self.error(
                        codes::BAD_ATTRIBUTE,
                        "vk::binding takes a binding number and an optional set",
                        a.span,
                        "invalid arguments",
                    );
                }
            }
        }
        let c = find_attr(attrs, "vk::counter_binding")
            .and_then(|a| a.args.first())
            .and_then(|e| self.const_int(e, env))
            .map(|v| v as u32);
        (b, c)
    }

    /// `register(t3, space1)`: class, number, space. `register(space2)`
    /// gives no class and number `u32::MAX` (implicit binding in that set).
    pub fn register_annotation(
        &mut self,
        ann: &ast::Annotations,
        _space: ir::AddressSpace,
    ) -> Option<(Option<char>, u32, u32)> {
        for r in &ann.registers {
            if r.profile.is_some() {
                // Profile-specific registers (`register(ps_5_0, t0)`) do not
                // apply to the SPIR-V target.
                continue;
            }
            let space = match r.space {
                Some(s) => match parse_space(s.name.as_str()) {
                    Some(n) => n,
                    None => {
                        self.error(
                            codes::BAD_REGISTER,
                            format!("invalid register space `{}`", s.name),
                            s.span,
                            "expected `spaceN`",
                        );
                        return None;
                    }
                },
                None => 0,
            };
            match r.slot {
                Some(slot) => match parse_register_slot(slot.name.as_str()) {
                    Some((c, n)) if "btusc".contains(c) => return Some((Some(c), n, space)),
                    _ => {
                        // `register(space1)` parsed as the slot.
                        if let Some(sp) = parse_space(slot.name.as_str()) {
                            return Some((None, u32::MAX, sp));
                        }
                        self.error(
                            codes::BAD_REGISTER,
                            format!("invalid register `{}`", slot.name),
                            slot.span,
                            "expected b, t, u or s and a number",
                        );
                        return None;
                    }
                },
                None => return Some((None, u32::MAX, space)),
            }
        }
        None
    }

    // --- cbuffers ---------------------------------------------------------

    fn declare_cbuffer(&mut self, cb: &'a ast::CBuffer, scope: ScopeId) {
        let env = Env::at(scope);
        let is_cb = cb.kind == ast::CBufferKind::CBuffer;
        let rule = Rule::for_buffer(
            self.opts.layout,
            if is_cb {
                BufferKind::Uniform
            } else {
                BufferKind::Storage
            },
        );
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
                    let info = GlobalInfo {
                        name: d.name.name,
                        ty,
                        kind: GlobalKind::Error,
                        span: d.name.span,
                        read_only: None,
                        konst: None,
                        counter: None,
                        resource: None,
                    };
                    self.declare_resource_global(vd, d, ty, false, scope, info);
                    continue;
                }
                self.check_major(&st, ty);
                let row_major = st
                    .major
                    .map(|(m, _)| m)
                    .or(base.major)
                    .unwrap_or(self.default_row_major());
                let mut offset = find_attr(&vd.attrs, "vk::offset")
                    .and_then(|a| a.args.first())
                    .and_then(|e| self.const_int(e, &env))
                    .map(|v| v as u32);
                if offset.is_none() {
                    if let Some(p) = &d.annotations.packoffset {
                        offset = self.packoffset(p);
                    }
                }
                specs.push(MemberSpec {
                    name: Some(d.name.name.to_string()),
                    ty,
                    row_major,
                    precise: st.precise,
                    offset,
                });
                members.push((d.name, ty));
            }
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
        let space = if is_cb {
            ir::AddressSpace::Uniform
        } else {
            ir::AddressSpace::Storage { writable: false }
        };
        let gv = self.module.globals.append(ir::GlobalVariable {
            name: Some(cb.name.name.to_string()),
            space,
            ty: block,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        let (vk_binding, counter_binding) = self.binding_attrs(&cb.attrs, &env);
        let register = self.register_annotation(&cb.annotations, space);
        self.resources.push(ResourceDecl {
            gv,
            name: cb.name.name,
            vk_binding,
            register,
            counter_binding,
            class: if is_cb {
                crate::options::RegisterClass::B
            } else {
                crate::options::RegisterClass::T
            },
            counter_of: None,
            span: cb.name.span,
        });
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
            };
            self.new_global(info, scope, name);
        }
    }

    /// `packoffset(c2.y)` → 2*16 + 4.
    fn packoffset(&mut self, p: &ast::PackOffset) -> Option<u32> {
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
    pub(super) fn build_globals_block(&mut self) {
        if self.globals_members.is_empty() {
            return;
        }
        let rule = Rule::for_buffer(self.opts.layout, BufferKind::Uniform);
        let mut specs: Vec<MemberSpec> = self
            .globals_members
            .iter()
            .map(|m| MemberSpec {
                name: Some(m.name.to_string()),
                ty: m.ty,
                row_major: m.row_major,
                precise: false,
                offset: m.offset,
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
            for i in 0..specs.len() {
                if specs[i].offset.is_none() {
                    let (l, off, _) = self.layouts.place_member(
                        &mut self.types,
                        &mut self.module,
                        &specs[i],
                        rule,
                        cur,
                    );
                    specs[i].offset = Some(off);
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
        let gv = self.module.globals.append(ir::GlobalVariable {
            name: Some("$Globals".into()),
            space: ir::AddressSpace::Uniform,
            ty: block,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        self.globals_block = Some(gv);
        let mem_types: Vec<ir::Handle<ir::Type>> = match &self.module.types[block].inner {
            ir::TypeInner::Struct { members, .. } => members.iter().map(|m| m.ty).collect(),
            _ => Vec::new(),
        };
        for (i, m) in self.globals_members.iter().enumerate() {
            self.globals[m.global.0 as usize].kind = GlobalKind::Member {
                gv,
                index: i as u32,
                mem: mem_types.get(i).copied().unwrap_or(block),
            };
        }
    }
}

pub fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vertex",
        Stage::Pixel => "pixel",
        Stage::Geometry => "geometry",
        Stage::Hull => "hull",
        Stage::Domain => "domain",
        Stage::Compute => "compute",
        Stage::Mesh => "mesh",
        Stage::Amplification => "amplification",
        Stage::Library => "library",
    }
}
