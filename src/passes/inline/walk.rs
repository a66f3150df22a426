//! Inlining in one rebuild of the caller, for callers whose inlined calls
//! all have simple bodies (at most one `return`, their last statement).
//!
//! Splicing the callees' bodies into the caller and then rebuilding it to
//! restore the arena's order walks every inlined expression twice. Here
//! the rebuild walks each callee's body in place of its call
//! ([`Cx::inline_callee`]) and makes the very function the splice and the
//! rebuild make: the same expressions in the same order, the same locals
//! and statements. A rebuild puts every trivial expression first, in the
//! order of the arena it reads; so [`plan`] first goes over the calls as
//! the splice would, in its order (unreachable ones too), and lists the
//! trivial expressions and the locals that the splice would append. The
//! rebuild appends those trivial expressions after the caller's, and the
//! walk reads each inlined body through them.
//!
//! A caller with a call to inline in a loop's `continuing` block, a callee
//! with an early `return`, or anything else this does not mirror exactly
//! is left to the splice.

use super::super::rewrite::{Cx, Inlining, Rewrite, Unrolling, rebuild_inlining};
use super::super::unroll;
use super::{DeferredUnrolls, body_shape, pointer_type, result_local};
use crate::ir::*;
use crate::span::Span;
use rustc_hash::FxHashMap;

/// One inlined call (the caller's, or one in an inlined body).
struct Instance {
    callee: Handle<Function>,
    /// Where the copies of its trivial expressions (references to its
    /// locals included) start in [`Plan::trivials`]: they follow in the
    /// callee's order (see [`copies_trivial`]).
    trivials: usize,
    /// The callee's locals with an initial value: the initialiser, and
    /// the copy of the reference to the local (each call sets them).
    inits: Vec<(Handle<Expression>, usize)>,
    /// Whether the body ends with its `return`, and the value returned.
    returns: bool,
    value: Option<Handle<Expression>>,
    /// The precise result's local (the copy of its reference) and type.
    ret: Option<(usize, Handle<Type>)>,
    /// Whether the body is a debug scope of its own (`-Zi`).
    debug: bool,
    /// Whether its loops are unrolled as it is walked (its unrolling was
    /// deferred to this pass).
    unroll: bool,
}

/// What inlining into one caller does, found before its rebuild.
pub(super) struct Plan {
    instances: Vec<Instance>,
    /// The instance of each call to inline, under the instance whose body
    /// holds the call (0: the caller's, `i + 1`: the body of instance `i`)
    /// and the address of the call statement (bodies are not changed
    /// while the plan is used).
    by_call: FxHashMap<(usize, usize), usize>,
    /// The trivial expressions the splice appends, in its order.
    trivials: Vec<(Expression, Handle<Type>, Span)>,
    /// The locals it appends, in its order, after the caller's.
    locals: Vec<LocalVariable>,
    first_local: usize,
    /// How many expressions the inlined bodies hold.
    added: usize,
}

/// The plan for inlining into `caller` the calls that `inlinable` allows
/// (and their callees' calls in turn); `None` where the splice must do it.
pub(super) fn plan(
    module: &Module,
    caller: &Function,
    inlinable: &dyn Fn(Handle<Function>, &Module) -> bool,
    deferred: &DeferredUnrolls,
) -> Option<Plan> {
    let mut p = Plan {
        instances: Vec::new(),
        by_call: FxHashMap::default(),
        trivials: Vec::new(),
        locals: Vec::new(),
        first_local: caller.local_variables.len(),
        added: 0,
    };
    let ty_of = |a: Handle<Expression>| caller.expressions.get(a).map(|_| caller.expr_type(a));
    let mut cx = Scan {
        module,
        inlinable,
        deferred,
        plan: &mut p,
    };
    cx.block(&caller.body, 0, &ty_of, false)?;
    Some(p)
}

struct Scan<'s> {
    module: &'s Module,
    inlinable: &'s dyn Fn(Handle<Function>, &Module) -> bool,
    deferred: &'s DeferredUnrolls,
    plan: &'s mut Plan,
}

impl Scan<'_> {
    /// The calls to inline in `block` (of the body of `parent`), in the
    /// splice's order; `ty_of` gives the type the splice sees for an
    /// expression there. `None` when one is in a `continuing` block.
    fn block(
        &mut self,
        block: &[Statement],
        parent: usize,
        ty_of: &dyn Fn(Handle<Expression>) -> Option<Handle<Type>>,
        continuing: bool,
    ) -> Option<()> {
        for s in block {
            match s {
                Statement::Call {
                    function,
                    arguments,
                    result,
                } if (self.inlinable)(*function, self.module) => {
                    let params = &self.module.functions[*function].arguments;
                    let types: Vec<Option<Handle<Type>>> =
                        arguments.iter().map(|&a| ty_of(a)).collect();
                    if types.iter().zip(params).all(|(t, p)| *t == Some(p.ty)) {
                        if continuing {
                            return None;
                        }
                        let types = types.into_iter().collect::<Option<Vec<_>>>()?;
                        self.call(s, parent, *function, types, result.is_some())?;
                    }
                }
                Statement::Block(b) => self.block(b, parent, ty_of, continuing)?,
                Statement::If { accept, reject, .. } => {
                    self.block(accept, parent, ty_of, continuing)?;
                    self.block(reject, parent, ty_of, continuing)?;
                }
                Statement::Switch { cases, .. } => {
                    for c in cases {
                        self.block(&c.body, parent, ty_of, continuing)?;
                    }
                }
                Statement::Loop {
                    body,
                    continuing: c,
                    ..
                } => {
                    self.block(body, parent, ty_of, continuing)?;
                    self.block(c, parent, ty_of, true)?;
                }
                _ => {}
            }
        }
        Some(())
    }

    /// Plans the inlining of call `s` of `callee` (in the body of
    /// `parent`), whose arguments have the types `arguments`, as
    /// `inline_call` splices it.
    fn call(
        &mut self,
        s: &Statement,
        parent: usize,
        callee_h: Handle<Function>,
        arguments: Vec<Handle<Type>>,
        has_result: bool,
    ) -> Option<()> {
        let module = self.module;
        let callee = &module.functions[callee_h];
        let (simple, debug) = body_shape(callee);
        if !simple {
            return None;
        }
        let plan = &mut *self.plan;
        let id = plan.instances.len();
        plan.by_call
            .insert((parent, std::ptr::from_ref(s) as usize), id);
        let locals: Vec<Handle<LocalVariable>> = callee
            .local_variables
            .iter()
            .map(|(_, l)| {
                plan.local(LocalVariable {
                    init: None,
                    ..l.clone()
                })
            })
            .collect();
        let trivials = plan.trivials.len();
        for (h, e) in callee.expressions.iter() {
            let copy = match *e {
                Expression::FunctionArgument(i) => {
                    arguments.get(i as usize)?;
                    continue;
                }
                Expression::LocalVariable(l) => (
                    Expression::LocalVariable(*locals.get(l.index())?),
                    callee.expr_type(h),
                    Span::default(),
                ),
                ref other if copies_trivial(other) => {
                    (other.clone(), callee.expr_type(h), callee.expr_span(h))
                }
                _ => continue,
            };
            plan.trivials.push(copy);
        }
        plan.added += callee.expressions.len();
        // Unrolling appends the counters' literals after the function's
        // own trivial expressions.
        let unrolled = self.deferred.get(callee_h);
        if let Some((u, types)) = unrolled {
            for (&l, &ty) in u.literals.iter().zip(types) {
                plan.trivials
                    .push((Expression::Literal(l), ty, Span::default()));
            }
            plan.added += u.added;
        }
        let mut inits = Vec::new();
        for (l, local) in callee.local_variables.iter() {
            if let Some(init) = local.init {
                if init_depth(callee, init, 0) > 64 {
                    return None;
                }
                let pty = pointer_type(module, local.ty);
                inits.push((init, plan.trivials.len()));
                plan.trivials.push((
                    Expression::LocalVariable(locals[l.index()]),
                    pty,
                    Span::default(),
                ));
            }
        }
        let returned = match callee.body.last() {
            Some(Statement::Return { value }) => Some(*value),
            _ => None,
        };
        plan.instances.push(Instance {
            callee: callee_h,
            trivials,
            inits,
            returns: returned.is_some(),
            value: returned.flatten(),
            ret: None,
            debug,
            unroll: unrolled.is_some(),
        });
        let ty_of = |a: Handle<Expression>| match callee.expressions.get(a)? {
            Expression::FunctionArgument(i) => arguments.get(*i as usize).copied(),
            _ => Some(callee.expr_type(a)),
        };
        self.block(&callee.body, id + 1, &ty_of, false)?;
        let precise = callee.result.as_ref().filter(|r| r.precise);
        if let Some(r) = precise
            && has_result
            && returned.flatten().is_some()
        {
            let plan = &mut *self.plan;
            let l = plan.local(result_local(callee, r));
            let pty = pointer_type(module, r.ty);
            plan.instances[id].ret = Some((plan.trivials.len(), r.ty));
            plan.trivials
                .push((Expression::LocalVariable(l), pty, Span::default()));
        }
        Some(())
    }
}

impl Plan {
    /// Appends a local after the caller's (and those appended before).
    fn local(&mut self, l: LocalVariable) -> Handle<LocalVariable> {
        self.locals.push(l);
        Handle::from_index(self.first_local + self.locals.len() - 1)
    }
}

/// Whether the splice appends a copy of a callee's expression `e` that
/// is trivial (not a statement result, whose statement defines it): any
/// but an argument, which is the call's operand.
fn copies_trivial(e: &Expression) -> bool {
    e.is_trivial() && !e.is_statement_result() && !matches!(e, Expression::FunctionArgument(_))
}
/// How deep the non-trivial part of an initialiser goes (counted up to
/// past the depth at which the splice stops copying).
fn init_depth(f: &Function, h: Handle<Expression>, depth: u32) -> u32 {
    let e = &f.expressions[h];
    if e.is_trivial() || depth > 64 {
        return depth;
    }
    let mut deepest = depth;
    e.for_each_operand(|o| deepest = deepest.max(init_depth(f, o, depth + 1)));
    deepest
}

/// Inlines into function `caller` of `module` as `plan` says, in one
/// rebuild.
pub(super) fn inline(module: &mut Module, caller: Handle<Function>, plan: Plan) {
    let mut f = std::mem::take(&mut module.functions[caller]);
    // Copied, not moved: a moved name would keep the pages of the plan's
    // short-lived allocations around it (on a large shader, peak memory
    // grew by about 3 %).
    for l in plan.locals.iter().cloned() {
        f.local_variables.append(l);
    }
    let line = f.span;
    let functions = std::mem::take(&mut module.functions);
    let mut rw = Inliner {
        plan: &plan,
        callees: &functions,
        stack: vec![0],
        lines: vec![line],
    };
    let inlining = Inlining {
        callees: Some(&functions),
        trivials: &plan.trivials,
        added: plan.added,
    };
    let new = rebuild_inlining(module, f, &mut rw, &inlining);
    module.functions = functions;
    module.functions[caller] = new;
}

/// The rebuild that walks the inlined bodies in place of their calls.
struct Inliner<'p> {
    plan: &'p Plan,
    callees: &'p Arena<Function>,
    /// The instance whose body is being walked (see `Plan::by_call`),
    /// innermost last.
    stack: Vec<usize>,
    /// The source line of the code being walked (debug information): per
    /// open block and inlined body, innermost last.
    lines: Vec<Span>,
}

impl Rewrite for Inliner<'_> {
    const KEEPS_EXPRESSIONS: bool = true;
    fn statement(&mut self, cx: &mut Cx, s: Statement) {
        if let Statement::Debug(DebugInfo::Line(span)) = s
            && let Some(line) = self.lines.last_mut()
        {
            *line = span;
        }
        cx.push(s);
    }

    fn enter_block(&mut self, _cx: &mut Cx) {
        let line = self.lines.last().copied().unwrap_or_default();
        self.lines.push(line);
    }

    fn leave_block(&mut self, _cx: &mut Cx) {
        self.lines.pop();
    }

    fn unroll(&mut self, cx: &Cx, before: &[Statement], old: &Statement) -> Option<Unrolling> {
        // Only in the body of a function whose unrolling was deferred.
        let id = self.stack.last()?.checked_sub(1)?;
        if !self.plan.instances.get(id)?.unroll {
            return None;
        }
        unroll::plan(cx.old, before, old)
    }

    // Out of line: inlined into the walk's `step`, which every statement
    // of every rebuild goes through, it made that walk dearer (batch:
    // +0.3 M instructions) than the call it spared.
    #[inline(never)]
    fn call(&mut self, cx: &mut Cx, old: &Statement) -> Option<bool> {
        let Statement::Call {
            arguments, result, ..
        } = old
        else {
            return None;
        };
        let (plan, callees) = (self.plan, self.callees);
        let parent = self.stack.last().copied().unwrap_or(0);
        let &id = plan
            .by_call
            .get(&(parent, std::ptr::from_ref(old) as usize))?;
        let inst = &plan.instances[id];
        let callee = &callees[inst.callee];
        let line = self.lines.last().copied().unwrap_or_default();
        if inst.debug {
            cx.push(Statement::Debug(DebugInfo::Begin(DebugScope::Inlined {
                function: callee.name.clone(),
                decl: callee.span,
                call: line,
            })));
        }
        // The copies of the trivial expressions follow in the callee's
        // order.
        let mut next = inst.trivials;
        let map: Vec<Option<Handle<Expression>>> = callee
            .expressions
            .iter()
            .map(|(_, e)| match *e {
                Expression::FunctionArgument(i) => arguments.get(i as usize).map(|&a| cx.map(a)),
                ref e if copies_trivial(e) => {
                    next += 1;
                    cx.extra(next - 1)
                }
                _ => None,
            })
            .collect();
        for &(init, ptr) in &inst.inits {
            if let Some(pointer) = cx.extra(ptr) {
                let value = copy_initialiser(cx, callee, &map, init);
                cx.push(Statement::Store { pointer, value });
            }
        }
        self.stack.push(id + 1);
        self.lines.push(line);
        let (ends, map) = cx.inline_callee(self, inst.callee, map, inst.returns);
        self.lines.pop();
        self.stack.pop();
        if ends {
            return Some(true);
        }
        if inst.debug {
            cx.push(Statement::Debug(DebugInfo::End));
        }
        let value = inst
            .value
            .and_then(|v| map.get(v.index()).copied().flatten());
        if let (Some(r), Some(v)) = (*result, value) {
            match inst.ret.and_then(|(ptr, ty)| Some((cx.extra(ptr)?, ty))) {
                Some((pointer, ty)) => {
                    // Through the precise `$ret` local, for the precise pass.
                    cx.push(Statement::Store { pointer, value: v });
                    let load = cx.emit(Expression::Load { pointer }, ty, Span::default());
                    cx.set_map(r, load);
                }
                None => cx.set_map(r, v),
            }
        }
        Some(false)
    }
}

/// Emits a copy of a callee local's initialiser, `Compose`/`Splat` parts
/// first; its leaves come from `map` (the plan bounds its depth).
fn copy_initialiser(
    cx: &mut Cx,
    callee: &Function,
    map: &[Option<Handle<Expression>>],
    h: Handle<Expression>,
) -> Handle<Expression> {
    let e = &callee.expressions[h];
    if e.is_trivial() {
        return map.get(h.index()).copied().flatten().unwrap_or(h);
    }
    let mut e = e.clone();
    e.map_operands(|o| copy_initialiser(cx, callee, map, o));
    cx.emit(e, callee.expr_type(h), Span::default())
}
