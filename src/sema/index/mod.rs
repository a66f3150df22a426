//! The code-intelligence side table: what each name occurrence resolved
//! to and the type of each expression, recorded by sema while it lowers.
//!
//! Nothing here analyses the program again. Sema calls the [`Recorder`]
//! at the points where it resolves a name (a local, a parameter, a global,
//! a member, a type, the overload a call chose) and where an expression
//! gets its type; [`finish`] then adds the declarations from sema's own
//! tables (functions with their resolved signatures, structs with their
//! fields, globals, cbuffers). The recorder exists only when
//! [`Options::index`](crate::Options::index) asks for it (the language
//! server does; `hlslc` on the command line does not), so lowering
//! without it only tests one `Option` at each of those points.
//!
//! Spans are sema's: global locations that the compilation's
//! [`SourceMap`](crate::source::SourceMap) resolves to files through
//! includes and macro expansions. Every function body is lowered (the
//! entry point's reach first, then the rest, see
//! `Sema::check_unused_functions`), so every body is indexed, also when
//! another function has errors.

mod finish;

pub use finish::finish;

use crate::intern::Symbol;
use crate::sema::table::Id;
use crate::sema::types::TyId;
use crate::sema::types::scope::{FuncDeclId, GlobalId, ScopeId, Sym, TemplateId};
use crate::span::Span;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefKind {
    Local,
    Parameter,
    /// A global variable: `static`, `groupshared`, uniform (`$Globals`).
    Global,
    /// A texture, buffer or sampler.
    Resource,
    /// A member of a cbuffer or tbuffer.
    CBufferMember,
    CBuffer,
    Function,
    Method,
    Field,
    Struct,
    /// A typedef or `using` alias.
    Typedef,
    Enum,
    /// A value of an enum (its container is the enum).
    EnumValue,
    /// A struct or alias template.
    Template,
    Namespace,
}

/// One declaration.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    pub kind: DefKind,
    /// The declared name (for functions: the first declaration's).
    pub span: Span,
    /// For functions: the definition's name, when a prototype came first
    /// or the definition is the only declaration.
    pub def_span: Option<Span>,
    /// The whole declaration (for a function with a body: the definition
    /// with its body).
    pub extent: Span,
    /// What hover shows: `float4 color`, `float4 shade(float3 n, float3 l)`,
    /// `struct Light`.
    pub detail: String,
    /// The struct of a field or method, the cbuffer of a member, the
    /// function of a local or parameter (an index into [`Index::defs`]).
    pub container: Option<usize>,
    /// The type's name, for values (what members after `.` come from).
    pub ty: Option<String>,
    /// For functions: each parameter as the signature shows it
    /// (`float3 n`), for signature help.
    pub params: Vec<String>,
    /// For functions: each parameter's name (empty when it has none),
    /// for the names shown at call arguments.
    pub param_names: Vec<String>,
    /// For entry points: the stage (`compute`, `pixel`…).
    pub stage: Option<&'static str>,
    /// A value that cannot be assigned: a uniform global, a cbuffer
    /// member, a `const` global or local, a read-only resource.
    pub readonly: bool,
    /// A `static` global.
    pub is_static: bool,
}

/// One name occurrence and the declaration it resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Use {
    pub span: Span,
    /// The [`Def::span`] of what it names.
    pub target: Span,
}

/// The side table of one compilation. [`finish`] fills the declarations;
/// the occurrences, types and calls come with [`Index::resolve`].
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Declarations, in the order sema met them; no two share a span.
    pub defs: Vec<Def>,
    /// Name occurrences, by span.
    pub uses: Vec<Use>,
    /// The type of each expression that lowered without an error, by the
    /// expression's span (of expressions sharing a span, the outermost);
    /// expressions of one type share its name.
    pub types: Vec<(Span, Arc<str>)>,
    /// Calls of user functions and methods: the callee's name (one of
    /// [`Index::uses`]) and each argument's span, by span.
    pub calls: Vec<(Span, Vec<Span>)>,
    /// What sema recorded, as it recorded it, until [`Index::resolve`].
    raw: Raw,
}

/// The occurrences, types and calls as the [`Recorder`] collected them:
/// in the order sema met them, repeats included (a trial lowering
/// resolves a name again), occurrences naming their target by key.
#[derive(Clone, Debug, Default)]
struct Raw {
    uses: Vec<(Span, Target)>,
    types: Vec<(Span, TyId)>,
    /// The name of each type of `types`, by its index.
    type_names: Vec<Option<Arc<str>>>,
    /// The name span of each local and parameter, by its key span.
    local_names: FxHashMap<Span, Span>,
    name_spans: FxHashMap<SymKey, Span>,
    calls: Vec<(Span, Vec<Span>)>,
}

impl Index {
    /// Resolves what sema recorded into [`Index::uses`], [`Index::types`]
    /// and [`Index::calls`], in source order (by span), one of each: an
    /// occurrence once per declaration it names, the type of the
    /// outermost of the expressions sharing a span, the first call at a
    /// callee's name. [`finish`] leaves this to the reader, so that it is
    /// not paid for before the diagnostics are published.
    pub fn resolve(&mut self) {
        let raw = std::mem::take(&mut self.raw);
        self.uses
            .extend(raw.uses.iter().filter_map(|&(span, target)| {
                let target = match target {
                    Target::Decl(k) => raw.local_names.get(&k).copied().unwrap_or(k),
                    Target::Sym(key) => *raw.name_spans.get(&key)?,
                };
                Some(Use { span, target })
            }));
        self.types.extend(raw.types.iter().filter_map(|&(sp, ty)| {
            let name = raw.type_names.get(ty.index())?.clone()?;
            Some((sp, name))
        }));
        self.calls.extend(raw.calls);
        let key = |s: Span| (s.lo, s.hi);
        self.uses
            .sort_unstable_by_key(|u| (key(u.span), key(u.target)));
        self.uses.dedup();
        // Stable: of a span's types, the last recorded is the outermost.
        self.types.sort_by_key(|(sp, _)| key(*sp));
        self.types.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
        self.calls.sort_by_key(|(sp, _)| key(*sp));
        self.calls.dedup_by_key(|(sp, _)| *sp);
    }
}

/// A scope-level declaration sema's tables name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SymKey {
    Type(TyId),
    Template(TemplateId),
    Func(FuncDeclId),
    Global(GlobalId),
    Namespace(ScopeId),
}

impl SymKey {
    pub(crate) fn of(sym: &Sym) -> Option<SymKey> {
        Some(match sym {
            Sym::Type(t) => SymKey::Type(t.ty),
            Sym::Template(t) => SymKey::Template(*t),
            Sym::Funcs(list) => SymKey::Func(*list.first()?),
            Sym::Global(g) => SymKey::Global(*g),
            Sym::Namespace(s) => SymKey::Namespace(*s),
            Sym::Value(..) => return None,
        })
    }
}

/// What an occurrence names, before [`finish`] knows every declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    /// A declaration by its key span (locals, parameters, fields).
    Decl(Span),
    Sym(SymKey),
}

/// A local or parameter, as its function's body declared it.
pub(crate) struct LocalDef {
    pub(crate) name: Symbol,
    /// The span sema keeps for it (`LocalVar::span`), which uses name.
    pub(crate) key: Span,
    pub(crate) name_span: Span,
    pub(crate) ty: String,
    pub(crate) param: bool,
    /// A `const` local.
    pub(crate) readonly: bool,
    /// The name span of the function whose body declares it.
    pub(crate) function: Option<Span>,
}

/// A value declared by an enum.
pub(crate) struct EnumValueDef {
    pub(crate) name: Symbol,
    pub(crate) span: Span,
    /// The enum's type.
    pub(crate) ty: TyId,
    pub(crate) value: i64,
    /// Of an `enum class`: named `E::V`.
    pub(crate) scoped: bool,
}

/// Collects what sema resolves while it lowers (see the module docs).
#[derive(Default)]
pub struct Recorder {
    /// Scope-level names as sema declared them (the first declaration of
    /// each).
    pub(crate) names: Vec<(Symbol, Span, SymKey)>,
    pub(crate) name_spans: FxHashMap<SymKey, Span>,
    pub(crate) locals: Vec<LocalDef>,
    local_keys: FxHashSet<Span>,
    /// In the order sema resolved them, repeats included: a push is
    /// cheaper than a set's insert, and [`finish`] (on the way to
    /// publishing diagnostics) only names them; who reads the index
    /// sorts it, later.
    pub(crate) uses: Vec<(Span, Target)>,
    /// As `uses`: the expression types in the order sema gave them.
    pub(crate) types: Vec<(Span, TyId)>,
    /// cbuffers: name, whole declaration, member name spans.
    pub(crate) cbuffers: Vec<(Symbol, Span, Span, Vec<Span>)>,
    pub(crate) enum_values: Vec<EnumValueDef>,
    /// Calls of user functions: the callee's name and the arguments.
    pub(crate) calls: Vec<(Span, Vec<Span>)>,
    /// The name span of each enum value, by its enum and name.
    enum_value_spans: FxHashMap<(TyId, Symbol), Span>,
    /// The name span of the function whose body is being lowered.
    pub(crate) function: Option<Span>,
    /// The callee name of the call being resolved (set just before the
    /// overload resolution that takes it).
    callee: Option<Span>,
}

impl Recorder {
    /// `name` declared in a scope as `sym`.
    pub(crate) fn declared(&mut self, name: Symbol, span: Span, sym: &Sym) {
        let Some(key) = SymKey::of(sym) else {
            return;
        };
        if let std::collections::hash_map::Entry::Vacant(e) = self.name_spans.entry(key) {
            e.insert(span);
            self.names.push((name, span, key));
        }
    }

    /// A local or parameter declared in the current function.
    pub(crate) fn local(
        &mut self,
        name: Symbol,
        key: Span,
        name_span: Span,
        ty: String,
        param: bool,
        readonly: bool,
    ) {
        if self.local_keys.insert(key) {
            self.locals.push(LocalDef {
                name,
                key,
                name_span,
                ty,
                param,
                readonly,
                function: self.function,
            });
        }
    }

    /// The occurrence at `span` names `target`.
    pub(crate) fn used(&mut self, span: Span, target: Target) {
        if !span.is_dummy() {
            self.uses.push((span, target));
        }
    }

    /// The expression at `span` has type `ty` (named in [`finish`], once
    /// per type: most expressions share a few types).
    pub(crate) fn typed(&mut self, span: Span, ty: TyId) {
        if !span.is_dummy() {
            self.types.push((span, ty));
        }
    }

    pub(crate) fn cbuffer(
        &mut self,
        name: Symbol,
        name_span: Span,
        extent: Span,
        members: Vec<Span>,
    ) {
        self.cbuffers.push((name, name_span, extent, members));
    }

    /// A value of the enum `ty` declared at `span`.
    pub(crate) fn enum_value(&mut self, v: EnumValueDef) {
        if self
            .enum_value_spans
            .insert((v.ty, v.name), v.span)
            .is_none()
        {
            self.enum_values.push(v);
        }
    }

    /// A call of the function named at `callee` (a use of it) with
    /// arguments at `args`.
    pub(crate) fn call(&mut self, callee: Span, args: Vec<Span>) {
        if !callee.is_dummy() {
            self.calls.push((callee, args));
        }
    }

    /// The callee name of the call about to be resolved.
    pub(crate) fn set_callee(&mut self, span: Span) {
        self.callee = Some(span);
    }
    pub(crate) fn take_callee(&mut self) -> Option<Span> {
        self.callee.take()
    }
}

impl crate::sema::Sema<'_> {
    /// Records that the occurrence at `span` names `target` (when
    /// indexing).
    pub(crate) fn record_use(&mut self, span: Span, target: Target) {
        if let Some(ix) = self.index.as_deref_mut() {
            ix.used(span, target);
        }
    }

    /// Records that `span` names the value `name` of the enum `ty` (a
    /// value of another type, such as a template's value parameter, is
    /// no enum value and is not recorded).
    pub(crate) fn record_enum_value_use(&mut self, ty: TyId, name: Symbol, span: Span) {
        if let Some(ix) = self.index.as_deref_mut()
            && let Some(&decl) = ix.enum_value_spans.get(&(ty, name))
        {
            ix.used(span, Target::Decl(decl));
        }
    }

    /// Records that `span` names the field `name` of struct type `ty` (or
    /// of one of its bases).
    pub(crate) fn record_field_use(&mut self, ty: TyId, name: Symbol, span: Span) {
        if self.index.is_none() {
            return;
        }
        let mut cur = self.types.as_struct(ty);
        for _ in 0..64 {
            let Some(sid) = cur else {
                return;
            };
            let info = self.types.struct_info(sid);
            if let Some(f) = info.fields.iter().find(|f| f.name == name) {
                let target = Target::Decl(f.span);
                self.record_use(span, target);
                return;
            }
            cur = info.base.and_then(|b| self.types.as_struct(b));
        }
    }
}
