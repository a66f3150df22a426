//! `forward`: store-to-load forwarding for local variables, at -O1 and
//! above.
//!
//! Sema gives every HLSL variable and parameter a local and reads it with a
//! `load`. Where the value a load reads is known — the last `store` into
//! that local on every path to the load, in the same block or a block
//! around it — the load is replaced by the stored value; a load through a
//! constant access chain (`s.pos.x`, `m[1]`) becomes an `access` of the
//! stored value. `dce` then removes the stores and locals nothing reads.
//!
//! Only *simple* locals are forwarded: their address never escapes (no
//! call argument, atomic or anything but `load`, access chains that are
//! loaded, and stores of the whole variable or of one member, component,
//! row or element at a constant index: `o.pos = …; o.uv = …;`). Nothing
//! else can write a simple local, so the walk needs no alias analysis. The
//! walk follows the structured body in order with a table of known values:
//! - a store sets the value (of the whole local, or of one of its parts;
//!   a load of the whole composes the parts when all are known);
//! - a nested block starts with the values known before it, and after it
//!   every local it stored is unknown;
//! - a loop first forgets every local stored anywhere in it (a load in the
//!   body may see the previous iteration's store);
//! - a local with a literal, constant or zero initialiser starts known;
//!   one without initialiser (of plain data) starts known as zero: it is
//!   undefined until stored, and zero is one of the values it may have;
//! - a load of a whole local that is not known makes its result known
//!   (later loads reuse it until the next store).
//!
//! First, statics that only an entry point's function uses become its
//! locals (`forward/private.rs`).
//!
//! Plain nested blocks (`{ … }`, and what `const_fold` leaves of an `if`
//! with a constant condition) are flattened into the block around them as
//! the walk meets them: a block is only a scope.
//!
//! A stored value is visible where it is forwarded to (the same block
//! after the store, or blocks nested in it), as the IR's scoping requires.
//!
//! Precise: the pass runs after `precise`, which already marked every
//! operation that contributes to a precise variable; forwarding replaces
//! only loads, never an operation, so those marks stay where they are and
//! nothing new is marked (a use of a precise variable is not precise).
//!
//! Forwarding makes constants visible (`float k = 2; x * k`): the walk
//! folds each expression it reaches with `const_fold`'s rules, and runs
//! `const_fold` again on a function only when an `if` condition became
//! constant (the branch goes). So `const_fold`, just before, leaves the
//! functions this walk folds as well to it (one rebuild instead of two);
//! a function with nothing to forward is then folded on its own. That
//! fold reports nothing: a constant division by zero reached only through
//! a variable is not an error at any level (`const_fold` folds, and
//! reports, every function where a divisor may fold to zero), so
//! diagnostics never depend on the optimisation level.
//!
//! The pass rebuilds expression arenas: handles change.

use super::algebra;
use super::const_fold::{self, FoldOptions};
use super::rewrite::{Cx, Emitted, Rewrite, Route, rebuild_function};
use crate::diag::Diagnostics;
use crate::ir::*;
use crate::span::Span;
use rustc_hash::FxHashMap;

mod constant;
mod layout;
mod private;
mod simple;
use layout::{BlockKind, Layout, stores_in};
use simple::{part_count, simple_locals};

/// Forwards stores to loads in every function, folding constants with
/// `fold`'s float environment; `folds[f]`: `const_fold` left function `f`
/// unfolded, to this pass.
pub fn run(module: &mut Module, fold: &FoldOptions, algebra: bool, folds: &[bool]) {
    // The statics nothing writes stay globals (only written ones become
    // locals): found first, they spare `privates_to_locals` its search of
    // each one's uses. Moving a static changes only what its own uses
    // read, but it may leave uses in functions no entry point reaches,
    // and it makes new locals: then the search is repeated.
    let (mut read_only, mut simple_of) = uses(module);
    if private::privates_to_locals(module, &read_only) {
        (read_only, simple_of) = uses(module);
    }
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    let any_read_only = read_only.iter().any(|r| *r);
    // What forwarding made constant is folded as it is reached; errors
    // were reported by the first fold.
    let mut silent = Diagnostics::new();
    for h in handles {
        // Forwarding a function changes no other: what the search found
        // of the others stays true.
        let simple = simple_of
            .get_mut(h.index())
            .map(std::mem::take)
            .unwrap_or_default();
        if !simple.iter().any(|s| *s) && !any_read_only {
            if folds.get(h.index()).copied().unwrap_or(false) {
                let folder = const_fold::Folder::new(fold, &mut silent);
                rebuild_function(module, h, &mut Simplifier { folder, algebra });
            } else if algebra {
                algebra::run_function(module, h);
                fold_constant_ifs(module, h, fold, &mut silent);
            }
            continue;
        }
        let f = &module.functions[h];
        let mut layout = Layout::default();
        // The function body is the first block.
        layout.kinds.push(BlockKind::Other);
        let mut stores = Vec::new();
        stores_in(&f.body, f, &simple, &mut layout, &mut stores, true);
        let locals = f.local_variables.len();
        let mut fw = Forward {
            simplifier: Simplifier {
                folder: const_fold::Folder::new(fold, &mut silent),
                algebra,
            },
            simple,
            layout,
            next_loop: 0,
            next_block: 0,
            known: vec![None; locals],
            // About an entry per store of a simple local, and as many
            // for the loads that make a value known.
            log: Vec::with_capacity(2 * stores.len() + locals),
            frames: Vec::new(),
            recorded: vec![0; locals],
            next_frame: 0,
            ifs: Vec::new(),
            loops: Vec::new(),
            read_only: read_only.clone(),
        };
        rebuild_function(module, h, &mut fw);
        fold_constant_ifs(module, h, fold, &mut silent);
    }
}

/// Per global, whether it is read-only with a constant initialiser; per
/// function, its simple locals (one search of each function for both).
fn uses(module: &Module) -> (Vec<bool>, Vec<Vec<bool>>) {
    let mut read_only = constant::read_only_candidates(module);
    let simple = module
        .functions
        .iter()
        .map(|(_, f)| simple_locals(&module.types, f, &mut read_only))
        .collect();
    (read_only, simple)
}

/// A condition that became constant: its `if` goes too.
fn fold_constant_ifs(
    module: &mut Module,
    h: Handle<Function>,
    fold: &FoldOptions,
    silent: &mut Diagnostics,
) {
    let mut constant_condition = false;
    let f = &module.functions[h];
    crate::ir::visit::walk_statements(&f.body, |s| {
        if let Statement::If { condition, .. } = s
            && matches!(f.expressions[*condition], Expression::Literal(_))
        {
            constant_condition = true;
        }
    });
    if constant_condition {
        const_fold::run_function(module, h, fold, silent);
    }
}

struct Frame {
    kind: BlockKind,
    /// Where this block's entries in `log` start.
    mark: usize,
    /// This frame's number (see [`Forward::recorded`]).
    serial: u32,
    /// Simple locals stored in this block or blocks nested in it (each
    /// once, unless a nested block added it again).
    stored: Vec<Handle<LocalVariable>>,
    /// Locals stored in the nested block just left, to forget before
    /// anything else happens here — unless an `else` block follows, which
    /// the `then` block's stores do not reach.
    pending: Vec<Handle<LocalVariable>>,
}

/// What a local, or a part of it, is known to hold (new-arena handles).
#[derive(Clone, Debug)]
enum Known {
    /// The value at `path` inside `base` (the value itself when `path` is
    /// empty); the accesses are emitted where the value is used.
    Value {
        base: Handle<Expression>,
        path: Vec<u32>,
    },
    /// Each part on its own (`None`: unknown).
    Parts(Vec<Option<Known>>),
}

impl Known {
    fn value(h: Handle<Expression>) -> Known {
        Known::Value {
            base: h,
            path: Vec::new(),
        }
    }
}

/// What becomes of each expression the walk reaches: folded if it can be
/// (forwarding makes constants), else simplified by `algebra`'s rules
/// (from -O2), else kept.
struct Simplifier<'f> {
    folder: const_fold::Folder<'f>,
    algebra: bool,
}

/// Alone (in a function with nothing to forward), the simplifier is
/// `const_fold` with `algebra`'s rules.
impl Rewrite for Simplifier<'_> {
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        Some(self.emit(cx, e.expr, e.ty, e.span))
    }

    fn constant_condition(&self, cx: &Cx, condition: Handle<Expression>) -> Option<bool> {
        self.folder.constant_condition(cx, condition)
    }
}

impl Simplifier<'_> {
    fn emit(
        &mut self,
        cx: &mut Cx,
        expr: Expression,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        if let Some(h) = self.folder.try_fold(cx, &expr, ty, span) {
            h
        } else if self.algebra {
            algebra::emit(cx, expr, ty, span)
        } else {
            cx.emit(expr, ty, span)
        }
    }
}

struct Forward<'f> {
    simplifier: Simplifier<'f>,
    simple: Vec<bool>,
    layout: Layout,
    next_loop: usize,
    next_block: usize,
    /// Per local: what it is known to hold.
    known: Vec<Option<Known>>,
    /// Undo log of `known`: (local, previous value).
    log: Vec<(Handle<LocalVariable>, Option<Known>)>,
    frames: Vec<Frame>,
    /// Per local: the serial of the last frame whose `stored` it joined
    /// (a store in the same block adds it once).
    recorded: Vec<u32>,
    /// The serial of the next frame (from 1: 0 is no frame).
    next_frame: u32,
    /// The `if`s being rebuilt, innermost last.
    ifs: Vec<IfState>,
    /// The loops being rebuilt, innermost last.
    loops: Vec<LoopState>,
    /// Per global: whether it is read-only with a constant initialiser.
    read_only: Vec<bool>,
}

/// A local and a value of it (`None`: not known, or the block does not
/// run to its end).
type Side = (Handle<LocalVariable>, Option<Handle<Expression>>);

/// A `Merge` to write after an `if`: the local, its `then` and `else`
/// values.
type PlannedMerge = (
    Handle<LocalVariable>,
    Option<Handle<Expression>>,
    Option<Handle<Expression>>,
);

/// What the blocks of an `if` left, for the `Merge`s after it.
#[derive(Default)]
struct IfState {
    /// Whether the `then` block runs to its end.
    accept_falls: bool,
    /// The locals it stored, with their values at its end.
    accept: Vec<Side>,
    /// What the `then` block stored (all simple locals).
    accept_stored: Vec<Handle<LocalVariable>>,
    /// The locals unknown after the `if`: those stored in a block that
    /// runs to its end (a block that leaves changes nothing after it).
    forget: Vec<Handle<LocalVariable>>,
    /// The `Merge`s to write after the `if`: local, then and else values.
    merges: Vec<PlannedMerge>,
}

/// A loop being rebuilt: its carried locals with their `Phi`s.
struct LoopState {
    info: usize,
    phis: Vec<(Handle<LocalVariable>, Handle<Expression>)>,
    /// The carried locals' values where the body ends, when that is the
    /// only way into `continuing` (no `continue`).
    body_end: FxHashMap<Handle<LocalVariable>, Handle<Expression>>,
}

/// Whether a value of type `ty` can be a phi: a scalar, vector or matrix.
fn phi_type(module: &Module, ty: Handle<Type>) -> bool {
    matches!(
        module.types[ty].inner,
        TypeInner::Scalar(_) | TypeInner::Vector { .. } | TypeInner::Matrix { .. }
    )
}

/// Whether a value of `ty` is plain data with a null constant (scalars,
/// vectors, matrices, and arrays of a known length and structs of them).
fn plain_data(module: &Module, ty: Handle<Type>) -> bool {
    match module.types[ty].inner {
        TypeInner::Scalar(_) | TypeInner::Vector { .. } | TypeInner::Matrix { .. } => true,
        TypeInner::Array {
            base,
            size: ArraySize::Constant(_),
            ..
        } => plain_data(module, base),
        TypeInner::Struct { ref members, .. } => members.iter().all(|m| plain_data(module, m.ty)),
        _ => false,
    }
}

/// The type of part `index` of a composite type.
fn part_type(module: &mut Module, ty: Handle<Type>, index: u32) -> Option<Handle<Type>> {
    Some(match module.types[ty].inner {
        TypeInner::Vector { scalar, .. } => module.scalar_type(scalar),
        // A row of an Nx1 matrix is a scalar.
        TypeInner::Matrix {
            columns: 1, scalar, ..
        } => module.scalar_type(scalar),
        TypeInner::Matrix {
            columns, scalar, ..
        } => module.ty(TypeInner::Vector {
            size: columns,
            scalar,
        }),
        TypeInner::Struct { ref members, .. } => members.get(index as usize)?.ty,
        TypeInner::Array { base, .. } => base,
        _ => return None,
    })
}

/// `known` (of type `ty`) with the part at `path` replaced by `v`; `None`
/// when the path does not fit the type.
fn store_at(
    module: &mut Module,
    known: Option<Known>,
    ty: Handle<Type>,
    path: &[u32],
    v: Known,
) -> Option<Known> {
    let Some((&i, rest)) = path.split_first() else {
        return Some(v);
    };
    let n = part_count(&module.types, ty)?;
    let mut parts: Vec<Option<Known>> = match known {
        None => vec![None; n],
        Some(Known::Parts(p)) => p,
        Some(Known::Value { base, path }) => (0..n as u32)
            .map(|k| {
                let mut p = path.clone();
                p.push(k);
                Some(Known::Value { base, path: p })
            })
            .collect(),
    };
    let part_ty = part_type(module, ty, i)?;
    let slot = parts.get_mut(i as usize)?;
    *slot = Some(store_at(module, slot.take(), part_ty, rest, v)?);
    Some(Known::Parts(parts))
}

/// Emits the value of `known` (of type `ty`) at `path`; `None` when a
/// part it needs is unknown.
fn load_at(
    cx: &mut Cx,
    simplifier: &mut Simplifier,
    known: &Known,
    ty: Handle<Type>,
    path: &[u32],
    span: Span,
) -> Option<Handle<Expression>> {
    match known {
        Known::Value { base, path: inner } => {
            let mut value = *base;
            // The type of `base` walks down `inner`, then `path`.
            let mut t = cx.ty(value);
            for &index in inner.iter().chain(path) {
                t = part_type(cx.module, t, index)?;
                value = simplifier.emit(cx, Expression::AccessIndex { base: value, index }, t, span);
            }
            Some(value)
        }
        Known::Parts(parts) => match path.split_first() {
            Some((&i, rest)) => {
                let part_ty = part_type(cx.module, ty, i)?;
                load_at(cx, simplifier, parts.get(i as usize)?.as_ref()?, part_ty, rest, span)
            }
            None => {
                let mut components = Vec::with_capacity(parts.len());
                for (k, part) in parts.iter().enumerate() {
                    let part_ty = part_type(cx.module, ty, k as u32)?;
                    components.push(load_at(cx, simplifier, part.as_ref()?, part_ty, &[], span)?);
                }
                Some(simplifier.emit(cx, Expression::Compose { ty, components }, ty, span))
            }
        },
    }
}

impl Forward<'_> {
    fn is_simple(&self, l: Handle<LocalVariable>) -> bool {
        self.simple.get(l.index()).copied().unwrap_or(false)
    }
    fn known(&self, l: Handle<LocalVariable>) -> Option<&Known> {
        self.known.get(l.index())?.as_ref()
    }
    fn set(&mut self, l: Handle<LocalVariable>, v: Known) {
        if l.index() >= self.known.len() {
            self.known.resize(l.index() + 1, None);
        }
        let prev = self.known.get_mut(l.index()).and_then(|k| k.replace(v));
        self.log.push((l, prev));
    }
    fn forget(&mut self, l: Handle<LocalVariable>) {
        if let Some(prev) = self.known.get_mut(l.index()).and_then(Option::take) {
            self.log.push((l, Some(prev)));
        }
    }
    /// Records that the current block stored `l`.
    fn stored(&mut self, l: Handle<LocalVariable>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        if l.index() >= self.recorded.len() {
            self.recorded.resize(l.index() + 1, 0);
        }
        if let Some(r) = self.recorded.get_mut(l.index())
            && *r != f.serial
        {
            *r = f.serial;
            f.stored.push(l);
        }
    }
    /// Forgets what the nested blocks just left stored. Called for every
    /// expression and statement: inlined, with the work out of line.
    #[inline]
    fn settle(&mut self) {
        if self.frames.last().is_some_and(|f| !f.pending.is_empty()) {
            self.forget_pending();
        }
    }
    fn forget_pending(&mut self) {
        let pending = match self.frames.last_mut() {
            Some(f) => std::mem::take(&mut f.pending),
            None => return,
        };
        for l in pending {
            self.forget(l);
        }
    }

    /// The local and constant path of a pointer in the new arena.
    fn path_of(
        &self,
        cx: &Cx,
        pointer: Handle<Expression>,
    ) -> Option<(Handle<LocalVariable>, Vec<u32>)> {
        let mut path = Vec::new();
        let mut p = pointer;
        loop {
            match *cx.expr(p) {
                Expression::AccessIndex { base, index } => {
                    path.push(index);
                    p = base;
                }
                Expression::LocalVariable(l) if self.is_simple(l) => {
                    path.reverse();
                    return Some((l, path));
                }
                _ => return None,
            }
        }
    }

    /// The whole value `l` is known to hold here, emitted here if it must
    /// be composed.
    fn value_now(&mut self, cx: &mut Cx, l: Handle<LocalVariable>) -> Option<Handle<Expression>> {
        let known = self.known(l)?.clone();
        let ty = cx.body.function.local_variables[l].ty;
        load_at(cx, &mut self.simplifier, &known, ty, &[], Span::default())
    }

    /// The value `l` holds here: the known one, else a load of it (which
    /// later loads reuse).
    fn value_or_load(&mut self, cx: &mut Cx, l: Handle<LocalVariable>) -> Handle<Expression> {
        if let Some(v) = self.value_now(cx, l) {
            return v;
        }
        let ty = cx.body.function.local_variables[l].ty;
        let pty = cx.module.ty(TypeInner::Pointer {
            base: ty,
            space: AddressSpace::Function,
        });
        let pointer = cx.emit(Expression::LocalVariable(l), pty, Span::default());
        let load = cx.emit(Expression::Load { pointer }, ty, Span::default());
        self.set(l, Known::value(load));
        load
    }

    fn is_phi_local(&self, cx: &Cx, l: Handle<LocalVariable>) -> bool {
        phi_type(cx.module, cx.body.function.local_variables[l].ty)
    }

    /// Where the `then` block ends: its stored locals' values.
    fn leave_then(&mut self, cx: &mut Cx, stored: &[Handle<LocalVariable>]) {
        let falls = !cx.body.terminated();
        let mut accept = Vec::new();
        for &l in stored {
            if self.is_phi_local(cx, l) {
                let v = if falls { self.value_now(cx, l) } else { None };
                accept.push((l, v));
            }
        }
        if let Some(s) = self.ifs.last_mut() {
            s.accept_falls = falls;
            s.accept = accept;
            s.accept_stored = stored.to_vec();
        }
    }

    /// Where the `else` block ends (before its changes are undone): the
    /// values of the locals either block stored.
    fn leave_else(&mut self, cx: &mut Cx, stored: &[Handle<LocalVariable>]) -> Vec<Side> {
        let falls = !cx.body.terminated();
        let Some(state) = self.ifs.last() else {
            return Vec::new();
        };
        let mut locals: Vec<_> = state.accept.iter().map(|&(l, _)| l).collect();
        for &l in stored {
            if !locals.contains(&l) && self.is_phi_local(cx, l) {
                locals.push(l);
            }
        }
        locals
            .into_iter()
            .map(|l| (l, if falls { self.value_now(cx, l) } else { None }))
            .collect()
    }

    /// After the `else` block's changes are undone (the state before the
    /// `if`): the `Merge`s of the locals with a value on each side that
    /// runs to its end.
    fn plan_merges(
        &mut self,
        else_falls: bool,
        reject: Vec<Side>,
        reject_stored: &[Handle<LocalVariable>],
    ) {
        let Some(state) = self.ifs.last_mut() else {
            return;
        };
        let mut forget = Vec::new();
        if state.accept_falls {
            forget.extend_from_slice(&state.accept_stored);
        }
        if else_falls {
            forget.extend_from_slice(reject_stored);
        }
        state.forget = forget;
        let mut merges = Vec::new();
        for (l, r) in reject {
            let a = match state.accept.iter().find(|&&(x, _)| x == l) {
                Some(&(_, a)) => a,
                // Not stored in `then`: the value before the `if`, when
                // it is one already (nothing to emit).
                None => match self.known.get(l.index()).and_then(Option::as_ref) {
                    Some(Known::Value { base, path }) if path.is_empty() => Some(*base),
                    _ => None,
                },
            };
            let accept_ok = !state.accept_falls || a.is_some();
            let reject_ok = !else_falls || r.is_some();
            if accept_ok && reject_ok && (state.accept_falls || else_falls) {
                merges.push((
                    l,
                    a.filter(|_| state.accept_falls),
                    r.filter(|_| else_falls),
                ));
            }
        }
        state.merges = merges;
    }

    /// Where `continuing` ends: the latch of each carried local.
    fn leave_continuing(&mut self, cx: &mut Cx, stored: &[Handle<LocalVariable>]) {
        let Some(state) = self.loops.pop() else {
            return;
        };
        for &(l, phi) in &state.phis {
            let latch = match self.value_now(cx, l) {
                Some(v) => v,
                None => match state.body_end.get(&l) {
                    Some(&v) if !stored.contains(&l) => v,
                    _ => self.value_or_load(cx, l),
                },
            };
            cx.set_latch(phi, latch);
        }
        self.loops.push(state);
    }

    /// Records that the memory at `path` in `l` holds `v`.
    fn remember(
        &mut self,
        cx: &mut Cx,
        l: Handle<LocalVariable>,
        path: &[u32],
        v: Handle<Expression>,
    ) {
        let ty = cx.body.function.local_variables[l].ty;
        let old = self.known(l).cloned();
        match store_at(cx.module, old, ty, path, Known::value(v)) {
            Some(k) => self.set(l, k),
            None => self.forget(l),
        }
    }
}

impl Rewrite for Forward<'_> {
    const APPENDS_FIRST: bool = true;
    /// A nested `{ … }` is only a scope: its statements stand in the
    /// block around it, where what they store stays known.
    const FLATTENS_BLOCKS: bool = true;

    /// What folding and `algebra` leave alone is appended as it is.
    fn route(&self, cx: &Cx, _old: Handle<Expression>, e: &Expression) -> Route {
        if algebra::leaves_alone(cx, e) {
            Route::Append
        } else {
            Route::Hook
        }
    }

    fn appended(
        &mut self,
        _cx: &mut Cx,
        _old: Handle<Expression>,
        new: Handle<Expression>,
    ) -> Option<Handle<Expression>> {
        self.settle();
        Some(new)
    }

    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        self.settle();
        let Expression::Load { pointer } = e.expr else {
            // Its operands may have become constants.
            return Some(self.simplifier.emit(cx, e.expr, e.ty, e.span));
        };
        if let Some(v) = constant::constant_load(cx, &self.read_only, pointer, e.ty) {
            return Some(v);
        }
        let Some((l, path)) = self.path_of(cx, pointer) else {
            return Some(cx.keep(e));
        };
        let local_ty = cx.body.function.local_variables[l].ty;
        if let Some(known) = self.known(l).cloned()
            && let Some(v) = load_at(cx, &mut self.simplifier, &known, local_ty, &path, e.span)
        {
            // A whole value composed from parts: later loads reuse it.
            if path.is_empty() && matches!(known, Known::Parts(_)) {
                self.set(l, Known::value(v));
            }
            return Some(v);
        }
        let load = cx.keep(e);
        // Until the next store, later loads there read this value.
        self.remember(cx, l, &path, load);
        Some(load)
    }

    fn statement(&mut self, cx: &mut Cx, s: Statement) {
        self.settle();
        if let Statement::Store { pointer, value } = s
            && let Some((l, path)) = self.path_of(cx, pointer)
        {
            self.remember(cx, l, &path, value);
            self.stored(l);
        }
        cx.push(s);
    }

    fn enter_block(&mut self, cx: &mut Cx) {
        let kind = self
            .layout
            .kinds
            .get(self.next_block)
            .copied()
            .unwrap_or(BlockKind::Other);
        self.next_block += 1;
        if kind != BlockKind::Else {
            self.settle();
        }
        if kind == BlockKind::Then {
            self.ifs.push(IfState::default());
        }
        if self.frames.is_empty() {
            // The function body: locals with a trivial initialiser start
            // with its value.
            let inits: Vec<_> = cx
                .body
                .function
                .local_variables
                .iter()
                .filter(|(l, _)| self.is_simple(*l))
                .filter_map(|(l, v)| v.init.map(|i| (l, i)))
                .filter(|&(_, i)| {
                    matches!(
                        cx.body.function.expressions[i],
                        Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_)
                    )
                })
                .collect();
            for (l, i) in inits {
                self.set(l, Known::value(i));
            }
            // A local without initialiser is undefined until stored: a
            // read before any store may give any value, zero as well
            // (spirv-opt makes it an OpUndef). Only for plain data, which
            // has a null constant.
            let undefined: Vec<_> = cx
                .body
                .function
                .local_variables
                .iter()
                .filter(|&(l, v)| {
                    v.init.is_none() && self.is_simple(l) && plain_data(cx.module, v.ty)
                })
                .map(|(l, v)| (l, v.ty))
                .collect();
            for (l, ty) in undefined {
                let zero = match cx.module.types[ty].inner {
                    TypeInner::Scalar(s) if let Some(z) = Literal::zero(s) => cx.literal(z),
                    _ => cx.emit(Expression::ZeroValue(ty), ty, Span::default()),
                };
                self.set(l, Known::value(zero));
            }
        }
        self.next_frame += 1;
        self.frames.push(Frame {
            kind,
            serial: self.next_frame,
            mark: self.log.len(),
            stored: Vec::new(),
            pending: Vec::new(),
        });
    }

    fn leave_block(&mut self, cx: &mut Cx) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let mut stored = frame.stored;
        stored.sort_unstable_by_key(|l| l.index());
        stored.dedup();
        let mut reject = None;
        match frame.kind {
            BlockKind::Then => self.leave_then(cx, &stored),
            BlockKind::Else => reject = Some(self.leave_else(cx, &stored)),
            BlockKind::LoopBody => {
                let no_continue = self
                    .loops
                    .last()
                    .is_some_and(|s| !self.layout.loops[s.info].has_continue);
                if no_continue && !cx.body.terminated() {
                    let phis = self.loops.last().map(|s| s.phis.clone()).unwrap_or_default();
                    for (l, _) in phis {
                        if let Some(v) = self.value_now(cx, l)
                            && let Some(s) = self.loops.last_mut()
                        {
                            s.body_end.insert(l, v);
                        }
                    }
                }
            }
            BlockKind::Continuing => self.leave_continuing(cx, &stored),
            BlockKind::Other => {}
        }
        while self.log.len() > frame.mark {
            if let Some((l, prev)) = self.log.pop()
                && let Some(k) = self.known.get_mut(l.index())
            {
                *k = prev;
            }
        }
        if let Some(reject) = reject {
            self.plan_merges(!cx.body.terminated(), reject, &stored);
        }
        // After the block, what it stored is not known in general (it may
        // not have run, or stopped early).
        if let Some(parent) = self.frames.last_mut() {
            parent.pending.extend(stored.iter().copied());
            // The parent may hold some already: it sorts them out when
            // it ends.
            for &l in &stored {
                if let Some(r) = self.recorded.get_mut(l.index()) {
                    *r = parent.serial;
                }
            }
            parent.stored.extend(stored);
        }
    }

    fn enter_loop(&mut self, cx: &mut Cx) {
        self.settle();
        let info = self.next_loop;
        self.next_loop += 1;
        let stored = self
            .layout
            .loops
            .get(info)
            .map(|i| i.stored.clone())
            .unwrap_or_default();
        // A local the loop stores is carried around it by a phi: its
        // value before the loop, then its value where `continuing` ends.
        let mut phis = Vec::new();
        for l in stored {
            if !self.is_phi_local(cx, l) {
                self.forget(l);
                continue;
            }
            let init = self.value_or_load(cx, l);
            let ty = cx.body.function.local_variables[l].ty;
            let phi = cx.emit(Expression::Phi, ty, Span::default());
            cx.push(Statement::Carry {
                result: phi,
                init,
                latch: phi,
            });
            self.set(l, Known::value(phi));
            phis.push((l, phi));
        }
        self.loops.push(LoopState {
            info,
            phis,
            body_end: FxHashMap::default(),
        });
    }

    fn after_loop(&mut self, _cx: &mut Cx) {
        let Some(state) = self.loops.pop() else {
            return;
        };
        // What the loop stored is unknown after it, unless every way out
        // is at the top of the body, where each local holds its phi.
        self.settle();
        if self.layout.loops.get(state.info).is_some_and(|i| i.exits_at_top) {
            for (l, phi) in state.phis {
                self.set(l, Known::value(phi));
            }
        }
    }

    fn after_if(&mut self, cx: &mut Cx) {
        let Some(state) = self.ifs.pop() else {
            return;
        };
        // What only a block that leaves stored is as before the `if`.
        if let Some(f) = self.frames.last_mut() {
            f.pending.retain(|l| state.forget.contains(l));
        }
        self.settle();
        for (l, accept, reject) in state.merges {
            let ty = cx.body.function.local_variables[l].ty;
            let phi = cx.emit(Expression::Phi, ty, Span::default());
            cx.push(Statement::Merge {
                result: phi,
                accept,
                reject,
            });
            self.set(l, Known::value(phi));
        }
    }
}

#[cfg(test)]
mod tests;
