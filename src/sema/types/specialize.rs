//! Specialisations of templates: declaring explicit
//! (`template<> struct Trait<half> {…}`) and partial ones
//! (`template<typename T, int N> struct Trait<vector<T, N> > {…}`) of struct
//! templates, choosing the one an instance uses, matching a partial
//! specialisation's argument patterns against an instance's arguments;
//! and explicit specialisations of function templates
//! (`template<> float f<half>(half x) {…}`).

use super::resolve::Env;
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::sema::types::scope::{FuncDeclId, ScopeId, Sym, TemplateId};
use crate::sema::types::{Ty, TyId};
use crate::sema::{Sema, TArg, TemplateKind};
use crate::span::Span;

/// What a name in a partial specialisation's pattern is: one of its
/// parameters (by position), or something else.
fn param_index(params: &ast::TemplateParams, name: crate::intern::Symbol) -> Option<usize> {
    params.params.iter().position(|p| match p {
        ast::TemplateParam::Type { name: n, .. } | ast::TemplateParam::Value { name: n, .. } => {
            n.name == name
        }
    })
}

/// The lone name a template argument is, if it is one (`T` in `S<T>`,
/// parsed as a type or as an expression).
fn lone_name(arg: &ast::TemplateArg) -> Option<ast::Ident> {
    match arg {
        ast::TemplateArg::Type(ts) => match &ts.kind {
            ast::TypeSpecKind::Named { path, args: None } if path.is_single() => Some(path.last()),
            _ => None,
        },
        ast::TemplateArg::Expr(e) => match &e.kind {
            ast::ExprKind::Name(p) if p.is_single() => Some(p.last()),
            _ => None,
        },
    }
}

/// Whether a pattern names any of `params` (then it cannot be resolved
/// as it stands, only matched).
fn mentions_params(arg: &ast::TemplateArg, params: &ast::TemplateParams) -> bool {
    match arg {
        ast::TemplateArg::Type(ts) => type_mentions(ts, params),
        ast::TemplateArg::Expr(e) => expr_mentions(e, params),
    }
}

fn type_mentions(ts: &ast::TypeSpec, params: &ast::TemplateParams) -> bool {
    match &ts.kind {
        ast::TypeSpecKind::Named { path, args } => {
            path.segments
                .iter()
                .any(|s| param_index(params, s.name).is_some())
                || path
                    .qualifier
                    .as_ref()
                    .is_some_and(|q| type_mentions(&q.0, params))
                || args.iter().flatten().any(|a| mentions_params(a, params))
        }
        ast::TypeSpecKind::Array { element, dims } => {
            type_mentions(element, params)
                || dims.iter().flatten().any(|d| expr_mentions(d, params))
        }
        ast::TypeSpecKind::Struct(_) => false,
    }
}

fn expr_mentions(e: &ast::Expr, params: &ast::TemplateParams) -> bool {
    use ast::ExprKind as E;
    match &e.kind {
        E::Name(p) => p
            .segments
            .iter()
            .any(|s| param_index(params, s.name).is_some()),
        E::Unary(_, x) => expr_mentions(x, params),
        E::Binary(_, a, b) => expr_mentions(a, params) || expr_mentions(b, params),
        E::Cast(t, x) => type_mentions(t, params) || expr_mentions(x, params),
        E::Literal(_) => false,
        // Anything else in a pattern is not matched (treated as naming one).
        _ => true,
    }
}

impl<'a> Sema<'a> {
    /// `template<…> struct Trait<args> {…}`: records the specialisation on
    /// its primary template.
    pub(in crate::sema) fn declare_specialization(
        &mut self,
        sd: &'a ast::StructDecl,
        name: ast::Ident,
        scope: ScopeId,
    ) {
        let (Some(params), Some(args)) = (&sd.template, &sd.specialization) else {
            return;
        };
        let id = match self.scopes.lookup(scope, name.name) {
            Some(Sym::Template(id))
                if matches!(self.decls.templates[*id].kind, TemplateKind::Struct(_)) =>
            {
                *id
            }
            _ => {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("`{}` is not a struct template", name.name),
                    name.span,
                    "specialised here",
                );
                return;
            }
        };
        if !params.params.is_empty() {
            if args.len() > self.decls.templates[id].params.params.len() {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!(
                        "`{}` takes {} template arguments, the specialisation gives {}",
                        name.name,
                        self.decls.templates[id].params.params.len(),
                        args.len()
                    ),
                    name.span,
                    "too many template arguments",
                );
                return;
            }
            self.decls.templates[id].partials.push(sd);
            return;
        }
        let Some(key) = self.template_key(id, Some(args), &Env::at(scope), name.span) else {
            return;
        };
        let display = format!("{}<{}>", name.name, self.targs_display(&key));
        let earlier = self.decls.templates[id].specializations.get(&key).copied();
        if let Some(first) = earlier {
            let first_span = first.name.map_or(first.span, |n| n.span);
            self.specialised_twice(&display, name.span, first_span);
            return;
        }
        if self.decls.templates[id].instances.contains_key(&key) {
            self.push(
                Diagnostic::error(
                    codes::BAD_SPECIALIZATION,
                    format!("`{display}` is specialised after it was instantiated"),
                )
                .label(name.span, "specialised here")
                .note("declare a specialisation before the first use of its arguments"),
            );
            return;
        }
        self.decls.templates[id].specializations.insert(key, sd);
    }

    /// "`Trait<half>` is specialised twice" (E0320).
    fn specialised_twice(&mut self, display: &str, again: Span, first: Span) {
        self.push(
            Diagnostic::error(
                codes::BAD_SPECIALIZATION,
                format!("`{display}` is specialised twice"),
            )
            .label(again, "specialised again here")
            .label(first, "first specialised here"),
        );
    }

    /// `template<typename T> struct S {…}` after `template<typename T>
    /// struct S;` (or the other way round): the one template gets its
    /// definition. False when `name` is not a template declared so.
    pub(in crate::sema) fn define_declared_template(
        &mut self,
        sd: &'a ast::StructDecl,
        name: ast::Ident,
        scope: ScopeId,
    ) -> bool {
        let Some(Sym::Template(id)) = self.scopes.lookup_in(scope, name.name) else {
            return false;
        };
        let id = *id;
        let TemplateKind::Struct(prev) = self.decls.templates[id].kind else {
            return false;
        };
        match (prev.forward, sd.forward) {
            (_, true) => true,
            (true, false) => {
                let Some(params) = &sd.template else {
                    return false;
                };
                let t = &mut self.decls.templates[id];
                t.kind = TemplateKind::Struct(sd);
                t.params = params;
                t.span = sd.span;
                true
            }
            (false, false) => false,
        }
    }

    /// The declaration an instance of template `id` with arguments `key`
    /// is made from, and the scope its body resolves in: the explicit
    /// specialisation, else the one partial specialisation that matches
    /// (in a scope binding its parameters), else the primary template.
    /// `Some(None)`: an error was reported; `None`: the primary template
    /// is only declared.
    pub(in crate::sema) fn specialization_for(
        &mut self,
        id: TemplateId,
        key: &[TArg],
        span: Span,
    ) -> Option<Option<(&'a ast::StructDecl, ScopeId)>> {
        let tscope = self.decls.templates[id].scope;
        if let Some(&sd) = self.decls.templates[id].specializations.get(key) {
            return Some(Some((sd, tscope)));
        }
        let partials = self.decls.templates[id].partials.clone();
        let mut found: Option<(&'a ast::StructDecl, Vec<TArg>)> = None;
        for sd in partials {
            let Some(bound) = self.match_partial(sd, key, tscope) else {
                continue;
            };
            if let Some((first, _)) = &found {
                let first_span = first.name.map_or(first.span, |n| n.span);
                let name = self.decls.templates[id].name;
                self.push(
                    Diagnostic::error(
                        codes::BAD_SPECIALIZATION,
                        format!(
                            "several partial specialisations of `{name}` match `{name}<{}>`",
                            self.targs_display(key)
                        ),
                    )
                    .label(span, "instantiated here")
                    .label(first_span, "this one matches")
                    .label(sd.name.map_or(sd.span, |n| n.span), "and this one"),
                );
                return Some(None);
            }
            found = Some((sd, bound));
        }
        if let Some((sd, bound)) = found {
            let params = sd.template.as_ref()?;
            let env = self.template_env(tscope, params, &bound);
            return Some(Some((sd, env)));
        }
        let TemplateKind::Struct(primary) = self.decls.templates[id].kind else {
            return Some(None);
        };
        if primary.forward {
            return None;
        }
        let params = self.decls.templates[id].params;
        let env = self.template_env(tscope, params, key);
        Some(Some((primary, env)))
    }

    /// "incomplete type `Trait<float>`": the template is declared only,
    /// and no specialisation fits the arguments.
    pub(in crate::sema) fn incomplete_instance(
        &mut self,
        primary: &'a ast::StructDecl,
        display: &str,
        span: Span,
    ) {
        self.push(
            Diagnostic::error(
                codes::INCOMPLETE_TYPE,
                format!("incomplete type `{display}`"),
            )
            .label(span, "used here")
            .label(
                primary.name.map_or(primary.span, |n| n.span),
                "the template is declared here but never defined",
            )
            .note("define the template, or specialise it for these arguments"),
        );
    }

    /// Matches a partial specialisation's argument patterns against an
    /// instance's arguments: the values of its parameters, when every
    /// pattern matches and binds every parameter.
    fn match_partial(
        &mut self,
        sd: &'a ast::StructDecl,
        key: &[TArg],
        scope: ScopeId,
    ) -> Option<Vec<TArg>> {
        let params = sd.template.as_ref()?;
        let pats = sd.specialization.as_deref()?;
        let mut bound: Vec<Option<TArg>> = vec![None; params.params.len()];
        for (i, actual) in key.iter().enumerate() {
            // A pattern list shorter than the primary's parameters leaves
            // the rest to their defaults, which match themselves.
            let Some(pat) = pats.get(i) else { continue };
            if !self.match_pattern(pat, actual, (params, scope), &mut bound) {
                return None;
            }
        }
        bound.into_iter().collect()
    }

    /// Matches one pattern (`T`, `N`, `vector<T, 4>`, `matrix<T, R, C>`,
    /// `S<T>`, or a type or value without parameters) against an argument;
    /// `at`: the specialisation's parameters and the scope it is in.
    fn match_pattern(
        &mut self,
        pat: &'a ast::TemplateArg,
        actual: &TArg,
        at: (&'a ast::TemplateParams, ScopeId),
        bound: &mut [Option<TArg>],
    ) -> bool {
        let (params, scope) = at;
        if let Some(n) = lone_name(pat)
            && let Some(i) = param_index(params, n.name)
        {
            let kind_fits = matches!(
                (&params.params[i], actual),
                (ast::TemplateParam::Type { .. }, TArg::Type(_))
                    | (ast::TemplateParam::Value { .. }, TArg::Value(_))
            );
            return match &bound[i] {
                _ if !kind_fits => false,
                Some(b) => b == actual,
                None => {
                    bound[i] = Some(*actual);
                    true
                }
            };
        }
        if !mentions_params(pat, params) {
            // A type or value as it stands: resolved where the template is.
            let env = Env::at(scope);
            return match (pat, actual) {
                (ast::TemplateArg::Expr(e), TArg::Value(v)) => self.const_int(e, &env) == Some(*v),
                (_, TArg::Type(t)) => self.template_type_arg(pat, &env) == *t,
                _ => false,
            };
        }
        let (ast::TemplateArg::Type(ts), TArg::Type(t)) = (pat, actual) else {
            return false;
        };
        let ast::TypeSpecKind::Named {
            path,
            args: Some(pargs),
        } = &ts.kind
        else {
            return false;
        };
        let Some(parts) = self.type_parts(path, *t, scope) else {
            return false;
        };
        parts.len() == pargs.len()
            && pargs
                .iter()
                .zip(&parts)
                .all(|(p, a)| self.match_pattern(p, a, at, bound))
    }

    /// The template arguments type `t` was made from, when the template
    /// `path` names made it: `vector<float, 3>` → `[float, 3]`, an instance
    /// of a struct template → its arguments.
    fn type_parts(&mut self, path: &'a ast::Path, t: TyId, scope: ScopeId) -> Option<Vec<TArg>> {
        let name = path.last().name;
        match (name.as_str(), self.types.get(t).clone()) {
            ("vector", Ty::Vector(s, n)) if path.is_single() => Some(vec![
                TArg::Type(self.types.scalar(s)),
                TArg::Value(i64::from(n)),
            ]),
            ("matrix", Ty::Matrix(s, r, c)) if path.is_single() => Some(vec![
                TArg::Type(self.types.scalar(s)),
                TArg::Value(i64::from(r)),
                TArg::Value(i64::from(c)),
            ]),
            (_, Ty::Struct(_)) => {
                let (id, args) = self.decls.struct_instances.get(&t)?.clone();
                let named = match self.scopes.lookup(scope, name) {
                    Some(Sym::Template(x)) if path.is_single() => *x,
                    _ => return None,
                };
                (named == id).then_some(args)
            }
            _ => None,
        }
    }

    /// `template<> float f<half>(half x) {…}`: records the specialisation
    /// on the function template `f` (the first of that name whose
    /// parameters the arguments fit).
    pub(in crate::sema) fn declare_function_specialization(
        &mut self,
        f: &'a ast::Function,
        name: ast::Ident,
        scope: ScopeId,
    ) {
        let Some(args) = f.specialization.as_deref() else {
            return;
        };
        if f.template.as_ref().is_none_or(|t| !t.params.is_empty()) {
            self.error(
                codes::BAD_SPECIALIZATION,
                format!(
                    "a specialisation of `{}` needs the head `template<>`",
                    name.name
                ),
                name.span,
                "specialised here",
            );
            return;
        }
        let candidates: Vec<FuncDeclId> = match self.scopes.lookup(scope, name.name) {
            Some(Sym::Funcs(list)) => list
                .iter()
                .copied()
                .filter(|&id| {
                    let d = &self.decls.funcs[id];
                    d.is_template && d.ast.params.len() == f.params.len()
                })
                .collect(),
            _ => Vec::new(),
        };
        let Some(&id) = candidates.first() else {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!(
                    "no function template `{}` with {} parameter{} to specialise",
                    name.name,
                    f.params.len(),
                    if f.params.len() == 1 { "" } else { "s" }
                ),
                name.span,
                "specialised here",
            );
            return;
        };
        let d = &self.decls.funcs[id];
        let Some(params) = d.def.unwrap_or(d.ast).template.as_ref() else {
            return;
        };
        let at = (params, d.scope, d.name);
        let Some(key) = self.template_args_for(at, Some(args), &Env::at(scope), name.span) else {
            return;
        };
        let display = format!("{}<{}>", name.name, self.targs_display(&key));
        if let Some(first) = self.decls.funcs[id].specializations.get(&key) {
            let first_span = first.name.span;
            self.specialised_twice(&display, name.span, first_span);
            return;
        }
        self.decls.funcs[id].specializations.insert(key, f);
    }

    /// The declaration an instance of function template `id` with
    /// arguments `key` takes its signature and body from.
    pub(in crate::sema) fn function_instance_def(
        &self,
        id: FuncDeclId,
        key: &[TArg],
    ) -> Option<&'a ast::Function> {
        let d = &self.decls.funcs[id];
        d.specializations.get(key).copied().or(d.def)
    }
}

impl<'a> Sema<'a> {
    /// `template<typename T> const static T S<T>::m = …;`: recorded on
    /// struct template `S`, applied to its instances so far and to later
    /// ones.
    pub(in crate::sema) fn static_member_template(
        &mut self,
        params: &'a ast::TemplateParams,
        vd: &'a ast::VarDecl,
        scope: ScopeId,
    ) {
        let Some(id) = self.qualifying_template(params, vd, scope) else {
            return;
        };
        self.decls.templates[id]
            .static_defs
            .push((params, vd, scope));
        let keys: Vec<Vec<TArg>> = self.decls.templates[id].instances.keys().cloned().collect();
        for key in keys {
            self.apply_static_def(params, vd, scope, &key);
        }
    }

    /// The struct template whose static members `vd` defines: every
    /// declarator is qualified by it, with the definition's template
    /// parameters as its arguments, in order (`S<T, N>::`).
    fn qualifying_template(
        &mut self,
        params: &'a ast::TemplateParams,
        vd: &'a ast::VarDecl,
        scope: ScopeId,
    ) -> Option<TemplateId> {
        let mut found = None;
        for d in &vd.declarators {
            let q = d.qualifier.as_ref()?.qualifier.as_ref()?;
            let ast::TypeSpecKind::Named { path, args } = &q.0.kind else {
                return None;
            };
            let sym = if path.is_single() {
                self.scopes.lookup(scope, path.last().name).cloned()
            } else {
                let s = self.resolve_scope_path(path, &Env::at(scope))?;
                self.scopes.lookup_in(s, path.last().name).cloned()
            };
            let id = match sym {
                Some(Sym::Template(id))
                    if matches!(self.decls.templates[id].kind, TemplateKind::Struct(_)) =>
                {
                    id
                }
                _ => {
                    self.error(
                        codes::UNKNOWN_NAME,
                        format!("`{}` is not a struct template", path.last().name),
                        q.0.span,
                        "its static members cannot be defined here",
                    );
                    return None;
                }
            };
            // The arguments must be the parameters themselves, in order.
            let own = args.as_deref().unwrap_or_default();
            let same = own.len() == params.params.len()
                && own.iter().zip(&params.params).all(|(a, p)| {
                    let pname = match p {
                        ast::TemplateParam::Type { name, .. }
                        | ast::TemplateParam::Value { name, .. } => name.name,
                    };
                    match a {
                        ast::TemplateArg::Type(t) => matches!(&t.kind,
                            ast::TypeSpecKind::Named { path, args: None }
                                if path.is_single() && path.last().name == pname),
                        ast::TemplateArg::Expr(e) => matches!(&e.kind,
                            ast::ExprKind::Name(p) if p.is_single() && p.last().name == pname),
                    }
                });
            if !same {
                self.unsupported(
                    "defining the static members of a partial specialisation of a struct template",
                    q.0.span,
                );
                return None;
            }
            if found.is_some_and(|f| f != id) {
                self.unsupported("defining static members of two templates at once", d.span);
                return None;
            }
            found = Some(id);
        }
        found
    }

    /// Defines the static members `vd` names in the instance of their
    /// template for `key`.
    pub(in crate::sema) fn apply_static_def(
        &mut self,
        params: &'a ast::TemplateParams,
        vd: &'a ast::VarDecl,
        scope: ScopeId,
        key: &[TArg],
    ) {
        let env = self.template_env(scope, params, key);
        self.declare_global_vars(vd, env);
    }
}
