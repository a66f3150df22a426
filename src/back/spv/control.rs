//! Structured control flow: `if`, `switch` and loops, and the phis of
//! values that merge there (`Merge` after an `if`, `Carry` before a loop).
//!
//! An `OpPhi` names each predecessor block of the merge or loop header
//! with the value that arrives from it: the branches' last blocks (or the
//! header of the selection, for an empty branch) for a merge, and the
//! block before the loop and the last block of its continue construct for
//! a loop header. The latch values are written after the header, so a
//! loop's phis are completed once its continue construct is written.
//! Phis stand first in their block.

use super::function::{Block, FunctionWriter, Targets, Value};
use super::{BackResult, encode_words, internal};
use crate::ir::{self, Expression, Handle, Statement};
use rspirv::dr::Operand;
use spirv::{Op, Word};

/// Where the branches of an `if` reach its merge block from: the block
/// each ran to its end in (`None`: it never did), or `None` when no
/// construct was written (both branches empty, and no `Merge`).
type Preds = Option<(Option<Word>, Option<Word>)>;

impl FunctionWriter<'_, '_> {
    pub(super) fn write_statements(
        &mut self,
        block: &[Statement],
        targets: Targets,
    ) -> BackResult<()> {
        let mut i = 0;
        while i < block.len() {
            // Code after a terminator (return, break, discard…) is dead:
            // SPIR-V has no place for it.
            if self.current.is_none() {
                break;
            }
            match &block[i] {
                Statement::If {
                    condition,
                    accept,
                    reject,
                    control,
                } => {
                    let merges = block[i + 1..]
                        .iter()
                        .take_while(|s| matches!(s, Statement::Merge { .. }));
                    let merged = merges.clone().next().is_some();
                    let preds =
                        self.write_if(*condition, accept, reject, *control, targets, merged)?;
                    for m in merges {
                        if let Statement::Merge {
                            result,
                            accept,
                            reject,
                        } = m
                        {
                            self.write_merge(*result, *accept, *reject, preds)?;
                        }
                        i += 1;
                    }
                }
                Statement::Carry { .. } => {
                    // The carries, and what is evaluated between them and
                    // the loop (before it).
                    let n = block[i..]
                        .iter()
                        .take_while(|s| matches!(s, Statement::Carry { .. } | Statement::Emit(_)))
                        .count();
                    let Some(Statement::Loop {
                        body,
                        continuing,
                        break_if,
                        control,
                    }) = block.get(i + n)
                    else {
                        return Err(internal("a `carry` is not followed by its loop"));
                    };
                    let mut carries = Vec::with_capacity(n);
                    for s in &block[i..i + n] {
                        match s {
                            Statement::Emit(_) => self.write_statement(s, targets)?,
                            c => carries.push(c),
                        }
                    }
                    self.write_loop(&carries, body, continuing, *break_if, *control)?;
                    i += n;
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                    control,
                } => self.write_loop(&[], body, continuing, *break_if, *control)?,
                stmt => self.write_statement(stmt, targets)?,
            }
            i += 1;
        }
        Ok(())
    }

    /// The label of the block being written.
    fn current_label(&self) -> BackResult<Word> {
        self.current
            .as_ref()
            .map(|b| b.label)
            .ok_or_else(|| internal("no open block"))
    }

    /// Puts a phi of type `ty`, result `id` and (value, block) pairs
    /// `incoming` after the phis that begin the current block.
    fn insert_phi(&mut self, ty: Word, id: Word, incoming: &[Word]) -> BackResult<()> {
        let Some(block) = self.current.as_mut() else {
            return Err(internal("a phi after a terminator"));
        };
        let mut at = 0;
        while let Some(&first) = block.words.get(at)
            && first & 0xffff == Op::Phi as u32
        {
            at += (first >> 16).max(1) as usize;
        }
        let mut phi = Vec::with_capacity(3 + incoming.len());
        encode_words(&mut phi, Op::Phi, Some(ty), Some(id), incoming);
        block.words.splice(at..at, phi);
        Ok(())
    }

    /// Sets the latch operands (the last value and block) of the `k`th
    /// phi of block `b`, a loop header written with a placeholder.
    fn set_latch(&mut self, b: usize, k: usize, value: Word, pred: Word) -> BackResult<()> {
        let Some(Block { words, .. }) = self.blocks.get_mut(b) else {
            return Err(internal("a loop header is missing"));
        };
        let mut at = 0;
        for _ in 0..k {
            at += words.get(at).map_or(1, |&w| (w >> 16).max(1) as usize);
        }
        // Word count and opcode, type, id, then (init, preheader, latch,
        // latch block).
        match words.get_mut(at + 5..at + 7) {
            Some(latch) => {
                latch.copy_from_slice(&[value, pred]);
                Ok(())
            }
            None => Err(internal("a loop's phi is missing")),
        }
    }

    /// The phi of a `Merge` at the start of the `if`'s merge block.
    fn write_merge(
        &mut self,
        result: Handle<Expression>,
        accept: Option<Handle<Expression>>,
        reject: Option<Handle<Expression>>,
        preds: Preds,
    ) -> BackResult<()> {
        if self.current.is_none() {
            // No branch reaches the merge block: nothing after it runs.
            return Ok(());
        }
        let mut incoming = Vec::new();
        match preds {
            None => return Err(internal("a `merge` after an `if` written as nothing")),
            Some((pa, pr)) => {
                for (value, pred) in [(accept, pa), (reject, pr)] {
                    if let Some(pred) = pred {
                        let value =
                            value.ok_or_else(|| internal("a `merge` lacks a branch's value"))?;
                        incoming.push((value, pred));
                    }
                }
            }
        }
        let mut ids = Vec::with_capacity(incoming.len());
        for &(v, pred) in &incoming {
            ids.push((self.value(v)?, pred));
        }
        let Some(&(first, _)) = ids.first() else {
            return Err(internal("a `merge` with no incoming value"));
        };
        if ids.iter().all(|&(id, _)| id == first) {
            self.values[result.index()] = Value::Id(first);
            return Ok(());
        }
        let ty = self.expr_type(result)?;
        let ty = self.w.type_id(ty)?;
        let id = self.w.id();
        let incoming: Vec<Word> = ids.iter().flat_map(|&(v, p)| [v, p]).collect();
        self.insert_phi(ty, id, &incoming)?;
        self.values[result.index()] = Value::Id(id);
        Ok(())
    }

    fn write_if(
        &mut self,
        condition: Handle<Expression>,
        accept: &[Statement],
        reject: &[Statement],
        control: ir::SelectionControl,
        targets: Targets,
        merged: bool,
    ) -> BackResult<Preds> {
        let cond = self.value(condition)?;
        if accept.is_empty() && reject.is_empty() && !merged {
            return Ok(None);
        }
        let header = self.current_label()?;
        let merge = self.w.id();
        // Values that merge need a block of their own on one side at
        // least: a phi cannot tell two edges from one block apart.
        let accept_label = if accept.is_empty() && !reject.is_empty() {
            merge
        } else {
            self.w.id()
        };
        let reject_label = if reject.is_empty() {
            merge
        } else {
            self.w.id()
        };
        let control = match control {
            ir::SelectionControl::None => spirv::SelectionControl::NONE,
            ir::SelectionControl::Flatten => spirv::SelectionControl::FLATTEN,
            ir::SelectionControl::DontFlatten => spirv::SelectionControl::DONT_FLATTEN,
        };
        self.emit_void(
            Op::SelectionMerge,
            [Operand::IdRef(merge), Operand::SelectionControl(control)],
        )?;
        self.branch_conditional(cond, accept_label, reject_label)?;
        let mut preds = [None, None];
        for (k, (label, block)) in [(accept_label, accept), (reject_label, reject)]
            .into_iter()
            .enumerate()
        {
            if label == merge {
                preds[k] = Some(header);
                continue;
            }
            self.begin_block(label);
            self.write_block(block, targets)?;
            if self.current.is_some() {
                preds[k] = Some(self.current_label()?);
                self.branch(merge)?;
            }
        }
        self.begin_merge(merge)?;
        Ok(Some((preds[0], preds[1])))
    }

    pub(super) fn write_switch(
        &mut self,
        selector: Handle<Expression>,
        cases: &[ir::SwitchCase],
        targets: Targets,
    ) -> BackResult<()> {
        let sel = self.value(selector)?;
        let merge = self.w.id();
        let labels: Vec<Word> = cases.iter().map(|_| self.w.id()).collect();
        let default = cases
            .iter()
            .position(|c| c.value == ir::SwitchValue::Default)
            .map_or(merge, |i| labels[i]);
        let mut operands = vec![Operand::IdRef(sel), Operand::IdRef(default)];
        for (case, &label) in cases.iter().zip(&labels) {
            let literal = match case.value {
                ir::SwitchValue::I32(v) => v as u32,
                ir::SwitchValue::U32(v) => v,
                ir::SwitchValue::Default => continue,
            };
            operands.push(Operand::LiteralBit32(literal));
            operands.push(Operand::IdRef(label));
        }
        self.emit_void(
            Op::SelectionMerge,
            [
                Operand::IdRef(merge),
                Operand::SelectionControl(spirv::SelectionControl::NONE),
            ],
        )?;
        self.branched_to.insert(default);
        self.branched_to.extend(labels.iter().copied());
        self.terminate(Op::Switch, operands)?;
        let inner = Targets {
            break_to: Some(merge),
            continue_to: targets.continue_to,
        };
        for (i, case) in cases.iter().enumerate() {
            self.begin_block(labels[i]);
            self.write_block(&case.body, inner)?;
            if self.current.is_some() {
                // Fall-through goes to the next case, which must follow this
                // one in the OpSwitch target list (SPIR-V 2.11), as it does.
                match labels.get(i + 1) {
                    Some(&next) if case.fall_through => self.branch(next)?,
                    _ => self.branch(merge)?,
                }
            }
        }
        self.begin_merge(merge)
    }

    /// A loop, with the phis of its `carries` in its header.
    fn write_loop(
        &mut self,
        carries: &[&Statement],
        body: &[Statement],
        continuing: &[Statement],
        break_if: Option<Handle<Expression>>,
        control: ir::LoopControl,
    ) -> BackResult<()> {
        let header = self.w.id();
        let body_label = self.w.id();
        let continue_label = self.w.id();
        let merge = self.w.id();
        let preheader = self.current_label()?;
        // (phi id, type, init id, latch) of each carry.
        let mut phis = Vec::with_capacity(carries.len());
        for c in carries {
            if let Statement::Carry {
                result,
                init,
                latch,
            } = *c
            {
                let init = self.value(*init)?;
                let ty = self.expr_type(*result)?;
                let ty = self.w.type_id(ty)?;
                let id = self.w.id();
                self.values[result.index()] = Value::Id(id);
                phis.push((id, ty, init, *latch));
            }
        }
        self.branch(header)?;
        self.begin_block(header);
        for &(id, ty, init, _) in &phis {
            // The latch is filled in once the continue construct is written.
            self.insert_phi(ty, id, &[init, preheader, id, continue_label])?;
        }
        let header_block = self.blocks.len();
        let control = match control {
            ir::LoopControl::None => spirv::LoopControl::NONE,
            ir::LoopControl::Unroll(_) => spirv::LoopControl::UNROLL,
            ir::LoopControl::DontUnroll => spirv::LoopControl::DONT_UNROLL,
        };
        self.emit_void(
            Op::LoopMerge,
            [
                Operand::IdRef(merge),
                Operand::IdRef(continue_label),
                Operand::LoopControl(control),
            ],
        )?;
        self.branch(body_label)?;
        self.begin_block(body_label);
        self.write_block(
            body,
            Targets {
                break_to: Some(merge),
                continue_to: Some(continue_label),
            },
        )?;
        if self.current.is_some() {
            self.branch(continue_label)?;
        }
        self.begin_block(continue_label);
        if self.branched_to.contains(&continue_label) {
            // `break` and `continue` have no meaning in the continuing block.
            self.write_block(continuing, Targets::default())?;
            if self.current.is_some() {
                let latch_block = self.current_label()?;
                let mut latches = Vec::with_capacity(phis.len());
                for &(_, _, _, latch) in &phis {
                    latches.push(self.value(latch)?);
                }
                for (k, latch) in latches.into_iter().enumerate() {
                    self.set_latch(header_block, k, latch, latch_block)?;
                }
                match break_if {
                    Some(c) => {
                        let cond = self.value(c)?;
                        self.branch_conditional(cond, merge, header)?;
                    }
                    None => self.branch(header)?,
                }
            }
        } else {
            // Nothing continues the loop: the continue target is
            // unreachable and holds just the back edge (where the phis
            // name themselves).
            self.branch(header)?;
        }
        self.begin_merge(merge)
    }
}
