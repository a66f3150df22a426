//! Emitting a call to the chosen overload: the callee's IR function (an
//! instance specialized for the resources and constant arguments of the
//! call where SPIR-V needs it), the arguments with copy-in/copy-out for
//! `out`/`inout` parameters (HLSL parameters are copies, never
//! references), and the result (a value, a resource, or a struct holding
//! resources).

use super::Viable;
use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::body::{FnCtx, LocalSym};
use crate::sema::calls::Arg;
use crate::sema::types::consteval::ConstVal;
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::sema::{Dir, ParamSig, ReadOnly, ResPathId, ResReturn, Sig, TArg};
use crate::span::Span;

/// What a call's callee is specialized for.
#[derive(Default)]
struct Specialization {
    /// Whether it is specialized at all.
    on: bool,
    /// The resources passed for its resource parameters (`None`: none
    /// yet, for an `out` parameter or a member never assigned).
    res_ids: Vec<Option<ResPathId>>,
    /// Resource parameters given an element of a global array chosen at
    /// run time: (parameter, global, index values).
    indexed: Vec<(
        usize,
        ir::Handle<ir::GlobalVariable>,
        Vec<ir::Handle<ir::Expression>>,
    )>,
    /// A method called on a struct holding resources: the object's
    /// resources, and pointers to its data members.
    agg_this: Option<AggThis>,
    /// Constant arguments a function returning a resource is made for.
    const_args: Vec<TArg>,
    /// Per-vertex inputs given to `nointerpolation` parameters.
    vertex_args: Vec<TArg>,
}

/// The resources of a struct holding resources that a method is called
/// on, and pointers to its data members.
type AggThis = (Vec<Option<ResPathId>>, Vec<ir::Handle<ir::Expression>>);

/// The IR arguments of a call, and the copy-backs after it: (temporary
/// pointer, parameter type, place, argument type).
#[derive(Default)]
struct CallArgs {
    ir: Vec<ir::Handle<ir::Expression>>,
    /// Arguments after all others: indices of resources chosen at run time.
    tail: Vec<ir::Handle<ir::Expression>>,
    copy_back: Vec<(ir::Handle<ir::Expression>, TyId, Place, TyId)>,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Emits a call to the chosen candidate.
    pub(in crate::sema) fn emit_call(
        &mut self,
        chosen: Viable<'a>,
        this_val: Option<Val>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if self.is_spirv_instruction(&chosen) {
            return self.emit_spirv_instruction(&chosen, args, span);
        }
        if let Some((id, _)) = self.s.type_def_of(chosen.id, true) {
            // The call defines `vk::ext_type<id>`; it does nothing else.
            self.s.ext_type(id, span);
            return Val::void();
        }
        if !self.callable(&chosen, span) {
            return Val::error();
        }
        let args = self.heap_elements_as_params(&chosen.sig, args);
        let spec = match self.specialization(&chosen, this_val.as_ref(), &args, span) {
            Ok(spec) => spec,
            Err(v) => return v,
        };
        let Some(func) = self.callee_ir(&chosen, &spec) else {
            return Val::error();
        };
        self.s.work.record_call(self.fb.handle, func, span);
        let mut call = CallArgs::default();
        if let Some((_, ptrs)) = &spec.agg_this {
            call.ir.extend(ptrs.iter().copied());
        } else if let Some(t) = this_val
            && !self.pass_this(t, &mut call)
        {
            return Val::error();
        }
        let callee_scope = self.s.decls.funcs[chosen.id].scope;
        for (i, p) in chosen.sig.params.iter().enumerate() {
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
            if let Err(v) = self.pass_argument(p, val, aspan, spec.on, &mut call) {
                return v;
            }
            if let Some((_, _, idx)) = spec.indexed.iter().find(|x| x.0 == i) {
                call.tail.extend(idx.iter().copied());
            }
        }
        let result = self.call_result(func, &chosen.sig, call, span);
        if spec.on {
            self.rebind_out_resources(func, &chosen.sig, &args);
        }
        result
    }

    /// After a call to a specialized function: each local passed for an
    /// `out`/`inout` resource parameter names the resource the callee
    /// left in it.
    fn rebind_out_resources(
        &mut self,
        func: ir::Handle<ir::Function>,
        sig: &Sig<'a>,
        args: &[Arg],
    ) {
        let outs: Vec<usize> = (sig.params.iter().enumerate())
            .filter(|(_, p)| p.dir != Dir::In && self.s.types.is_resource(p.ty))
            .map(|(i, _)| i)
            .collect();
        if outs.is_empty() {
            return;
        }
        self.s.lower_now(func);
        let left = self.s.res.out_res.get(&func).cloned().unwrap_or_default();
        for i in outs {
            let Some(a) = args.get(i) else {
                continue;
            };
            let id = left
                .iter()
                .find(|&&(pi, _)| pi as usize == i)
                .and_then(|&(_, r)| r);
            let Some(name) = a.local else {
                // A global the callee leaves as it was given needs nothing.
                let given = self.res_path(&a.val).map(|p| self.s.res.intern_path(p));
                if given.is_some() && given == id {
                    continue;
                }
                self.unsupported(
                    "a resource `out` or `inout` argument that is not a local variable",
                    a.span,
                );
                continue;
            };
            let Some(LocalSym::Var(lv)) = self.fb.locals.lookup(name).cloned() else {
                continue;
            };
            let ty = lv.val.ty;
            let mut nl = lv;
            nl.val = match id {
                Some(r) => Val {
                    ty,
                    kind: ValKind::Res(r),
                    read_only: self.s.resource_read_only(ty, a.span),
                },
                None => Val {
                    ty,
                    kind: ValKind::Void,
                    read_only: None,
                },
            };
            self.fb.locals.rebind(name, LocalSym::Var(nl));
        }
    }

    /// Whether the callee can be called: it has a body, and no descriptor
    /// heap parameter (DXC: heaps are only reachable through their globals).
    fn callable(&mut self, chosen: &Viable<'a>, span: Span) -> bool {
        let decl = &self.s.decls.funcs[chosen.id];
        if decl.def.is_none() {
            let (name, ds) = (decl.name, decl.ast.name.span);
            self.s.push(
                Diagnostic::error(
                    codes::UNDEFINED_FUNCTION,
                    format!("`{name}` is declared but never defined"),
                )
                .label(span, "called here")
                .label(ds, "declared here"),
            );
            return false;
        }
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
                return false;
            }
        }
        true
    }

    /// Heap elements passed for resource parameters take the type.
    fn heap_elements_as_params(&mut self, sig: &Sig<'a>, mut args: Vec<Arg>) -> Vec<Arg> {
        for (i, p) in sig.params.iter().enumerate() {
            if let Some(a) = args.get_mut(i)
                && matches!(self.s.types.get(a.val.ty), Ty::HeapElem { .. })
            {
                let v = std::mem::replace(&mut a.val, Val::error());
                a.val = self.convert(v, p.ty, a.span);
            }
        }
        args
    }

    /// Functions taking or returning resources are specialized for the
    /// resources of each call (SPIR-V cannot pass them around).
    fn specialization(
        &mut self,
        chosen: &Viable<'a>,
        this_val: Option<&Val>,
        args: &[Arg],
        span: Span,
    ) -> Result<Specialization, Val> {
        if self.s.stage == crate::ir::Stage::Mesh {
            self.check_mesh_arguments(chosen, args)?;
        }
        let sig = &chosen.sig;
        let has_res = sig
            .params
            .iter()
            .any(|p| self.s.types.is_resource(p.ty) || self.s.types.is_agg(p.ty))
            || self.s.types.is_resource(sig.ret);
        let mut spec = Specialization {
            on: has_res,
            ..Specialization::default()
        };
        if has_res {
            for (i, p) in sig.params.iter().enumerate() {
                if self.s.types.is_agg(p.ty) {
                    // Every resource of a struct argument must be known.
                    let ids = args.get(i).and_then(|a| self.agg_resources(&a.val));
                    match ids {
                        Some(ids) => spec.res_ids.extend(ids),
                        None => {
                            return Err(self.error(
                                codes::RESOURCE_MISUSE,
                                "a resource member of this argument is not assigned, or not known at compile time",
                                args.get(i).map_or(span, |a| a.span),
                                "passed here",
                            ));
                        }
                    }
                    continue;
                }
                if !self.s.types.is_resource(p.ty) {
                    continue;
                }
                // An `out` parameter starts with no resource; an `inout`
                // one may be given none yet.
                let unassigned = args
                    .get(i)
                    .is_some_and(|a| matches!(a.val.kind, ValKind::Void));
                if p.dir == Dir::Out || (unassigned && p.dir == Dir::InOut) {
                    spec.res_ids.push(None);
                    continue;
                }
                if unassigned {
                    return Err(self.error(
                        codes::RESOURCE_MISUSE,
                        "this resource variable is used before a resource is assigned to it",
                        args.get(i).map_or(span, |a| a.span),
                        "no resource assigned yet",
                    ));
                }
                match args.get(i).and_then(|a| self.res_path(&a.val)) {
                    Some(rp) => spec.res_ids.push(Some(self.s.res.intern_path(rp))),
                    None => match args.get(i).and_then(|a| self.dyn_res_path(&a.val)) {
                        // An element chosen at run time: the callee gets
                        // the indices (its counter is the same element of
                        // the counters).
                        Some((gv, idx)) if (1..=4).contains(&idx.len()) => {
                            spec.res_ids.push(None);
                            spec.indexed.push((i, gv, idx));
                        }
                        _ => {
                            spec.on = false;
                            break;
                        }
                    },
                }
            }
        }
        let agg_param = sig.params.iter().any(|p| self.s.types.is_agg(p.ty));
        if agg_param && !spec.on {
            return Err(self.unsupported(
                "a call passing a struct holding resources and a resource not known at compile time",
                span,
            ));
        }
        if let Some(t) = this_val
            && matches!(t.kind, ValKind::Agg(_))
        {
            let agg = self.agg_this_parts(t, span)?;
            if has_res && !spec.on {
                return Err(self.unsupported(
                    "a method of a struct holding resources taking a resource not known at compile time",
                    span,
                ));
            }
            spec.on = true;
            spec.agg_this = Some(agg);
        }
        if self.s.types.is_resource(sig.ret) && spec.on {
            spec.const_args = self.constant_arguments(chosen, args);
        }
        if self.s.entry.vertex.enabled {
            spec.vertex_args = self.vertex_arguments(chosen, args)?;
            if !spec.vertex_args.is_empty() {
                if has_res && !spec.on {
                    return Err(self.unsupported(
                        "a function taking per-vertex inputs and a resource not known at compile time",
                        span,
                    ));
                }
                spec.on = true;
            }
        }
        Ok(spec)
    }

    /// The resources of an aggregate argument, in [`Sema::agg_slots`]
    /// order; `None` when one is not known at compile time.
    fn agg_resources(&mut self, v: &Val) -> Option<Vec<Option<ResPathId>>> {
        if !matches!(v.kind, ValKind::Agg(_)) {
            return None;
        }
        let mut leaves = Vec::new();
        self.agg_leaves_of(v, &mut leaves);
        let mut ids = Vec::new();
        for l in leaves.iter().filter(|l| self.s.types.is_resource(l.ty)) {
            ids.push(match &l.kind {
                ValKind::Res(r) => Some(*r),
                // Never assigned: an error only where the callee uses it.
                ValKind::Void => None,
                _ => {
                    let rp = self.res_path(l)?;
                    Some(self.s.res.intern_path(rp))
                }
            });
        }
        Some(ids)
    }

    /// A method called on a struct holding resources: specialized for the
    /// object's resources, its data members passed by pointer.
    fn agg_this_parts(&mut self, t: &Val, span: Span) -> Result<AggThis, Val> {
        let mut leaves = Vec::new();
        self.agg_leaves_of(t, &mut leaves);
        let (mut ids, mut ptrs) = (Vec::new(), Vec::new());
        for l in leaves {
            if self.s.types.is_resource(l.ty) {
                let id = match &l.kind {
                    ValKind::Res(r) => Some(Some(*r)),
                    // Never assigned: an error only where the method uses it.
                    ValKind::Void => Some(None),
                    _ => self.res_path(&l).map(|rp| Some(self.s.res.intern_path(rp))),
                };
                match id {
                    Some(r) => ids.push(r),
                    None => {
                        return Err(self.error(
                            codes::RESOURCE_MISUSE,
                            "a resource member of this object is not assigned, or not known at compile time",
                            span,
                            "method called here",
                        ));
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
                        return Err(
                            self.unsupported("methods of this struct holding resources", span)
                        );
                    }
                }
            }
        }
        Ok((ids, ptrs))
    }

    /// A function returning a resource, called with constant integer
    /// arguments for parameters it never changes: specialized for them,
    /// so that conditions on them fold and pick one resource (what DXC's
    /// legalization achieves by inlining).
    fn constant_arguments(&mut self, chosen: &Viable<'a>, args: &[Arg]) -> Vec<TArg> {
        let mut const_args = Vec::new();
        let Some(body) = self.s.decls.funcs[chosen.id]
            .def
            .and_then(|d| d.body.as_ref())
        else {
            return const_args;
        };
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
                || crate::sema::decl::ast_scan::may_write(body, name)
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
        const_args
    }

    /// The IR function to call: the declaration's, a template instance, or
    /// an instance specialized for this call.
    fn callee_ir(
        &mut self,
        chosen: &Viable<'a>,
        spec: &Specialization,
    ) -> Option<ir::Handle<ir::Function>> {
        let id = chosen.id;
        if spec.on {
            let (mut key, env) = match &chosen.inst {
                Some((t, e)) => (t.clone(), *e),
                None => (Vec::new(), self.s.decls.funcs[id].scope),
            };
            if let Some((ids, _)) = &spec.agg_this {
                key.push(TArg::AggThis);
                key.extend(ids.iter().map(|&r| r.map_or(TArg::NoRes, TArg::Res)));
            }
            let mut indexed = spec.indexed.iter().peekable();
            let mut res_param = 0;
            for (i, p) in chosen.sig.params.iter().enumerate() {
                if self.s.types.is_agg(p.ty) {
                    let n = self.s.agg_slots(p.ty).iter().filter(|s| s.1).count();
                    key.extend(
                        spec.res_ids[res_param..res_param + n]
                            .iter()
                            .map(|&r| r.map_or(TArg::NoRes, TArg::Res)),
                    );
                    res_param += n;
                } else if self.s.types.is_resource(p.ty) {
                    match indexed.next_if(|x| x.0 == i) {
                        Some((_, gv, idx)) => key.push(TArg::ResIndexed {
                            gv: *gv,
                            count: idx.len() as u8,
                        }),
                        None => key.push(spec.res_ids[res_param].map_or(TArg::NoRes, TArg::Res)),
                    }
                    res_param += 1;
                }
            }
            key.extend(spec.const_args.iter().copied());
            key.extend(spec.vertex_args.iter().copied());
            return Some(self.s.queue_instance(id, key, env, chosen.sig.clone()));
        }
        match &chosen.inst {
            None => self.s.func_ir(id),
            Some((targs, env)) => {
                Some(
                    self.s
                        .queue_instance(id, targs.clone(), *env, chosen.sig.clone()),
                )
            }
        }
    }

    /// Passes `this`: its pointer when it is a Function variable of the
    /// canonical type, else a temporary copied back after the call.
    fn pass_this(&mut self, t: Val, call: &mut CallArgs) -> bool {
        let canon = self.s.ir_ty(t.ty);
        match &t.kind {
            ValKind::Place(Place::Ptr {
                ptr,
                mem,
                space: ir::AddressSpace::Function,
            }) if *mem == canon => {
                call.ir.push(*ptr);
            }
            _ => {
                let Some(v) = self.value(&t) else {
                    return false;
                };
                let (tmp, _) = self.temp(t.ty);
                self.stmt(ir::Statement::Store {
                    pointer: tmp,
                    value: v,
                });
                call.ir.push(tmp);
                if let (Some(p), None) = (t.as_place(), t.read_only) {
                    call.copy_back.push((tmp, t.ty, p.clone(), t.ty));
                }
            }
        }
        true
    }

    /// Passes one argument for parameter `p`: a resource by pointer (none
    /// when the callee is specialized), `in` by value, `out`/`inout`
    /// through a temporary copied back after the call.
    fn pass_argument(
        &mut self,
        p: &ParamSig<'a>,
        val: Val,
        aspan: Span,
        specialized: bool,
        call: &mut CallArgs,
    ) -> Result<(), Val> {
        if self.s.types.is_agg(p.ty) {
            return self.pass_agg_argument(p, val, aspan, call);
        }
        if self.s.types.is_resource(p.ty) {
            if specialized {
                return Ok(());
            }
            return match &val.kind {
                ValKind::Place(Place::Ptr { ptr, .. }) => {
                    call.ir.push(*ptr);
                    Ok(())
                }
                _ => Err(self.error(
                    codes::RESOURCE_MISUSE,
                    "this resource cannot be passed to a function",
                    aspan,
                    "not a resource variable",
                )),
            };
        }
        if let crate::sema::types::Ty::RayQuery(_) = self.s.types.get(p.ty) {
            // By reference (see `param_ir_type`).
            return match &val.kind {
                ValKind::Place(Place::Ptr { ptr, .. }) if val.ty == p.ty => {
                    call.ir.push(*ptr);
                    Ok(())
                }
                _ => Err(self.error(
                    codes::TYPE_MISMATCH,
                    format!(
                        "this argument must be a `{}` variable",
                        self.s.ty_name(p.ty)
                    ),
                    aspan,
                    "not a ray query variable of this type",
                )),
            };
        }
        if p.dir == Dir::In {
            let c = self.convert(val, p.ty, aspan);
            let h = self.value(&c).ok_or_else(Val::error)?;
            call.ir.push(h);
            return Ok(());
        }
        let place = match (&val.kind, val.read_only) {
            (ValKind::Place(pl), None) => pl.clone(),
            (ValKind::Place(_), Some(ro))
                if !matches!(ro, ReadOnly::Rvalue | ReadOnly::RepeatedComponent) =>
            {
                self.check_writable(&val, aspan);
                return Err(Val::error());
            }
            _ => {
                return Err(self.error(
                    codes::OUT_ARG_NOT_LVALUE,
                    format!(
                        "an `{}` argument must be assignable",
                        if p.dir == Dir::Out { "out" } else { "inout" }
                    ),
                    aspan,
                    "not an lvalue",
                ));
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
        call.ir.push(tmp);
        call.copy_back.push((tmp, p.ty, place, val.ty));
        Ok(())
    }

    /// A struct holding resources passed by value: a copy of each data
    /// member (the callee is specialized for its resources).
    fn pass_agg_argument(
        &mut self,
        p: &ParamSig<'a>,
        val: Val,
        aspan: Span,
        call: &mut CallArgs,
    ) -> Result<(), Val> {
        if p.dir != Dir::In {
            return Err(self.unsupported(
                "`out` and `inout` parameters of structs holding resources",
                aspan,
            ));
        }
        let mut leaves = Vec::new();
        self.agg_leaves_of(&val, &mut leaves);
        for l in leaves {
            if self.s.types.is_resource(l.ty) {
                continue;
            }
            let (tmp, _) = self.temp(l.ty);
            let h = self.value(&l).ok_or_else(Val::error)?;
            self.stmt(ir::Statement::Store {
                pointer: tmp,
                value: h,
            });
            call.ir.push(tmp);
        }
        Ok(())
    }

    /// The call statement, the copy-backs, and the call's value.
    fn call_result(
        &mut self,
        func: ir::Handle<ir::Function>,
        sig: &Sig<'a>,
        mut call: CallArgs,
        span: Span,
    ) -> Val {
        // A struct holding resources comes back through the data members
        // of a fresh aggregate; the callee's body says which resources.
        let ret_agg = if self.s.types.is_agg(sig.ret) {
            let a = self.make_agg(sig.ret, "ret");
            let mut leaves = Vec::new();
            self.agg_leaves_of(&a, &mut leaves);
            for l in &leaves {
                if let ValKind::Place(Place::Ptr { ptr, .. }) = &l.kind {
                    call.ir.push(*ptr);
                }
            }
            self.s.lower_now(func);
            Some(leaves)
        } else {
            None
        };
        let tail = std::mem::take(&mut call.tail);
        call.ir.extend(tail);
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
            arguments: call.ir,
            result,
        });
        for (tmp, pty, place, aty) in call.copy_back {
            let it = self.s.ir_ty(pty);
            let v = self.add(ir::Expression::Load { pointer: tmp }, it);
            let c = self.convert(Val::expr(pty, v), aty, span);
            if let Some(h) = self.value(&c) {
                self.write_place(&place, aty, h);
            }
        }
        if let Some(leaves) = ret_agg {
            return self.returned_agg(func, sig.ret, leaves, span);
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

    /// The struct holding resources that a call returned: its data members
    /// from `leaves`, its resources the ones the callee's body returns.
    fn returned_agg(
        &mut self,
        func: ir::Handle<ir::Function>,
        ty: TyId,
        leaves: Vec<Val>,
        span: Span,
    ) -> Val {
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
                out.push(match r {
                    Some(r) => Val {
                        ty: l.ty,
                        kind: ValKind::Res(r),
                        read_only: self.s.resource_read_only(l.ty, span),
                    },
                    None => Val {
                        ty: l.ty,
                        kind: ValKind::Void,
                        read_only: None,
                    },
                });
            } else {
                out.push(l);
            }
        }
        self.agg_from_leaves(ty, &mut out.into_iter())
    }
}
