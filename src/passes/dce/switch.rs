//! A `switch` on a constant is the cases it runs: the one of that value
//! (else `default`) and those it falls through into, as a block. Only
//! when no `break` leaves that code but one that ends it, which goes; a
//! `switch` whose value no case has and that has no `default` runs
//! nothing and goes.

use crate::ir::visit::breaks;
use crate::ir::*;

/// Folds the `switch`es on a literal in `block` and the blocks nested in
/// it; true if any.
pub(super) fn fold_constant_switches(block: &mut Block, exprs: &Arena<Expression>) -> bool {
    let mut folded = false;
    let mut i = 0;
    while i < block.len() {
        let s = &mut block[i];
        if let Statement::Switch { selector, cases } = s
            && let Some(value) = literal_bits(&exprs[*selector])
        {
            match taken(cases, value) {
                Some(None) => {
                    block.remove(i);
                    folded = true;
                    continue;
                }
                Some(Some(body)) => {
                    *s = Statement::Block(body);
                    folded = true;
                }
                None => {}
            }
        }
        for b in super::blocks_mut(&mut block[i]) {
            folded |= fold_constant_switches(b, exprs);
        }
        i += 1;
    }
    folded
}

/// The bits of an integer selector.
fn literal_bits(e: &Expression) -> Option<u32> {
    match *e {
        Expression::Literal(Literal::I32(v)) => Some(v as u32),
        Expression::Literal(Literal::U32(v)) => Some(v),
        _ => None,
    }
}

/// What a `switch` of `value` runs: `Some(None)` nothing, `Some(Some(b))`
/// the block `b`; `None` when that code has a `break` of the switch
/// other than a last one.
fn taken(cases: &mut [SwitchCase], value: u32) -> Option<Option<Block>> {
    let matches = |v: &SwitchValue| match *v {
        SwitchValue::I32(c) => c as u32 == value,
        SwitchValue::U32(c) => c == value,
        SwitchValue::Default => false,
    };
    let first = cases
        .iter()
        .position(|c| matches(&c.value))
        .or_else(|| cases.iter().position(|c| c.value == SwitchValue::Default));
    let Some(first) = first else {
        return Some(None);
    };
    let mut last = first;
    while cases[last].fall_through && last + 1 < cases.len() {
        last += 1;
    }
    let mut body: Block = Vec::new();
    for c in &cases[first..=last] {
        body.extend(c.body.iter().cloned());
    }
    if matches!(body.last(), Some(Statement::Break)) {
        body.pop();
    }
    if breaks(&body) {
        return None;
    }
    Some(Some(body))
}
