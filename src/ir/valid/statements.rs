//! The statement walk: scopes, emits, control-flow rules and the types
//! statements need.

use super::{FunctionValidator, State, shape};
use crate::ir::*;

struct Frame<'f> {
    statements: std::slice::Iter<'f, Statement>,
    /// Length of `scope` when this block opened.
    scope_start: usize,
    break_ok: bool,
    continue_ok: bool,
    /// A loop's `break_if`, checked when its `continuing` block ends.
    break_if: Option<Handle<Expression>>,
    /// Values that must be visible where this block ends: the operands of
    /// the `Merge`s after an `if` for its branches, the `latch`es of the
    /// `Carry`s before a loop for its `continuing` block.
    end_uses: Vec<Handle<Expression>>,
    /// Whether a `Merge` may stand next (after an `if` or a `Merge`).
    merge_ok: bool,
    /// The latches of the `Carry`s just seen, for the loop that must come
    /// next.
    latches: Vec<Handle<Expression>>,
    /// For a loop body that is the only way into its `continuing` block
    /// (no `continue`): latches that may be values visible where the body
    /// ends (the body's end dominates `continuing`).
    body_latches: Vec<Handle<Expression>>,
}


/// The operands of the `Merge`s after an `if`, for its `then` and `else`
/// blocks, and which of the two each `Merge` gives.
type MergeOperands = (Vec<Handle<Expression>>, Vec<Handle<Expression>>, Vec<(bool, bool)>);

/// The operands of the `Merge`s that follow an `if` (the statements after
/// it in its block).
fn merge_operands<'a>(after: impl Iterator<Item = &'a Statement>) -> MergeOperands {
    let (mut a, mut r, mut given) = (Vec::new(), Vec::new(), Vec::new());
    for s in after {
        let Statement::Merge { accept, reject, .. } = s else {
            break;
        };
        a.extend(*accept);
        r.extend(*reject);
        given.push((accept.is_some(), reject.is_some()));
    }
    (a, r, given)
}

/// Whether control can reach the end of `block` (as far as a `Merge`
/// needs a value for it: a block that ends with a terminator cannot).
fn falls_through(block: &[Statement]) -> bool {
    !block.last().is_some_and(Statement::ends_block)
}

impl<'m> FunctionValidator<'_, 'm> {
    /// Whether `h` may be used here; reports it when not.
    fn use_expr(&mut self, user: Option<Handle<Expression>>, h: Handle<Expression>) {
        let e = &self.f.expressions[h];
        if e.is_trivial() && !e.is_statement_result() {
            return;
        }
        let msg = match self.state[h.index()] {
            State::InScope => return,
            State::Pending => "is used before it is emitted",
            State::OutOfScope => "is used outside the block where it is emitted",
        };
        let at = match user {
            Some(u) => format!(" (by %{})", u.index()),
            None => " (by a statement)".to_string(),
        };
        self.error(Some(h), format!("{msg}{at}"));
    }

    /// Makes a statement result available.
    fn define_result(&mut self, h: Handle<Expression>, ok: bool, what: &str) {
        if !ok {
            self.error(Some(h), format!("must be a {what} expression"));
            return;
        }
        if self.state[h.index()] != State::Pending {
            self.error(Some(h), "is named by more than one statement");
            return;
        }
        self.state[h.index()] = State::InScope;
        self.scope.push(h);
    }

    fn bool_scalar(&mut self, h: Handle<Expression>, what: &str) {
        if *self.inner(h) != TypeInner::Scalar(Scalar::BOOL) {
            self.error(Some(h), format!("{what} must be a bool scalar"));
        }
    }

    pub(super) fn statements(&mut self) {
        let f = self.f;
        let mut stack = vec![Frame {
            statements: f.body.iter(),
            scope_start: 0,
            break_ok: false,
            continue_ok: false,
            break_if: None,
            end_uses: Vec::new(),
            merge_ok: false,
            latches: Vec::new(),
            body_latches: Vec::new(),
        }];
        while let Some(top) = stack.last_mut() {
            let Some(s) = top.statements.next() else {
                let frame = stack.pop().expect("non-empty");
                self.close(frame, stack.last_mut());
                continue;
            };
            let (break_ok, continue_ok) = (top.break_ok, top.continue_ok);
            let merge_ok = std::mem::replace(
                &mut top.merge_ok,
                matches!(s, Statement::If { .. } | Statement::Merge { .. }),
            );
            // An `Emit` may stand between a `Carry` and its loop.
            let latches = match s {
                Statement::Emit(_) => Vec::new(),
                _ => std::mem::take(&mut top.latches),
            };
            if !latches.is_empty() && !matches!(s, Statement::Carry { .. } | Statement::Loop { .. }) {
                self.error(None, "a `carry` is not followed by its loop");
            }
            // A `merge`'s operands are checked where its branches end, a
            // `carry`'s latch where the loop's `continuing` block ends.
            let after_if = match s {
                Statement::If { .. } => Some(merge_operands(top.statements.clone())),
                _ => None,
            };
            let mut uses = Vec::new();
            match s {
                Statement::Merge { .. } => {}
                Statement::Carry { init, .. } => uses.push(*init),
                _ => s.for_each_operand(|h| uses.push(h)),
            }
            for h in uses {
                self.use_expr(None, h);
            }
            let scope_start = self.scope.len();
            let frame = |b: &'m Block, break_ok, continue_ok| Frame {
                statements: b.iter(),
                scope_start,
                break_ok,
                continue_ok,
                break_if: None,
                end_uses: Vec::new(),
                merge_ok: false,
                latches: Vec::new(),
                body_latches: Vec::new(),
            };
            match s {
                Statement::Emit(r) => self.emit(r),
                Statement::Block(b) => stack.push(frame(b, break_ok, continue_ok)),
                Statement::If {
                    condition,
                    accept,
                    reject,
                    ..
                } => {
                    self.bool_scalar(*condition, "if condition");
                    let (a, r, given) = after_if.unwrap_or_default();
                    let (fa, fr) = (falls_through(accept), falls_through(reject));
                    if given.iter().any(|&(ga, gr)| (fa && !ga) || (fr && !gr)) {
                        self.error(
                            None,
                            "a `merge` lacks the value of a branch that reaches the end of its `if`",
                        );
                    }
                    // Pushed in reverse: `accept` is walked first.
                    let mut rf = frame(reject, break_ok, continue_ok);
                    rf.end_uses = r;
                    stack.push(rf);
                    let mut af = frame(accept, break_ok, continue_ok);
                    af.end_uses = a;
                    stack.push(af);
                }
                Statement::Merge { result, .. } => {
                    if !merge_ok {
                        self.error(Some(*result), "a `merge` that does not follow an `if`");
                    }
                    self.phi(s);
                }
                Statement::Carry { latch, .. } => {
                    self.phi(s);
                    let mut latches = latches;
                    latches.push(*latch);
                    if let Some(top) = stack.last_mut() {
                        top.latches = latches;
                    }
                }
                Statement::Switch { selector, cases } => {
                    self.switch(*selector, cases);
                    for c in cases.iter().rev() {
                        stack.push(frame(&c.body, true, continue_ok));
                    }
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                    ..
                } => {
                    let mut cont = frame(continuing, false, false);
                    cont.break_if = *break_if;
                    let mut bf = frame(body, true, true);
                    if !crate::ir::visit::continues(body) {
                        bf.body_latches = latches.clone();
                    }
                    cont.end_uses = latches;
                    stack.push(cont);
                    stack.push(bf);
                }
                Statement::Break if !break_ok => {
                    self.error(None, "`break` outside a loop body or switch case")
                }
                Statement::Continue if !continue_ok => {
                    self.error(None, "`continue` outside a loop body")
                }
                Statement::Break
                | Statement::Continue
                | Statement::Kill
                | Statement::EndHit { .. }
                | Statement::Debug(_) => {}
                Statement::Return { value } => self.ret(*value),
                Statement::Store { pointer, value } => self.store(*pointer, *value),
                Statement::ImageStore { image, .. } => {
                    if !matches!(
                        self.handle_inner(*image),
                        TypeInner::Image {
                            class: ImageClass::Storage { .. },
                            ..
                        }
                    ) {
                        self.error(Some(*image), "image store to a non-storage image");
                    }
                }
                Statement::Atomic {
                    pointer, result, ..
                } => {
                    let pointee = match *self.inner(*pointer) {
                        TypeInner::Pointer { base, .. } => Some(base),
                        _ => {
                            self.error(Some(*pointer), "atomic on a non-pointer");
                            None
                        }
                    };
                    if let Some(r) = *result {
                        let ok = matches!(f.expressions[r], Expression::AtomicResult);
                        if ok && pointee.is_some_and(|p| p != self.ty(r)) {
                            self.error(Some(r), "atomic result type differs from the pointee");
                        }
                        self.define_result(r, ok, "AtomicResult");
                    }
                }
                Statement::Call {
                    function,
                    arguments,
                    result,
                } => self.call(*function, arguments, *result),
                Statement::Subgroup { result, .. } => {
                    let ok = matches!(f.expressions[*result], Expression::SubgroupResult);
                    self.define_result(*result, ok, "SubgroupResult");
                }
                Statement::Ray { result, .. } => {
                    if let Some(r) = *result {
                        let ok = matches!(f.expressions[r], Expression::RayResult);
                        self.define_result(r, ok, "RayResult");
                    }
                }
                Statement::Node { result, .. } => {
                    if let Some(r) = *result {
                        let ok = matches!(f.expressions[r], Expression::NodeResult);
                        self.define_result(r, ok, "NodeResult");
                    }
                }
                Statement::Spirv { inst, args, result } => {
                    if let Some(r) = *result {
                        let ok = matches!(f.expressions[r], Expression::SpirvResult);
                        self.define_result(r, ok, "SpirvResult");
                    }
                    let named = inst.operands.iter().all(|o| match *o {
                        crate::ir::SpirvOperand::Arg(i) => (i as usize) < args.len(),
                        crate::ir::SpirvOperand::Literal(_) | crate::ir::SpirvOperand::Type(_) => {
                            true
                        }
                    });
                    if !named {
                        self.error(
                            None,
                            "a raw SPIR-V operand names an argument the statement lacks",
                        );
                    }
                }
                Statement::Barrier { .. }
                | Statement::ScopedBarrier { .. }
                | Statement::EmitVertex { .. }
                | Statement::EndPrimitive { .. }
                | Statement::DebugPrintf { .. }
                | Statement::DebugBreak
                | Statement::SetMeshOutputs { .. }
                | Statement::EmitMeshTasks { .. } => {}
            }
        }
    }

    /// Where a block ends: the uses its end must see, then its scope
    /// closes. `next` is the frame below (a loop body's `continuing`).
    fn close(&mut self, frame: Frame<'_>, next: Option<&mut Frame<'_>>) {
        if let Some(b) = frame.break_if {
            self.use_expr(None, b);
            self.bool_scalar(b, "break_if");
        }
        if !frame.body_latches.is_empty() {
            let in_scope: Vec<_> = frame
                .body_latches
                .iter()
                .copied()
                .filter(|h| self.state[h.index()] == State::InScope)
                .collect();
            // The loop's `continuing` frame is next on the stack.
            if let Some(cont) = next {
                cont.end_uses.retain(|h| !in_scope.contains(h));
            }
        }
        for h in frame.end_uses {
            self.use_expr(None, h);
        }
        if !frame.latches.is_empty() {
            self.error(None, "a `carry` is not followed by its loop");
        }
        for h in self.scope.drain(frame.scope_start..) {
            self.state[h.index()] = State::OutOfScope;
        }
    }

    /// The result of a `Merge` or `Carry`: a `Phi` of its operands' type.
    fn phi(&mut self, s: &Statement) {
        let (Statement::Merge { result, .. } | Statement::Carry { result, .. }) = *s else {
            return;
        };
        let ty = self.ty(result);
        let mut same = true;
        s.for_each_operand(|v| same &= self.ty(v) == ty);
        if !same {
            self.error(Some(result), "a phi operand's type differs from its result's");
        }
        let ok = matches!(self.f.expressions[result], Expression::Phi);
        self.define_result(result, ok, "Phi");
    }

    fn emit(&mut self, r: &Range<Expression>) {
        let f = self.f;
        if r.start_index() > r.end_index() || r.end_index() > f.expressions.len() {
            self.error(None, format!("emit range {r:?} out of bounds"));
            return;
        }
        for h in r.iter() {
            let e = &f.expressions[h];
            // A zero value may be emitted or not (the backend makes a
            // constant either way); the other trivial ones never are.
            if matches!(e, Expression::ZeroValue(_)) {
                continue;
            }
            if e.is_trivial() {
                self.error(Some(h), "needs no evaluation but stands in an emit range");
                continue;
            }
            if self.state[h.index()] != State::Pending {
                self.error(Some(h), "is emitted more than once");
                continue;
            }
            let mut uses = Vec::new();
            e.for_each_operand(|o| uses.push(o));
            for o in uses {
                self.use_expr(Some(h), o);
            }
            self.state[h.index()] = State::InScope;
            self.scope.push(h);
        }
    }

    fn switch(&mut self, selector: Handle<Expression>, cases: &[SwitchCase]) {
        let sel = shape(self.inner(selector));
        let signed = match sel {
            Some((None, Scalar::I32)) => true,
            Some((None, Scalar::U32)) => false,
            _ => {
                self.error(
                    Some(selector),
                    "switch selector must be a 32-bit integer scalar",
                );
                true
            }
        };
        let defaults = cases
            .iter()
            .filter(|c| c.value == SwitchValue::Default)
            .count();
        if defaults != 1 {
            self.error(
                None,
                format!("switch has {defaults} default cases, not one"),
            );
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for c in cases {
            let v = match c.value {
                SwitchValue::I32(v) => {
                    if !signed {
                        self.error(None, "signed case value in an unsigned switch");
                    }
                    v as u32
                }
                SwitchValue::U32(v) => {
                    if signed {
                        self.error(None, "unsigned case value in a signed switch");
                    }
                    v
                }
                SwitchValue::Default => continue,
            };
            if !seen.insert(v) {
                self.error(None, format!("duplicate switch case {v}"));
            }
        }
        if cases.last().is_some_and(|c| c.fall_through) {
            self.error(None, "the last switch case falls through");
        }
    }

    fn ret(&mut self, value: Option<Handle<Expression>>) {
        match (value, &self.f.result) {
            (None, None) => {}
            (Some(v), Some(r)) => {
                if self.ty(v) != r.ty {
                    self.error(Some(v), "returned value differs from the result type");
                }
            }
            (Some(v), None) => self.error(Some(v), "value returned from a function without result"),
            (None, Some(_)) => {
                self.error(None, "`return` without a value in a function with result")
            }
        }
    }

    fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        match *self.inner(pointer) {
            TypeInner::Pointer { base, space } => {
                if base != self.ty(value) {
                    self.error(Some(value), "stored value differs from the pointee type");
                }
                let writable = match space {
                    AddressSpace::Function
                    | AddressSpace::Private
                    | AddressSpace::Workgroup
                    | AddressSpace::TaskPayload
                    | AddressSpace::NodePayload
                    | AddressSpace::PhysicalStorage { .. }
                    | AddressSpace::Raw(_)
                    | AddressSpace::Output => true,
                    AddressSpace::Storage { writable } => writable,
                    AddressSpace::Ray(r) => r != crate::ir::RayStorage::ShaderRecord,
                    AddressSpace::Uniform
                    | AddressSpace::PushConstant
                    | AddressSpace::Input
                    | AddressSpace::Handle => false,
                };
                if !writable {
                    self.error(
                        Some(pointer),
                        format!("store into read-only {space:?} memory"),
                    );
                }
            }
            _ => self.error(Some(pointer), "store through a non-pointer"),
        }
    }

    fn call(
        &mut self,
        function: Handle<Function>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
    ) {
        let module = self.module;
        let Some(callee) = module.functions.get(function) else {
            self.error(None, "call of a function out of range");
            return;
        };
        if module.entry_points.iter().any(|ep| ep.function == function) {
            self.error(None, format!("call of entry function {}", callee.name));
        }
        if callee.arguments.len() != arguments.len() {
            self.error(
                None,
                format!(
                    "call of {} with {} arguments, expects {}",
                    callee.name,
                    arguments.len(),
                    callee.arguments.len()
                ),
            );
        } else {
            for (i, (&a, p)) in arguments.iter().zip(&callee.arguments).enumerate() {
                // A pointer parameter takes a pointer to the same type in any
                // address space: the backend copies it in and out through a
                // Function variable.
                let same_pointee = match (self.inner(a), self.tinner(p.ty)) {
                    (TypeInner::Pointer { base: x, .. }, TypeInner::Pointer { base: y, .. }) => {
                        x == y
                    }
                    _ => false,
                };
                if self.ty(a) != p.ty && !same_pointee {
                    self.error(
                        Some(a),
                        format!("argument {i} of {} has the wrong type", callee.name),
                    );
                }
            }
        }
        match (result, &callee.result) {
            (Some(r), Some(_)) => {
                let ok = self.f.expressions[r] == Expression::CallResult(function);
                self.define_result(r, ok, "CallResult of the called function");
            }
            (None, _) => {}
            (Some(r), None) => self.error(Some(r), "call result of a function without result"),
        }
    }
}
