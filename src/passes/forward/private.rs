//! Statics (`Private` globals) that only an entry point's own function
//! touches are locals of it: each invocation runs that function once,
//! from the global's initial value (its initialiser, else zero), and
//! nothing else sees the variable. As locals, `forward` and `dce` treat
//! them like any other (spirv-opt's private-to-local does the same).
//!
//! Only for statics that the function writes (the others are constants
//! to `forward`), of plain data reached by loads and stores (through constant or
//! dynamic access chains), with no decoration and no specialization
//! constant as initial value. Debug information does not hold a static
//! back (as spirv-opt's pass does not): a moved static gets no
//! `DebugGlobalVariable`, and what `dce` removes of it is gone for
//! debuggers too.

use super::plain_data;
use crate::ir::visit::walk_statements;
use crate::ir::*;

/// Moves such statics into their functions; the globals stay, unused.
/// `read_only`: per global, whether nothing writes it (such a static is
/// not moved). Whether any static moved.
pub(super) fn privates_to_locals(module: &mut Module, read_only: &[bool]) -> bool {
    // Most shaders have no static that something writes: then there is
    // nothing to look for in the functions.
    let written = |(g, v): (Handle<GlobalVariable>, &GlobalVariable)| {
        v.space == AddressSpace::Private && !read_only.get(g.index()).copied().unwrap_or(false)
    };
    if !module.globals.iter().any(written) {
        return false;
    }
    let n = module.globals.len();
    // Per global: the one function that uses it, or `None` (unused or
    // used by several: `Some(None)`).
    let mut user: Vec<Option<Option<Handle<Function>>>> = vec![None; n];
    let mut called = vec![false; module.functions.len()];
    let reachable = reachable(module);
    for (fh, f) in module.functions.iter() {
        if !reachable[fh.index()] {
            // Left for `dce` to remove: what it uses does not matter.
            continue;
        }
        for (_, e) in f.expressions.iter() {
            if let Expression::GlobalVariable(g) = *e {
                let u = &mut user[g.index()];
                *u = match *u {
                    None => Some(Some(fh)),
                    Some(Some(other)) if other == fh => Some(Some(fh)),
                    _ => Some(None),
                };
            }
        }
        walk_statements(&f.body, |s| {
            if let Statement::Call { function, .. } = *s {
                called[function.index()] = true;
            }
        });
    }
    let entries: Vec<Handle<Function>> = module.entry_points.iter().map(|e| e.function).collect();
    let mut moved = false;
    for (gi, u) in user.into_iter().enumerate() {
        let Some(Some(fh)) = u else { continue };
        let g = Handle::from_index(gi);
        let gv = &module.globals[g];
        if gv.space != AddressSpace::Private
            || read_only.get(gi).copied().unwrap_or(false)
            || !entries.contains(&fh)
            || called[fh.index()]
            || !plain_data(module, gv.ty)
            || gv.init.is_some_and(|c| module.spec_constant(c).is_some())
            || module.spirv_decorations.iter().any(|(d, _)| *d == g)
        {
            continue;
        }
        moved |= move_into(module, g, fh);
    }
    moved
}

/// The functions that entry points run, themselves or through calls (all
/// of them in a module without entry points).
fn reachable(module: &Module) -> Vec<bool> {
    let n = module.functions.len();
    if module.entry_points.is_empty() {
        return vec![true; n];
    }
    let mut seen = vec![false; n];
    let mut stack: Vec<Handle<Function>> = module.entry_points.iter().map(|e| e.function).collect();
    while let Some(fh) = stack.pop() {
        if std::mem::replace(&mut seen[fh.index()], true) {
            continue;
        }
        walk_statements(&module.functions[fh].body, |s| {
            if let Statement::Call { function, .. } = *s {
                stack.push(function);
            }
        });
    }
    seen
}

/// Replaces the references to `g` in `fh` by a new local, when every use
/// is a load, a store or an access chain to those; whether it did.
fn move_into(module: &mut Module, g: Handle<GlobalVariable>, fh: Handle<Function>) -> bool {
    let f = &module.functions[fh];
    // The pointers rooted at `g` (operands come first: one sweep).
    let mut rooted = vec![false; f.expressions.len()];
    for (h, e) in f.expressions.iter() {
        rooted[h.index()] = match *e {
            Expression::GlobalVariable(x) => x == g,
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => {
                rooted[base.index()]
            }
            _ => false,
        };
    }
    // Every use of such a pointer is a load, a store's pointer or a chain.
    let mut ok = true;
    for (_, e) in f.expressions.iter() {
        match *e {
            Expression::Load { .. } | Expression::AccessIndex { .. } => {}
            Expression::Access { index, .. } => ok &= !rooted[index.index()],
            ref other => other.for_each_operand(|o| ok &= !rooted[o.index()]),
        }
    }
    let mut written = false;
    walk_statements(&f.body, |s| match *s {
        Statement::Store { pointer, value } => {
            written |= rooted[pointer.index()];
            ok &= !rooted[value.index()]
        }
        // A debug variable held in the static (an inlined `out`
        // argument) is then held in the local.
        Statement::Emit(_) | Statement::Debug(_) => {}
        ref other => other.for_each_operand(|o| ok &= !rooted[o.index()]),
    });
    // A static nothing writes keeps its initialiser: `forward` reads it
    // as a constant where it stands.
    if !ok || !written {
        return false;
    }
    let gv = module.globals[g].clone();
    let mut retyped = Vec::new();
    for (h, _) in module.functions[fh].expressions.iter() {
        if rooted[h.index()] {
            let ty = module.functions[fh].expr_type(h);
            let TypeInner::Pointer { base, .. } = module.types[ty].inner else {
                return false;
            };
            retyped.push((h, base));
        }
    }
    let f = &mut module.functions[fh];
    let init = match gv.init {
        Some(c) => f.add_expression(Expression::Constant(c), gv.ty),
        None => match module.types[gv.ty].inner {
            TypeInner::Scalar(s) if let Some(z) = Literal::zero(s) => {
                f.add_expression(Expression::Literal(z), gv.ty)
            }
            _ => f.add_expression(Expression::ZeroValue(gv.ty), gv.ty),
        },
    };
    let local = f.local_variables.append(LocalVariable {
        name: gv.name.clone(),
        ty: gv.ty,
        init: Some(init),
        precise: gv.precise,
        aliased: false,
        spirv_decorations: Vec::new(),
    });
    for (h, base) in retyped {
        let pty = module.ty(TypeInner::Pointer {
            base,
            space: AddressSpace::Function,
        });
        let f = &mut module.functions[fh];
        f.expr_types[h.index()] = pty;
        if let Expression::GlobalVariable(_) = f.expressions[h] {
            f.expressions[h] = Expression::LocalVariable(local);
        }
    }
    true
}
