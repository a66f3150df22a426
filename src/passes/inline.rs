//! `inline`: replaces calls by the callee's body, at -O2 and above for small
//! functions and functions called from one place only (or for every call
//! with `Policy::All`), and at every level for functions that read a
//! texture at an offset given by their arguments (`Policy::Legalize`: DXC's
//! legalisation inlines those, since Vulkan wants constant offsets).
//!
//! A callee is inlined when it is not an entry function, has no `precise`
//! argument, every argument has the parameter's exact type (a pointer into
//! another address space is left to the backend's copy-in/copy-out), and every `return` in it stands outside any loop or switch of
//! the callee. Its locals become new locals of the caller (a local's
//! initial value becomes a store at each inlined call); its arguments
//! become the call's argument expressions (pointers for `out`/`inout`).
//! A body whose only `return` is its last statement is spliced in place and
//! the returned expression replaces the call's result. Otherwise the body is
//! wrapped in a one-trip `loop { …; break }` where each `return v` becomes
//! `store $ret, v; break`, and the result is a load of `$ret` after it;
//! where every such `break` ends a branch of an `if`, the loop goes and
//! what follows each such `if` moves into its other branch (`inline/once.rs`). A
//! callee whose result is `precise` always returns through a `precise`
//! `$ret` local, so the precise pass (which runs after) still finds it.
//!
//! Callees are inlined before their callers (sema rejects recursion), so
//! inlining is complete in one sweep. Precise flags already set are copied
//! unchanged. The pass rebuilds the caller's expression arena (every handle
//! changes) and leaves functions that became uncalled for `dce`.

use super::rewrite::{Unchanged, rebuild_redirected};
use crate::ir::build::Body;
use crate::ir::visit::walk_statements;
use crate::ir::*;
use crate::span::Span;
use rustc_hash::FxHashMap;

mod deferred;
mod once;
mod walk;

pub use deferred::{DeferredUnrolls, unroll_deferring};

/// Call results to replace by the values inlining gave them.
type Replacements = FxHashMap<Handle<Expression>, Handle<Expression>>;

/// Which calls to inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Callees of at most [`SMALL_EXPRESSIONS`] expressions and no loops,
    /// and callees with a single call site.
    Small,
    /// Every inlinable call.
    All,
    /// Only callees that read a texture at an offset given by their
    /// arguments (Vulkan wants a constant there): what DXC's legalisation
    /// inlines at every level.
    Legalize,
}

/// The size limit of `Policy::Small`.
pub const SMALL_EXPRESSIONS: usize = 32;

/// Which functions are entry functions, and how many call sites each
/// function has.
fn sites(module: &Module) -> (Vec<bool>, Vec<u32>) {
    let n = module.functions.len();
    let entry: Vec<bool> = (0..n)
        .map(|i| {
            module
                .entry_points
                .iter()
                .any(|ep| ep.function.index() == i)
        })
        .collect();
    let mut calls = vec![0u32; n];
    for (_, f) in module.functions.iter() {
        walk_statements(&f.body, |s| {
            if let Statement::Call { function, .. } = s
                && let Some(c) = calls.get_mut(function.index())
            {
                *c += 1;
            }
        });
    }
    (entry, calls)
}

/// The policy that decides whether to inline `f`: a function called once
/// is inlined whatever its size (the copy replaces the original, which
/// `dce` removes).
fn policy_of(policy: Policy, calls: &[u32], f: Handle<Function>) -> Policy {
    if policy == Policy::Small && calls.get(f.index()) == Some(&1) {
        Policy::All
    } else {
        policy
    }
}

/// Inlines calls in every function; the functions `deferred` lists are
/// unrolled as they are inlined (or on their own where they are not).
pub fn run(module: &mut Module, policy: Policy, mut deferred: DeferredUnrolls) {
    let rebuilt = inline_calls(module, policy, &mut deferred);
    remove_uncalled(module, deferred, rebuilt.contains(&true), &rebuilt);
}

/// Inlines calls in every function, as [`run`] does before it drops what
/// is no longer called; returns per function whether it was rebuilt with
/// its calls inlined.
fn inline_calls(module: &mut Module, policy: Policy, deferred: &mut DeferredUnrolls) -> Vec<bool> {
    let order = callees_first(module);
    let n = module.functions.len();
    let (entry, calls) = deferred.take_sites(module);
    let policy_of = |f: Handle<Function>| policy_of(policy, &calls, f);
    // The functions inlined wherever they are called: each is copied into
    // its callers with its own calls inlined in turn, so it is never
    // processed alone (the copies are the only code that survives).
    // A deferred function was found inlinable under `Policy::All` when it
    // was deferred, and is as it was then.
    let copied: Vec<bool> = module
        .functions
        .iter()
        .map(|(h, f)| {
            let p = policy_of(h);
            calls[h.index()] > 0
                && !entry[h.index()]
                && ((p == Policy::All && deferred.get(h).is_some()) || inlinable(f, p))
        })
        .collect();
    let vanishes: Vec<bool> = module
        .functions
        .iter()
        .map(|(h, f)| copied[h.index()] && f.export.is_none())
        .collect();
    // The pointer types of `$ret` and of re-initialised locals.
    for (h, &c) in copied.iter().enumerate() {
        if c {
            let callee = &module.functions[Handle::from_index(h)];
            let mut bases: Vec<Handle<Type>> = callee.result.iter().map(|r| r.ty).collect();
            bases.extend(
                callee
                    .local_variables
                    .iter()
                    .filter(|(_, l)| l.init.is_some())
                    .map(|(_, l)| l.ty),
            );
            for base in bases {
                module.ty(TypeInner::Pointer {
                    base,
                    space: AddressSpace::Function,
                });
            }
        }
    }
    // The callers rebuilt with their calls inlined.
    let mut rebuilt = vec![false; n];
    // Whether each function can be inlined as it is now, found on the
    // first question: callees come first, so a function asked about is
    // final (a caller's answer is forgotten when its calls are inlined).
    // A function that vanishes is never a caller processed here, so its
    // answer above stays right.
    let known: Vec<std::cell::Cell<Option<bool>>> = vanishes
        .iter()
        .map(|&v| std::cell::Cell::new(v.then_some(true)))
        .collect();
    for caller in order {
        if vanishes[caller.index()] {
            continue;
        }
        let inlinable = |f: Handle<Function>, m: &Module| -> bool {
            if f.index() >= n || entry[f.index()] || f == caller {
                return false;
            }
            let slot = &known[f.index()];
            slot.get().unwrap_or_else(|| {
                let yes = inlinable(&m.functions[f], policy_of(f));
                slot.set(Some(yes));
                yes
            })
        };
        let mut any = false;
        walk_statements(&module.functions[caller].body, |s| {
            if let Statement::Call { function, .. } = s {
                any |= inlinable(*function, module);
            }
        });
        if !any {
            continue;
        }
        known[caller.index()].set(None);
        rebuilt[caller.index()] = true;
        // Callers whose inlined bodies are all simple are rebuilt once;
        // the others are spliced, then rebuilt to restore the order.
        if let Some(plan) = walk::plan(module, &module.functions[caller], &inlinable, deferred) {
            walk::inline(module, caller, plan);
            continue;
        }
        // The splice copies the callees' bodies as they are.
        deferred.unroll_now(module, None);
        let mut f = std::mem::take(&mut module.functions[caller]);
        let mut replace = FxHashMap::default();
        let old = std::mem::take(&mut f.body);
        // Calls before any statement's line (an entry wrapper's) are
        // from the caller's declaration.
        let line = f.span;
        let mut body = Body::new(f);
        splice_block(module, &mut body, old, &inlinable, &mut replace, line);
        module.functions[caller] = body.finish();
        // Restore the arena order (spliced expressions were appended), the
        // inlined calls' results read as the values that replace them.
        rebuild_redirected(module, caller, &mut Unchanged, &replace);
    }
    rebuilt
}

/// After inlining (when `inlined`): drops the functions no longer
/// reached, which would otherwise go through every pass until `dce`, and
/// unrolls the deferred functions still called, as `unroll` would have.
///
/// A function in `rebuilt` (the callers whose calls were inlined, when
/// it tells) is a fresh arena, in which a `CallResult` is only ever the
/// result of a `Call` statement: where its body calls nothing, dropping
/// functions has nothing in it to renumber.
fn remove_uncalled(module: &mut Module, mut deferred: DeferredUnrolls, inlined: bool, rebuilt: &[bool]) {
    let reached = if inlined {
        super::dce::reached_functions(module)
    } else {
        None
    };
    deferred.unroll_now(module, reached.as_ref().map(|r| r.reached.as_slice()));
    if let Some(r) = reached {
        let quiet: Vec<bool> = r
            .calls
            .iter()
            .zip(rebuilt)
            .map(|(&calls, &rebuilt)| rebuilt && !calls)
            .collect();
        super::dce::remove_functions(module, &r.reached, &quiet);
    }
}

/// Whether `f` can and should be inlined under `policy`.
fn inlinable(f: &Function, policy: Policy) -> bool {
    // The shader's own decorations (`vk::ext_decorate`) are on the
    // OpFunction: keep it.
    let decorated = |a: &crate::ir::FunctionArgument| !a.spirv_decorations.is_empty();
    if f.arguments.iter().any(|a| a.precise || decorated(a)) || !f.spirv_decorations.is_empty() {
        return false;
    }
    // Loops matter to the small policy only (a walk of the body).
    let has_loop = || {
        let mut found = false;
        walk_statements(&f.body, |s| found |= matches!(s, Statement::Loop { .. }));
        found
    };
    // What Vulkan needs inlined is inlined under every policy (asked only
    // where the answer matters: it searches every expression).
    let needed = || policy != Policy::All && offsets_from_arguments(f);
    if policy == Policy::Legalize && !needed() {
        return false;
    }
    if policy == Policy::Small
        && (f.expressions.len() > SMALL_EXPRESSIONS || has_loop())
        && !needed()
    {
        return false;
    }
    returns_outside_breakables(&f.body)
}

/// Whether a texture read of `f` (not a gather) takes its offset from
/// `f`'s arguments.
fn offsets_from_arguments(f: &Function) -> bool {
    fn from_argument(f: &Function, h: Handle<Expression>, depth: u32) -> bool {
        if let Expression::FunctionArgument(_) = f.expressions[h] {
            return true;
        }
        let mut found = false;
        if depth < 32 {
            f.expressions[h].for_each_operand(|o| found |= from_argument(f, o, depth + 1));
        }
        found
    }
    f.expressions.iter().any(|(_, e)| match e {
        Expression::ImageSample(s) => match **s {
            ImageSampling {
                offset: Some(o),
                gather: None,
                ..
            } => from_argument(f, o, 0),
            _ => false,
        },
        &Expression::ImageLoad {
            offset: Some(o), ..
        } => from_argument(f, o, 0),
        _ => false,
    })
}

/// True if no `return` stands inside a loop or switch: one walk, which
/// does not go into a loop or switch again for the ones nested in it.
fn returns_outside_breakables(block: &[Statement]) -> bool {
    let has_return = |b: &[Statement]| {
        let mut found = false;
        walk_statements(b, |t| found |= matches!(t, Statement::Return { .. }));
        found
    };
    block.iter().all(|s| match s {
        Statement::Loop {
            body, continuing, ..
        } => !has_return(body) && !has_return(continuing),
        Statement::Switch { cases, .. } => cases.iter().all(|c| !has_return(&c.body)),
        Statement::Block(b) => returns_outside_breakables(b),
        Statement::If { accept, reject, .. } => {
            returns_outside_breakables(accept) && returns_outside_breakables(reject)
        }
        _ => true,
    })
}

/// Functions ordered so that every callee comes before its callers.
fn callees_first(module: &Module) -> Vec<Handle<Function>> {
    let n = module.functions.len();
    let mut state = vec![0u8; n]; // 0 new, 1 open, 2 done
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(Handle::<Function>::from_index(root), false)];
        while let Some((h, expanded)) = stack.pop() {
            if expanded {
                state[h.index()] = 2;
                order.push(h);
                continue;
            }
            if state[h.index()] != 0 {
                continue;
            }
            state[h.index()] = 1;
            stack.push((h, true));
            walk_statements(&module.functions[h].body, |s| {
                if let Statement::Call { function, .. } = s
                    && function.index() < n
                    && state[function.index()] == 0
                {
                    stack.push((*function, false));
                }
            });
        }
    }
    order
}

/// Appends the statements of `block` to the current block of `body`,
/// with the calls that are `inlinable` replaced by the callee's body.
/// `line` is the source line of the code before the block (debug
/// information: an inlined body records the line it is called from).
fn splice_block(
    module: &Module,
    body: &mut Body,
    block: Block,
    inlinable: &dyn Fn(Handle<Function>, &Module) -> bool,
    replace: &mut Replacements,
    mut line: Span,
) {
    let nested = |body: &mut Body, b: Block, replace: &mut Replacements, line: Span| {
        body.open();
        splice_block(module, body, b, inlinable, replace, line);
        body.close()
    };
    for s in block {
        if let Statement::Debug(DebugInfo::Line(span)) = s {
            line = span;
        }
        match s {
            Statement::Call {
                function,
                arguments,
                result,
            } if inlinable(function, module)
                && arguments
                    .iter()
                    .zip(&module.functions[function].arguments)
                    .all(|(&a, p)| body.function.expr_type(a) == p.ty) =>
            {
                let call = InlinedCall {
                    callee: function,
                    arguments: &arguments,
                    result,
                    line,
                };
                inline_call(module, body, call, inlinable, replace);
            }
            Statement::Block(b) => {
                let b = nested(body, b, replace, line);
                body.push(Statement::Block(b));
            }
            Statement::If {
                condition,
                accept,
                reject,
                control,
            } => {
                let accept = nested(body, accept, replace, line);
                let reject = nested(body, reject, replace, line);
                body.push(Statement::If {
                    condition,
                    accept,
                    reject,
                    control,
                });
            }
            Statement::Switch { selector, cases } => {
                let cases = cases
                    .into_iter()
                    .map(|c| SwitchCase {
                        value: c.value,
                        body: nested(body, c.body, replace, line),
                        fall_through: c.fall_through,
                    })
                    .collect();
                body.push(Statement::Switch { selector, cases });
            }
            Statement::Loop {
                body: loop_body,
                continuing,
                break_if,
                control,
            } => {
                let loop_body = nested(body, loop_body, replace, line);
                let continuing = nested(body, continuing, replace, line);
                body.push(Statement::Loop {
                    body: loop_body,
                    continuing,
                    break_if,
                    control,
                });
            }
            other => body.push(other),
        }
    }
}

/// A call being inlined.
struct InlinedCall<'c> {
    callee: Handle<Function>,
    arguments: &'c [Handle<Expression>],
    result: Option<Handle<Expression>>,
    /// The source line of the calling statement (debug information).
    line: Span,
}

/// Inlines `call` at the end of `body`'s current block; the callee's own
/// calls that are `inlinable` are inlined in turn (a callee that vanishes
/// is never processed on its own).
fn inline_call(
    module: &Module,
    body: &mut Body,
    call: InlinedCall,
    inlinable: &dyn Fn(Handle<Function>, &Module) -> bool,
    replace: &mut Replacements,
) {
    let InlinedCall {
        callee: callee_h,
        arguments,
        result,
        line,
    } = call;
    let callee = &module.functions[callee_h];
    // With debug information, the inlined body is a scope of its own that
    // says where it was called from.
    let debug = has_debug_info(callee);
    if debug {
        body.push(Statement::Debug(DebugInfo::Begin(DebugScope::Inlined {
            function: callee.name.clone(),
            decl: callee.span,
            call: line,
        })));
    }
    // Locals.
    let locals: Vec<Handle<LocalVariable>> = callee
        .local_variables
        .iter()
        .map(|(_, l)| {
            body.function.local_variables.append(LocalVariable {
                init: None,
                ..l.clone()
            })
        })
        .collect();
    // Expressions, in order; arguments map to the call's operands. The
    // callee's `Emit`s, translated, cover them.
    let mut map: Vec<Handle<Expression>> = Vec::with_capacity(callee.expressions.len());
    for (h, e) in callee.expressions.iter() {
        let new = match *e {
            Expression::FunctionArgument(i) => arguments
                .get(i as usize)
                .copied()
                .unwrap_or(Handle::from_index(0)),
            Expression::LocalVariable(l) => body.add(
                Expression::LocalVariable(locals[l.index()]),
                callee.expr_type(h),
            ),
            ref other => {
                let e = other.mapped(|o| map[o.index()]);
                let n = body.add_outside(e, callee.expr_type(h));
                let span = callee.expr_span(h);
                if !span.is_dummy() {
                    body.function.set_expr_span(n, span);
                }
                n
            }
        };
        map.push(new);
    }
    // Re-initialise locals that have an initial value.
    for (l, local) in callee.local_variables.iter() {
        if let Some(init) = local.init {
            let ptr = body.add(
                Expression::LocalVariable(locals[l.index()]),
                pointer_type(module, local.ty),
            );
            // A fresh, emitted copy of the initialiser (the callee's own
            // copy may be emitted elsewhere in its body).
            let value = copy_initialiser(callee, body, &map, init, 0);
            body.push(Statement::Store {
                pointer: ptr,
                value,
            });
        }
    }
    let translated = translate_block(&callee.body, &map);
    body.open();
    splice_block(module, body, translated, inlinable, replace, line);
    let mut inlined = body.close();
    let result_precise = callee.result.as_ref().is_some_and(|r| r.precise);
    let simple = inlined.iter().enumerate().all(|(i, s)| {
        !contains_return(s) || (i + 1 == inlined.len() && matches!(s, Statement::Return { .. }))
    });
    let ret_local = |body: &mut Body| {
        callee.result.as_ref().map(|r| {
            let l = body.function.local_variables.append(result_local(callee, r));
            (body.add(Expression::LocalVariable(l), pointer_type(module, r.ty)), r.ty)
        })
    };
    if simple {
        let value = match inlined.last() {
            Some(Statement::Return { value }) => {
                let v = *value;
                inlined.pop();
                v
            }
            _ => None,
        };
        for s in inlined {
            body.push(s);
        }
        if debug {
            body.push(Statement::Debug(DebugInfo::End));
        }
        if let (Some(r), Some(v)) = (result, value) {
            if result_precise {
                // Through the precise `$ret` local, for the precise pass.
                if let Some((ptr, ty)) = ret_local(body) {
                    body.push(Statement::Store {
                        pointer: ptr,
                        value: v,
                    });
                    let load = body.add(Expression::Load { pointer: ptr }, ty);
                    replace.insert(r, load);
                }
            } else {
                replace.insert(r, v);
            }
        }
        return;
    }
    // Early returns: a one-trip loop, `return v` → `store $ret, v; break`
    // (without the loop where the returns end branches of `if`s).
    let ret = ret_local(body);
    let mut once = returns_to_breaks(inlined, ret.map(|r| r.0));
    once.push(Statement::Break);
    match once::unloop(once) {
        Ok(statements) => body.push(Statement::Block(statements)),
        Err(once) => body.push(Statement::Loop {
            body: once,
            continuing: Block::new(),
            break_if: None,
            control: LoopControl::None,
        }),
    }
    if debug {
        body.push(Statement::Debug(DebugInfo::End));
    }
    if let (Some(r), Some((ptr, ty))) = (result, ret) {
        let load = body.add(Expression::Load { pointer: ptr }, ty);
        replace.insert(r, load);
    }
}

/// Of the body of `f`, in one walk: whether it is simple (at most one
/// `return`, its last statement) and whether it carries source-level
/// debug information (`-Zi`).
fn body_shape(f: &Function) -> (bool, bool) {
    let (mut returns, mut debug) = (0usize, false);
    walk_statements(&f.body, |s| match s {
        Statement::Return { .. } => returns += 1,
        Statement::Debug(_) => debug = true,
        _ => {}
    });
    let last_returns = matches!(f.body.last(), Some(Statement::Return { .. }));
    (returns == 0 || (returns == 1 && last_returns), debug)
}

/// Whether `f` carries source-level debug information (`-Zi`).
fn has_debug_info(f: &Function) -> bool {
    let mut found = false;
    walk_statements(&f.body, |s| found |= matches!(s, Statement::Debug(_)));
    found
}

/// Copies a callee local's initialiser into the caller, emitting its
/// `Compose`/`Splat` parts; leaves come from `map`.
fn copy_initialiser(
    callee: &Function,
    body: &mut Body,
    map: &[Handle<Expression>],
    h: Handle<Expression>,
    depth: u32,
) -> Handle<Expression> {
    let e = &callee.expressions[h];
    if e.is_trivial() || depth > 64 {
        return map[h.index()];
    }
    let mut e = e.clone();
    e.map_operands(|o| copy_initialiser(callee, body, map, o, depth + 1));
    body.add(e, callee.expr_type(h))
}

fn contains_return(s: &Statement) -> bool {
    let mut found = matches!(s, Statement::Return { .. });
    for b in s.blocks() {
        walk_statements(b, |t| found |= matches!(t, Statement::Return { .. }));
    }
    found
}

/// Rewrites `return v` into `store ret, v; break` (returns are outside
/// loops and switches, so `break` leaves the wrapper loop).
fn returns_to_breaks(block: Block, ret: Option<Handle<Expression>>) -> Block {
    let mut out = Block::with_capacity(block.len());
    for s in block {
        match s {
            Statement::Return { value } => {
                if let (Some(p), Some(v)) = (ret, value) {
                    out.push(Statement::Store {
                        pointer: p,
                        value: v,
                    });
                }
                out.push(Statement::Break);
            }
            Statement::Block(b) => out.push(Statement::Block(returns_to_breaks(b, ret))),
            Statement::If {
                condition,
                accept,
                reject,
                control,
            } => out.push(Statement::If {
                condition,
                accept: returns_to_breaks(accept, ret),
                reject: returns_to_breaks(reject, ret),
                control,
            }),
            other => out.push(other),
        }
    }
    out
}

/// The callee's statements with expression handles mapped into the caller.
fn translate_block(block: &[Statement], map: &[Handle<Expression>]) -> Block {
    block
        .iter()
        .map(|s| {
            // Nested blocks are translated, not copied first: a copy of a
            // statement would copy everything nested in it once per level.
            let mut s = match s {
                Statement::Block(b) => Statement::Block(translate_block(b, map)),
                Statement::If {
                    condition,
                    accept,
                    reject,
                    control,
                } => Statement::If {
                    condition: *condition,
                    accept: translate_block(accept, map),
                    reject: translate_block(reject, map),
                    control: *control,
                },
                Statement::Switch { selector, cases } => Statement::Switch {
                    selector: *selector,
                    cases: cases
                        .iter()
                        .map(|c| SwitchCase {
                            value: c.value,
                            body: translate_block(&c.body, map),
                            fall_through: c.fall_through,
                        })
                        .collect(),
                },
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                    control,
                } => Statement::Loop {
                    body: translate_block(body, map),
                    continuing: translate_block(continuing, map),
                    break_if: *break_if,
                    control: *control,
                },
                other => other.clone(),
            };
            if let Statement::Emit(r) = &mut s
                && !r.is_empty()
            {
                let first = map[r.start_index()];
                let last = map[r.end_index() - 1];
                *r = Range::new(first.index(), last.index() + 1);
            }
            s.map_expressions(|h| map[h.index()]);
            s
        })
        .collect()
}

/// The local an inlined call's result goes through when the callee does
/// not simply return at its end (or its result is precise).
fn result_local(callee: &Function, r: &FunctionResult) -> LocalVariable {
    LocalVariable {
        name: Some(format!("{}.result", callee.name)),
        ty: r.ty,
        init: None,
        precise: r.precise,
        aliased: false,
        spirv_decorations: Vec::new(),
    }
}

/// The pointer type to a function local of type `ty`, as the inliner
/// finds it (`run` made it).
fn pointer_type(module: &Module, ty: Handle<Type>) -> Handle<Type> {
    module
        .types
        .get(&Type {
            name: None,
            inner: TypeInner::Pointer {
                base: ty,
                space: AddressSpace::Function,
            },
        })
        .unwrap_or(ty)
}

#[cfg(test)]
mod tests;
