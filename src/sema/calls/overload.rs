//! Overload resolution: the viable candidates of a call, template
//! argument deduction from the arguments, DXC's scoring by conversion
//! costs, and the diagnostics for no or several best matches.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::sema::body::FnCtx;
use crate::sema::body::convert::conversion_cost;
use crate::sema::body::place::Val;
use crate::sema::calls::{Arg, Viable};
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::{FuncDeclId, ScopeId, Sym};
use crate::sema::types::{self, Ty, TyId};
use crate::sema::{Dir, Sig, TArg};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    pub fn call_candidates(
        &mut self,
        cands: &[(FuncDeclId, u32)],
        this_val: Option<Val>,
        targs: Option<&'a [ast::TemplateArg]>,
        args: Vec<Arg>,
        name: Symbol,
        span: Span,
        allow_intrinsic: bool,
    ) -> Val {
        let callee = self.s.index.as_deref_mut().and_then(|ix| ix.take_callee());
        if args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let arg_tys: Vec<TyId> = args.iter().map(|a| a.val.ty).collect();
        let mut viable: Vec<(Viable<'a>, u32)> = Vec::new();
        for &(id, depth) in cands {
            if let Some(v) = self.viable(id, targs, &args, &arg_tys) {
                viable.push((v, depth));
            }
        }
        if viable.is_empty() {
            if allow_intrinsic && let Some(v) = self.intrinsic(name, targs, &args, span) {
                return v;
            }
            return self.no_overload(name, cands, &arg_tys, span);
        }
        // The best: the lowest total cost over the arguments (DXC's
        // scoring, see `convert::Cost`).
        let better = |a: &Viable, b: &Viable| -> bool {
            let total = |v: &Viable| v.costs.iter().fold(0u64, |s, &c| s.saturating_add(c));
            let (x, y) = (total(a), total(b));
            // Ties prefer a non-template.
            x < y || (x == y && a.inst.is_none() && b.inst.is_some())
        };
        let mut best: Vec<usize> = Vec::new();
        for i in 0..viable.len() {
            let dominated = (0..viable.len()).any(|j| j != i && better(&viable[j].0, &viable[i].0));
            if !dominated {
                best.push(i);
            }
        }
        if best.len() != 1 {
            let mut d = Diagnostic::error(
                codes::AMBIGUOUS_CALL,
                format!("call to `{name}` is ambiguous"),
            )
            .label(span, "several overloads match equally well");
            for &i in &best {
                let id = viable[i].0.id;
                let s = self.s.decls.funcs[id].ast.name.span;
                d = d.label(
                    s,
                    format!("candidate: {}", self.signature_text(id, &viable[i].0.sig)),
                );
            }
            self.s.push(d);
            return Val::error();
        }
        let (chosen, depth) = viable.swap_remove(best[0]);
        if let Some(c) = callee {
            let key = crate::sema::index::SymKey::Func(chosen.id);
            self.s.record_use(c, crate::sema::index::Target::Sym(key));
            if let Some(ix) = self.s.index.as_deref_mut() {
                ix.call(c, args.iter().map(|a| a.span).collect());
            }
        }
        let this_val = match (this_val, self.s.decls.funcs[chosen.id].this_ty) {
            (Some(t), Some(_)) => {
                let mut v = t;
                for _ in 0..depth {
                    let Some(sid) = self.s.types.as_struct(v.ty) else {
                        break;
                    };
                    let Some(base) = self.s.types.struct_info(sid).base else {
                        break;
                    };
                    v = self.member_of(v, 0, base, span);
                }
                Some(v)
            }
            (None, Some(_)) => {
                return self.error(
                    codes::NOT_CALLABLE,
                    format!("method `{name}` needs an object"),
                    span,
                    "called without an object",
                );
            }
            _ => None,
        };
        self.emit_call(chosen, this_val, args, span)
    }

    fn signature_text(&self, id: FuncDeclId, sig: &Sig) -> String {
        let d = &self.s.decls.funcs[id];
        let params: Vec<String> = sig
            .params
            .iter()
            .map(|p| {
                let dir = match p.dir {
                    Dir::In => "",
                    Dir::Out => "out ",
                    Dir::InOut => "inout ",
                };
                format!("{dir}{}", self.s.ty_name(p.ty))
            })
            .collect();
        format!(
            "{} {}({})",
            self.s.ty_name(sig.ret),
            d.name,
            params.join(", ")
        )
    }

    fn no_overload(
        &mut self,
        name: Symbol,
        cands: &[(FuncDeclId, u32)],
        arg_tys: &[TyId],
        span: Span,
    ) -> Val {
        let args: Vec<String> = arg_tys.iter().map(|t| self.s.ty_name(*t)).collect();
        let mut d = Diagnostic::error(
            codes::NO_MATCHING_OVERLOAD,
            format!("no overload of `{name}` takes ({})", args.join(", ")),
        )
        .label(span, "no matching function");
        for &(id, _) in cands.iter().take(8) {
            let f = self.s.decls.funcs[id].ast;
            let text = match &self.s.decls.funcs[id].sig {
                Some(sig) => self.signature_text(id, &sig.clone()),
                None => format!("template {}", name),
            };
            d = d.label(f.name.span, format!("candidate: {text}"));
        }
        self.s.push(d);
        Val::error()
    }

    /// Whether a candidate accepts the arguments, with the cost of each.
    fn viable(
        &mut self,
        id: FuncDeclId,
        targs: Option<&'a [ast::TemplateArg]>,
        args: &[Arg],
        arg_tys: &[TyId],
    ) -> Option<Viable<'a>> {
        let (sig, inst) = if self.s.decls.funcs[id].is_template {
            let (ta, env, sig) = self.deduce(id, targs, arg_tys)?;
            (sig, Some((ta, env)))
        } else {
            if targs.is_some() {
                return None;
            }
            (self.s.decls.funcs[id].sig.clone()?, None)
        };
        if args.len() > sig.params.len() {
            return None;
        }
        if sig.params[args.len()..].iter().any(|p| p.default.is_none()) {
            return None;
        }
        let mut costs = Vec::with_capacity(args.len());
        for (a, p) in args.iter().zip(&sig.params) {
            if self.s.types.is_resource(p.ty) || self.s.types.is_resource(a.val.ty) {
                if !self.resource_matches(a.val.ty, p.ty) {
                    return None;
                }
                costs.push(0);
                continue;
            }
            let c = conversion_cost(&self.s.types, a.val.ty, p.ty)?;
            if p.dir != Dir::In {
                // The value is copied back: that must convert too.
                conversion_cost(&self.s.types, p.ty, a.val.ty)?;
            }
            costs.push(c);
        }
        Some(Viable {
            id,
            sig,
            inst,
            costs,
        })
    }

    /// A resource argument for a resource parameter: same type (the
    /// element type of unsized arrays may match any size).
    fn resource_matches(&self, arg: TyId, param: TyId) -> bool {
        if arg == param {
            return true;
        }
        match (self.s.types.get(arg), self.s.types.get(param)) {
            (Ty::Array(a, _), Ty::Array(p, None)) => a == p,
            (Ty::HeapElem { .. }, Ty::Resource(..) | Ty::Sampler { .. }) => true,
            _ => false,
        }
    }

    /// Deduces template arguments of a function template from explicit
    /// arguments and argument types, and resolves the instance signature.
    fn deduce(
        &mut self,
        id: FuncDeclId,
        explicit: Option<&'a [ast::TemplateArg]>,
        arg_tys: &[TyId],
    ) -> Option<(Vec<TArg>, ScopeId, Sig<'a>)> {
        let f = self.s.decls.funcs[id].ast;
        let def = self.s.decls.funcs[id].def.unwrap_or(f);
        let scope = self.s.decls.funcs[id].scope;
        let params = def.template.as_ref()?;
        let mut bound: Vec<Option<TArg>> = vec![None; params.params.len()];
        if let Some(ex) = explicit {
            if ex.len() > bound.len() {
                return None;
            }
            let env = crate::sema::body::cx_env!(self);
            for (i, a) in ex.iter().enumerate() {
                bound[i] = Some(match &params.params[i] {
                    // A value (`Load<layout>` with a value parameter
                    // `layout`) for a type parameter: another overload's.
                    ast::TemplateParam::Type { .. } if names_value(self.s, a, &env) => return None,
                    ast::TemplateParam::Type { .. } => {
                        let t = self.s.template_type_arg(a, &env);
                        if t == types::ERROR {
                            return None;
                        }
                        TArg::Type(t)
                    }
                    // A lone name (`layout`) may be a value: a template
                    // parameter or an enumerator.
                    ast::TemplateParam::Value { .. } => match a {
                        ast::TemplateArg::Expr(e) => TArg::Value(self.s.const_int(e, &env)?),
                        ast::TemplateArg::Type(ast::TypeSpec {
                            kind: ast::TypeSpecKind::Named { path, args: None },
                            ..
                        }) => match self.s.const_name(path, &env) {
                            Ok(k) => TArg::Value(k.as_i64()),
                            Err(_) => return None,
                        },
                        ast::TemplateArg::Type(_) => return None,
                    },
                });
            }
        }
        let names: Vec<Symbol> = params
            .params
            .iter()
            .map(|p| match p {
                ast::TemplateParam::Type { name, .. } | ast::TemplateParam::Value { name, .. } => {
                    name.name
                }
            })
            .collect();
        for (p, &at) in def.params.iter().zip(arg_tys) {
            self.unify(&p.ty, at, &names, &mut bound);
            // `T a[N]`: the array length binds N.
            if let Some(Some(ast::Expr {
                kind: ast::ExprKind::Name(path),
                ..
            })) = p.array.first()
                && let (true, Ty::Array(_, Some(n))) =
                    (path.is_single(), self.s.types.get(at).clone())
                && let Some(i) = names.iter().position(|x| *x == path.last().name)
                && bound[i].is_none()
            {
                bound[i] = Some(TArg::Value(n as i64));
            }
        }
        let mut targs = Vec::with_capacity(bound.len());
        for (i, b) in bound.iter().enumerate() {
            match b {
                Some(a) => targs.push(*a),
                None => match &params.params[i] {
                    ast::TemplateParam::Type {
                        default: Some(d), ..
                    } => targs.push(TArg::Type(self.s.resolve_type(d, &Env::at(scope)).ty)),
                    ast::TemplateParam::Value {
                        default: Some(d), ..
                    } => targs.push(TArg::Value(self.s.const_int(d, &Env::at(scope))?)),
                    _ => return None,
                },
            }
        }
        if let Some(inst) = self.s.decls.funcs[id].instances.get(&targs) {
            return Some((targs, inst.env, inst.sig.clone()));
        }
        let env = self.s.template_env(scope, params, &targs);
        let errors = self.s.error_count();
        // An explicit specialisation for these arguments has its own
        // (concrete) signature.
        let def = self.s.function_instance_def(id, &targs).unwrap_or(def);
        let sig = self.s.resolve_sig(def, &Env::at(env));
        if self.s.error_count() > errors {
            return None;
        }
        Some((targs, env, sig))
    }

    /// Matches a written parameter type against an argument type, binding
    /// template parameters.
    fn unify(
        &mut self,
        ts: &'a ast::TypeSpec,
        at: TyId,
        names: &[Symbol],
        bound: &mut [Option<TArg>],
    ) {
        let ast::TypeSpecKind::Named { path, args } = &ts.kind else {
            return;
        };
        let at = match self.s.types.component(at) {
            Some(s) if s.is_literal() => self.s.types.with_component(at, s.concrete()),
            _ => at,
        };
        if let Ty::Spirv(t) = self.s.types.get(at).clone()
            && matches!(path.last().name.as_str(), "SpirvOpaqueType" | "SpirvType")
        {
            self.unify_spirv_type(path, args.as_deref(), &t, names, bound);
            return;
        }
        if path.is_single() {
            let n = path.last().name;
            if let Some(i) = names.iter().position(|x| *x == n) {
                if args.is_none() && bound[i].is_none() {
                    bound[i] = Some(TArg::Type(at));
                }
                return;
            }
            let bind_scalar = |this: &mut Self,
                               arg: Option<&'a ast::TemplateArg>,
                               v: TArg,
                               bound: &mut [Option<TArg>]| {
                let Some(arg) = arg else { return };
                let nm = match arg {
                    ast::TemplateArg::Type(t) => match &t.kind {
                        ast::TypeSpecKind::Named { path, args: None } if path.is_single() => {
                            Some(path.last().name)
                        }
                        _ => None,
                    },
                    ast::TemplateArg::Expr(e) => match &e.kind {
                        ast::ExprKind::Name(p) if p.is_single() => Some(p.last().name),
                        _ => None,
                    },
                };
                let _ = this;
                if let Some(nm) = nm
                    && let Some(i) = names.iter().position(|x| *x == nm)
                    && bound[i].is_none()
                {
                    bound[i] = Some(v);
                }
            };
            match (n.as_str(), self.s.types.get(at).clone()) {
                ("vector", Ty::Vector(s, k)) => {
                    let st = self.s.types.scalar(s);
                    let a = args.as_deref().unwrap_or(&[]);
                    bind_scalar(self, a.first(), TArg::Type(st), bound);
                    bind_scalar(self, a.get(1), TArg::Value(k as i64), bound);
                }
                ("matrix", Ty::Matrix(s, r, c)) => {
                    let st = self.s.types.scalar(s);
                    let a = args.as_deref().unwrap_or(&[]);
                    bind_scalar(self, a.first(), TArg::Type(st), bound);
                    bind_scalar(self, a.get(1), TArg::Value(r as i64), bound);
                    bind_scalar(self, a.get(2), TArg::Value(c as i64), bound);
                }
                (_, Ty::Resource(_, Some(e))) => {
                    let a = args.as_deref().unwrap_or(&[]);
                    bind_scalar(self, a.first(), TArg::Type(e), bound);
                }
                (_, Ty::Struct(_)) => {
                    if let Some((_, iargs)) = self.s.decls.struct_instances.get(&at).cloned() {
                        let a = args.as_deref().unwrap_or(&[]);
                        for (k, v) in iargs.iter().enumerate() {
                            bind_scalar(self, a.get(k), *v, bound);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `vk::SpirvOpaqueType<op, operands…>` or `vk::SpirvType<op, size,
    /// align, operands…>` written with template parameters, against a type
    /// of that form: each type operand binds as a parameter type would.
    fn unify_spirv_type(
        &mut self,
        path: &'a ast::Path,
        args: Option<&'a [ast::TemplateArg]>,
        t: &types::inline_spirv::SpirvTy,
        names: &[Symbol],
        bound: &mut [Option<TArg>],
    ) {
        let skip = match path.last().name.as_str() {
            "SpirvOpaqueType" if t.layout.is_none() => 1,
            "SpirvType" if t.layout.is_some() => 3,
            _ => return,
        };
        let written = args.unwrap_or(&[]).iter().skip(skip);
        for (a, o) in written.zip(&t.operands) {
            if let (ast::TemplateArg::Type(ts), types::inline_spirv::SpirvTyOperand::Type(ty)) = (a, o)
            {
                self.unify(ts, *ty, names, bound);
            }
        }
    }
}

/// Whether a template argument is a lone name of a value (a template
/// value parameter, an enumerator, a constant), not of a type.
fn names_value<'a>(s: &mut crate::sema::Sema<'a>, a: &'a ast::TemplateArg, env: &Env) -> bool {
    let path = match a {
        ast::TemplateArg::Type(ast::TypeSpec {
            kind: ast::TypeSpecKind::Named { path, args: None },
            ..
        }) => path,
        ast::TemplateArg::Expr(ast::Expr {
            kind: ast::ExprKind::Name(path),
            ..
        }) => path,
        ast::TemplateArg::Expr(_) => return true,
        ast::TemplateArg::Type(_) => return false,
    };
    let name = path.last().name;
    if path.is_single() {
        if let Some(l) = env.locals.and_then(|l| l.lookup(name)) {
            return !matches!(l, crate::sema::body::LocalSym::Type(_));
        }
        return matches!(
            s.scopes.lookup(env.scope, name),
            Some(Sym::Value(..) | Sym::Global(_))
        );
    }
    let Some(scope) = s.resolve_scope_path(path, env) else {
        return false;
    };
    matches!(
        s.scopes.lookup_in(scope, name),
        Some(Sym::Value(..) | Sym::Global(_))
    )
}
