//! Templates: arguments resolved to types and values, struct and alias
//! templates instantiated (once per argument list, in an environment scope
//! binding the parameters), and their display names.

use super::resolve::Env;
use crate::diag::codes;
use crate::front::ast;
use crate::sema::types::consteval::ConstVal;
use crate::sema::types::scope::{ScopeId, ScopeKind, Sym, TemplateId, TypeEntry};
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::sema::{Sema, TArg, TemplateKind};
use crate::span::Span;

impl<'a> Sema<'a> {
    pub(in crate::sema) fn template_scalar_arg(
        &mut self,
        arg: Option<&'a ast::TemplateArg>,
        env: &Env,
        span: Span,
    ) -> Option<Sc> {
        let Some(arg) = arg else {
            return Some(Sc::F32);
        };
        let t = self.template_type_arg(arg, env);
        if t == types::ERROR {
            return None;
        }
        match *self.types.get(t) {
            Ty::Scalar(s) => Some(s),
            Ty::Enum(e) => Some(self.types.enum_info(e).underlying),
            _ => {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("expected a scalar type, found `{}`", self.ty_name(t)),
                    span,
                    "must be a scalar type",
                );
                None
            }
        }
    }

    pub(in crate::sema) fn template_int_arg(
        &mut self,
        arg: Option<&'a ast::TemplateArg>,
        env: &Env,
        span: Span,
        default: i64,
    ) -> Option<i64> {
        match arg {
            None => Some(default),
            Some(ast::TemplateArg::Expr(e)) => self.const_int(e, env),
            Some(ast::TemplateArg::Type(ts)) => {
                // A lone name may be a value (template parameter `N`).
                if let ast::TypeSpecKind::Named { path, args: None } = &ts.kind {
                    return match self.const_name(path, env) {
                        Ok(k) => Some(k.as_i64()),
                        Err(true) => None,
                        Err(false) => {
                            self.error(
                                codes::NOT_CONSTANT,
                                "expected a constant",
                                ts.span,
                                "not a compile-time constant",
                            );
                            None
                        }
                    };
                }
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    "expected a constant, found a type",
                    span,
                    "must be an integer constant",
                );
                None
            }
        }
    }

    /// A template argument that must be a type (a lone name parsed as an
    /// expression is looked up as a type).
    pub fn template_type_arg(&mut self, arg: &'a ast::TemplateArg, env: &Env) -> TyId {
        match arg {
            ast::TemplateArg::Type(ts) => {
                let e = self.resolve_type(ts, env);
                e.ty
            }
            ast::TemplateArg::Expr(e) => match &e.kind {
                ast::ExprKind::Name(path) => self.resolve_named_type(path, None, env, e.span).ty,
                _ => {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        "expected a type as template argument",
                        e.span,
                        "not a type",
                    );
                    types::ERROR
                }
            },
        }
    }

    /// Instantiates a struct template or alias template: the explicit
    /// specialisation for the arguments, else the partial specialisation
    /// that matches them, else the primary template.
    pub(in crate::sema) fn instantiate_type_template(
        &mut self,
        id: TemplateId,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> TyId {
        let Some(key) = self.template_key(id, args, env, span) else {
            return types::ERROR;
        };
        if let Some(&t) = self.decls.templates[id].instances.get(&key) {
            return t;
        }
        if !self.decls.enter_instantiation() {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                "template instantiation nested too deeply",
                span,
                "instantiated here",
            );
            return types::ERROR;
        }
        let ty = match self.decls.templates[id].kind {
            TemplateKind::Struct(primary) => {
                let display = format!(
                    "{}<{}>",
                    self.decls.templates[id].name,
                    self.targs_display(&key)
                );
                match self.specialization_for(id, &key, span) {
                    Some(Some((decl, envscope))) => {
                        // Cached before the body so that members may name it.
                        self.decls.pending_instance = Some((id, key.clone()));
                        let t = self.declare_struct_named(decl, envscope, Some(display), false);
                        self.decls.pending_instance = None;
                        // The primary template's out-of-line static members.
                        if std::ptr::eq(decl, primary) && t != types::ERROR {
                            self.decls.templates[id].instances.insert(key.clone(), t);
                            for (params, vd, scope) in self.decls.templates[id].static_defs.clone()
                            {
                                self.apply_static_def(params, vd, scope, &key);
                            }
                        }
                        t
                    }
                    Some(None) => types::ERROR,
                    None => {
                        self.incomplete_instance(primary, &display, span);
                        types::ERROR
                    }
                }
            }
            TemplateKind::Alias(ts) => {
                let tscope = self.decls.templates[id].scope;
                let params = self.decls.templates[id].params;
                let envscope = self.template_env(tscope, params, &key);
                self.resolve_type(ts, &Env::at(envscope)).ty
            }
        };
        self.decls.leave_instantiation();
        self.decls.templates[id].instances.insert(key, ty);
        ty
    }

    /// The arguments of an instance of template `id`, defaults filled in
    /// (the key its instances are cached by). `None`: an error was reported.
    pub(in crate::sema) fn template_key(
        &mut self,
        id: TemplateId,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<Vec<TArg>> {
        let t = &self.decls.templates[id];
        let at = (t.params, t.scope, t.name);
        self.template_args_for(at, args, env, span)
    }

    /// The arguments `args` give the parameters of a template (`at`: its
    /// parameters, the scope its defaults resolve in, and its name),
    /// defaults filled in. `None`: an error was reported.
    pub(in crate::sema) fn template_args_for(
        &mut self,
        at: (&'a ast::TemplateParams, ScopeId, crate::intern::Symbol),
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<Vec<TArg>> {
        let (params, scope, tname) = at;
        let given = args.unwrap_or(&[]);
        if given.len() > params.params.len() {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!(
                    "`{tname}` takes {} template argument{}, {} given",
                    params.params.len(),
                    if params.params.len() == 1 { "" } else { "s" },
                    given.len()
                ),
                span,
                "too many template arguments",
            );
            return None;
        }
        let mut key = Vec::new();
        for (i, p) in params.params.iter().enumerate() {
            let a = match (p, given.get(i)) {
                (ast::TemplateParam::Type { .. }, Some(arg)) => {
                    TArg::Type(self.template_type_arg(arg, env))
                }
                (
                    ast::TemplateParam::Type {
                        default: Some(d), ..
                    },
                    None,
                ) => {
                    // Defaults resolve in the template's own scope.
                    TArg::Type(self.resolve_type(d, &Env::at(scope)).ty)
                }
                (ast::TemplateParam::Value { .. }, Some(arg)) => {
                    TArg::Value(self.template_int_arg(Some(arg), env, span, 0)?)
                }
                (
                    ast::TemplateParam::Value {
                        default: Some(d), ..
                    },
                    None,
                ) => TArg::Value(self.const_int(d, &Env::at(scope))?),
                _ => {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!("missing template argument for `{tname}`"),
                        span,
                        "not enough template arguments",
                    );
                    return None;
                }
            };
            if a == TArg::Type(types::ERROR) {
                return None;
            }
            key.push(a);
        }
        Some(key)
    }

    pub fn targs_display(&self, args: &[TArg]) -> String {
        args.iter()
            .map(|a| match a {
                TArg::Type(t) => self.types.name(*t),
                TArg::Value(v) => v.to_string(),
                TArg::Res(r) => self.res_path_name(*r),
                TArg::AggThis => "this".into(),
                TArg::NoRes => "unassigned".into(),
                TArg::ResIndexed { gv, .. } => {
                    format!(
                        "{}[…]",
                        self.module.globals[*gv].name.as_deref().unwrap_or("?")
                    )
                }
                TArg::ConstArg { value, .. } => value.to_string(),
                TArg::Vertex { input, .. } => format!("vertex {input}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A scope binding template parameters to arguments.
    pub fn template_env(
        &mut self,
        parent: ScopeId,
        params: &ast::TemplateParams,
        args: &[TArg],
    ) -> ScopeId {
        let s = self.scopes.add(parent, ScopeKind::TemplateEnv, None);
        for (p, a) in params.params.iter().zip(args) {
            match (p, a) {
                (ast::TemplateParam::Type { name, .. }, TArg::Type(t)) => {
                    let _ = self.scopes.declare(
                        s,
                        name.name,
                        Sym::Type(TypeEntry {
                            ty: *t,
                            major: None,
                            features: None,
                        }),
                    );
                }
                (ast::TemplateParam::Value { name, .. }, TArg::Value(v)) => {
                    let _ = self.scopes.declare(
                        s,
                        name.name,
                        Sym::Value(ConstVal::Int(*v), types::INT),
                    );
                }
                _ => {}
            }
        }
        s
    }
}
