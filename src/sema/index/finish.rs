//! Turns what the [`Recorder`](super::Recorder) collected into an
//! [`Index`]: declarations from sema's tables, with the details hover
//! shows, and every occurrence pointing at its declaration's name.

use super::{Def, DefKind, Index, LocalDef, Raw, Recorder, SymKey};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir::Stage;
use crate::sema::decl::find_attr;
use crate::sema::table::Id;
use crate::sema::types::Ty;
use crate::sema::types::scope::{FuncDeclId, ScopeKind};
use crate::sema::{Dir, GlobalKind, Sema, TemplateKind};
use crate::span::Span;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The index of `s`'s compilation, when it was recording.
pub fn finish(s: &mut Sema) -> Option<Index> {
    let rec = s.index.take()?;
    let mut b = Builder {
        s,
        defs: Vec::new(),
        by_span: FxHashMap::default(),
    };
    for &(name, span, key) in &rec.names {
        b.scope_name(&rec, name, span, key);
    }
    b.fields(&rec);
    b.enum_values(&rec);
    b.cbuffers(&rec);
    let local_names = b.locals(&rec.locals);
    // Only the types are named here (each once: most expressions share a
    // few), which needs sema's tables; the occurrences are resolved and
    // sorted by the reader ([`Index::resolve`]) when it is asked, not on
    // the way to publishing diagnostics.
    let mut type_names: Vec<Option<Arc<str>>> = Vec::new();
    for &(_, ty) in &rec.types {
        let i = ty.index();
        if type_names.len() <= i {
            type_names.resize(i + 1, None);
        }
        if type_names[i].is_none() {
            type_names[i] = Some(s.ty_name(ty).into());
        }
    }
    let defs = b.defs;
    Some(Index {
        defs,
        uses: Vec::new(),
        types: Vec::new(),
        calls: Vec::new(),
        raw: Raw {
            uses: rec.uses,
            types: rec.types,
            type_names,
            local_names,
            name_spans: rec.name_spans,
            calls: rec.calls,
        },
    })
}

struct Builder<'b, 'a> {
    s: &'b Sema<'a>,
    defs: Vec<Def>,
    by_span: FxHashMap<Span, usize>,
}

impl Builder<'_, '_> {
    fn push(&mut self, d: Def) -> usize {
        if let Some(&i) = self.by_span.get(&d.span) {
            return i;
        }
        let i = self.defs.len();
        self.by_span.insert(d.span, i);
        if let Some(ds) = d.def_span {
            self.by_span.entry(ds).or_insert(i);
        }
        self.defs.push(d);
        i
    }

    fn def(&self, name: Symbol, kind: DefKind, span: Span, detail: String) -> Def {
        Def {
            name: name.to_string(),
            kind,
            span,
            def_span: None,
            extent: span,
            detail,
            container: None,
            ty: None,
            params: Vec::new(),
            param_names: Vec::new(),
            stage: None,
            readonly: false,
            is_static: false,
        }
    }

    /// A name declared in a namespace or struct scope.
    fn scope_name(&mut self, rec: &Recorder, name: Symbol, span: Span, key: SymKey) {
        let s = self.s;
        let d = match key {
            SymKey::Type(ty) => {
                let tname = s.ty_name(ty);
                let mut d = match s.types.get(ty) {
                    Ty::Struct(sid) => {
                        let info = s.types.struct_info(*sid);
                        let mut d =
                            self.def(name, DefKind::Struct, span, format!("struct {tname}"));
                        d.extent = info.span;
                        d
                    }
                    Ty::Enum(eid) => {
                        let mut d = self.def(name, DefKind::Enum, span, format!("enum {tname}"));
                        d.extent = s.types.enum_info(*eid).span;
                        d
                    }
                    _ => self.def(
                        name,
                        DefKind::Typedef,
                        span,
                        format!("typedef {tname} {name}"),
                    ),
                };
                d.ty = Some(tname);
                d
            }
            SymKey::Template(id) => {
                let t = &s.decls.templates[id];
                let what = match t.kind {
                    TemplateKind::Struct(_) => "struct",
                    TemplateKind::Alias(_) => "using",
                };
                let mut d = self.def(
                    name,
                    DefKind::Template,
                    span,
                    format!("template {what} {name}"),
                );
                d.extent = t.span;
                d
            }
            SymKey::Func(id) => self.function(id, span),
            SymKey::Global(g) => {
                let info = &s.decls.globals[g];
                let kind = if s.types.is_resource(info.ty) {
                    DefKind::Resource
                } else if matches!(info.kind, GlobalKind::Member { .. }) {
                    DefKind::CBufferMember
                } else {
                    DefKind::Global
                };
                let tname = s.ty_name(info.ty);
                let mut d = self.def(name, kind, span, format!("{tname} {name}"));
                d.ty = Some(tname);
                d.readonly = info.read_only.is_some();
                d.is_static = match &info.kind {
                    GlobalKind::Var { gv, .. } => {
                        s.module.globals[*gv].space == crate::ir::AddressSpace::Private
                    }
                    GlobalKind::ResAlias(_) => true,
                    _ => false,
                };
                d
            }
            SymKey::Namespace(_) => {
                self.def(name, DefKind::Namespace, span, format!("namespace {name}"))
            }
        };
        let i = self.push(d);
        // Methods belong to their struct.
        if let SymKey::Func(id) = key
            && let Some(st) = s.scopes.enclosing_struct(s.decls.funcs[id].scope)
            && let Some(cs) = rec.name_spans.get(&SymKey::Type(st))
            && let Some(&c) = self.by_span.get(cs)
        {
            self.defs[i].container = Some(c);
        }
    }

    /// A function with its resolved signature (templates: as written).
    fn function(&self, id: FuncDeclId, span: Span) -> Def {
        let s = self.s;
        let f = &s.decls.funcs[id];
        let method = s.scopes.enclosing_struct(f.scope).is_some()
            || matches!(s.scopes.get(f.scope).kind, ScopeKind::Struct(_));
        let kind = if method {
            DefKind::Method
        } else {
            DefKind::Function
        };
        let mut d = self.def(f.name, kind, span, String::new());
        let (ret, params) = match &f.sig {
            Some(sig) => {
                d.param_names = sig
                    .params
                    .iter()
                    .map(|p| p.name.map_or_else(String::new, |n| n.to_string()))
                    .collect();
                let params: Vec<String> = sig
                    .params
                    .iter()
                    .map(|p| {
                        let dir = match p.dir {
                            Dir::In => "",
                            Dir::Out => "out ",
                            Dir::InOut => "inout ",
                        };
                        let ty = s.ty_name(p.ty);
                        match p.name {
                            Some(n) => format!("{dir}{ty} {n}"),
                            None => format!("{dir}{ty}"),
                        }
                    })
                    .collect();
                (s.ty_name(sig.ret), params)
            }
            None => (
                "template".to_string(),
                f.ast
                    .params
                    .iter()
                    .map(|p| p.name.map_or_else(String::new, |n| n.name.to_string()))
                    .collect(),
            ),
        };
        d.detail = format!("{ret} {}({})", f.name, params.join(", "));
        d.params = params;
        if let Some(def) = f.def {
            d.def_span = Some(def.name.last().span);
            d.extent = def.span;
        }
        d.stage = entry_stage(s, f.def.unwrap_or(f.ast));
        d
    }

    /// Struct fields (of template instances too, which share their
    /// template's spans: the first wins).
    fn fields(&mut self, rec: &Recorder) {
        let s = self.s;
        for (ty, sid) in s.types.struct_types() {
            let info = s.types.struct_info(sid);
            let container = rec
                .name_spans
                .get(&SymKey::Type(ty))
                .or_else(|| {
                    let (t, _) = s.decls.struct_instances.get(&ty)?;
                    rec.name_spans.get(&SymKey::Template(*t))
                })
                .and_then(|sp| self.by_span.get(sp).copied());
            for f in &info.fields {
                let tname = s.ty_name(f.ty);
                let mut d = self.def(
                    f.name,
                    DefKind::Field,
                    f.span,
                    format!("{tname} {}", f.name),
                );
                if let Some((sem, _)) = f.semantic {
                    d.detail.push_str(&format!(" : {sem}"));
                }
                d.ty = Some(tname);
                d.container = container;
                self.push(d);
            }
        }
    }

    /// Enum values, in their enum: `Mode Fast = 1` (`Mode::Fast = 1` for
    /// an `enum class`).
    fn enum_values(&mut self, rec: &Recorder) {
        for v in &rec.enum_values {
            let ename = self.s.ty_name(v.ty);
            let sep = if v.scoped { "::" } else { " " };
            let detail = format!("{ename}{sep}{} = {}", v.name, v.value);
            let mut d = self.def(v.name, DefKind::EnumValue, v.span, detail);
            d.container = rec
                .name_spans
                .get(&SymKey::Type(v.ty))
                .and_then(|sp| self.by_span.get(sp).copied());
            d.ty = Some(ename);
            self.push(d);
        }
    }

    fn cbuffers(&mut self, rec: &Recorder) {
        for (name, span, extent, members) in &rec.cbuffers {
            let mut d = self.def(*name, DefKind::CBuffer, *span, format!("cbuffer {name}"));
            d.extent = *extent;
            let c = self.push(d);
            for m in members {
                if let Some(&i) = self.by_span.get(m) {
                    self.defs[i].container = Some(c);
                }
            }
        }
    }

    /// Locals and parameters; gives each one's name span by its key.
    fn locals(&mut self, locals: &[LocalDef]) -> FxHashMap<Span, Span> {
        let mut names = FxHashMap::default();
        for l in locals {
            let kind = if l.param {
                DefKind::Parameter
            } else {
                DefKind::Local
            };
            let mut d = self.def(l.name, kind, l.name_span, format!("{} {}", l.ty, l.name));
            d.ty = Some(l.ty.clone());
            d.readonly = l.readonly;
            d.container = l.function.and_then(|f| self.by_span.get(&f).copied());
            self.push(d);
            names.insert(l.key, l.name_span);
        }
        names
    }
}

/// The stage a function is an entry point of: the profile's for the `-E`
/// function, else the one its attributes name.
fn entry_stage(s: &Sema, f: &ast::Function) -> Option<&'static str> {
    let name = f.name.last().name;
    if f.name.is_single() && name.as_str() == s.opts.entry && s.stage != Stage::Library {
        return Some(s.stage.name());
    }
    if let Some(st) = find_attr(&f.attrs, Attr::Shader).and_then(|a| a.string_arg(0)) {
        return Stage::from_attribute_name(st).map(Stage::name);
    }
    let by_attr = [
        (Attr::NumThreads, Stage::Compute),
        (Attr::MaxVertexCount, Stage::Geometry),
        (Attr::OutputControlPoints, Stage::Hull),
        (Attr::Domain, Stage::Domain),
    ];
    by_attr
        .iter()
        .find(|&&(a, _)| find_attr(&f.attrs, a).is_some())
        .map(|(_, st)| st.name())
}
