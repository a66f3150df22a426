//! What `forward`'s rebuild will meet, in its order, gathered before it
//! runs: the kind of each block it enters, and for each loop the locals it
//! stores and how control enters its `continuing` block and leaves it.

use crate::ir::*;

/// What the rebuild will meet, in its order, gathered before it runs.
#[derive(Default)]
pub(super) struct Layout {
    /// Per loop: the simple locals stored anywhere in it, and how it ends.
    pub loops: Vec<LoopInfo>,
    /// Per block entered: what it is. (The `else` block of an `if` starts
    /// from the state before the `if`, not after the `then` block.)
    pub kinds: Vec<BlockKind>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BlockKind {
    Then,
    Else,
    LoopBody,
    Continuing,
    Other,
}

#[derive(Default)]
pub(super) struct LoopInfo {
    pub stored: Vec<Handle<LocalVariable>>,
    /// Whether a `continue` in the body goes to its `continuing` block
    /// (else the body's end is the only way there).
    pub has_continue: bool,
    /// Whether every way out of the loop is a `break` before any store in
    /// the body (the test of a `for` or `while`) and there is no
    /// `break_if`: then each local has its value of the loop header there.
    pub exits_at_top: bool,
}

/// The statements of `block` as the rebuild walks them: those of a plain
/// nested block (`{ … }`) in its place, at every depth (see
/// `Rewrite::FLATTENS_BLOCKS`).
fn flat(block: &[Statement]) -> impl Iterator<Item = &Statement> {
    let mut outer = block.iter();
    // The nested blocks being walked, innermost last (none at first: no
    // allocation for a block without them).
    let mut nested: Vec<std::slice::Iter<'_, Statement>> = Vec::new();
    std::iter::from_fn(move || {
        loop {
            let s = match nested.last_mut() {
                Some(top) => match top.next() {
                    Some(s) => s,
                    None => {
                        nested.pop();
                        continue;
                    }
                },
                None => outer.next()?,
            };
            match s {
                Statement::Block(b) => nested.push(b.iter()),
                s => return Some(s),
            }
        }
    })
}

/// Whether `block` has a `break` of the loop around it (inner loops and
/// `switch`es keep theirs).
fn breaks(block: &[Statement]) -> bool {
    block.iter().any(|s| match s {
        Statement::Break => true,
        Statement::Loop { .. } | Statement::Switch { .. } => false,
        other => other.blocks().into_iter().any(|b| breaks(b)),
    })
}

/// Whether some statement of `s` stores (or may store) into memory.
fn stores_anything(s: &Statement) -> bool {
    let mut any = false;
    crate::ir::visit::walk_statements(std::slice::from_ref(s), |s| {
        any |= matches!(
            s,
            Statement::Store { .. } | Statement::Call { .. } | Statement::Atomic { .. }
        );
    });
    any
}

/// See [`LoopInfo::exits_at_top`].
fn exits_at_top(body: &[Statement], break_if: Option<Handle<Expression>>) -> bool {
    if break_if.is_some() {
        return false;
    }
    let mut stored = false;
    for s in flat(body) {
        if breaks(std::slice::from_ref(s)) && stored {
            return false;
        }
        stored |= stores_anything(s);
    }
    true
}

/// Appends to `set` the simple locals stored in `block` (some more than
/// once), filling `layout` for the loops and blocks in it.
pub(super) fn stores_in(
    block: &[Statement],
    f: &Function,
    simple: &[bool],
    layout: &mut Layout,
    set: &mut Vec<Handle<LocalVariable>>,
    stop_at_terminator: bool,
) {
    for s in flat(block) {
        match s {
            Statement::Store { pointer, .. } => {
                let mut p = *pointer;
                while let Expression::AccessIndex { base, .. } = f.expressions[p] {
                    p = base;
                }
                if let Expression::LocalVariable(l) = f.expressions[p]
                    && simple[l.index()]
                {
                    set.push(l);
                }
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
                ..
            } => {
                let k = layout.loops.len();
                layout.loops.push(LoopInfo {
                    stored: Vec::new(),
                    has_continue: crate::ir::visit::continues(body),
                    exits_at_top: exits_at_top(body, *break_if),
                });
                layout.kinds.push(BlockKind::LoopBody);
                let start = set.len();
                stores_in(body, f, simple, layout, set, true);
                // The rebuild walks `continuing` without stopping at a
                // terminator: so does this.
                layout.kinds.push(BlockKind::Continuing);
                stores_in(continuing, f, simple, layout, set, false);
                let mut list = set.get(start..).unwrap_or_default().to_vec();
                list.sort_unstable_by_key(|l| l.index());
                list.dedup();
                // The loops around this one need each local once.
                set.truncate(start);
                set.extend_from_slice(&list);
                layout.loops[k].stored = list;
            }
            Statement::If { accept, reject, .. } => {
                layout.kinds.push(BlockKind::Then);
                stores_in(accept, f, simple, layout, set, true);
                layout.kinds.push(BlockKind::Else);
                stores_in(reject, f, simple, layout, set, true);
            }
            other => {
                for b in other.blocks() {
                    layout.kinds.push(BlockKind::Other);
                    stores_in(b, f, simple, layout, set, true);
                }
            }
        }
        if stop_at_terminator && s.ends_block() {
            break;
        }
    }
}

