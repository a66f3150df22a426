//! Which locals `forward` tracks (the *simple* ones, see the pass's docs).

use crate::ir::*;

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

/// What a pointer expression points into.
#[derive(Clone, Copy)]
enum Root {
    None,
    Local(Handle<LocalVariable>),
    Global(Handle<GlobalVariable>),
}

/// Which locals of `f` are simple (see the module docs); clears in
/// `read_only` the globals that `f` may write or whose address goes
/// anywhere but a load or an access chain (it is read-only when no
/// function does: see [`super::constant`]). One sweep of the expressions
/// and one walk of the body find both.
pub(super) fn simple_locals(
    types: &UniqueArena<Type>,
    f: &Function,
    read_only: &mut [bool],
) -> Vec<bool> {
    // A local the shader decorated keeps its loads and stores.
    let mut simple: Vec<bool> = f
        .local_variables
        .iter()
        .map(|(_, l)| l.spirv_decorations.is_empty())
        .collect();
    // Operands come before their users: the roots of an expression's
    // operands are known when it is reached.
    let mut roots: Vec<Root> = Vec::with_capacity(f.expressions.len());
    let root_of =
        |roots: &[Root], h: Handle<Expression>| roots.get(h.index()).copied().unwrap_or(Root::None);
    // A use of a pointer into a local or a global that is not a load or
    // an access chain.
    let escapes = |simple: &mut [bool], read_only: &mut [bool], root: Root| match root {
        Root::Local(l) => {
            if let Some(s) = simple.get_mut(l.index()) {
                *s = false;
            }
        }
        Root::Global(g) => {
            if let Some(r) = read_only.get_mut(g.index()) {
                *r = false;
            }
        }
        Root::None => {}
    };
    for (_, e) in f.expressions.iter() {
        let root = match *e {
            Expression::LocalVariable(l) => Root::Local(l),
            Expression::GlobalVariable(g) => Root::Global(g),
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => {
                root_of(&roots, base)
            }
            _ => Root::None,
        };
        match *e {
            // Reading it, or reaching into it.
            Expression::Load { .. }
            | Expression::AccessIndex { .. }
            | Expression::LocalVariable(_)
            | Expression::GlobalVariable(_) => {}
            // A dynamic index into a local keeps it simple (its loads are
            // kept); an index that is a global's pointer does not keep
            // the global read-only.
            Expression::Access { index, .. } => {
                if let Root::Global(g) = root_of(&roots, index) {
                    escapes(&mut simple, read_only, Root::Global(g));
                }
            }
            ref other => {
                other.for_each_operand(|o| escapes(&mut simple, read_only, root_of(&roots, o)))
            }
        }
        roots.push(root);
    }
    let root = |h: Handle<Expression>| root_of(&roots, h);
    crate::ir::visit::walk_statements(&f.body, |s| match *s {
        Statement::Store { pointer, value } => {
            match root(pointer) {
                // Stores of the whole local or of one part keep it simple.
                Root::Local(l) if constant_path(types, f, pointer).is_none() => {
                    escapes(&mut simple, read_only, Root::Local(l));
                }
                Root::Local(_) => {}
                other => escapes(&mut simple, read_only, other),
            }
            escapes(&mut simple, read_only, root(value));
        }
        // The condition that ends a loop, which no operand walk gives.
        Statement::Loop {
            break_if: Some(b), ..
        } => {
            if let Root::Global(g) = root(b) {
                escapes(&mut simple, read_only, Root::Global(g));
            }
        }
        // A debug variable names the local for debuggers: no read or
        // write (`dce` drops it with the local). A global's keeps it.
        Statement::Debug(_) => s.for_each_operand(|o| {
            if let Root::Global(g) = root(o) {
                escapes(&mut simple, read_only, Root::Global(g));
            }
        }),
        ref other => other.for_each_operand(|o| escapes(&mut simple, read_only, root(o))),
    });
    simple
}
