//! Lowering one function body: the IR body under construction
//! ([`ir::build::Body`], which keeps `Emit` ranges right) with what sema
//! adds on top (block scopes for locals, shared literals and constants,
//! discarded trial lowerings), and the setup of parameters and `this`.

pub mod assign;
mod clean;
pub mod convert;
pub mod debug;
pub mod expr;
pub mod index;
pub mod init;
pub mod locals;
pub mod spirv_locals;
pub mod memory;
pub mod ops;
pub mod place;
pub mod res_join;
mod scopes;
mod scratch;
pub mod stmt;
pub mod worklist;

use super::body::place::{Place, Val, ValKind};
use super::decl::ast_scan::Writes;
use super::types::consteval::{ConstVal, Konst};
use super::types::scope::{FuncDeclId, ScopeId, TypeEntry};
use super::types::{self, Sc, TyId};
use super::{Dir, ParamSig, ReadOnly, Sema, TArg};
use crate::diag::{Diagnostic, codes};
use crate::intern::Symbol;
use crate::ir;
use crate::span::Span;
use rustc_hash::FxHashMap;
pub use scopes::Locals;
pub use scratch::Scratch;

/// A local variable, parameter or alias.
#[derive(Clone, Debug)]
pub struct LocalVar {
    /// The variable as a value (a place, or for resource aliases the
    /// resource it names).
    pub val: Val,
    /// Its value when it is a `const` with a constant scalar initialiser.
    pub konst: Option<Konst>,
    pub span: Span,
}

/// What a name in a block scope denotes.
#[derive(Clone, Debug)]
pub enum LocalSym {
    Var(LocalVar),
    Type(TypeEntry),
    Value(Konst),
}

/// A key of the function's expression caches.
#[derive(Clone, Copy, Debug)]
enum CacheKey {
    Lit(ir::Literal),
    Const(ir::Handle<ir::Expression>),
}

/// What `break`/`continue` refer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breakable {
    Loop,
    Switch,
}

/// Builds one IR function.
pub struct FnBuilder {
    pub body: ir::build::Body,
    pub handle: ir::Handle<ir::Function>,
    pub locals: Locals,
    /// Return type (HLSL).
    pub ret: TyId,
    pub breakable: Vec<Breakable>,
    lit_cache: FxHashMap<ir::Literal, ir::Handle<ir::Expression>>,
    const_cache: FxHashMap<ir::Handle<ir::Expression>, ir::Handle<ir::Expression>>,
    /// Cache insertions in order, so that discarding code undoes only its
    /// own (expression handle, key).
    cache_log: Vec<(ir::Handle<ir::Expression>, CacheKey)>,
    /// How many `begin_discard`s are open: code lowered now is only
    /// checked, and must leave no lasting trace (e.g. returned resources).
    pub discarding: u32,
    /// The resource locals at each open `begin_discard`, put back by its
    /// `end_discard`: discarded code rebinds nothing.
    pub discard_res: Vec<res_join::ResState>,
    /// Lowering a `for` initializer whose declarations go to the enclosing
    /// scope (before HLSL 2021).
    pub for_init: bool,
    /// `this` inside methods.
    pub this: Option<Val>,
    /// The struct of `this` (also for static methods).
    pub this_struct: Option<TyId>,
    /// Where names resolve after the block scopes.
    pub scope: ScopeId,
    /// Counter for naming temporaries.
    temp_count: u32,
    /// `nointerpolation` parameters bound to per-vertex pixel inputs
    /// (`TArg::Vertex`): name, declaration span, the input's name.
    pub vertex_params: Vec<(Symbol, Span, Symbol)>,
    /// A mesh shader's helper: its `out vertices`/`out indices`/`out
    /// primitives` parameters (name, declaration span, kind), which stand
    /// for the entry's output arrays.
    pub mesh_params: Vec<(Symbol, Span, crate::sema::entry::mesh::MeshArray)>,
    /// How many `[unroll]` loops the code being lowered is in: there, loads
    /// of locals may become constants (the `unroll` pass).
    pub unroll_depth: u32,
    /// The `out`/`inout` resource parameters of a specialized instance
    /// (index, name), whose resources its returns record.
    pub out_res: Vec<(u16, Symbol)>,
    /// The next argument holding an index of a resource chosen at run
    /// time (`TArg::ResIndexed`), while parameters are bound.
    pub next_index_arg: u32,
}

impl FnBuilder {
    pub fn new(
        f: ir::Function,
        handle: ir::Handle<ir::Function>,
        ret: TyId,
        scope: ScopeId,
    ) -> Self {
        Self::reusing(f, handle, ret, scope, Scratch::default())
    }

    /// A builder whose scopes and caches are those `scratch` kept from an
    /// earlier function.
    pub fn reusing(
        f: ir::Function,
        handle: ir::Handle<ir::Function>,
        ret: TyId,
        scope: ScopeId,
        scratch: Scratch,
    ) -> Self {
        let mut lit_cache = scratch.lit_cache;
        // Most functions use a few literals: room for them from the start
        // spares the map growing (and rehashing) three times. (A reused
        // map has it already; taking the scratch leaves an empty one,
        // which allocates nothing.)
        lit_cache.reserve(16);
        FnBuilder {
            body: ir::build::Body::new(f),
            handle,
            locals: scratch.locals,
            ret,
            breakable: Vec::new(),
            lit_cache,
            const_cache: scratch.const_cache,
            cache_log: scratch.cache_log,
            discarding: 0,
            discard_res: Vec::new(),
            for_init: false,
            this: None,
            this_struct: None,
            scope,
            temp_count: 0,
            vertex_params: Vec::new(),
            mesh_params: Vec::new(),
            unroll_depth: 0,
            out_res: Vec::new(),
            next_index_arg: 0,
        }
    }
}

/// The name-resolution environment of a function context, borrowing only
/// the fields it needs (so `cx.s` stays usable mutably).
macro_rules! cx_env {
    ($cx:expr) => {
        $crate::sema::types::resolve::Env {
            scope: $cx.fb.scope,
            locals: Some(&$cx.fb.locals),
        }
    };
}
pub(crate) use cx_env;

/// Lowering context for one function body: sema plus the builder.
pub struct FnCtx<'s, 'a> {
    pub s: &'s mut Sema<'a>,
    pub fb: FnBuilder,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    pub fn new(s: &'s mut Sema<'a>, fb: FnBuilder) -> Self {
        FnCtx { s, fb }
    }

    /// Ends lowering: the function with its body.
    pub fn finish(self) -> ir::Function {
        let mut f = self.fb.body.finish();
        // Grown by doubling while lowering; every function lowered so far
        // is held until the passes (a large shader has thousands).
        f.expressions.shrink_to_fit();
        f.expr_types.shrink_to_fit();
        f.expr_spans.shrink_to_fit();
        f
    }

    // --- emission --------------------------------------------------------

    /// Appends an expression of IR type `ty`. A zero value is evaluated
    /// where it stands, as any other value (the IR dumps show it so).
    pub fn add(
        &mut self,
        e: ir::Expression,
        ty: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        if matches!(e, ir::Expression::ZeroValue(_)) {
            self.fb.body.add_in_run(e, ty)
        } else {
            self.fb.body.add(e, ty)
        }
    }

    pub fn stmt(&mut self, s: ir::Statement) {
        self.fb.body.push(s);
    }

    /// Records where `h` (and, for a part of a sparse result, the read
    /// itself) comes from, for diagnostics reported after lowering.
    pub fn tag_span(&mut self, h: ir::Handle<ir::Expression>, span: Span) {
        let f = &mut self.fb.body.function;
        f.set_expr_span(h, span);
        if let ir::Expression::AccessIndex { base, .. } = f.expressions[h] {
            f.set_expr_span(base, span);
        }
    }

    /// Starts lowering code that will be checked and then thrown away
    /// (unreachable statements, `sizeof(expr)`, the untaken arm of a
    /// constant `?:`, trial lowerings).
    pub fn begin_discard(&mut self) -> usize {
        self.fb.discarding += 1;
        let st = self.res_state();
        self.fb.discard_res.push(st);
        self.push_block();
        self.fb.body.function.expressions.len()
    }

    /// Throws away what was lowered since `begin_discard`: its statements
    /// and its expressions (no expression may stay unemitted).
    pub fn end_discard(&mut self, mark: usize) {
        self.fb.discarding = self.fb.discarding.saturating_sub(1);
        if let Some(st) = self.fb.discard_res.pop() {
            self.res_restore(&st);
        }
        let _ = self.pop_block();
        if self.fb.body.function.expressions.len() > mark {
            while let Some(&(h, key)) = self.fb.cache_log.last() {
                if h.index() < mark {
                    break;
                }
                self.fb.cache_log.pop();
                match key {
                    CacheKey::Lit(l) => {
                        self.fb.lit_cache.remove(&l);
                    }
                    CacheKey::Const(c) => {
                        self.fb.const_cache.remove(&c);
                    }
                }
            }
        }
        self.fb.body.truncate_expressions(mark);
    }

    pub fn push_block(&mut self) {
        self.fb.body.open();
    }
    pub fn pop_block(&mut self) -> ir::Block {
        self.fb.body.close()
    }
    /// Whether the current block ends in a return, break, continue or kill
    /// (so what follows is unreachable).
    pub fn terminated(&self) -> bool {
        self.fb.body.terminated()
    }

    pub fn expr_ty(&self, h: ir::Handle<ir::Expression>) -> ir::Handle<ir::Type> {
        self.fb.body.function.expr_type(h)
    }

    /// A literal expression (shared within the function).
    pub fn lit(&mut self, l: ir::Literal) -> ir::Handle<ir::Expression> {
        if let Some(&h) = self.fb.lit_cache.get(&l) {
            return h;
        }
        let ty = self.s.types.ir_scalar(&mut self.s.module, l.scalar());
        let h = self.add(ir::Expression::Literal(l), ty);
        self.fb.lit_cache.insert(l, h);
        self.fb.cache_log.push((h, CacheKey::Lit(l)));
        h
    }
    /// `expr` as `kind`: a bit cast when `convert` is `None`, else a
    /// conversion to that many bytes per component; the result has IR
    /// type `ty`.
    pub fn as_kind(
        &mut self,
        expr: ir::Handle<ir::Expression>,
        kind: ir::ScalarKind,
        convert: Option<u8>,
        ty: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        self.add(ir::Expression::cast(expr, kind, convert), ty)
    }
    /// A value of HLSL type `ty` composed of `components`.
    pub fn compose(
        &mut self,
        ty: TyId,
        components: Vec<ir::Handle<ir::Expression>>,
    ) -> ir::Handle<ir::Expression> {
        let it = self.s.ir_ty(ty);
        self.add(ir::Expression::Compose { ty: it, components }, it)
    }
    pub fn u32_lit(&mut self, v: u32) -> ir::Handle<ir::Expression> {
        self.lit(ir::Literal::U32(v))
    }
    pub fn i32_lit(&mut self, v: i32) -> ir::Handle<ir::Expression> {
        self.lit(ir::Literal::I32(v))
    }

    /// A module constant referenced from this function.
    pub fn constant(&mut self, c: ir::Handle<ir::Expression>) -> ir::Handle<ir::Expression> {
        if let Some(&h) = self.fb.const_cache.get(&c) {
            return h;
        }
        let ty = self.s.module.const_types[c.index()];
        let h = self.add(ir::Expression::Constant(c), ty);
        self.fb.const_cache.insert(c, h);
        self.fb.cache_log.push((h, CacheKey::Const(c)));
        h
    }

    /// The zero value of an IR type, as a module constant.
    pub fn zero(&mut self, ty: ir::Handle<ir::Type>) -> ir::Handle<ir::Expression> {
        let c = self.s.zero_const(ty);
        self.constant(c)
    }

    pub fn ptr_type(
        &mut self,
        base: ir::Handle<ir::Type>,
        space: ir::AddressSpace,
    ) -> ir::Handle<ir::Type> {
        self.s.types.ir_pointer(&mut self.s.module, base, space)
    }

    /// A new function-local variable.
    pub fn local_var(
        &mut self,
        name: Option<String>,
        ty: ir::Handle<ir::Type>,
        precise: bool,
    ) -> ir::Handle<ir::Expression> {
        let pty = self.ptr_type(ty, ir::AddressSpace::Function);
        self.fb.body.local(name, ty, precise, pty)
    }

    /// A temporary local of HLSL type `ty` (for out arguments, short
    /// circuits, copies).
    pub fn temp(&mut self, ty: TyId) -> (ir::Handle<ir::Expression>, ir::Handle<ir::Type>) {
        let irt = self.s.ir_ty(ty);
        self.fb.temp_count += 1;
        let name = format!("temp.{}", self.fb.temp_count);
        (self.local_var(Some(name), irt, false), irt)
    }

    /// A temporary as a place.
    pub fn temp_place(&mut self, ty: TyId) -> Place {
        let (ptr, mem) = self.temp(ty);
        Place::Ptr {
            ptr,
            mem,
            space: ir::AddressSpace::Function,
        }
    }

    // --- diagnostics shortcuts -------------------------------------------

    pub fn error(
        &mut self,
        code: crate::diag::Code,
        msg: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Val {
        self.s.error(code, msg, span, label);
        Val::error()
    }
    pub fn unsupported(&mut self, what: impl std::fmt::Display, span: Span) -> Val {
        self.s.unsupported(what, span);
        Val::error()
    }
}

impl<'a> Sema<'a> {
    /// Why the contents of a resource type cannot be written.
    pub fn resource_read_only(&self, ty: TyId, span: Span) -> Option<ReadOnly> {
        let mut t = ty;
        while let types::Ty::Array(e, _) = self.types.get(t) {
            t = *e;
        }
        match self.types.get(t) {
            types::Ty::Resource(k, _) if k.is_rw() => None,
            _ => Some(ReadOnly::Resource(span)),
        }
    }

    /// Lowers the body of a function declaration into its IR shell; one
    /// lowered only to be `checked` keeps its signature only.
    pub(super) fn lower_function_body(
        &mut self,
        handle: ir::Handle<ir::Function>,
        decl: FuncDeclId,
        env: ScopeId,
        inst: Option<Vec<TArg>>,
        checked: bool,
    ) {
        let def = match &inst {
            Some(args) if self.decls.funcs[decl].is_template => {
                self.function_instance_def(decl, args)
            }
            _ => self.decls.funcs[decl].def,
        };
        let d = &self.decls.funcs[decl];
        let Some(def) = def else {
            return;
        };
        let this_ty = d.this_ty;
        let this_struct = d.this_ty.or_else(|| self.scopes.enclosing_struct(d.scope));
        let sig = match &inst {
            None => d.sig.clone(),
            Some(args) => d.instances.get(args).map(|i| i.sig.clone()),
        };
        let Some(sig) = sig else {
            return;
        };
        let Some(body) = def.body.as_ref() else {
            return;
        };
        self.work.mark_lowered(handle);
        let inst = inst.unwrap_or_default();
        // Resources this instance is specialized for, in parameter order.
        let mut res_args: Vec<TArg> = inst
            .iter()
            .filter(|a| matches!(a, TArg::Res(_) | TArg::NoRes | TArg::ResIndexed { .. }))
            .copied()
            .collect();
        // The indices of resources chosen at run time are the last arguments.
        let n_indices: u32 = inst
            .iter()
            .map(|a| match a {
                TArg::ResIndexed { count, .. } => *count as u32,
                _ => 0,
            })
            .sum();
        res_args.reverse();
        let specialized = !res_args.is_empty();
        let shell = std::mem::take(&mut self.module.functions[handle]);
        let scratch = std::mem::take(&mut self.work.scratch);
        let mut fb = FnBuilder::reusing(shell, handle, sig.ret, env, scratch);
        fb.this_struct = this_struct;
        fb.locals.push();
        let outer_fn = self
            .index
            .as_deref_mut()
            .and_then(|ix| ix.function.replace(def.name.last().span));
        let mut cx = FnCtx::new(self, fb);
        cx.fb.next_index_arg =
            (cx.fb.body.function.arguments.len() as u32).saturating_sub(n_indices);
        let first_param = match this_ty {
            Some(t) if inst.contains(&TArg::AggThis) => {
                cx.bind_agg_this(t, def.name.span, &mut res_args)
            }
            Some(t) => cx.bind_this(t, def.is_const),
            None => 0,
        };
        // What the body may change, for parameters bound to their values
        // (asked of those `param_value` may bind so only).
        let by_value: Vec<Symbol> = sig
            .params
            .iter()
            .filter(|p| p.dir == Dir::In && !p.precise && held_by_value(&cx.s.types, p.ty))
            .filter_map(|p| p.name)
            .collect();
        let writes =
            Writes::of_names(body, &by_value, &|callee, i| cx.s.decls.may_take_out(callee, i));
        let mut next_arg = first_param;
        for (pi, p) in sig.params.iter().enumerate() {
            if specialized && cx.s.types.is_resource(p.ty) {
                cx.bind_specialized_resource(p, res_args.pop());
                if p.dir != crate::sema::Dir::In
                    && let Some(name) = p.name
                {
                    cx.fb.out_res.push((pi as u16, name));
                }
                continue;
            }
            if specialized && cx.s.types.is_agg(p.ty) {
                let (v, next) = cx.agg_from_arguments(p.ty, p.span, &mut res_args, next_arg);
                next_arg = next;
                if let Some(name) = p.name {
                    cx.declare_param(name, v, p.span);
                }
                continue;
            }
            // (The entry's parameters are stage variables, checked there.)
            if let types::Ty::Array(elem, None) = *cx.s.types.get(p.ty)
                && !cx.s.types.is_resource(elem)
                && cx.s.entry.user != Some(cx.fb.handle)
            {
                let t = cx.s.ty_name(p.ty);
                cx.s.push(
                    Diagnostic::error(
                        codes::UNSIZED_ARRAY,
                        format!("a parameter of unsized array type `{t}`"),
                    )
                    .label(p.span, "an array argument has a size this cannot take")
                    .note("only arrays of resources may be passed unsized; give the parameter the argument's size"),
                );
            }
            let idx = next_arg;
            next_arg += 1;
            if let Some(ix) = cx.s.index.as_deref_mut()
                && let Some(n) = def.params.get(pi).and_then(|a| a.name)
            {
                ix.local(n.name, p.span, n.span, cx.s.types.name(p.ty), true, false);
            }
            if let Some(name) = p.name {
                if let Some(input) = vertex_argument(&inst, pi) {
                    cx.fb.vertex_params.push((name, p.span, input));
                }
                if cx.s.stage == crate::ir::Stage::Mesh
                    && let Some((Some(kind), _)) = crate::sema::entry::mesh::mesh_modifier(p)
                {
                    cx.fb.mesh_params.push((name, p.span, kind));
                }
                cx.bind_param(p, name, idx, &writes, const_argument(&inst, pi));
            }
        }
        cx.lower_block_stmts(&body.stmts);
        if !cx.block_always_returns() {
            cx.record_out_resources();
            cx.return_at_end(sig.ret, decl, body.span);
        }
        let scratch = cx.fb.take_scratch();
        let f = if checked {
            free_body(cx.fb.body.function)
        } else {
            cx.finish()
        };
        self.work.scratch = scratch;
        self.module.functions[handle] = f;
        if let Some(ix) = self.index.as_deref_mut() {
            ix.function = outer_fn;
        }
    }
}

/// A function lowered only to be checked, without its body: its
/// signature (name, arguments, result) stays for calls to it.
pub(super) fn free_body(f: ir::Function) -> ir::Function {
    ir::Function {
        name: f.name,
        arguments: f.arguments,
        result: f.result,
        span: f.span,
        export: f.export,
        spirv_decorations: f.spirv_decorations,
        ..Default::default()
    }
}

/// Whether an `in` parameter of type `ty` may stand for its argument's
/// value itself, when the body never changes it (a scalar, vector or
/// matrix).
fn held_by_value(types: &types::Types, ty: TyId) -> bool {
    matches!(
        types.get(ty),
        types::Ty::Scalar(_) | types::Ty::Vector(..) | types::Ty::Matrix(..)
    )
}

/// The constant that an instance was made for, for parameter `param`.
fn const_argument(inst: &[TArg], param: usize) -> Option<i64> {
    inst.iter().find_map(|a| match a {
        TArg::ConstArg { param: p, value } if *p as usize == param => Some(*value),
        _ => None,
    })
}

/// The per-vertex input an instance was made for, for parameter `param`.
fn vertex_argument(inst: &[TArg], param: usize) -> Option<Symbol> {
    inst.iter().find_map(|a| match a {
        TArg::Vertex { param: p, input } if *p as usize == param => Some(*input),
        _ => None,
    })
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `this` as an aggregate: its resources come first in the instance's
    /// resources, its data members are the arguments. Gives the index of
    /// the first argument after them.
    fn bind_agg_this(&mut self, t: TyId, span: Span, res_args: &mut Vec<TArg>) -> u32 {
        let (this, arg_index) = self.agg_from_arguments(t, span, res_args, 0);
        self.fb.this = Some(this);
        arg_index
    }

    /// A struct holding resources received by a specialized function: its
    /// resources the next ones the instance was made for, its data members
    /// pointers from the arguments starting at `arg_index`. Gives the
    /// aggregate and the index of the next argument.
    fn agg_from_arguments(
        &mut self,
        t: TyId,
        span: Span,
        res_args: &mut Vec<TArg>,
        mut arg_index: u32,
    ) -> (Val, u32) {
        let mut leaves = Vec::new();
        for (slot, is_res) in self.s.agg_slots(t) {
            if is_res {
                let r = res_args.pop();
                leaves.push(match r {
                    Some(TArg::Res(r)) => {
                        let ro = self.s.resource_read_only(slot, span);
                        self.res_path_place(r, slot, ro)
                    }
                    // A member never assigned: an error where it is used.
                    Some(TArg::NoRes) => Val {
                        ty: slot,
                        kind: ValKind::Void,
                        read_only: None,
                    },
                    _ => Val::error(),
                });
            } else {
                let mem = self.s.ir_ty(slot);
                let pty = self.ptr_type(mem, ir::AddressSpace::Function);
                let ptr = self.add(ir::Expression::FunctionArgument(arg_index), pty);
                arg_index += 1;
                leaves.push(Val::place(slot, Place::function(ptr, mem), None));
            }
        }
        (self.agg_from_leaves(t, &mut leaves.into_iter()), arg_index)
    }

    /// `this` of a method: a pointer, the first argument (read only in a
    /// `const` method). Gives the index of the first parameter.
    fn bind_this(&mut self, t: TyId, is_const: bool) -> u32 {
        let mem = self.s.ir_ty(t);
        let pty = self.ptr_type(mem, ir::AddressSpace::Function);
        let ptr = self.add(ir::Expression::FunctionArgument(0), pty);
        let ro = is_const.then_some(ReadOnly::ConstThis);
        self.fb.this = Some(Val::place(t, Place::function(ptr, mem), ro));
        1
    }

    /// A resource parameter of a specialized instance: it names the
    /// resource the instance was made for.
    /// (`None` within: an `out` parameter, or an argument holding no
    /// resource yet, which the body must assign before using.)
    fn bind_specialized_resource(&mut self, p: &ParamSig<'a>, r: Option<TArg>) {
        let val = match r {
            Some(TArg::Res(r)) => {
                let ro = self.s.resource_read_only(p.ty, p.span);
                self.res_path_place(r, p.ty, ro)
            }
            Some(TArg::NoRes) => Val {
                ty: p.ty,
                kind: ValKind::Void,
                read_only: None,
            },
            // An element chosen at run time: its indices are arguments.
            Some(TArg::ResIndexed { gv, count }) => {
                let u = self.s.ir_ty(types::UINT);
                let first = self.fb.next_index_arg;
                self.fb.next_index_arg += count as u32;
                let idx: Vec<_> = (first..first + count as u32)
                    .map(|k| self.add(ir::Expression::FunctionArgument(k), u))
                    .collect();
                let ro = self.s.resource_read_only(p.ty, p.span);
                self.indexed_res_place(gv, &idx, p.ty, ro)
            }
            _ => return,
        };
        let Some(name) = p.name else {
            return;
        };
        self.declare_param(name, val, p.span);
    }

    /// At a return: the resource each `out`/`inout` resource parameter
    /// names now, merged with the other returns' (callers rebind their
    /// arguments to it).
    pub(in crate::sema) fn record_out_resources(&mut self) {
        if self.fb.out_res.is_empty() || self.fb.discarding > 0 {
            return;
        }
        let mut now = Vec::with_capacity(self.fb.out_res.len());
        for (pi, name) in self.fb.out_res.clone() {
            let id = match self.fb.locals.lookup(name).cloned() {
                Some(LocalSym::Var(lv)) => match lv.val.kind {
                    ValKind::Res(r) => Some(r),
                    _ => self.res_path(&lv.val).map(|p| self.s.res.intern_path(p)),
                },
                _ => None,
            };
            now.push((pi, id));
        }
        let h = self.fb.handle;
        let merged = match self.s.res.out_res.get(&h) {
            None => now,
            Some(prev) => prev
                .iter()
                .zip(now)
                .map(|(&(pi, a), (_, b))| (pi, if a == b { a } else { None }))
                .collect(),
        };
        self.s.res.out_res.insert(h, merged);
    }

    /// Declares parameter `name`, standing for `val` in the body.
    fn declare_param(&mut self, name: Symbol, val: Val, span: Span) {
        self.fb.locals.declare(
            name,
            LocalSym::Var(LocalVar {
                val,
                konst: None,
                span,
            }),
        );
    }

    /// Declares parameter `name`, the argument at `idx`; `const_arg` is
    /// the constant this instance was made for, which the body then sees
    /// (it never changes the parameter).
    fn bind_param(
        &mut self,
        p: &ParamSig<'a>,
        name: Symbol,
        idx: u32,
        writes: &Writes,
        const_arg: Option<i64>,
    ) {
        let val = self.param_value(p, name, idx, writes);
        if let Some(v) = const_arg
            && let Some(sc) = self.s.types.component(p.ty)
        {
            let k = if sc == Sc::Bool {
                Konst {
                    sc,
                    v: ConstVal::Bool(v != 0),
                }
            } else {
                Konst {
                    sc,
                    v: ConstVal::Int(v),
                }
            };
            self.fb.locals.declare(name, LocalSym::Value(k));
            return;
        }
        self.declare_param(name, val, p.span);
    }

    /// What a parameter's name stands for in the body.
    fn param_value(&mut self, p: &ParamSig<'a>, name: Symbol, idx: u32, writes: &Writes) -> Val {
        let arg_ty = self.fb.body.function.arguments[idx as usize].ty;
        if self.s.types.is_resource(p.ty) {
            // Resources are passed by pointer; the parameter names the
            // caller's resource.
            let ptr = self.add(ir::Expression::FunctionArgument(idx), arg_ty);
            let (mem, space) = match self.s.module.types[arg_ty].inner {
                ir::TypeInner::Pointer { base, space } => (base, space),
                _ => (arg_ty, ir::AddressSpace::Handle),
            };
            return Val::place(p.ty, Place::Ptr { ptr, mem, space }, None);
        }
        if let types::Ty::Node(..) = self.s.types.get(p.ty) {
            return self.node_param_value(p, idx);
        }
        if let types::Ty::RayQuery(_) = self.s.types.get(p.ty) {
            // By reference (see `param_ir_type`).
            let ptr = self.add(ir::Expression::FunctionArgument(idx), arg_ty);
            let mem = self.s.ir_ty(p.ty);
            return Val::place(p.ty, Place::function(ptr, mem), None);
        }
        match p.dir {
            Dir::In
                if !p.precise
                    && held_by_value(&self.s.types, p.ty)
                    && !writes.may_write(name, p.ty == types::UINT) =>
            {
                // Never changed: the argument value itself, so that
                // after inlining a constant argument stays a constant
                // (e.g. a texture offset, which Vulkan wants constant).
                let arg = self.add(ir::Expression::FunctionArgument(idx), arg_ty);
                self.debug_variable(arg, name.as_str(), p.span, Some(idx + 1));
                Val::expr(p.ty, arg)
            }
            Dir::In => {
                // HLSL parameters are mutable copies.
                let arg = self.add(ir::Expression::FunctionArgument(idx), arg_ty);
                let lv = self.local_var(Some(name.as_str().to_owned()), arg_ty, p.precise);
                if p.attrs
                    .iter()
                    .any(|a| a.kind == Some(crate::front::attributes::Attr::VkAliasedPointer))
                {
                    self.mark_aliased(lv);
                }
                self.debug_variable(lv, name.as_str(), p.span, Some(idx + 1));
                self.stmt(ir::Statement::Store {
                    pointer: lv,
                    value: arg,
                });
                Val::place(p.ty, Place::function(lv, arg_ty), None)
            }
            Dir::Out | Dir::InOut => {
                let ptr = self.add(ir::Expression::FunctionArgument(idx), arg_ty);
                let mem = self.s.ir_ty(p.ty);
                self.debug_variable(ptr, name.as_str(), p.span, Some(idx + 1));
                Val::place(p.ty, Place::function(ptr, mem), None)
            }
        }
    }

    /// The end of a body that may not return: a return of nothing, or of
    /// zero (with a warning where the function has a value to return).
    fn return_at_end(&mut self, ret: TyId, decl: FuncDeclId, body: Span) {
        if let (true, Some(r)) = (
            self.s.types.is_resource(ret),
            self.fb.body.function.result.clone(),
        ) {
            // Returning resource indices: an end never reached.
            let z = self.add(ir::Expression::ZeroValue(r.ty), r.ty);
            self.stmt(ir::Statement::Return { value: Some(z) });
        } else if ret == types::VOID || self.s.types.is_resource(ret) || self.s.types.is_agg(ret) {
            self.stmt(ir::Statement::Return { value: None });
        } else {
            let fname = self.s.decls.funcs[decl].name;
            self.s.push(
                Diagnostic::warning(
                    codes::MISSING_RETURN,
                    format!("`{fname}` may reach its end without returning a value"),
                )
                .label(body, "control can reach the end of this body")
                .note("the result is zero on that path"),
            );
            let rt = self.s.ir_ty(ret);
            let z = self.zero(rt);
            self.stmt(ir::Statement::Return { value: Some(z) });
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Whether every path through the current (outermost) block returns.
    pub fn block_always_returns(&self) -> bool {
        fn block(b: &[ir::Statement]) -> bool {
            b.iter().any(stmt)
        }
        fn stmt(s: &ir::Statement) -> bool {
            match s {
                s if s.leaves_function() => true,
                ir::Statement::Block(b) => block(b),
                ir::Statement::If { accept, reject, .. } => block(accept) && block(reject),
                ir::Statement::Switch { cases, .. } => {
                    // Every case returns (fall-through cases reach a later one)
                    // and there are no breaks out of the switch.
                    cases.iter().all(|c| c.fall_through || block(&c.body))
                        && !cases.iter().any(|c| has_break(&c.body))
                }
                ir::Statement::Loop { body, .. } => !has_break(body),
                _ => false,
            }
        }
        fn has_break(b: &[ir::Statement]) -> bool {
            b.iter().any(|s| match s {
                ir::Statement::Break => true,
                ir::Statement::Block(b) => has_break(b),
                ir::Statement::If { accept, reject, .. } => has_break(accept) || has_break(reject),
                _ => false,
            })
        }
        block(self.fb.body.current())
    }
}
