//! Calls of user functions and methods: candidate lookup, template
//! argument deduction, overload resolution with HLSL's conversion ranks,
//! and the call itself with copy-in/copy-out for `out`/`inout` parameters
//! (HLSL parameters are copies, never references).

pub mod intrinsics;
pub mod overload;
pub mod recursion;

use super::body::FnCtx;
use super::body::convert::Cost;
use super::body::place::{Place, Val, ValKind};
use super::types::consteval::ConstVal;
use super::types::scope::{FuncDeclId, ScopeId, Sym};
use super::types::{self, Sc, Ty, TyId};
use super::{Dir, ReadOnly, ResPathId, ResReturn, Sig, TArg};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::span::Span;

/// A viable candidate of a call.
pub(super) struct Viable<'a> {
    pub id: FuncDeclId,
    pub sig: Sig<'a>,
    pub inst: Option<(Vec<TArg>, ScopeId)>,
    pub costs: Vec<Cost>,
}

/// A lowered argument.
pub struct Arg {
    pub val: Val,
    pub span: Span,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    pub fn lower_args(&mut self, args: &'a [ast::Expr]) -> Vec<Arg> {
        args.iter()
            .map(|a| Arg {
                val: self.expr(a),
                span: a.span,
            })
            .collect()
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
                let _ = self.lower_args(args);
                return self.error(
                    codes::NOT_CALLABLE,
                    format!("`{name}` is a variable, not a function"),
                    callee.span,
                    "not callable",
                );
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
                        let _ = self.lower_args(args);
                        return self.error(
                            codes::NOT_CALLABLE,
                            format!("`{name}` is a variable, not a function"),
                            callee.span,
                            "not callable",
                        );
                    }
                    _ => {}
                }
            }
        } else {
            let env = crate::cx_env!(self);
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
        let a = self.lower_args(args);
        if cands.is_empty() {
            if callee.is_single()
                && let Some(v) = self.intrinsic(name, targs, &a, span)
            {
                return v;
            }
            if a.iter().any(|x| x.val.is_error()) {
                return Val::error();
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
                names.extend(
                    super::calls::intrinsics::table::TABLE
                        .iter()
                        .map(|i| i.name),
                );
                if let Some(c) = crate::diag::suggest::closest(callee.last().name.as_str(), names) {
                    d = d.note(format!("did you mean `{c}`?"));
                }
            }
            self.s.push(d);
            return Val::error();
        }
        self.call_candidates(&cands, this_val, targs, a, name, span, callee.is_single())
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
                self.resource_method(obj, kind, elem, method, targs, a, span)
            }
            Ty::Struct(_) => {
                let cands = self.struct_methods(obj.ty, method.name);
                if cands.is_empty() {
                    let _ = self.lower_args(args);
                    return self.error(
                        codes::NO_METHOD,
                        format!(
                            "`{}` has no method `{}`",
                            self.s.ty_name(obj.ty),
                            method.name
                        ),
                        method.span,
                        "unknown method",
                    );
                }
                let a = self.lower_args(args);
                self.call_candidates(&cands, Some(obj), targs, a, method.name, span, false)
            }
            _ => {
                let _ = self.lower_args(args);
                self.error(
                    codes::NO_METHOD,
                    format!(
                        "`{}` has no method `{}`",
                        self.s.ty_name(obj.ty),
                        method.name
                    ),
                    method.span,
                    "no methods on this type",
                )
            }
        }
    }

    /// Emits a call to the chosen candidate.
    pub(super) fn emit_call(
        &mut self,
        chosen: Viable<'a>,
        this_val: Option<Val>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let id = chosen.id;
        let decl_name = self.s.decls.funcs[id].name;
        if self.s.decls.funcs[id].def.is_none() {
            let ds = self.s.decls.funcs[id].ast.name.span;
            self.s.push(
                Diagnostic::error(
                    codes::UNDEFINED_FUNCTION,
                    format!("`{decl_name}` is declared but never defined"),
                )
                .label(span, "called here")
                .label(ds, "declared here"),
            );
            return Val::error();
        }
        // DXC: heaps are only reachable through their globals.
        for p in &chosen.sig.params {
            if matches!(self.s.types.get(p.ty), Ty::Heap { .. }) {
                self.s.push(
                    Diagnostic::error(
                        codes::RESOURCE_MISUSE,
                        "`ResourceDescriptorHeap` and `SamplerDescriptorHeap` cannot be function parameters",
                    )
                    .label(p.span, "a descriptor heap parameter")
                    .label(span, "passed here"),
                );
                return Val::error();
            }
        }
        // Heap elements passed for resource parameters take the type.
        let mut args = args;
        for (i, p) in chosen.sig.params.iter().enumerate() {
            if let Some(a) = args.get_mut(i)
                && matches!(self.s.types.get(a.val.ty), Ty::HeapElem { .. })
            {
                let v = std::mem::replace(&mut a.val, Val::error());
                a.val = self.convert(v, p.ty, a.span);
            }
        }
        // Functions taking or returning resources are specialized for the
        // resources of each call (SPIR-V cannot pass them around).
        let has_res = chosen
            .sig
            .params
            .iter()
            .any(|p| self.s.types.is_resource(p.ty))
            || self.s.types.is_resource(chosen.sig.ret);
        let mut res_ids: Vec<ResPathId> = Vec::new();
        let mut specialize = has_res;
        if has_res {
            for (i, p) in chosen.sig.params.iter().enumerate() {
                if !self.s.types.is_resource(p.ty) {
                    continue;
                }
                match args.get(i).and_then(|a| self.res_path(&a.val)) {
                    Some(rp) => res_ids.push(self.s.res.intern_path(rp)),
                    None => {
                        specialize = false;
                        break;
                    }
                }
            }
        }
        // A method called on a struct holding resources: specialized for
        // the object's resources, its data members passed by pointer.
        let mut agg_this: Option<(Vec<ResPathId>, Vec<ir::Handle<ir::Expression>>)> = None;
        if let Some(t) = &this_val
            && matches!(t.kind, ValKind::Agg(_))
        {
            let mut leaves = Vec::new();
            self.agg_leaves_of(t, &mut leaves);
            let (mut ids, mut ptrs) = (Vec::new(), Vec::new());
            for l in leaves {
                if self.s.types.is_resource(l.ty) {
                    let id = match &l.kind {
                        ValKind::Res(r) => Some(*r),
                        _ => self.res_path(&l).map(|rp| self.s.res.intern_path(rp)),
                    };
                    match id {
                        Some(r) => ids.push(r),
                        None => {
                            return self.error(
                                codes::RESOURCE_MISUSE,
                                "a resource member of this object is not assigned, or not known at compile time",
                                span,
                                "method called here",
                            );
                        }
                    }
                } else {
                    match &l.kind {
                        ValKind::Place(Place::Ptr {
                            ptr,
                            space: ir::AddressSpace::Function,
                            ..
                        }) => ptrs.push(*ptr),
                        _ => {
                            return self
                                .unsupported("methods of this struct holding resources", span);
                        }
                    }
                }
            }
            if has_res && !specialize {
                return self.unsupported(
                    "a method of a struct holding resources taking a resource not known at compile time",
                    span,
                );
            }
            specialize = true;
            agg_this = Some((ids, ptrs));
        }
        // A function returning a resource, called with constant integer
        // arguments for parameters it never changes: specialized for them,
        // so that conditions on them fold and pick one resource (what
        // DXC's legalization achieves by inlining).
        let mut const_args = Vec::new();
        if self.s.types.is_resource(chosen.sig.ret)
            && specialize
            && let Some(body) = self.s.decls.funcs[id].def.and_then(|d| d.body.as_ref())
        {
            for (i, p) in chosen.sig.params.iter().enumerate() {
                let (Some(a), Some(name)) = (args.get(i), p.name) else {
                    continue;
                };
                let ValKind::Const(k) = a.val.kind else {
                    continue;
                };
                let Some(sc) = self.s.types.component(p.ty) else {
                    continue;
                };
                if p.dir != Dir::In
                    || !self.s.types.is_scalar(p.ty)
                    || !(sc.is_int() || sc == Sc::Bool)
                    || super::decl::ast_scan::may_write(body, name)
                {
                    continue;
                }
                let value = match k.convert(sc).v {
                    ConstVal::Int(v) => v,
                    ConstVal::Bool(b) => b as i64,
                    ConstVal::Float(_) => continue,
                };
                const_args.push(TArg::ConstArg {
                    param: i as u16,
                    value,
                });
            }
        }
        let func = if specialize {
            let (mut key, env) = match &chosen.inst {
                Some((t, e)) => (t.clone(), *e),
                None => (Vec::new(), self.s.decls.funcs[id].scope),
            };
            if let Some((ids, _)) = &agg_this {
                key.push(TArg::AggThis);
                key.extend(ids.iter().map(|&r| TArg::Res(r)));
            }
            key.extend(res_ids.iter().map(|&r| TArg::Res(r)));
            key.extend(const_args);
            self.s.queue_instance(id, key, env, chosen.sig.clone())
        } else {
            match &chosen.inst {
                None => match self.s.func_ir(id) {
                    Some(h) => h,
                    None => return Val::error(),
                },
                Some((targs, env)) => {
                    self.s
                        .queue_instance(id, targs.clone(), *env, chosen.sig.clone())
                }
            }
        };
        self.s.work.record_call(self.fb.handle, func, span);
        let sig = chosen.sig;
        let mut ir_args = Vec::new();
        // Copy-backs after the call: (temp pointer, param type, place, arg type).
        let mut copy_back: Vec<(ir::Handle<ir::Expression>, TyId, Place, TyId)> = Vec::new();
        if let Some((_, ptrs)) = &agg_this {
            ir_args.extend(ptrs.iter().copied());
        } else if let Some(t) = this_val {
            let canon = self.s.ir_ty(t.ty);
            match &t.kind {
                ValKind::Place(Place::Ptr {
                    ptr,
                    mem,
                    space: ir::AddressSpace::Function,
                }) if *mem == canon => {
                    ir_args.push(*ptr);
                }
                _ => {
                    let Some(v) = self.value(&t) else {
                        return Val::error();
                    };
                    let (tmp, _) = self.temp(t.ty);
                    self.stmt(ir::Statement::Store {
                        pointer: tmp,
                        value: v,
                    });
                    ir_args.push(tmp);
                    if let (Some(p), None) = (t.as_place(), t.read_only) {
                        copy_back.push((tmp, t.ty, p.clone(), t.ty));
                    }
                }
            }
        }
        let callee_scope = self.s.decls.funcs[id].scope;
        for (i, p) in sig.params.iter().enumerate() {
            let (val, aspan) = match args.get(i) {
                Some(a) => (a.val.clone(), a.span),
                None => {
                    // A default argument, resolved where the function was declared.
                    let Some(d) = p.default else {
                        return Val::error();
                    };
                    let saved = std::mem::replace(&mut self.fb.scope, callee_scope);
                    let v = self.expr(d);
                    self.fb.scope = saved;
                    (v, d.span)
                }
            };
            if self.s.types.is_resource(p.ty) {
                if specialize {
                    continue;
                }
                match &val.kind {
                    ValKind::Place(Place::Ptr { ptr, .. }) => ir_args.push(*ptr),
                    _ => {
                        return self.error(
                            codes::RESOURCE_MISUSE,
                            "this resource cannot be passed to a function",
                            aspan,
                            "not a resource variable",
                        );
                    }
                }
                continue;
            }
            match p.dir {
                Dir::In => {
                    let c = self.convert(val, p.ty, aspan);
                    let Some(h) = self.value(&c) else {
                        return Val::error();
                    };
                    ir_args.push(h);
                }
                Dir::Out | Dir::InOut => {
                    let place = match (&val.kind, val.read_only) {
                        (ValKind::Place(pl), None) => pl.clone(),
                        (ValKind::Place(_), Some(ro))
                            if !matches!(ro, ReadOnly::Rvalue | ReadOnly::RepeatedComponent) =>
                        {
                            self.check_writable(&val, aspan);
                            return Val::error();
                        }
                        _ => {
                            return self.error(
                                codes::OUT_ARG_NOT_LVALUE,
                                format!(
                                    "an `{}` argument must be assignable",
                                    if p.dir == Dir::Out { "out" } else { "inout" }
                                ),
                                aspan,
                                "not an lvalue",
                            );
                        }
                    };
                    let (tmp, _) = self.temp(p.ty);
                    if p.dir == Dir::InOut {
                        let c = self.convert(val.clone(), p.ty, aspan);
                        if let Some(h) = self.value(&c) {
                            self.stmt(ir::Statement::Store {
                                pointer: tmp,
                                value: h,
                            });
                        }
                    }
                    ir_args.push(tmp);
                    copy_back.push((tmp, p.ty, place, val.ty));
                }
            }
        }
        // A struct holding resources comes back through the data members
        // of a fresh aggregate; the callee's body says which resources.
        let ret_agg = if self.s.types.is_agg(sig.ret) {
            let a = self.make_agg(sig.ret, "ret");
            let mut leaves = Vec::new();
            self.agg_leaves_of(&a, &mut leaves);
            for l in &leaves {
                if let ValKind::Place(Place::Ptr { ptr, .. }) = &l.kind {
                    ir_args.push(*ptr);
                }
            }
            self.s.lower_now(func);
            Some(leaves)
        } else {
            None
        };
        let returns_res = self.s.types.is_resource(sig.ret);
        // The callee's body says which resource it returns.
        let res_return = if returns_res {
            self.s.lower_now(func);
            self.s.res.returned_res.get(&func).copied().flatten()
        } else {
            None
        };
        let result = match res_return {
            Some(ResReturn::Indexed { count, .. }) => {
                let rt = self.index_result_type(count);
                Some(self.add(ir::Expression::CallResult(func), rt))
            }
            _ if sig.ret == types::VOID || returns_res || ret_agg.is_some() => None,
            _ => {
                let rt = self.s.ir_ty(sig.ret);
                Some(self.add(ir::Expression::CallResult(func), rt))
            }
        };
        self.stmt(ir::Statement::Call {
            function: func,
            arguments: ir_args,
            result,
        });
        for (tmp, pty, place, aty) in copy_back {
            let it = self.s.ir_ty(pty);
            let v = self.add(ir::Expression::Load { pointer: tmp }, it);
            let c = self.convert(Val::expr(pty, v), aty, span);
            if let Some(h) = self.value(&c) {
                self.write_place(&place, aty, h);
            }
        }
        if let Some(leaves) = ret_agg {
            let Some(Some(ids)) = self.s.res.returned_agg.get(&func).cloned() else {
                return self.unsupported("using the struct returned by this call", span);
            };
            let mut ids = ids.into_iter();
            let mut out = Vec::with_capacity(leaves.len());
            for l in leaves {
                if self.s.types.is_resource(l.ty) {
                    let Some(r) = ids.next() else {
                        return Val::error();
                    };
                    let ro = self.s.resource_read_only(l.ty, span);
                    out.push(Val {
                        ty: l.ty,
                        kind: ValKind::Res(r),
                        read_only: ro,
                    });
                } else {
                    out.push(l);
                }
            }
            return self.agg_from_leaves(sig.ret, &mut out.into_iter());
        }
        if returns_res {
            let ro = self.s.resource_read_only(sig.ret, span);
            return match (res_return, result) {
                (Some(ResReturn::Fixed(id)), _) => self.res_path_place(id, sig.ret, ro),
                (Some(ResReturn::Indexed { gv, count }), Some(r)) => {
                    let u = self.s.ir_ty(types::UINT);
                    let idx: Vec<_> = if count == 1 {
                        vec![r]
                    } else {
                        (0..count as u32)
                            .map(|k| self.add(ir::Expression::AccessIndex { base: r, index: k }, u))
                            .collect()
                    };
                    self.indexed_res_place(gv, &idx, sig.ret, ro)
                }
                _ => self.unsupported("using the resource returned by this call", span),
            };
        }
        match result {
            Some(r) => Val::expr(sig.ret, r),
            None => Val::void(),
        }
    }
}
