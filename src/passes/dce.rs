//! `dce`: removes what cannot affect the shader's behaviour.
//!
//! - expressions whose value nothing uses (they leave their `Emit` ranges,
//!   which are rebuilt), and the results of calls and atomics nobody reads;
//! - stores into local variables that are never read (no load, call or
//!   atomic that matters uses a pointer into them: loads that only feed
//!   stores into such locals do not count), then such locals themselves,
//!   and any local no expression refers to;
//! - `if`s, loops and `switch`es that decide nothing that matters (no
//!   effect, no store into a read local and no value used after them
//!   depends on them, see [`locals`]), whatever their conditions read;
//! - calls of functions without effect whose result nothing uses;
//! - the cases a `switch` on a constant does not run (see [`switch`]);
//! - statements after a `return`, `break`, `continue` or `discard` in the
//!   same block, empty blocks, and `if`s whose branches are both empty;
//! - debug information that would keep any of these alive (see
//!   [`debug`]): it never does;
//! - functions that no entry point reaches, when the module has entry
//!   points.
//!
//! Precise expressions are removed only when unused, like any other: the
//! pass never changes an operation. It rebuilds expression arenas and the
//! local and function arenas: every handle may change.

use super::cse::Left;
use super::rewrite::{Cx, Emitted, Rewrite, rebuild_function};
use crate::ir::visit::{walk_statements, walk_statements_mut};

mod debug;
// (Under `tests/`: it compiles HLSL with the crate's entry points.)
#[cfg(test)]
#[path = "dce/tests/liveness.rs"]
pub(super) mod liveness_tests;
mod locals;
#[cfg(test)]
#[path = "dce/tests/settled.rs"]
mod settled_tests;
mod switch;
use crate::ir::*;

/// Removes dead code in every function, then unreachable functions (for
/// tests: the pipeline runs [`run_after_cse`]).
#[cfg(test)]
pub fn run(module: &mut Module) {
    run_after_cse(module, Left::default());
}

/// [`run`] on what `cse` just left: `left.settled` says per function
/// that its rebuild left nothing dead and no store, construct or debug
/// variable that the search would drop. There the first search is known
/// to find nothing and is not made. `left.pure`, when it tells, is what
/// [`pure_functions`] would find.
pub fn run_after_cse(module: &mut Module, left: Left) {
    let settled = &left.settled[..];
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    let pure = left.pure.unwrap_or_else(|| pure_functions(module));
    for h in handles {
        let mut known_clean = settled.get(h.index()).copied().unwrap_or(false);
        // Removing an empty `if` frees its condition: a second round
        // catches that (and is cheap when nothing changed).
        for _ in 0..4 {
            let f = &mut module.functions[h];
            let (mut removed, dead) = if std::mem::take(&mut known_clean) {
                (false, None)
            } else {
                analyse(f, &pure)
            };
            let rebuilt = dead.is_some();
            if let Some(mut dce) = dead {
                rebuild_function(module, h, &mut dce);
            }
            let f = &mut module.functions[h];
            // Loads that were dead may have been the last reads of a
            // local, and empty `if`s free their conditions: another round.
            // When `analyse` removed nothing and nothing was rebuilt, the
            // body is as that search left it (but for debug variables,
            // which it ignores): it would find nothing again.
            if removed || rebuilt {
                removed |= remove_write_only_stores(f, &pure).0;
            }
            if untidy(&f.body) {
                removed |= switch::fold_constant_switches(&mut f.body, &f.expressions);
                debug::drop_idle(&mut f.body);
                removed |= prune_empty(&mut f.body);
            }
            compact_locals(f);
            if !removed {
                break;
            }
        }
    }
    remove_unreachable_functions(module);
}

/// Whether `body` holds what the clean-up after the search may change:
/// a `switch`, debug information, an empty block or an `if` whose
/// branches are both empty. Without any, folding constant switches,
/// dropping idle debug information and pruning empty blocks change
/// nothing (one walk, which stops at the first, instead of three).
/// Recurses once per nesting level, like those.
fn untidy(block: &[Statement]) -> bool {
    block.iter().any(|s| match s {
        Statement::Switch { .. } | Statement::Debug(_) => true,
        Statement::Block(b) => b.is_empty() || untidy(b),
        Statement::If { accept, reject, .. } => {
            (accept.is_empty() && reject.is_empty()) || untidy(accept) || untidy(reject)
        }
        Statement::Loop {
            body, continuing, ..
        } => untidy(body) || untidy(continuing),
        _ => false,
    })
}

/// What a rebuild keeps of a function: its live expressions and locals.
pub(super) struct Dce {
    live: Vec<bool>,
    local_live: Vec<bool>,
}

/// Drops the stores that nothing live reads (see [`locals`]) and finds
/// what is dead: whether stores went, and what a rebuild keeps when
/// something is dead.
pub(super) fn analyse(f: &mut Function, pure: &[bool]) -> (bool, Option<Dce>) {
    let (removed, known) = remove_write_only_stores(f, pure);
    (removed, dead_code(f, known))
}

/// What is live in `f`; `None` when nothing but unused trivial
/// expressions is dead (a rebuild would change nothing). Drops the debug
/// variables whose value or local goes. `known`: what the search for
/// write-only stores found, when it tells.
fn dead_code(f: &mut Function, known: Option<locals::Known>) -> Option<Dce> {
    let (mut live, local_live, debug_variables) = match known {
        Some(k) => (k.live, k.local_live, k.debug_variables),
        None => {
            let live = liveness(f);
            let local_live = live_locals(f, &live);
            (live, local_live, true)
        }
    };
    // The references it marks live are to locals already live.
    if debug_variables {
        debug::variables(f, &mut live, &local_live);
    }
    // A dead local that nothing refers to goes without a rebuild
    // (`compact_locals`): only a dead reference to one needs it.
    let dead = f.expressions.iter().any(|(e, x)| {
        !live[e.index()]
            && (matches!(x, Expression::LocalVariable(_))
                || !x.is_trivial()
                || x.is_statement_result())
    });
    dead.then_some(Dce { live, local_live })
}

/// Per local: whether a `live` expression refers to it, or the shader
/// decorated it (it stays, with its stores).
fn live_locals(f: &Function, live: &[bool]) -> Vec<bool> {
    let mut local_live: Vec<bool> = f.local_variables.iter().map(|(_, l)| pinned(l)).collect();
    for (h, e) in f.expressions.iter() {
        if let Expression::LocalVariable(l) = *e
            && live[h.index()]
        {
            local_live[l.index()] = true;
        }
    }
    local_live
}

impl Rewrite for Dce {
    fn keep_local(&self, l: Handle<LocalVariable>) -> bool {
        self.local_live[l.index()]
    }
    fn keep_trivial(&self, old: Handle<Expression>) -> bool {
        self.live[old.index()]
    }
    fn keep_result(&self, old: Handle<Expression>) -> bool {
        self.live[old.index()]
    }
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        self.live[e.old.index()].then(|| cx.keep(e))
    }
}

/// Per function: whether a call of it matters only for its result: it
/// writes only its own locals and calls only such functions (its loads,
/// loops and returns are no effect; `discard`, barriers, atomics, wave
/// operations and stores through arguments are).
pub(super) fn pure_functions(module: &Module) -> Vec<bool> {
    let mut pure = vec![true; module.functions.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (h, f) in module.functions.iter() {
            if !pure[h.index()] {
                continue;
            }
            let mut ok = true;
            walk_statements(&f.body, |s| {
                ok &= match s {
                    Statement::Emit(_)
                    | Statement::Block(_)
                    | Statement::If { .. }
                    | Statement::Switch { .. }
                    | Statement::Loop { .. }
                    | Statement::Break
                    | Statement::Continue
                    | Statement::Return { .. }
                    | Statement::Merge { .. }
                    | Statement::Carry { .. }
                    | Statement::Debug(_) => true,
                    Statement::Store { pointer, .. } => local_root(f, *pointer).is_some(),
                    Statement::Call { function, .. } => {
                        pure.get(function.index()).copied().unwrap_or(false)
                    }
                    _ => false,
                }
            });
            if !ok {
                pure[h.index()] = false;
                changed = true;
            }
        }
    }
    pure
}

/// Whether a local must stay although nothing reads it: the shader
/// decorated it (`vk::ext_decorate*`).
fn pinned(l: &LocalVariable) -> bool {
    !l.spirv_decorations.is_empty()
}

/// The local a pointer expression points into, if any.
fn local_root(f: &Function, mut p: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    loop {
        match f.expressions[p] {
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => p = base,
            Expression::LocalVariable(l) => return Some(l),
            _ => return None,
        }
    }
}

/// Drops stores into locals that nothing reads and the control
/// statements that decide nothing that matters (see [`locals`]): whether
/// any went, and what `dead_code` needs to know of what is left when the
/// search tells it (see [`locals::Usage::liveness`]).
fn remove_write_only_stores(f: &mut Function, pure: &[bool]) -> (bool, Option<locals::Known>) {
    let usage = locals::usage(f, pure);
    let to_remove = usage.to_remove();
    if to_remove {
        let drops = Drops::new(&usage, pure);
        drops.apply(f);
    }
    (to_remove, usage.liveness(f))
}

/// [`analyse`] for a rebuild that leaves out the stores and control
/// statements the search finds dead as it walks (see [`Drops`]), instead
/// of their being dropped from the body first: what the rebuild keeps,
/// and what it leaves out, if anything. Where debug variables stand or
/// the search does not tell what `liveness` finds, they are dropped
/// first, as `analyse` does.
pub(super) fn analyse_leaving_stores(f: &mut Function, pure: &[bool]) -> (Option<Dce>, Option<Drops>) {
    let usage = locals::usage(f, pure);
    if !usage.to_remove() {
        return (dead_code(f, usage.liveness(f)), None);
    }
    let drops = Drops::new(&usage, pure);
    // (What `liveness` finds once they are gone does not depend on the
    // body: it may be asked first.)
    let known = usage.liveness(f);
    if known.as_ref().is_some_and(|k| !k.debug_variables) {
        return (dead_code(f, known), Some(drops));
    }
    drops.apply(f);
    (dead_code(f, known), None)
}

/// The statements that the search finds dead: stores into locals nothing
/// reads, calls of pure functions whose result nothing uses, and the
/// control statements not live (numbered as [`locals::usage`] does, a
/// statement before the ones nested in it).
pub(super) struct Drops {
    read: Vec<bool>,
    live: Vec<bool>,
    constructs: Vec<bool>,
    pure: Vec<bool>,
    /// The number of the next control statement [`Drops::keeps`] meets.
    next: usize,
}

impl Drops {
    fn new(usage: &locals::Usage, pure: &[bool]) -> Self {
        Drops {
            read: usage.read.clone(),
            live: usage.live.clone(),
            constructs: usage.constructs.clone(),
            pure: pure.to_vec(),
            next: 0,
        }
    }

    /// A store into a local nobody reads, or a call of a pure function
    /// whose result nothing uses.
    fn dead_store(&self, f: &Function, s: &Statement) -> bool {
        match s {
            Statement::Store { pointer, .. } => local_root(f, *pointer)
                .is_some_and(|l| !self.read.get(l.index()).copied().unwrap_or(true)),
            Statement::Call {
                function, result, ..
            } => {
                self.pure.get(function.index()).copied().unwrap_or(false)
                    && !result.is_some_and(|r| self.live.get(r.index()).copied().unwrap_or(true))
            }
            _ => false,
        }
    }

    /// Whether statement `s` of `f` stays, for a walk that meets every
    /// statement of the body in order, a statement before the ones nested
    /// in it (those of a statement that goes are not met).
    pub(super) fn keeps(&mut self, f: &Function, s: &Statement) -> bool {
        if !is_construct(s) {
            return !self.dead_store(f, s);
        }
        let id = self.next;
        self.next += 1;
        if self.constructs.get(id).copied().unwrap_or(true) {
            return true;
        }
        for b in s.blocks() {
            self.skip(b);
        }
        false
    }

    /// Counts the control statements in `statements` (and nested in them),
    /// which the walk does not meet.
    pub(super) fn skip(&mut self, statements: &[Statement]) {
        walk_statements(statements, |t| self.next += usize::from(is_construct(t)));
    }

    /// Drops the dead statements from `f`'s body (a whole local's dead
    /// store that a debug variable names becomes a `DebugValue`).
    fn apply(&self, f: &mut Function) {
        let mut body = std::mem::take(&mut f.body);
        let f_ref: &Function = f;
        let dead_store = |s: &Statement| self.dead_store(f_ref, s);
        let declared = debug::declarations(f_ref, &body);
        // A dead store of a whole local that a debug variable names tells
        // debuggers the value it held: a `DebugValue` (kept if the value
        // stays for other uses, see `debug::variables`).
        let fate = |s: &Statement| match *s {
            Statement::Store { pointer, value } if dead_store(s) => {
                let info = match f_ref.expressions[pointer] {
                    Expression::LocalVariable(l) => declared.get(&l),
                    _ => None,
                };
                Some(info.map(|(name, span, arg)| {
                    Statement::Debug(DebugInfo::Variable {
                        value,
                        name: name.clone(),
                        span: *span,
                        arg: *arg,
                    })
                }))
            }
            Statement::Call { .. } if dead_store(s) => Some(None),
            _ => None,
        };
        let mut next = 0;
        prune(&mut body, &mut next, &self.constructs, &fate);
        f.body = body;
    }
}

/// A control statement: what [`locals::usage`] numbers.
fn is_construct(s: &Statement) -> bool {
    matches!(
        s,
        Statement::If { .. } | Statement::Switch { .. } | Statement::Loop { .. }
    )
}

/// Drops the control statements not `live` (numbered as
/// [`locals::usage`] does, from `next`) in `block` and the blocks nested
/// in it, and drops or replaces the statements `fate` says (`Some(None)`:
/// drop; `Some(Some(s))`: `s` instead).
fn prune(
    block: &mut Block,
    next: &mut usize,
    live: &[bool],
    fate: &dyn Fn(&Statement) -> Option<Option<Statement>>,
) {
    block.retain_mut(|s| {
        if is_construct(s) {
            let id = *next;
            *next += 1;
            if !live.get(id).copied().unwrap_or(true) {
                // Skip the numbers of the constructs nested in it.
                for b in s.blocks() {
                    walk_statements(b, |t| *next += usize::from(is_construct(t)));
                }
                return false;
            }
        } else {
            match fate(s) {
                None => {}
                Some(None) => return false,
                Some(Some(new)) => *s = new,
            }
        }
        for b in blocks_mut(s) {
            prune(b, next, live, fate);
        }
        true
    });
}

/// `Vec::retain` on a block and every block nested in it.
fn retain_all(block: &mut Block, keep: &dyn Fn(&Statement) -> bool) {
    block.retain(|s| keep(s));
    walk_statements_mut(block, |s| match s {
        Statement::Block(b) => b.retain(|s| keep(s)),
        Statement::If { accept, reject, .. } => {
            accept.retain(|s| keep(s));
            reject.retain(|s| keep(s));
        }
        Statement::Switch { cases, .. } => {
            for c in cases {
                c.body.retain(|s| keep(s));
            }
        }
        Statement::Loop {
            body, continuing, ..
        } => {
            body.retain(|s| keep(s));
            continuing.retain(|s| keep(s));
        }
        _ => {}
    });
}

/// Which expressions are used, directly or not, by a statement.
fn liveness(f: &Function) -> Vec<bool> {
    let mut live = vec![false; f.expressions.len()];
    let mut phis: Vec<&Statement> = Vec::new();
    walk_statements(&f.body, |s| match s {
        Statement::Emit(_) => {}
        Statement::Loop {
            break_if: Some(b), ..
        } => live[b.index()] = true,
        Statement::Subgroup { result, .. }
        | Statement::Node {
            result: Some(result),
            ..
        }
        | Statement::Spirv {
            result: Some(result),
            ..
        } => {
            live[result.index()] = true;
            s.for_each_operand(|h| live[h.index()] = true);
        }
        // A phi's operands live only if it does (below).
        Statement::Merge { .. } | Statement::Carry { .. } => phis.push(s),
        // A debug variable's operands live only if something else uses
        // them.
        Statement::Debug(_) => {}
        other => other.for_each_operand(|h| live[h.index()] = true),
    });
    // Operands come before their users: one backward sweep propagates.
    // A live phi makes its operands live, which may come after it (a
    // loop's latch): sweep again until no phi adds any.
    loop {
        for h in f.expressions.handles().rev() {
            if live[h.index()] {
                f.expressions[h].for_each_operand(|o| live[o.index()] = true);
            }
        }
        let mut grew = false;
        for s in &phis {
            let (Statement::Merge { result, .. } | Statement::Carry { result, .. }) = s else {
                continue;
            };
            if live[result.index()] {
                s.for_each_operand(|o| {
                    grew |= !live[o.index()];
                    live[o.index()] = true;
                });
            }
        }
        if !grew {
            break;
        }
    }
    live
}

/// The blocks nested directly in `s`.
fn blocks_mut(s: &mut Statement) -> Vec<&mut Block> {
    match s {
        Statement::Block(b) => vec![b],
        Statement::If { accept, reject, .. } => vec![accept, reject],
        Statement::Switch { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
        Statement::Loop {
            body, continuing, ..
        } => vec![body, continuing],
        _ => Vec::new(),
    }
}

/// Removes empty blocks and `if`s with two empty branches, inner ones
/// first; true if any. Recurses once per nesting level, like the rebuild.
fn prune_empty(block: &mut Block) -> bool {
    let mut removed = false;
    for s in block.iter_mut() {
        match s {
            Statement::Block(b) => removed |= prune_empty(b),
            Statement::If { accept, reject, .. } => {
                removed |= prune_empty(accept);
                removed |= prune_empty(reject);
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    removed |= prune_empty(&mut c.body);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                removed |= prune_empty(body);
                removed |= prune_empty(continuing);
            }
            _ => {}
        }
    }
    let before = block.len();
    // An `if` stays for the `Merge`s after it.
    let merged: Vec<bool> = (0..block.len())
        .map(|i| matches!(block.get(i + 1), Some(Statement::Merge { .. })))
        .collect();
    let mut i = 0;
    block.retain(|s| {
        i += 1;
        match s {
            Statement::Block(b) => !b.is_empty(),
            Statement::If { accept, reject, .. } => {
                merged[i - 1] || !(accept.is_empty() && reject.is_empty())
            }
            _ => true,
        }
    });
    removed | (block.len() != before)
}

/// Drops locals no expression refers to, renumbering the rest.
fn compact_locals(f: &mut Function) {
    let mut used: Vec<bool> = f.local_variables.iter().map(|(_, l)| pinned(l)).collect();
    for (_, e) in f.expressions.iter() {
        if let Expression::LocalVariable(l) = *e {
            used[l.index()] = true;
        }
    }
    if used.iter().all(|u| *u) {
        return;
    }
    let mut remap = vec![None; used.len()];
    let mut locals = Arena::new();
    for (h, l) in f.local_variables.iter() {
        if used[h.index()] {
            remap[h.index()] = Some(locals.append(l.clone()));
        }
    }
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::LocalVariable(l) = e
            && let Some(n) = remap[l.index()]
        {
            *l = n;
        }
    }
    f.local_variables = locals;
}

/// Drops functions that no entry point and no exported function reaches
/// (when there are entry points or exports).
pub(super) fn remove_unreachable_functions(module: &mut Module) {
    if all_roots(module) {
        return;
    }
    if let Some(reached) = reached_functions(module) {
        remove_functions(module, &reached.reached, &[]);
    }
}

/// Whether every function is an entry point's (or its patch-constant
/// function) or exported: all are reached, without a walk (after
/// inlining, often the one function left).
fn all_roots(module: &Module) -> bool {
    let entry = |h: Handle<Function>| {
        module
            .entry_points
            .iter()
            .any(|ep| ep.function == h || ep.patch_constant_function == Some(h))
    };
    module
        .functions
        .iter()
        .all(|(h, f)| f.export.is_some() || entry(h))
}

/// What [`reached_functions`] finds.
pub(super) struct Reached {
    /// Per function, whether an entry point or exported function reaches
    /// it.
    pub reached: Vec<bool>,
    /// Per function reached, whether its body has a `Call`.
    pub calls: Vec<bool>,
}

/// Which functions an entry point or exported function reaches (`None`
/// when there are neither: then every function stays), and which of them
/// call any.
pub(super) fn reached_functions(module: &Module) -> Option<Reached> {
    let exported = module.functions.iter().filter(|(_, f)| f.export.is_some());
    let mut stack: Vec<Handle<Function>> = exported.map(|(h, _)| h).collect();
    if module.entry_points.is_empty() && stack.is_empty() {
        return None;
    }
    let n = module.functions.len();
    let mut reached = vec![false; n];
    let mut calls = vec![false; n];
    stack.extend(
        module
            .entry_points
            .iter()
            .flat_map(|ep| std::iter::once(ep.function).chain(ep.patch_constant_function)),
    );
    while let Some(h) = stack.pop() {
        if h.index() >= n || reached[h.index()] {
            continue;
        }
        reached[h.index()] = true;
        let before = stack.len();
        walk_statements(&module.functions[h].body, |s| {
            if let Statement::Call { function, .. } = s {
                stack.push(*function);
            }
        });
        calls[h.index()] = stack.len() > before;
    }
    Some(Reached { reached, calls })
}

/// Drops the functions not `reached`, and renumbers the calls of the
/// others. Where `quiet` (when it tells) says a function has neither a
/// `Call` statement nor a `CallResult` expression, nothing in it names a
/// function: it is not searched.
pub(super) fn remove_functions(module: &mut Module, reached: &[bool], quiet: &[bool]) {
    let n = module.functions.len();
    if reached.len() != n || reached.iter().all(|r| *r) {
        return;
    }
    let mut remap = vec![None; n];
    // Per function kept, in the new order: whether to search it.
    let mut search = Vec::with_capacity(n);
    let mut old = std::mem::take(&mut module.functions);
    for h in old.handles() {
        if reached[h.index()] {
            remap[h.index()] = Some(module.functions.append(std::mem::take(&mut old[h])));
            search.push(!quiet.get(h.index()).copied().unwrap_or(false));
        }
    }
    let map = |h: Handle<Function>| remap[h.index()].unwrap_or(h);
    for ((_, f), _) in module.functions.iter_mut().zip(&search).filter(|(_, s)| **s) {
        for (_, e) in f.expressions.iter_mut() {
            if let Expression::CallResult(c) = e {
                *c = map(*c);
            }
        }
        walk_statements_mut(&mut f.body, |s| {
            if let Statement::Call { function, .. } = s {
                *function = map(*function);
            }
        });
    }
    for ep in &mut module.entry_points {
        ep.function = map(ep.function);
        ep.patch_constant_function = ep.patch_constant_function.map(map);
    }
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::ir::build::{FunctionBuilder, add_global};
    use crate::ir::*;
    use crate::passes::test_util::run_main;
    use BinaryOperator::*;

    #[test]
    fn removes_unused_values_write_only_locals_and_dead_code() {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
        let mut fb = FunctionBuilder::new(&mut m, "unused_fn");
        fb.ret(None, None);
        fb.finish();
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let scratch = fb.local("scratch", f32t, true);
        let kept = fb.local("kept", f32t, false);
        let o = fb.global(out);
        let x = fb.load(o);
        let unused = fb.binary(Multiply, x, x);
        let w = fb.binary(Add, x, x);
        fb.store(scratch, w);
        fb.store(kept, x);
        let k = fb.load(kept);
        let c = fb.bool(true);
        fb.if_(c, |_| {}, |_| {});
        fb.store(o, k);
        fb.ret(None, None);
        let after = fb.binary(Subtract, x, x);
        fb.store(o, after);
        let f = fb.finish();
        let _ = unused;
        // (The empty `if` goes with its condition: the arena is rebuilt.)
        let text = run_main(&mut m, f, run);
        let expected = "\
global @out:float Private
entry \"main\" compute fn main numthreads(1, 1, 1)

fn main() {
    local $kept:float
    %2:float = load @out
    store $kept, %2
    %3:float = load $kept
    store @out, %3
    return
}
";
        assert_eq!(text, expected);
    }
}

#[cfg(test)]
mod init_tests {
    use super::run;
    use crate::ir::build::FunctionBuilder;
    use crate::ir::display::module_to_string;
    use crate::ir::*;
    use crate::passes::test_util::check_valid;

    /// A used local keeps its (unemitted) initialiser through the rebuild;
    /// an unused one goes, initialiser and all.
    #[test]
    fn local_initialisers_follow_their_locals() {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let v2 = m.vector_type(2, Scalar::F32);
        let mut fb = FunctionBuilder::new(&mut m, "f");
        let used = fb.local("used", v2, false);
        let _unused = fb.local("unused", v2, false);
        let one = fb
            .body
            .add_outside(Expression::Literal(Literal::f32(1.0)), f32t);
        let two = fb
            .body
            .add_outside(Expression::Literal(Literal::f32(2.0)), f32t);
        let init = |fb: &mut FunctionBuilder, a, b| {
            fb.body.add_outside(
                Expression::Compose {
                    ty: v2,
                    components: vec![a, b],
                },
                v2,
            )
        };
        let i0 = init(&mut fb, one, two);
        let i1 = init(&mut fb, two, one);
        let ls: Vec<_> = fb.body.function.local_variables.handles().collect();
        fb.body.function.local_variables[ls[0]].init = Some(i0);
        fb.body.function.local_variables[ls[1]].init = Some(i1);
        let v = fb.load(used);
        fb.ret(Some(v), Some(v2));
        fb.finish();
        check_valid(&m);
        run(&mut m);
        check_valid(&m);
        let text = module_to_string(&m);
        assert!(
            text.contains("local $used:float2 = compose(1.0f32, 2.0f32)"),
            "{text}"
        );
        assert!(!text.contains("unused"), "{text}");
        // const_fold and cse rebuild the arena too.
        crate::passes::cse::run(&mut m);
        check_valid(&m);
        crate::passes::const_fold::run(&mut m, &Default::default(), &mut Default::default());
        check_valid(&m);
        assert!(module_to_string(&m).contains("local $used:float2 = compose(1.0f32, 2.0f32)"));
    }
}
