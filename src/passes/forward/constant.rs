//! Loads from `static const` globals: a Private global with a constant
//! initialiser that nothing writes (no store, atomic or call reaches it,
//! and its address goes nowhere else) holds its initialiser for the whole
//! invocation, so a load of it at constant indices is that part of the
//! constant (`Weights[3]` of `static const float Weights[9] = {…}`).

use crate::ir::*;
use crate::passes::rewrite::Cx;

/// Per global: whether it may be read-only with a constant initialiser
/// (a Private global initialised without specialization constant); what
/// [`super::simple::simple_locals`] finds of each function's uses then
/// clears the others.
pub(super) fn read_only_candidates(module: &Module) -> Vec<bool> {
    module
        .globals
        .iter()
        .map(|(_, g)| {
            g.space == AddressSpace::Private
                && g.init.is_some_and(|c| module.spec_constant(c).is_none())
        })
        .collect()
}

/// The module constant (or the zero value) that a read-only global's
/// initialiser holds at `path`.
enum Part {
    Constant(Handle<Expression>),
    Zero,
}

fn part_at(module: &Module, init: Handle<Expression>, path: &[u32]) -> Option<Part> {
    let mut c = init;
    for &i in path {
        // Through references to other constants first.
        let mut depth = 0;
        while let Expression::Constant(inner) = module.const_expressions[c] {
            c = inner;
            depth += 1;
            if depth > 16 {
                return None;
            }
        }
        c = match module.const_expressions[c] {
            Expression::Compose { ref components, .. } => *components.get(i as usize)?,
            Expression::Splat { value, .. } => value,
            Expression::ZeroValue(_) => return Some(Part::Zero),
            _ => return None,
        };
        if module.spec_constant(c).is_some() {
            return None;
        }
    }
    Some(Part::Constant(c))
}

/// The value a load of `pointer` (new arena) reads when it points into a
/// read-only global at constant indices.
pub(super) fn constant_load(
    cx: &mut Cx,
    read_only: &[bool],
    pointer: Handle<Expression>,
    ty: Handle<Type>,
) -> Option<Handle<Expression>> {
    let mut path = Vec::new();
    let mut p = pointer;
    let g = loop {
        match *cx.expr(p) {
            Expression::AccessIndex { base, index } => {
                path.push(index);
                p = base;
            }
            Expression::Access { base, index } => {
                let i = match cx.as_literal(index)? {
                    Literal::I32(i) => u32::try_from(i).ok()?,
                    Literal::U32(i) => i,
                    _ => return None,
                };
                path.push(i);
                p = base;
            }
            Expression::GlobalVariable(g) if read_only.get(g.index()) == Some(&true) => break g,
            _ => return None,
        }
    };
    path.reverse();
    let init = cx.module.globals[g].init?;
    let expr = match part_at(cx.module, init, &path)? {
        Part::Constant(c) => {
            if cx.module.const_types.get(c.index()) != Some(&ty) {
                return None;
            }
            Expression::Constant(c)
        }
        Part::Zero => Expression::ZeroValue(ty),
    };
    Some(cx.emit(expr, ty, crate::span::Span::default()))
}
