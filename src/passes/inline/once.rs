//! The one-trip loop that early returns become, without the loop where
//! its `break`s end branches of `if`s: `if (c) { A; break; } B; break;`
//! is `if (c) { A } else { B }`. What follows such an `if` moves into its
//! branch that runs on (what follows a branch that leaves is out of
//! reach), so the stores into the result are in branches `forward` merges.

use crate::ir::visit::{breaks, continues};
use crate::ir::*;

/// The statements of a one-trip loop's body `once` (its last statement a
/// `break`): `Ok` without the loop when no `break` of it is left, else
/// `Err` with the body for the loop (equivalent, maybe with fewer
/// `break`s).
pub(super) fn unloop(once: Block) -> Result<Block, Block> {
    if !matches!(once.last(), Some(Statement::Break)) || continues(&once) {
        return Err(once);
    }
    let out = exits(flatten(once));
    if breaks(&out) {
        let mut body = out;
        body.push(Statement::Break);
        return Err(body);
    }
    Ok(out)
}

/// A block whose end leaves the loop, with the `if`s that hold a `break`
/// at the end of a branch turned inside out (see the module docs); at
/// the same depth and in the branches, recursively.
fn exits(mut block: Block) -> Block {
    // A last `break` leaves as the end does.
    if ends_in_break(&block) {
        block.pop();
    }
    let mut out = Block::with_capacity(block.len());
    let mut statements = block.into_iter();
    while let Some(s) = statements.next() {
        let ends_block = s.ends_block();
        match s {
            Statement::If {
                condition,
                accept,
                reject,
                control,
            } if ends_in_break(&accept) || ends_in_break(&reject) => {
                let mut rest = Some(statements.collect::<Block>());
                let mut branch = |b: Block| {
                    let mut b = flatten(b);
                    if !ends_in_break(&b)
                        && let Some(r) = rest.take()
                    {
                        b.extend(r);
                    }
                    exits(flatten(b))
                };
                let accept = branch(accept);
                let reject = branch(reject);
                out.push(Statement::If {
                    condition,
                    accept,
                    reject,
                    control,
                });
                return out;
            }
            other => out.push(other),
        }
        if ends_block {
            break;
        }
    }
    out
}

/// Whether a block's last statement is a `break`.
fn ends_in_break(b: &Block) -> bool {
    matches!(b.last(), Some(Statement::Break))
}

/// The statements of nested plain blocks in their place (a block is only
/// a scope), up to the first that ends the block.
fn flatten(block: Block) -> Block {
    let mut out = Block::with_capacity(block.len());
    for s in block {
        let ends = s.ends_block();
        match s {
            Statement::Block(b) => {
                let inner = flatten(b);
                let inner_ends = inner.last().is_some_and(Statement::ends_block);
                out.extend(inner);
                if inner_ends {
                    break;
                }
            }
            other => out.push(other),
        }
        if ends {
            break;
        }
    }
    out
}
