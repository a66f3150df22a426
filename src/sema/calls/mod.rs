//! Calls of user functions and methods: candidate lookup, template
//! argument deduction, overload resolution with HLSL's conversion ranks,
//! and the call itself with copy-in/copy-out for `out`/`inout` parameters
//! (HLSL parameters are copies, never references).

pub mod buffer_pointer;
pub mod device_address;
pub mod emit;
mod inline_spirv;
mod spirv_operands;
pub mod intrinsics;
pub mod node;
pub mod overload;
pub mod printf;
pub mod ray_query;
pub mod raytracing;
pub mod recursion;
pub mod vk;

use super::body::FnCtx;
use super::body::LocalSym;
use super::body::convert::Cost;
use super::body::place::{Val, ValKind};
use super::types::scope::{FuncDeclId, ScopeId, Sym};
use super::types::{Ty, TyId};
use super::{Sig, TArg};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::sema::entry::mesh::MeshArray;
use crate::span::Span;

/// A viable candidate of a call.
pub(in crate::sema) struct Viable<'a> {
    pub id: FuncDeclId,
    pub sig: Sig<'a>,
    pub inst: Option<(Vec<TArg>, ScopeId)>,
    pub costs: Vec<Cost>,
}

/// A lowered argument.
pub struct Arg {
    pub val: Val,
    pub span: Span,
    /// The per-vertex pixel input the argument names, if any (only when
    /// some code calls `GetAttributeAtVertex`).
    pub vertex: Option<Symbol>,
    /// The mesh output array the argument names, if any: passed on only to
    /// a parameter of the same kind, never read (see `entry/mesh.rs`).
    pub mesh: Option<MeshArray>,
    /// The local resource variable the argument names, rebound after the
    /// call when it is passed for an `out`/`inout` resource parameter.
    pub local: Option<Symbol>,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    pub fn lower_args(&mut self, args: &'a [ast::Expr]) -> Vec<Arg> {
        args.iter().map(|a| self.lower_arg(a)).collect()
    }

    /// The arguments of a call to user functions: as [`Self::lower_args`],
    /// but a mesh output array may be passed on to a helper's parameter of
    /// its kind (checked once the callee is chosen), which writes the
    /// entry's outputs; the argument is then only a temporary for the `out`
    /// parameter.
    fn lower_user_call_args(&mut self, args: &'a [ast::Expr]) -> Vec<Arg> {
        args.iter()
            .map(|a| match self.mesh_output_arg(a) {
                Some(arg) => arg,
                None => self.lower_user_arg(a),
            })
            .collect()
    }

    fn mesh_output_arg(&mut self, a: &'a ast::Expr) -> Option<Arg> {
        if let ast::ExprKind::Name(path) = &a.kind
            && let Some(out) = self.mesh_output_named(path)
        {
            let place = self.temp_place(out.ty());
            return Some(Arg {
                val: Val::place(out.ty(), place, None),
                span: a.span,
                vertex: None,
                mesh: Some(out.kind()),
                local: None,
            });
        }
        None
    }

    fn lower_arg(&mut self, a: &'a ast::Expr) -> Arg {
        Arg {
            val: self.expr(a),
            span: a.span,
            vertex: self.vertex_name(a).map(|n| Symbol::intern(&n)),
            mesh: None,
            local: None,
        }
    }

    /// An argument of a call to a user function: as [`Self::lower_arg`],
    /// and naming the local resource variable it is.
    fn lower_user_arg(&mut self, a: &'a ast::Expr) -> Arg {
        // A local resource variable: one holding no resource yet may be
        // passed to an `out` parameter (the call checks).
        let local = match &a.kind {
            ast::ExprKind::Name(p) if p.is_single() => match self.fb.locals.lookup(p.last().name) {
                Some(LocalSym::Var(lv)) if self.s.types.is_resource(lv.val.ty) => {
                    Some((p.last().name, lv.val.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        let val = match &local {
            Some((_, v)) if matches!(v.kind, ValKind::Void) => v.clone(),
            _ => self.expr(a),
        };
        Arg {
            val,
            span: a.span,
            vertex: self.vertex_name(a).map(|n| Symbol::intern(&n)),
            mesh: None,
            local: local.map(|(n, _)| n),
        }
    }

    /// Methods named `name` of a struct and its bases, each with the number
    /// of base steps from `ty` (0 = the struct itself).
    pub fn struct_methods(&self, ty: TyId, name: Symbol) -> Vec<(FuncDeclId, u32)> {
        let mut out = Vec::new();
        let mut cur = Some(ty);
        let mut depth = 0;
        while let Some(t) = cur {
            let Some(sid) = self.s.types.as_struct(t) else {
                break;
            };
            let info = self.s.types.struct_info(sid);
            if let Some(list) = info.methods.get(&name) {
                out.extend(list.iter().map(|&i| (i, depth)));
                // Methods of a derived struct hide the base's of that name.
                break;
            }
            cur = info.base;
            depth += 1;
        }
        out
    }

    /// `f(args)`, `ns::f(args)`, `S::f(args)`, `f<T>(args)`.
    pub fn call(
        &mut self,
        callee: &'a ast::Path,
        targs: Option<&'a [ast::TemplateArg]>,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Val {
        if let Some(v) = self.vk_address_call(callee, targs, args, span) {
            return v;
        }
        let name = callee.last().name;
        let mut cands: Vec<(FuncDeclId, u32)> = Vec::new();
        let mut this_val: Option<Val> = None;
        if callee.is_single() {
            // A local variable cannot be called, unless it is a struct with
            // `operator()`.
            if let Some(super::body::LocalSym::Var(lv)) = self.fb.locals.lookup(name).cloned() {
                let op = Symbol::intern("operator()");
                let cands = self.struct_methods(lv.val.ty, op);
                if !cands.is_empty() {
                    let a = self.lower_args(args);
                    return self.call_candidates(&cands, Some(lv.val), targs, a, op, span, false);
                }
                return self.variable_called(name, callee.span, args);
            }
            if let Some(st) = self.fb.this_struct {
                cands = self.struct_methods(st, name);
                if !cands.is_empty() {
                    this_val = self.fb.this.clone();
                }
            }
            if cands.is_empty() {
                match self.s.scopes.lookup(self.fb.scope, name).cloned() {
                    Some(Sym::Funcs(list)) => cands = list.into_iter().map(|i| (i, 0)).collect(),
                    Some(Sym::Type(t)) => {
                        // `S(x)`, a cast written as a call.
                        let a = self.lower_args(args);
                        if a.len() == 1 {
                            let v = a
                                .into_iter()
                                .next()
                                .map(|a| a.val)
                                .unwrap_or_else(Val::error);
                            return self.cast(v, t.ty, span);
                        }
                        return self.error(
                            codes::NOT_CALLABLE,
                            format!("`{name}` is a type, not a function"),
                            callee.span,
                            "not callable",
                        );
                    }
                    Some(Sym::Global(_)) => {
                        return self.variable_called(name, callee.span, args);
                    }
                    _ => {}
                }
            }
        } else {
            // `vk::ReadClock(…)` and the other built-ins of `vk::` (vk.rs).
            if let Some(v) = self.vk_call(callee, targs, args, span) {
                return v;
            }
            let env = crate::sema::body::cx_env!(self);
            let Some(scope) = self.s.resolve_scope_path(callee, &env) else {
                let _ = self.lower_args(args);
                return Val::error();
            };
            if let super::types::scope::ScopeKind::Struct(st) = self.s.scopes.get(scope).kind {
                // `S::f()`: a static method, or a base method on `this`.
                cands = self.struct_methods(st, name);
                if let Some(this) = self.fb.this.clone()
                    && let Some(cur) = self.fb.this_struct
                    && let Some(v) = self.upcast_this(this, cur, st, span)
                {
                    this_val = Some(v);
                }
            } else if let Some(Sym::Funcs(list)) = self.s.scopes.lookup_in(scope, name).cloned() {
                cands = list.into_iter().map(|i| (i, 0)).collect();
            }
        }
        if cands.is_empty()
            && callee.is_single()
            && let Some(v) = self.mesh_call(name, args, span)
        {
            return v;
        }
        if cands.is_empty() && callee.is_single() && name.as_str() == "printf" {
            return self.printf(args, span);
        }
        if cands.is_empty()
            && self.s.entry.vertex.enabled
            && callee.is_single()
            && name.as_str() == "GetAttributeAtVertex"
        {
            return self.get_attribute_at_vertex(args, span);
        }
        let a = if cands.is_empty() {
            self.lower_args(args)
        } else {
            self.lower_user_call_args(args)
        };
        if let Some(ix) = self.s.index.as_deref_mut()
            && !cands.is_empty()
        {
            ix.set_callee(callee.last().span);
        }
        if cands.is_empty() {
            if callee.is_single()
                && let Some(v) = self.ray_tracing_intrinsic(name, &a, span)
            {
                return v;
            }
            if callee.is_single()
                && let Some(v) = self.node_intrinsic(name, args, &a, span)
            {
                return v;
            }
            if callee.is_single()
                && let Some(v) = self.intrinsic(name, targs, &a, span)
            {
                return v;
            }
            if callee.is_single()
                && let Some(v) = self.cooperative_matrix_length(name, targs, &a, span)
            {
                return v;
            }
            if a.iter().any(|x| x.val.is_error()) {
                return Val::error();
            }
            if callee.is_single() {
                let found = self.argument_dependent(name, &a);
                if !found.is_empty() {
                    return self.call_candidates(&found, None, targs, a, name, span, false);
                }
            }
            let mut d = Diagnostic::error(
                codes::UNKNOWN_NAME,
                format!("cannot find function `{}`", callee.last().name),
            )
            .label(callee.span, "not declared");
            if callee.is_single() {
                // Functions in scope and intrinsics of a similar name.
                let mut names: Vec<&str> = Vec::new();
                let mut cur = Some(self.fb.scope);
                while let Some(sc) = cur {
                    let scope = self.s.scopes.get(sc);
                    names.extend(
                        scope
                            .names
                            .iter()
                            .filter(|(_, s)| matches!(s, Sym::Funcs(_)))
                            .map(|(n, _)| n.as_str()),
                    );
                    cur = scope.parent;
                }
                names.extend(super::calls::intrinsics::table::all().map(|i| i.name));
                names.extend(raytracing::intrinsic_names());
                names.extend(["Barrier", "GetRemainingRecursionLevels"]);
                if let Some(c) = crate::diag::suggest::closest(callee.last().name.as_str(), names) {
                    d = d.note(format!("did you mean `{c}`?"));
                }
            }
            self.s.push(d);
            return Val::error();
        }
        self.call_candidates(&cands, this_val, targs, a, name, span, callee.is_single())
    }

    /// The functions `name` of the namespaces the arguments' struct types
    /// are declared in (C++'s argument-dependent lookup, which HLSL 2021
    /// has): `cooperativeMatrixMultiplyAdd(a, b, c)` finds
    /// `vk::khr::cooperativeMatrixMultiplyAdd` through the type of `a`.
    fn argument_dependent(&self, name: Symbol, args: &[Arg]) -> Vec<(FuncDeclId, u32)> {
        let mut out: Vec<(FuncDeclId, u32)> = Vec::new();
        let mut seen: Vec<ScopeId> = Vec::new();
        for a in args {
            let Some(sid) = self.s.types.as_struct(a.val.ty) else {
                continue;
            };
            let mut cur = self.s.scopes.get(self.s.types.struct_info(sid).scope).parent;
            while let Some(sc) = cur {
                let scope = self.s.scopes.get(sc);
                if scope.kind == super::types::scope::ScopeKind::Namespace {
                    break;
                }
                cur = scope.parent;
            }
            let Some(ns) = cur.filter(|ns| !seen.contains(ns)) else {
                continue;
            };
            seen.push(ns);
            if let Some(Sym::Funcs(list)) = self.s.scopes.lookup_in(ns, name) {
                out.extend(list.iter().map(|&i| (i, 0)));
            }
        }
        out
    }

    /// `this` seen as its base struct `target` (for `Base::f()` calls).
    fn upcast_this(&mut self, this: Val, from: TyId, target: TyId, span: Span) -> Option<Val> {
        let mut v = this;
        let mut cur = from;
        for _ in 0..64 {
            if cur == target {
                return Some(v);
            }
            let sid = self.s.types.as_struct(cur)?;
            let base = self.s.types.struct_info(sid).base?;
            v = self.member_of(v, 0, base, span);
            cur = base;
        }
        None
    }

    /// `obj.method(args)`.
    pub fn method_call(
        &mut self,
        object: &'a ast::Expr,
        method: ast::Ident,
        targs: Option<&'a [ast::TemplateArg]>,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Val {
        let obj = self.expr(object);
        if obj.is_error() {
            let _ = self.lower_args(args);
            return obj;
        }
        match self.s.types.get(obj.ty).clone() {
            Ty::Resource(kind, elem) => {
                let a = self.lower_args(args);
                if self.counter_of_struct_array(object, kind, method.name.as_str(), span) {
                    return Val::error();
                }
                self.resource_method(obj, kind, elem, method, targs, a, span)
            }
            Ty::Stream(_, elem) => {
                let a = self.lower_args(args);
                self.stream_method(obj, elem, method, a, span)
            }
            Ty::RayQuery(flags) => {
                let a = self.lower_args(args);
                self.ray_query_method(obj, flags, method, a, span)
            }
            Ty::Node(kind, record, slot) => {
                let a = self.lower_args(args);
                self.node_method(obj, kind, record, slot, method, a, span)
            }
            Ty::BufferPointer(pointee, _) => {
                let a = self.lower_args(args);
                self.buffer_pointer_method(obj, pointee, method, a, span)
            }
            Ty::Struct(_) => {
                let cands = self.struct_methods(obj.ty, method.name);
                if cands.is_empty() {
                    return self.no_method(obj.ty, method, args, "unknown method");
                }
                let a = self.lower_args(args);
                if let Some(ix) = self.s.index.as_deref_mut() {
                    ix.set_callee(method.span);
                }
                self.call_candidates(&cands, Some(obj), targs, a, method.name, span, false)
            }
            _ => self.no_method(obj.ty, method, args, "no methods on this type"),
        }
    }

    /// `v(args)` where `v` names a variable: an error, once the arguments
    /// are checked.
    fn variable_called(&mut self, name: Symbol, span: Span, args: &'a [ast::Expr]) -> Val {
        let _ = self.lower_args(args);
        self.error(
            codes::NOT_CALLABLE,
            format!("`{name}` is a variable, not a function"),
            span,
            "not callable",
        )
    }

    /// `obj.method(args)` where the type of `obj` has no such method: the
    /// arguments are still checked.
    fn no_method(
        &mut self,
        ty: TyId,
        method: ast::Ident,
        args: &'a [ast::Expr],
        label: &str,
    ) -> Val {
        let _ = self.lower_args(args);
        self.error(
            codes::NO_METHOD,
            format!("`{}` has no method `{}`", self.s.ty_name(ty), method.name),
            method.span,
            label,
        )
    }
}
