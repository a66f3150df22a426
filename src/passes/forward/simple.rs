//! Which locals `forward` tracks (the *simple* ones, see the pass's docs),
//! and the flattening of plain nested blocks it starts with.

use crate::ir::*;

/// Moves the statements of plain nested blocks into the block around them
/// (at every depth). Widening an expression's scope keeps the IR valid;
/// statements after a terminator become unreachable and the rebuild drops
/// them.
pub(super) fn flatten_blocks(block: Block) -> Block {
    let mut out = Block::with_capacity(block.len());
    // An explicit stack of statement iterators: no recursion per level of
    // plain blocks.
    let mut stack = vec![block.into_iter()];
    while let Some(top) = stack.last_mut() {
        let Some(s) = top.next() else {
            stack.pop();
            continue;
        };
        match s {
            Statement::Block(b) => stack.push(b.into_iter()),
            mut other => {
                for_each_block_mut(&mut other, |b| *b = flatten_blocks(std::mem::take(b)));
                out.push(other);
            }
        }
    }
    out
}

/// Calls `f` on each block nested directly in `s`.
fn for_each_block_mut(s: &mut Statement, mut f: impl FnMut(&mut Block)) {
    match s {
        Statement::Block(b) => f(b),
        Statement::If { accept, reject, .. } => {
            f(accept);
            f(reject);
        }
        Statement::Switch { cases, .. } => cases.iter_mut().for_each(|c| f(&mut c.body)),
        Statement::Loop {
            body, continuing, ..
        } => {
            f(body);
            f(continuing);
        }
        _ => {}
    }
}

/// The local a pointer expression points into, for every expression.
fn local_roots(f: &Function) -> Vec<Option<Handle<LocalVariable>>> {
    let mut roots: Vec<Option<Handle<LocalVariable>>> = vec![None; f.expressions.len()];
    for (h, e) in f.expressions.iter() {
        roots[h.index()] = match *e {
            Expression::LocalVariable(l) => Some(l),
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => {
                roots.get(base.index()).copied().flatten()
            }
            _ => None,
        };
    }
    roots
}

/// How many parts (members, components, rows, elements) a local of type
/// `ty` has, when it is a composite the pass tracks part by part.
pub(super) fn part_count(types: &UniqueArena<Type>, ty: Handle<Type>) -> Option<usize> {
    let n = match types[ty].inner {
        TypeInner::Vector { size, .. } => size as usize,
        TypeInner::Matrix { rows, .. } => rows as usize,
        TypeInner::Struct { ref members, .. } => members.len(),
        TypeInner::Array {
            size: ArraySize::Constant(n),
            ..
        } => n as usize,
        _ => return None,
    };
    (1..=MAX_PARTS).contains(&n).then_some(n)
}

/// Composites with more parts are forwarded only as a whole.
const MAX_PARTS: usize = 16;

/// The deepest access path the pass tracks part by part.
const MAX_DEPTH: usize = 4;

/// A pointer that is a local or a chain of constant indices into it, each
/// step into a composite the pass tracks: the local and the indices from
/// the variable outwards.
fn constant_path(
    types: &UniqueArena<Type>,
    f: &Function,
    pointer: Handle<Expression>,
) -> Option<(Handle<LocalVariable>, Vec<u32>)> {
    let mut path = Vec::new();
    let mut p = pointer;
    let local = loop {
        match f.expressions[p] {
            Expression::AccessIndex { base, index } if path.len() < MAX_DEPTH => {
                // The step's base must be a composite with few parts.
                let TypeInner::Pointer { base: pointee, .. } = types[f.expr_type(base)].inner
                else {
                    return None;
                };
                part_count(types, pointee)?;
                path.push(index);
                p = base;
            }
            Expression::LocalVariable(l) => break l,
            _ => return None,
        }
    };
    path.reverse();
    Some((local, path))
}

/// Which locals are simple (see the module docs).
pub(super) fn simple_locals(types: &UniqueArena<Type>, f: &Function) -> Vec<bool> {
    let roots = local_roots(f);
    let root = |h: Handle<Expression>| roots.get(h.index()).copied().flatten();
    // A local the shader decorated keeps its loads and stores.
    let mut simple: Vec<bool> = f
        .local_variables
        .iter()
        .map(|(_, l)| l.spirv_decorations.is_empty())
        .collect();
    for (_, e) in f.expressions.iter() {
        match e {
            Expression::Load { .. }
            | Expression::AccessIndex { .. }
            | Expression::Access { .. }
            | Expression::LocalVariable(_) => {}
            other => other.for_each_operand(|o| {
                if let Some(l) = root(o) {
                    simple[l.index()] = false;
                }
            }),
        }
    }
    crate::ir::visit::walk_statements(&f.body, |s| match *s {
        Statement::Store { pointer, value } => {
            let whole_or_part = constant_path(types, f, pointer).is_some();
            if let Some(l) = root(pointer)
                && !whole_or_part
            {
                simple[l.index()] = false;
            }
            if let Some(l) = root(value) {
                simple[l.index()] = false;
            }
        }
        // A debug variable names the local for debuggers: no read or
        // write (`dce` drops it with the local).
        Statement::Debug(_) => {}
        ref other => other.for_each_operand(|o| {
            if let Some(l) = root(o) {
                simple[l.index()] = false;
            }
        }),
    });
    simple
}
