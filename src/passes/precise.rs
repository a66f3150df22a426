//! `precise`: marks every floating-point operation that contributes to a
//! value stored into something declared `precise`.
//!
//! Roots (the values whose computation must be precise):
//! - a `Store` into a precise local or global (a `precise` stage output is
//!   a precise `Output` global), into a precise struct member (the access
//!   chain selects a member declared `precise`), or through a precise
//!   argument pointer (`precise out` parameter);
//! - a `Store` of a whole struct (or array of structs) whose type has
//!   precise members: only the parts that land in precise members, when the
//!   value is a `Compose`; the whole value otherwise;
//! - the values returned by a function whose `FunctionResult::precise` is
//!   set.
//!
//! From a root the pass walks the data dependences backwards and sets
//! `precise` on each float `Binary` arithmetic operation (`add sub mul div
//! mod matmul`), float `Negate`, `Math` function and value conversion to
//! float it reaches. It walks through `Compose`, `Swizzle`, `Access`,
//! `Select` (condition included: it chooses the value) and every other
//! operand, and through memory flow-insensitively but field by field: a
//! `Load` of a local (or of a `Private`/`Workgroup` global) reaches every
//! value stored anywhere (in any function, for globals) into the part of
//! that variable it reads — stores into other members or elements at
//! constant indices do not contribute, and of a whole composite stored as a
//! `Compose` only the part read does. Loads from inputs,
//! buffers and other memory written outside the shader end the walk. Only
//! reached expressions are marked: an identical twin that feeds nothing
//! precise stays fast.
//!
//! Calls: when a call's result, or what it writes through an `out`
//! argument, reaches a precise value, the callee gets a *precise
//! specialisation* — a copy with `result.precise` (or that argument's
//! `precise`) set, whose own slice is marked — and the call is redirected
//! to it. When only a member of a struct result reaches a precise value
//! (an entry point's output struct with one precise member), the copy
//! walks only that member of what it returns. Specialisations are cached
//! by (callee, result parts, arguments). When a
//! callee's slice reaches one of its arguments, the argument values at its
//! call sites are walked too (for a pointer argument, the stores into the
//! variable passed). DXC does not cross calls at all (its issue 8423).
//! Sema rejects recursion; the walk uses an explicit worklist, so deep call
//! chains cannot overflow the stack.
//!
//! The pass only sets flags, adds functions and redirects calls: it
//! invalidates nothing else. It runs at every optimisation level.

use crate::ir::visit::walk_statements;
use crate::ir::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Marks precise expressions in `module` (see the module docs).
pub fn run(module: &mut Module) {
    // Every root is a store into, a call argument for or a return from
    // something declared precise: without any, there is nothing to walk
    // from, and gathering every function's stores and calls would find
    // no root.
    if !declares_precise(module) {
        return;
    }
    let mut p = Precise::new(module);
    p.seed_all();
    p.drain();
    p.apply_redirects();
}

/// Whether a global, local, argument, result or struct member of `module`
/// is declared precise.
fn declares_precise(module: &Module) -> bool {
    let member = module.types.iter().any(|(_, t)| match &t.inner {
        TypeInner::Struct { members, .. } => members.iter().any(|m| m.precise),
        _ => false,
    });
    let function = |f: &Function| {
        f.result.as_ref().is_some_and(|r| r.precise)
            || f.arguments.iter().any(|a| a.precise)
            || f.local_variables.iter().any(|(_, l)| l.precise)
    };
    member
        || module.globals.iter().any(|(_, g)| g.precise)
        || module.functions.iter().any(|(_, f)| function(f))
}

/// Where a pointer chain starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum VarRoot {
    Local(Handle<LocalVariable>),
    Global(Handle<GlobalVariable>),
    Argument(u32),
    Other,
}

struct PointerInfo {
    root: VarRoot,
    /// The chain selects a member declared `precise`.
    precise_member: bool,
    /// Dynamic indices along the chain.
    indices: Vec<Handle<Expression>>,
    /// The chain from the variable outwards.
    path: Path,
}

/// One step of an access chain: a constant index, or a dynamic one (which
/// may be any).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Step {
    Index(u32),
    Any,
}

type Path = Vec<Step>;

/// Whether memory at `a` and at `b` (paths from one variable) can overlap:
/// one is a prefix of the other, up to dynamic steps.
fn overlaps(a: &[Step], b: &[Step]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| !matches!((x, y), (Step::Index(i), Step::Index(j)) if i != j))
}

/// A value stored at a path of a variable.
#[derive(Clone, Debug)]
struct Stored {
    path: Path,
    value: Handle<Expression>,
}

struct CallSite {
    function: Handle<Function>,
    arguments: Vec<Handle<Expression>>,
}

/// What the pass needs to know about one function, gathered in one walk.
#[derive(Default)]
struct FnInfo {
    /// Per local: values stored into it (through any access chain).
    local_stores: FxHashMap<Handle<LocalVariable>, Vec<Stored>>,
    /// Per local: calls that receive a pointer into it (call, argument).
    local_calls: FxHashMap<Handle<LocalVariable>, Vec<(usize, usize)>>,
    /// Per pointer argument: calls it is passed on to.
    arg_calls: FxHashMap<u32, Vec<(usize, usize)>>,
    calls: Vec<CallSite>,
    /// Call index of each `CallResult` expression.
    call_of_result: FxHashMap<Handle<Expression>, usize>,
    /// Arguments of each `Subgroup` statement, by its result.
    subgroup_args: FxHashMap<Handle<Expression>, Vec<Handle<Expression>>>,
    returns: Vec<Handle<Expression>>,
    /// Stores whose target is precise (whole value), and stores of values
    /// whose type has precise members.
    precise_stores: Vec<Handle<Expression>>,
    member_stores: Vec<Handle<Expression>>,
    /// Calls passing a pointer to precise memory (call, argument).
    precise_out_calls: Vec<(usize, usize)>,
}

/// A function and an expression in it.
type Site = (Handle<Function>, Handle<Expression>);
/// A call: caller, call index, argument index.
type CallArg = (Handle<Function>, usize, usize);

/// A specialisation key: callee, the parts of the result that must be
/// precise (sorted; `[[]]` is the whole result, empty none), precise
/// arguments.
type Key = (Handle<Function>, Vec<Path>, u64);

struct Precise<'m> {
    module: &'m mut Module,
    infos: Vec<FnInfo>,
    visited: Vec<Vec<bool>>,
    /// Locals (and paths in them) whose stores were walked.
    locals_done: FxHashSet<(Handle<Function>, Handle<LocalVariable>, Path)>,
    globals_done: FxHashSet<(Handle<GlobalVariable>, Path)>,
    /// Per global: the function and the store of every store into it.
    global_stores: FxHashMap<Handle<GlobalVariable>, Vec<(Handle<Function>, Stored)>>,
    /// Per global: calls receiving a pointer into it.
    global_calls: FxHashMap<Handle<GlobalVariable>, Vec<CallArg>>,
    /// Current call sites of each function: (caller, call index).
    callers: FxHashMap<Handle<Function>, Vec<(Handle<Function>, usize)>>,
    /// Arguments of a function that its slice reached.
    arg_reached: Vec<Vec<bool>>,
    redirects: FxHashMap<(Handle<Function>, usize), Handle<Function>>,
    variants: FxHashMap<Key, Handle<Function>>,
    /// The key each function stands for.
    key_of: Vec<Key>,
    has_precise_members: Vec<Option<bool>>,
    work: Vec<Site>,
}

impl<'m> Precise<'m> {
    fn new(module: &'m mut Module) -> Self {
        let n = module.types.len();
        let mut p = Precise {
            module,
            infos: Vec::new(),
            visited: Vec::new(),
            locals_done: FxHashSet::default(),
            globals_done: FxHashSet::default(),
            global_stores: FxHashMap::default(),
            global_calls: FxHashMap::default(),
            callers: FxHashMap::default(),
            arg_reached: Vec::new(),
            redirects: FxHashMap::default(),
            variants: FxHashMap::default(),
            key_of: Vec::new(),
            has_precise_members: vec![None; n],
            work: Vec::new(),
        };
        let handles: Vec<Handle<Function>> = p.module.functions.handles().collect();
        for h in handles {
            p.add_function_state(h);
        }
        p
    }

    /// Gathers the info of a function just added (original or variant).
    fn add_function_state(&mut self, h: Handle<Function>) {
        let info = self.gather(h);
        let f = &self.module.functions[h];
        let mask = f
            .arguments
            .iter()
            .enumerate()
            .filter(|(i, a)| a.precise && *i < 64)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        let result = if f.result.as_ref().is_some_and(|r| r.precise) {
            vec![Vec::new()]
        } else {
            Vec::new()
        };
        self.visited.push(vec![false; f.expressions.len()]);
        self.arg_reached.push(vec![false; f.arguments.len()]);
        self.key_of.push((h, result, mask));
        for (k, c) in info.calls.iter().enumerate() {
            self.callers.entry(c.function).or_default().push((h, k));
        }
        self.infos.push(info);
    }

    fn type_has_precise(&mut self, ty: Handle<Type>) -> bool {
        // Iterative over the type DAG: element types have lower handles.
        if let Some(Some(b)) = self.has_precise_members.get(ty.index()) {
            return *b;
        }
        for i in 0..=ty.index() {
            if self.has_precise_members[i].is_some() {
                continue;
            }
            let t = Handle::<Type>::from_index(i);
            let b = match &self.module.types[t].inner {
                TypeInner::Struct { members, .. } => members
                    .iter()
                    .any(|m| m.precise || self.has_precise_members[m.ty.index()].unwrap_or(false)),
                TypeInner::Array { base, .. } => {
                    self.has_precise_members[base.index()].unwrap_or(false)
                }
                _ => false,
            };
            self.has_precise_members[i] = Some(b);
        }
        self.has_precise_members[ty.index()].unwrap_or(false)
    }

    fn pointer_info(&self, f: &Function, mut p: Handle<Expression>) -> PointerInfo {
        let mut info = PointerInfo {
            root: VarRoot::Other,
            precise_member: false,
            indices: Vec::new(),
            path: Vec::new(),
        };
        loop {
            match f.expressions[p] {
                Expression::AccessIndex { base, index } => {
                    info.path.push(Step::Index(index));
                    if let TypeInner::Pointer { base: pointee, .. } =
                        self.module.types[f.expr_type(base)].inner
                        && let TypeInner::Struct { ref members, .. } =
                            self.module.types[pointee].inner
                        && members.get(index as usize).is_some_and(|m| m.precise)
                    {
                        info.precise_member = true;
                    }
                    p = base;
                }
                Expression::Access { base, index } => {
                    info.indices.push(index);
                    info.path.push(Step::Any);
                    p = base;
                }
                Expression::LocalVariable(l) => {
                    info.root = VarRoot::Local(l);
                    info.path.reverse();
                    return info;
                }
                Expression::GlobalVariable(g) => {
                    info.root = VarRoot::Global(g);
                    info.path.reverse();
                    return info;
                }
                Expression::FunctionArgument(i) => {
                    info.root = VarRoot::Argument(i);
                    info.path.reverse();
                    return info;
                }
                _ => {
                    info.path.reverse();
                    return info;
                }
            }
        }
    }

    fn root_is_precise(&self, f: &Function, root: VarRoot) -> bool {
        match root {
            VarRoot::Local(l) => f.local_variables[l].precise,
            VarRoot::Global(g) => self.module.globals[g].precise,
            VarRoot::Argument(i) => f.arguments.get(i as usize).is_some_and(|a| a.precise),
            VarRoot::Other => false,
        }
    }

    fn gather(&mut self, h: Handle<Function>) -> FnInfo {
        let mut info = FnInfo::default();
        let f = std::mem::take(&mut self.module.functions[h]);
        let mut stores = Vec::new();
        let mut calls = Vec::new();
        walk_statements(&f.body, |s| match s {
            Statement::Store { pointer, value } => stores.push((*pointer, *value)),
            Statement::Call {
                function,
                arguments,
                result,
            } => calls.push((*function, arguments.clone(), *result)),
            Statement::Return { value: Some(v) } => info.returns.push(*v),
            Statement::Subgroup { args, result, .. } => {
                info.subgroup_args.insert(*result, args.clone());
            }
            _ => {}
        });
        for (pointer, value) in stores {
            let pi = self.pointer_info(&f, pointer);
            let stored = Stored {
                path: pi.path.clone(),
                value,
            };
            match pi.root {
                VarRoot::Local(l) => info.local_stores.entry(l).or_default().push(stored),
                VarRoot::Global(g) => self.global_stores.entry(g).or_default().push((h, stored)),
                _ => {}
            }
            if pi.precise_member || self.root_is_precise(&f, pi.root) {
                info.precise_stores.push(value);
            } else if self.type_has_precise(f.expr_type(value)) {
                info.member_stores.push(value);
            }
        }
        for (k, (function, arguments, result)) in calls.into_iter().enumerate() {
            for (i, &a) in arguments.iter().enumerate() {
                if !matches!(
                    self.module.types[f.expr_type(a)].inner,
                    TypeInner::Pointer { .. }
                ) {
                    continue;
                }
                let pi = self.pointer_info(&f, a);
                match pi.root {
                    VarRoot::Local(l) => info.local_calls.entry(l).or_default().push((k, i)),
                    VarRoot::Global(g) => self.global_calls.entry(g).or_default().push((h, k, i)),
                    VarRoot::Argument(n) => info.arg_calls.entry(n).or_default().push((k, i)),
                    VarRoot::Other => {}
                }
                let pointee = match self.module.types[f.expr_type(a)].inner {
                    TypeInner::Pointer { base, .. } => base,
                    _ => continue,
                };
                if pi.precise_member
                    || self.root_is_precise(&f, pi.root)
                    || self.type_has_precise(pointee)
                {
                    info.precise_out_calls.push((k, i));
                }
            }
            if let Some(r) = result {
                info.call_of_result.insert(r, k);
            }
            info.calls.push(CallSite {
                function,
                arguments,
            });
        }
        self.module.functions[h] = f;
        info
    }

    /// Queues the roots of every function.
    fn seed_all(&mut self) {
        let n = self.module.functions.len();
        for i in 0..n {
            self.seed(Handle::from_index(i));
        }
    }

    fn seed(&mut self, h: Handle<Function>) {
        let info = &self.infos[h.index()];
        let whole = info.precise_stores.clone();
        let returns = info.returns.clone();
        let members = info.member_stores.clone();
        let out_calls = info.precise_out_calls.clone();
        for v in whole {
            self.work.push((h, v));
        }
        // The returned values, or the parts of them asked for.
        let paths = self.key_of[h.index()].1.clone();
        for path in &paths {
            for &v in &returns {
                self.reach_part(h, v, path);
            }
        }
        for v in members {
            self.members(h, v);
        }
        for (k, i) in out_calls {
            self.request(h, k, None, Some(i));
        }
    }

    /// Queues the parts of `value` that land in precise members.
    fn members(&mut self, h: Handle<Function>, value: Handle<Expression>) {
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            let f = &self.module.functions[h];
            let ty = f.expr_type(v);
            let Expression::Compose { ref components, .. } = f.expressions[v] else {
                self.work.push((h, v));
                continue;
            };
            let components = components.clone();
            match self.module.types[ty].inner.clone() {
                TypeInner::Struct { members, .. } => {
                    for (m, c) in members.iter().zip(components) {
                        if m.precise {
                            self.work.push((h, c));
                        } else if self.type_has_precise(m.ty) {
                            stack.push(c);
                        }
                    }
                }
                _ => stack.extend(components),
            }
        }
    }

    fn drain(&mut self) {
        while let Some((h, e)) = self.work.pop() {
            let seen = &mut self.visited[h.index()];
            if seen.get(e.index()).copied().unwrap_or(true) {
                continue;
            }
            seen[e.index()] = true;
            self.visit(h, e);
        }
    }

    fn visit(&mut self, h: Handle<Function>, e: Handle<Expression>) {
        let is_float = {
            let f = &self.module.functions[h];
            match self.module.types[f.expr_type(e)].inner {
                TypeInner::Scalar(s)
                | TypeInner::Vector { scalar: s, .. }
                | TypeInner::Matrix { scalar: s, .. } => s.kind == ScalarKind::Float,
                _ => false,
            }
        };
        let f = &mut self.module.functions[h];
        if is_float {
            mark(&mut f.expressions[e]);
        }
        let f = &self.module.functions[h];
        match f.expressions[e] {
            Expression::Load { pointer } => self.reach_memory(h, pointer, &[]),
            // A member of a composite value (`p.exact` after `load $p`, a
            // member of a call's result): only that member.
            Expression::AccessIndex { .. } if self.member_of_value(h, e).is_some() => {
                if let Some((base, path)) = self.member_of_value(h, e) {
                    self.reach_part(h, base, &path);
                }
            }
            Expression::FunctionArgument(i) => self.reach_argument(h, i),
            Expression::CallResult(_) => {
                if let Some(&k) = self.infos[h.index()].call_of_result.get(&e) {
                    self.request(h, k, Some(Vec::new()), None);
                }
            }
            Expression::SubgroupResult => {
                if let Some(args) = self.infos[h.index()].subgroup_args.get(&e) {
                    let args = args.clone();
                    self.work.extend(args.into_iter().map(|a| (h, a)));
                }
            }
            ref other => {
                let mut ops = Vec::new();
                other.for_each_operand(|o| ops.push(o));
                self.work.extend(ops.into_iter().map(|o| (h, o)));
            }
        }
    }

    /// For constant indices into a composite value (`access %v[i][j]`, not
    /// through a pointer): the value `%v` and the path `[i, j]`.
    fn member_of_value(
        &self,
        h: Handle<Function>,
        e: Handle<Expression>,
    ) -> Option<(Handle<Expression>, Path)> {
        let f = &self.module.functions[h];
        let mut path = Vec::new();
        let mut p = e;
        while let Expression::AccessIndex { base, index } = f.expressions[p] {
            if matches!(
                self.module.types[f.expr_type(base)].inner,
                TypeInner::Pointer { .. }
            ) {
                return None;
            }
            path.push(Step::Index(index));
            p = base;
        }
        path.reverse();
        (!path.is_empty()).then_some((p, path))
    }

    /// The part at `path` of `value` reaches a precise value: walk what
    /// computes that part only, where the value is built of parts (a
    /// `Compose` of a struct, array or matrix), read from memory (a
    /// `Load`: that part of the memory) or returned by a call (that part of
    /// the callee's result); the whole value otherwise.
    fn reach_part(&mut self, h: Handle<Function>, value: Handle<Expression>, path: &[Step]) {
        let mut value = value;
        let mut path: Path = path.to_vec();
        loop {
            if path.is_empty() {
                self.work.push((h, value));
                return;
            }
            let f = &self.module.functions[h];
            let vector = matches!(
                self.module.types[f.expr_type(value)].inner,
                TypeInner::Vector { .. }
            );
            match (&f.expressions[value], path[0]) {
                (Expression::Compose { components, .. }, Step::Index(i)) if !vector => {
                    match components.get(i as usize) {
                        Some(&c) => {
                            value = c;
                            path.remove(0);
                        }
                        None => {
                            self.work.push((h, value));
                            return;
                        }
                    }
                }
                (&Expression::AccessIndex { base, index }, _)
                    if !matches!(
                        self.module.types[f.expr_type(base)].inner,
                        TypeInner::Pointer { .. }
                    ) =>
                {
                    path.insert(0, Step::Index(index));
                    value = base;
                }
                (&Expression::Load { pointer }, _) => {
                    self.reach_memory(h, pointer, &path);
                    return;
                }
                (Expression::CallResult(_), _) => {
                    if let Some(&k) = self.infos[h.index()].call_of_result.get(&value) {
                        self.request(h, k, Some(path), None);
                    }
                    return;
                }
                _ => {
                    self.work.push((h, value));
                    return;
                }
            }
        }
    }

    /// A load through `pointer`, of the part at `suffix` in what it points
    /// to, reaches a precise value.
    fn reach_memory(&mut self, h: Handle<Function>, pointer: Handle<Expression>, suffix: &[Step]) {
        let mut pi = self.pointer_info(&self.module.functions[h], pointer);
        pi.path.extend_from_slice(suffix);
        self.work.extend(pi.indices.iter().map(|&i| (h, i)));
        match pi.root {
            VarRoot::Local(l) => {
                if !self.locals_done.insert((h, l, pi.path.clone())) {
                    return;
                }
                let info = &self.infos[h.index()];
                let stores = info.local_stores.get(&l).cloned().unwrap_or_default();
                let calls = info.local_calls.get(&l).cloned().unwrap_or_default();
                for st in stores {
                    self.reach_stored(h, &st, &pi.path);
                }
                for (k, i) in calls {
                    self.request(h, k, None, Some(i));
                }
            }
            VarRoot::Global(g) => {
                let space = self.module.globals[g].space;
                if !matches!(space, AddressSpace::Private | AddressSpace::Workgroup)
                    || !self.globals_done.insert((g, pi.path.clone()))
                {
                    return;
                }
                let stores = self.global_stores.get(&g).cloned().unwrap_or_default();
                let calls = self.global_calls.get(&g).cloned().unwrap_or_default();
                for (f, st) in stores {
                    self.reach_stored(f, &st, &pi.path);
                }
                for (c, k, i) in calls {
                    self.request(c, k, None, Some(i));
                }
            }
            VarRoot::Argument(i) => self.reach_argument(h, i),
            VarRoot::Other => {}
        }
    }

    /// A load of the memory at `read` reached a precise value: walk what
    /// the store `st` (into the same variable) put there, if anything. A
    /// store of a whole composite read by a member walks only that
    /// member's part of a `Compose` (so `p.fast = …` does not feed a read
    /// of `p.exact`).
    fn reach_stored(&mut self, h: Handle<Function>, st: &Stored, read: &[Step]) {
        if !overlaps(&st.path, read) {
            return;
        }
        // What the read needs below the stored path; a dynamic step needs
        // all of it.
        let rest: Path = read[st.path.len().min(read.len())..]
            .iter()
            .take_while(|s| matches!(s, Step::Index(_)))
            .copied()
            .collect();
        self.reach_part(h, st.value, &rest);
    }
}

/// Sets `precise` on an arithmetic expression.
fn mark(e: &mut Expression) {
    use BinaryOperator as B;
    match e {
        Expression::Unary {
            op: UnaryOperator::Negate,
            precise,
            ..
        }
        | Expression::Math { precise, .. }
        | Expression::As {
            convert: Some(_),
            precise,
            ..
        } => *precise = true,
        Expression::Binary {
            op: B::Add | B::Subtract | B::Multiply | B::Divide | B::Modulo | B::MatMul,
            precise,
            ..
        } => *precise = true,
        _ => {}
    }
}

mod calls;
#[cfg(test)]
mod tests;
