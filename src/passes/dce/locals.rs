//! What matters in a function: which locals are read and which control
//! statements (`if`, `switch`, loop) must stay.
//!
//! A store into a local is live only once that local is read: a local
//! whose loads only feed stores into locals nobody reads (`val = val *
//! 10;` with `val` never used otherwise) is write-only, its stores dead.
//!
//! A control statement is live only when it decides something that
//! matters: when a live statement stands in it (an effect, a `return` or
//! `discard`, a store into a read local, a used `Merge` or `Carry`), when
//! a value flows out of it (a used `Merge` after an `if`, a used `Carry`
//! before a loop), or when it holds a `break` or `continue` of a live
//! construct around it. Only then are its condition and the constructs
//! around it live. A loop, `if` or `switch` that only computes what
//! nobody uses goes as a whole (spirv-opt's aggressive dead code
//! elimination does the same).

use super::{local_root, pinned};
use crate::ir::*;

/// What [`usage`] finds.
pub(super) struct Usage {
    /// Per local: whether anything that matters reads it (or it is
    /// pinned).
    pub read: Vec<bool>,
    /// Per control statement, in the order of [`Statement::blocks`]
    /// walked depth first (a statement before the ones nested in it):
    /// whether it must stay.
    pub constructs: Vec<bool>,
    /// Per expression: whether it matters (a call of a pure function
    /// whose result does not goes).
    pub live: Vec<bool>,
    /// Whether a store into a local nothing reads, or a call of a pure
    /// function whose result nothing uses, stands in the body: the
    /// statements `remove_write_only_stores` drops.
    pub dead_stores: bool,
    /// The results of the subgroup, node and SPIR-V statements, which
    /// `liveness` counts as used whatever reads them.
    results: Vec<Handle<Expression>>,
    /// Whether `live` and `results` are what `liveness` finds once the
    /// dead stores, calls and constructs are gone (see
    /// [`Usage::liveness`]).
    exact: bool,
    /// Whether a debug variable stands in the body.
    debug_variables: bool,
}

/// What `dce::dead_code` needs to know, as [`Usage::liveness`] tells it.
pub(super) struct Known {
    /// What `dce::liveness` finds.
    pub live: Vec<bool>,
    /// Per local: whether an expression live there refers to it.
    pub local_live: Vec<bool>,
    /// Whether a debug variable stands in the body (none is added where
    /// there was none).
    pub debug_variables: bool,
}

impl Usage {
    /// Whether `remove_write_only_stores` drops anything: a dead store or
    /// call, or a control statement not live.
    pub fn to_remove(&self) -> bool {
        self.dead_stores || self.constructs.contains(&false)
    }

    /// What `dce::liveness` finds in the function once
    /// `remove_write_only_stores` has dropped what this found dead, or
    /// `None` where it may differ. What stays is exactly what `liveness`
    /// takes as used: every statement that makes an operand live here
    /// (an effect, a store into a read local, the condition of a live
    /// construct, a live result's call or phi) stays, and every one that
    /// stays makes its operands live here, but for the results of
    /// subgroup, node and SPIR-V statements (added). It may differ when
    /// a local is pinned (its stores stay but do not make their values
    /// live here), or when a phi is not where its construct is (a `Merge`
    /// not after an `if`, a `Carry` not before a loop) or shares its
    /// result with another phi or call: then the caller walks again.
    /// With no local pinned, a local is read here exactly when a live
    /// expression refers to it: the results added are no such reference.
    pub fn liveness(self, f: &Function) -> Option<Known> {
        if !self.exact {
            return None;
        }
        let mut live = self.live;
        for r in self.results {
            // Statement results have no operands: nothing to propagate.
            if !f.expressions.get(r)?.is_statement_result() {
                return None;
            }
            *live.get_mut(r.index())? = true;
        }
        Some(Known {
            live,
            local_live: self.read,
            debug_variables: self.debug_variables,
        })
    }
}

/// A control statement: what it tests and what it stands in.
struct Construct {
    parent: Option<usize>,
    /// The condition, selector or `break_if`.
    condition: Option<Handle<Expression>>,
    /// The constructs between a `break` or `continue` of this one and it:
    /// live when this one is.
    exits: Vec<usize>,
    /// Whether this is a loop (the target of `continue`) or a `switch`
    /// (with loops, the target of `break`).
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    If,
    Switch,
    Loop,
}

/// The construct a statement stands in (`None`: the function's body).
type Within = Option<usize>;

/// An operand of a statement, with the construct the statement stands in.
type Operand = (Handle<Expression>, Within);

/// The facts gathered by one walk of the body.
struct Walk<'f> {
    f: &'f Function,
    constructs: Vec<Construct>,
    /// Per local: the operands and construct of each store into it, live
    /// once it is read.
    deferred: Vec<Vec<Operand>>,
    /// What becomes live with a result: the operands of a phi and the
    /// construct it comes out of, or the arguments and construct of a
    /// call of a pure function.
    waiting: Vec<(Vec<Handle<Expression>>, Within)>,
    /// Per expression, its entry in `waiting` plus one (0: none). Most
    /// functions have neither phis nor such calls: empty until one comes.
    waiting_at: Vec<u32>,
    /// Per function: whether a call of it has no effect but its result.
    pure: &'f [bool],
    /// The result of each call of a pure function (`None`: it has none).
    pure_results: Vec<Option<Handle<Expression>>>,
    /// Expressions and constructs live from the start.
    roots: Vec<Handle<Expression>>,
    root_constructs: Vec<usize>,
    /// The constructs around the statement being walked, innermost last.
    stack: Vec<usize>,
    /// See [`Usage::results`], [`Usage::exact`] and
    /// [`Usage::debug_variables`].
    results: Vec<Handle<Expression>>,
    exact: bool,
    debug_variables: bool,
}

/// Which locals are read and which control statements stay: one worklist
/// pass over the expressions and constructs, linear in the function.
/// `pure` says which functions' calls matter only for their result.
pub(super) fn usage(f: &Function, pure: &[bool]) -> Usage {
    let mut w = Walk {
        f,
        pure,
        pure_results: Vec::new(),
        constructs: Vec::new(),
        deferred: vec![Vec::new(); f.local_variables.len()],
        waiting: Vec::new(),
        waiting_at: Vec::new(),
        roots: Vec::new(),
        root_constructs: Vec::new(),
        stack: Vec::new(),
        results: Vec::new(),
        exact: true,
        debug_variables: false,
    };
    w.block(&f.body);
    let mut read: Vec<bool> = f.local_variables.iter().map(|(_, l)| pinned(l)).collect();
    w.exact &= !read.contains(&true);
    let mut live = vec![false; f.expressions.len()];
    let mut live_constructs = vec![false; w.constructs.len()];
    let mut exprs = std::mem::take(&mut w.roots);
    let mut constructs = std::mem::take(&mut w.root_constructs);
    loop {
        if let Some(c) = constructs.pop() {
            if std::mem::replace(&mut live_constructs[c], true) {
                continue;
            }
            let k = &w.constructs[c];
            exprs.extend(k.condition);
            constructs.extend(k.parent);
            constructs.extend(k.exits.iter().copied());
            continue;
        }
        let Some(h) = exprs.pop() else { break };
        if std::mem::replace(&mut live[h.index()], true) {
            continue;
        }
        let e = &f.expressions[h];
        if let Expression::LocalVariable(l) = *e
            && !read[l.index()]
        {
            read[l.index()] = true;
            let stores = w.deferred.get_mut(l.index()).map(std::mem::take);
            for (o, c) in stores.unwrap_or_default() {
                exprs.push(o);
                constructs.extend(c);
            }
        }
        e.for_each_operand(|o| exprs.push(o));
        // Each expression comes here once (`live` above): its entry can
        // be taken.
        if let Some(&at) = w.waiting_at.get(h.index())
            && let Some((ops, c)) = w.waiting.get_mut((at as usize).wrapping_sub(1))
        {
            exprs.append(ops);
            constructs.extend(*c);
        }
    }
    // A local still holding stores was never read: they are dead.
    let unread_stored = w
        .deferred
        .iter()
        .zip(&read)
        .any(|(stores, &r)| !r && !stores.is_empty());
    let unused_pure = w
        .pure_results
        .iter()
        .any(|r| !r.is_some_and(|r| live.get(r.index()).copied().unwrap_or(false)));
    Usage {
        read,
        constructs: live_constructs,
        live,
        dead_stores: unread_stored || unused_pure,
        results: w.results,
        exact: w.exact,
        debug_variables: w.debug_variables,
    }
}

impl Walk<'_> {
    fn block(&mut self, block: &[Statement]) {
        // The construct the next `Merge`s come out of (the `if` just
        // walked), and the `Carry`s waiting for their loop.
        let mut last_if = None;
        let mut carries: Vec<(Handle<Expression>, Vec<Handle<Expression>>)> = Vec::new();
        for s in block {
            match s {
                Statement::Debug(DebugInfo::Variable { .. }) => {
                    self.debug_variables = true;
                    continue;
                }
                Statement::Emit(_) | Statement::Debug(_) => continue,
                Statement::Merge { result, .. } => {
                    let mut ops = Vec::new();
                    s.for_each_operand(|o| ops.push(o));
                    match last_if {
                        Some(c) => self.wait(*result, ops, Some(c)),
                        None => self.exact = false,
                    }
                    continue;
                }
                Statement::Carry { result, .. } => {
                    let mut ops = Vec::new();
                    s.for_each_operand(|o| ops.push(o));
                    carries.push((*result, ops));
                    continue;
                }
                _ => {}
            }
            last_if = None;
            let here = self.stack.last().copied();
            match s {
                Statement::Block(b) => self.block(b),
                Statement::If {
                    condition,
                    accept,
                    reject,
                    ..
                } => {
                    let c = self.open(Kind::If, Some(*condition));
                    self.block(accept);
                    self.block(reject);
                    self.stack.pop();
                    last_if = Some(c);
                }
                Statement::Switch { selector, cases } => {
                    self.open(Kind::Switch, Some(*selector));
                    for case in cases {
                        self.block(&case.body);
                    }
                    self.stack.pop();
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                    ..
                } => {
                    let c = self.open(Kind::Loop, *break_if);
                    for (result, ops) in carries.drain(..) {
                        self.wait(result, ops, Some(c));
                    }
                    self.block(body);
                    self.block(continuing);
                    self.stack.pop();
                }
                Statement::Break => self.exit(&[Kind::Loop, Kind::Switch]),
                Statement::Continue => self.exit(&[Kind::Loop]),
                &Statement::Store { pointer, value } => {
                    let local = local_root(self.f, pointer);
                    match local.and_then(|l| self.deferred.get_mut(l.index())) {
                        Some(stores) => stores.extend([(pointer, here), (value, here)]),
                        None => self.root(s),
                    }
                }
                Statement::Call {
                    function,
                    arguments,
                    result,
                } if self.pure.get(function.index()).copied().unwrap_or(false) => {
                    self.pure_results.push(*result);
                    if let Some(r) = result {
                        self.wait(*r, arguments.clone(), here);
                    }
                }
                other => self.root(other),
            }
            // A `Carry` not before a loop waits for nothing here.
            self.exact &= carries.is_empty();
            carries.clear();
        }
        self.exact &= carries.is_empty();
    }

    /// Makes `ops` and the construct `within` live when `result` is (a
    /// later entry for one result replaces an earlier one).
    fn wait(&mut self, result: Handle<Expression>, ops: Vec<Handle<Expression>>, within: Within) {
        if self.waiting_at.is_empty() {
            self.waiting_at = vec![0; self.f.expressions.len()];
        }
        match self.waiting_at.get_mut(result.index()) {
            Some(at) => {
                self.exact &= *at == 0;
                self.waiting.push((ops, within));
                *at = self.waiting.len() as u32;
            }
            None => self.exact = false,
        }
    }

    /// Opens a construct inside the current one.
    fn open(&mut self, kind: Kind, condition: Option<Handle<Expression>>) -> usize {
        let c = self.constructs.len();
        self.constructs.push(Construct {
            parent: self.stack.last().copied(),
            condition,
            exits: Vec::new(),
            kind,
        });
        self.stack.push(c);
        c
    }

    /// A `break` or `continue` out to the innermost construct of `kinds`.
    fn exit(&mut self, kinds: &[Kind]) {
        let Some(pos) = self
            .stack
            .iter()
            .rposition(|&c| kinds.contains(&self.constructs[c].kind))
        else {
            return;
        };
        let target = self.stack[pos];
        let inner = self.stack[pos + 1..].to_vec();
        self.constructs[target].exits.extend(inner);
    }

    /// A statement that matters whatever else does.
    fn root(&mut self, s: &Statement) {
        s.for_each_operand(|o| self.roots.push(o));
        match *s {
            Statement::Subgroup { result, .. }
            | Statement::Node {
                result: Some(result),
                ..
            }
            | Statement::Spirv {
                result: Some(result),
                ..
            } => self.results.push(result),
            _ => {}
        }
        self.root_constructs.extend(self.stack.last().copied());
    }
}

#[cfg(test)]
mod tests {
    use super::super::{local_root, pure_functions};
    use super::usage;
    use crate::ir::build::{FunctionBuilder, add_global};
    use crate::ir::visit::walk_statements;
    use crate::ir::*;

    /// `dead_stores` against a walk of every statement for the stores
    /// and calls that `remove_write_only_stores` drops.
    fn check(m: &Module, f: Handle<Function>) -> bool {
        let pure = pure_functions(m);
        let func = &m.functions[f];
        let u = usage(func, &pure);
        let mut walked = false;
        walk_statements(&func.body, |s| {
            walked |= match *s {
                Statement::Store { pointer, .. } => {
                    local_root(func, pointer).is_some_and(|l| !u.read[l.index()])
                }
                Statement::Call {
                    function, result, ..
                } => pure[function.index()] && !result.is_some_and(|r| u.live[r.index()]),
                _ => false,
            }
        });
        assert_eq!(u.dead_stores, walked);
        walked
    }

    /// Stores into a local read or not (pinned or not, in a branch or
    /// not), and calls of a pure function whose result is used, unused
    /// or absent: `dead_stores` finds what the walk finds.
    #[test]
    fn dead_stores_are_the_ones_a_walk_finds() {
        // 0: store read; 1: store unread; 2: unread but pinned; 3: pure
        // call used; 4: pure call unused; 5: pure call without result;
        // 6: unread store in a branch.
        for case in 0..7 {
            let mut m = Module::default();
            let f32t = m.scalar_type(Scalar::F32);
            let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
            let mut fb = FunctionBuilder::new(&mut m, "value");
            let one = fb.f32(1.0);
            fb.ret(Some(one), Some(f32t));
            let value = fb.finish();
            let mut fb = FunctionBuilder::new(&mut m, "nothing");
            fb.ret(None, None);
            let nothing = fb.finish();
            let mut fb = FunctionBuilder::new(&mut m, "main");
            let l = fb.local("l", f32t, false);
            let o = fb.global(out);
            let x = fb.load(o);
            match case {
                0 => {
                    fb.store(l, x);
                    let y = fb.load(l);
                    fb.store(o, y);
                }
                1 | 2 => fb.store(l, x),
                3 => {
                    let r = fb.call(value, &[]).expect("a result");
                    fb.store(o, r);
                }
                4 => {
                    fb.call(value, &[]);
                }
                5 => {
                    fb.call(nothing, &[]);
                }
                _ => {
                    let c = fb.bool(true);
                    fb.if_(c, |fb| fb.store(l, x), |_| {});
                    fb.store(o, x);
                }
            }
            let f = fb.finish();
            if case == 2 {
                let local = m.functions[f].local_variables.handles().next().expect("l");
                m.functions[f].local_variables[local].spirv_decorations.push(SpirvDecoration {
                    decoration: 0,
                    operands: SpirvDecorationOperands::Literals(Vec::new()),
                });
            }
            let dead = check(&m, f);
            assert_eq!(dead, matches!(case, 1 | 4 | 5 | 6), "case {case}");
        }
    }
}
