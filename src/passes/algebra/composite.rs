//! Composite shortcuts of `algebra`: picking components out of values
//! whose components are known (composes, splats, swizzles) reads them
//! directly, and a vector composed of components of one vector is a
//! swizzle of it (or the vector itself). All exact: only moves values.
//! `cse` applies them again once equal operands are one (`float3(m[0].x,
//! m[0].y, m[0].z)` with `m[0]` read three times is `m[0]` only then).

use super::super::rewrite::Cx;
use crate::ir::*;
use crate::span::Span;

/// Where one component of a vector value comes from: a scalar expression,
/// or component `index` of a vector expression.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    Scalar(Handle<Expression>),
    Lane(Handle<Expression>, u32),
}

/// The components of a vector value of the new arena, one piece each,
/// when they can be told without a new instruction.
fn pieces(cx: &Cx, h: Handle<Expression>) -> Option<Vec<Piece>> {
    let TypeInner::Vector { size, .. } = *cx.inner(h) else {
        return None;
    };
    match *cx.expr(h) {
        Expression::Compose { ref components, .. } => {
            let mut out = Vec::with_capacity(size as usize);
            for &c in components {
                match *cx.inner(c) {
                    TypeInner::Scalar(_) => out.push(Piece::Scalar(c)),
                    TypeInner::Vector { size: n, .. } => {
                        out.extend((0..n as u32).map(|k| Piece::Lane(c, k)))
                    }
                    _ => return None,
                }
            }
            (out.len() == size as usize).then_some(out)
        }
        Expression::Splat { value, .. } => Some(vec![Piece::Scalar(value); size as usize]),
        Expression::Swizzle {
            size,
            vector,
            pattern,
        } => Some(
            pattern[..size as usize]
                .iter()
                .map(|&p| Piece::Lane(vector, p as u32))
                .collect(),
        ),
        _ => None,
    }
}

/// A piece as an expression (a lane is read out of its vector).
fn piece_value(cx: &mut Cx, p: Piece, span: Span) -> Handle<Expression> {
    match p {
        Piece::Scalar(s) => s,
        Piece::Lane(v, index) => {
            let TypeInner::Vector { scalar, .. } = *cx.inner(v) else {
                unreachable!("a lane of a non-vector")
            };
            let ty = cx.module.scalar_type(scalar);
            cx.emit(Expression::AccessIndex { base: v, index }, ty, span)
        }
    }
}

/// The vector of type `ty` made of `picked`: the one vector they all come
/// from, in order and whole; a swizzle of it; or scalars composed. `None`
/// when they mix sources (a compose would not be smaller).
fn assemble(
    cx: &mut Cx,
    picked: &[Piece],
    ty: Handle<Type>,
    span: Span,
) -> Option<Handle<Expression>> {
    if let Some(&Piece::Lane(v, _)) = picked.first()
        && let Some(lanes) = picked
            .iter()
            .map(|p| match *p {
                Piece::Lane(w, k) if w == v => Some(k),
                _ => None,
            })
            .collect::<Option<Vec<u32>>>()
    {
        let TypeInner::Vector { size: n, .. } = *cx.inner(v) else {
            return None;
        };
        if cx.ty(v) == ty && lanes.iter().enumerate().all(|(i, &k)| k == i as u32) {
            return Some(v);
        }
        let comp = [
            SwizzleComponent::X,
            SwizzleComponent::Y,
            SwizzleComponent::Z,
            SwizzleComponent::W,
        ];
        let mut pattern = [SwizzleComponent::X; 4];
        for (i, &k) in lanes.iter().enumerate() {
            if k >= n as u32 {
                return None;
            }
            pattern[i] = comp[k as usize];
        }
        return Some(cx.emit(
            Expression::Swizzle {
                size: lanes.len() as u8,
                vector: v,
                pattern,
            },
            ty,
            span,
        ));
    }
    if picked.iter().all(|p| matches!(p, Piece::Scalar(_))) {
        let first = picked[0];
        if picked.iter().all(|&p| p == first) {
            let Piece::Scalar(value) = first else {
                unreachable!()
            };
            let size = picked.len() as u8;
            return Some(cx.emit(Expression::Splat { size, value }, ty, span));
        }
        let components = picked
            .iter()
            .map(|&p| match p {
                Piece::Scalar(s) => s,
                Piece::Lane(..) => unreachable!(),
            })
            .collect();
        return Some(cx.emit(Expression::Compose { ty, components }, ty, span));
    }
    None
}

/// `swizzle`, `access` (constant index) and `compose` shortcuts; `None`
/// leaves the expression as it is (any other kind of expression, told
/// apart before the call).
#[inline]
pub(in crate::passes) fn simplify(
    cx: &mut Cx,
    e: &Expression,
    ty: Handle<Type>,
    span: Span,
) -> Option<Handle<Expression>> {
    match e {
        Expression::Swizzle { .. } | Expression::AccessIndex { .. } | Expression::Compose { .. } => {
            simplify_parts(cx, e, ty, span)
        }
        _ => None,
    }
}

/// Whether old expression `e`, its operands mapped to the new arena by
/// `cx`, is one that neither [`simplify`] nor `const_fold` (which needs a
/// constant operand) changes: a swizzle or constant index of a value
/// whose parts are not known, a compose of no constant index, or none of
/// these. Errs on the side of `false`.
pub(in crate::passes) fn leaves_alone(cx: &Cx, e: &Expression) -> bool {
    match *e {
        Expression::Swizzle { vector: base, .. } | Expression::AccessIndex { base, .. } => !matches!(
            cx.expr(cx.map(base)),
            Expression::Literal(_)
                | Expression::ZeroValue(_)
                | Expression::Constant(_)
                | Expression::Splat { .. }
                | Expression::Compose { .. }
                | Expression::Swizzle { .. }
        ),
        Expression::Compose { ref components, .. } => !components
            .iter()
            .any(|&c| matches!(cx.expr(cx.map(c)), Expression::AccessIndex { .. })),
        _ => true,
    }
}

/// [`simplify`] of a swizzle, constant index or compose.
fn simplify_parts(
    cx: &mut Cx,
    e: &Expression,
    ty: Handle<Type>,
    span: Span,
) -> Option<Handle<Expression>> {
    // A part of a null value is null.
    if let Expression::Swizzle { vector: base, .. } | Expression::AccessIndex { base, .. } = *e
        && let Expression::ZeroValue(_) = *cx.expr(base)
    {
        return Some(cx.emit(Expression::ZeroValue(ty), ty, span));
    }
    match *e {
        Expression::Swizzle {
            size,
            vector,
            pattern,
        } => {
            let from = pieces(cx, vector)?;
            let picked: Vec<Piece> = pattern[..size as usize]
                .iter()
                .map(|&p| from.get(p as usize).copied())
                .collect::<Option<_>>()?;
            assemble(cx, &picked, ty, span)
        }
        Expression::AccessIndex { base, index } => {
            if let TypeInner::Vector { .. } = *cx.inner(base) {
                let p = *pieces(cx, base)?.get(index as usize)?;
                // The scalar itself, or the lane of the vector inside.
                return Some(piece_value(cx, p, span));
            }
            // A member, element or row of a composed struct, array or
            // matrix: the component itself.
            match *cx.expr(base) {
                Expression::Compose { ref components, .. } => {
                    let c = *components.get(index as usize)?;
                    (cx.ty(c) == ty).then_some(c)
                }
                _ => None,
            }
        }
        Expression::Compose { ref components, .. } => {
            // Every part of one value of the type, in order: that value.
            if let Some(&first) = components.first()
                && let Expression::AccessIndex { base, index: 0 } = *cx.expr(first)
                && cx.ty(base) == ty
                && components.iter().enumerate().all(|(i, &c)| {
                    matches!(*cx.expr(c),
                        Expression::AccessIndex { base: b, index } if b == base && index == i as u32)
                })
                && parts(&cx.module.types[ty].inner) == Some(components.len())
            {
                return Some(base);
            }
            let TypeInner::Vector { size, .. } = cx.module.types[ty].inner else {
                return None;
            };
            if components.len() != size as usize {
                return None;
            }
            // Every component a lane of one vector: a swizzle of it.
            let picked: Vec<Piece> = components
                .iter()
                .map(|&c| match *cx.expr(c) {
                    Expression::AccessIndex { base, index }
                        if matches!(cx.inner(base), TypeInner::Vector { .. }) =>
                    {
                        Some(Piece::Lane(base, index))
                    }
                    _ => None,
                })
                .collect::<Option<_>>()?;
            assemble(cx, &picked, ty, span)
        }
        _ => None,
    }
}

/// How many parts a value of a composite type has.
fn parts(t: &TypeInner) -> Option<usize> {
    Some(match *t {
        TypeInner::Vector { size, .. } => size as usize,
        TypeInner::Matrix { rows, .. } => rows as usize,
        TypeInner::Array {
            size: ArraySize::Constant(n),
            ..
        } => n as usize,
        TypeInner::Struct { ref members, .. } => members.len(),
        _ => return None,
    })
}
