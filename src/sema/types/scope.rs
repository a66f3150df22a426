//! Declaration scopes: the tree of namespaces, struct scopes and template
//! instantiation environments, and what each name in them denotes.
//!
//! Function bodies keep their block scopes in the function builder; they
//! fall back to the scope tree through the scope the function was declared
//! in (its struct, template environment, namespace, then the global scope).

use crate::intern::Symbol;
use crate::sema::table::{Table, define_id};
use crate::sema::types::TyId;
use crate::sema::types::consteval::ConstVal;
use rustc_hash::FxHashMap;

define_id! {
    /// A scope of the tree.
    pub struct ScopeId;
}

pub const GLOBAL_SCOPE: ScopeId = ScopeId(0);

define_id! {
    /// A global variable, cbuffer member or resource (`Sema::globals`).
    pub struct GlobalId;
}
define_id! {
    /// A function, function template or method (`Sema::funcs`).
    pub struct FuncDeclId;
}
define_id! {
    /// A struct or alias template (`Sema::templates`).
    pub struct TemplateId;
}

/// A type as a name denotes it, with the matrix majorness a typedef may
/// carry (`typedef row_major float4x4 M;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeEntry {
    pub ty: TyId,
    pub major: Option<bool>,
    /// For a typedef or alias with `[[vk::ext_capability]]` or
    /// `[[vk::ext_extension]]`: its index in `Sema::alias_features`, whose
    /// capabilities and extensions each use of the name adds.
    pub features: Option<u32>,
}

/// What a name denotes.
#[derive(Clone, Debug)]
pub enum Sym {
    Type(TypeEntry),
    /// A struct template or alias template (instantiated with arguments).
    Template(TemplateId),
    /// A function overload set.
    Funcs(Vec<FuncDeclId>),
    Global(GlobalId),
    /// A compile-time value: an enum value or a template value parameter.
    Value(ConstVal, TyId),
    Namespace(ScopeId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Namespace,
    /// The scope of a struct: nested types and static members.
    Struct(TyId),
    /// A template instantiation's parameter bindings.
    TemplateEnv,
    /// The scope of a (possibly unscoped) enum's values when scoped.
    Enum,
}

#[derive(Clone, Debug)]
pub struct Scope {
    pub parent: Option<ScopeId>,
    pub kind: ScopeKind,
    /// Display name (`ns`, `S`), for qualified names in IR and diagnostics.
    pub name: Option<Symbol>,
    pub names: FxHashMap<Symbol, Sym>,
    /// `using namespace` directives in this scope.
    pub usings: Vec<ScopeId>,
}

/// The scope tree.
pub struct Scopes {
    list: Table<ScopeId, Scope>,
    /// Whether any scope declares a built-in type's spelling (`float3`):
    /// until one does, such a name resolves to the built-in type without
    /// a look-up (`Sema::builtin_numeric`).
    builtin_declared: bool,
}

impl Default for Scopes {
    fn default() -> Self {
        Self::new()
    }
}

impl Scopes {
    pub fn new() -> Self {
        let mut list = Table::new();
        list.push(Scope {
            parent: None,
            kind: ScopeKind::Namespace,
            name: None,
            names: FxHashMap::default(),
            usings: Vec::new(),
        });
        Scopes {
            list,
            builtin_declared: false,
        }
    }

    pub fn add(&mut self, parent: ScopeId, kind: ScopeKind, name: Option<Symbol>) -> ScopeId {
        self.list.push(Scope {
            parent: Some(parent),
            kind,
            name,
            names: FxHashMap::default(),
            usings: Vec::new(),
        })
    }

    pub fn get(&self, id: ScopeId) -> &Scope {
        &self.list[id]
    }
    pub fn get_mut(&mut self, id: ScopeId) -> &mut Scope {
        &mut self.list[id]
    }

    /// Declares `name` in `scope`. Functions accumulate into overload sets;
    /// for anything else an existing declaration is returned as the error.
    pub fn declare(&mut self, scope: ScopeId, name: Symbol, sym: Sym) -> Result<(), Sym> {
        self.builtin_declared |= crate::intern::builtins::is_builtin_type(name);
        let names = &mut self.get_mut(scope).names;
        match (names.get_mut(&name), sym) {
            (None, sym) => {
                names.insert(name, sym);
                Ok(())
            }
            (Some(Sym::Funcs(list)), Sym::Funcs(more)) => {
                list.extend(more);
                Ok(())
            }
            // A namespace may be reopened.
            (Some(Sym::Namespace(a)), Sym::Namespace(b)) if *a == b => Ok(()),
            (Some(old), _) => Err(old.clone()),
        }
    }

    /// Whether some scope declares a built-in type's spelling.
    pub fn builtin_declared(&self) -> bool {
        self.builtin_declared
    }

    /// Looks `name` up in `scope` only (and its `using` directives).
    pub fn lookup_in(&self, scope: ScopeId, name: Symbol) -> Option<&Sym> {
        let s = self.get(scope);
        if let Some(sym) = s.names.get(&name) {
            return Some(sym);
        }
        for &u in &s.usings {
            // One level of using-directives (they are not transitive here).
            if let Some(sym) = self.get(u).names.get(&name) {
                return Some(sym);
            }
        }
        None
    }

    /// Unqualified lookup: `scope`, then each enclosing scope.
    pub fn lookup(&self, scope: ScopeId, name: Symbol) -> Option<&Sym> {
        let mut cur = Some(scope);
        while let Some(id) = cur {
            if let Some(sym) = self.lookup_in(id, name) {
                return Some(sym);
            }
            cur = self.get(id).parent;
        }
        None
    }

    /// The qualified display name of a scope (`ns::S`), empty for global.
    pub fn qualified_name(&self, scope: ScopeId) -> String {
        let mut parts = Vec::new();
        let mut cur = Some(scope);
        while let Some(id) = cur {
            let s = self.get(id);
            if let Some(n) = s.name {
                parts.push(n.as_str());
            }
            cur = s.parent;
        }
        parts.reverse();
        parts.join("::")
    }

    /// The innermost struct scope enclosing `scope` (for methods).
    pub fn enclosing_struct(&self, scope: ScopeId) -> Option<TyId> {
        let mut cur = Some(scope);
        while let Some(id) = cur {
            let s = self.get(id);
            if let ScopeKind::Struct(t) = s.kind {
                return Some(t);
            }
            cur = s.parent;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::types;

    #[test]
    fn nested_lookup_and_overloads() {
        let mut s = Scopes::new();
        let x = Symbol::intern("x");
        let ns = s.add(
            GLOBAL_SCOPE,
            ScopeKind::Namespace,
            Some(Symbol::intern("ns")),
        );
        s.declare(
            GLOBAL_SCOPE,
            x,
            Sym::Type(TypeEntry {
                ty: types::FLOAT,
                major: None,
                features: None,
            }),
        )
        .unwrap();
        assert!(matches!(s.lookup(ns, x), Some(Sym::Type(_))));
        let f = Symbol::intern("f");
        s.declare(ns, f, Sym::Funcs(vec![FuncDeclId(0)])).unwrap();
        s.declare(ns, f, Sym::Funcs(vec![FuncDeclId(1)])).unwrap();
        match s.lookup_in(ns, f) {
            Some(Sym::Funcs(l)) => assert_eq!(l.len(), 2),
            _ => panic!("overload set"),
        }
        assert!(s.lookup(GLOBAL_SCOPE, f).is_none());
        assert!(s.declare(GLOBAL_SCOPE, x, Sym::Funcs(vec![])).is_err());
        assert_eq!(s.qualified_name(ns), "ns");
    }
}
