//! Unrolling in the rebuild: the copies of a loop's body that
//! [`Rewrite::unroll`] asks for, in which loads of the loop's counter are
//! literals.

use super::{Cx, Rewrite};
use crate::ir::*;

/// A loop the pass replaces by copies of its body (see [`Rewrite::unroll`]).
pub struct Unrolling {
    /// The variable whose loads are the copy's value.
    pub counter: Handle<LocalVariable>,
    /// The index in the loop's body of a statement left out of the copies
    /// (its exit test).
    pub skip: usize,
    /// The counter's value in each copy.
    pub values: Vec<Literal>,
}

impl Cx<'_> {
    /// The copies of a loop that `rw.unroll` replaces, one block each.
    // Out of line, as `Inliner::call`: rare, and dear to the walk inlined.
    #[inline(never)]
    pub(super) fn unrolled(&mut self, rw: &mut impl Rewrite, old: &Statement, u: Unrolling) {
        let Statement::Loop {
            body, continuing, ..
        } = old
        else {
            return;
        };
        for v in u.values {
            self.counters.push((u.counter, v));
            self.body.open();
            rw.enter_block(self);
            let copy = body
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != u.skip)
                .map(|(i, s)| (&body[..i], s))
                .chain(
                    continuing
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (&continuing[..i], s)),
                );
            for (before, s) in copy {
                if self.step(rw, before, s) {
                    break;
                }
            }
            self.body.flush();
            rw.leave_block(self);
            let b = self.body.close();
            self.push(Statement::Block(b));
            self.counters.pop();
        }
    }

    /// The value of old expression `h` when it loads the counter of an
    /// unrolled copy being built.
    pub(super) fn counter_value(&self, h: Handle<Expression>) -> Option<Literal> {
        let Expression::Load { pointer } = self.old.expressions[h] else {
            return None;
        };
        let Expression::LocalVariable(l) = self.old.expressions[pointer] else {
            return None;
        };
        self.counters.iter().rev().find(|c| c.0 == l).map(|c| c.1)
    }
}
