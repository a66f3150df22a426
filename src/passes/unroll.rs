//! `unroll`: full unrolling of `[unroll]` loops with a counter known at
//! compile time, at every optimisation level.
//!
//! DXC's legalisation unrolls such loops whatever the level, and HLSL
//! relies on it: a texture offset must be a constant in Vulkan, and
//! `[unroll] for (int i = -2; i <= 2; ++i) t.Sample(s, uv, int2(i, 0))` is
//! how blur kernels are written. A loop is unrolled when it has the shape
//! that `for (i = a; i OP b; i += c)` lowers to:
//! - the statement before it (Emits aside) stores an integer literal into
//!   a local `i`;
//! - its body starts with the exit test `if (i OP b) {} else break` (`<`,
//!   `<=`, `>`, `>=`, `!=` against a literal, either way round);
//! - its continuing block is `i = i ± literal` and nothing else;
//! - the rest of the body never writes `i` nor hands out its address, and
//!   has no `break` or `continue` of this loop;
//! - it runs at most [`MAX_TRIPS`] times (`[unroll(n)]`: at most `n`), and
//!   the copies add at most [`MAX_EXPRESSIONS`] expressions.
//!
//! Each iteration becomes a block with a copy of the body (without the
//! test) and of the continuing block, in which every load of `i` is the
//! iteration's value as a literal; the stores of `i` stay, so code after
//! the loop reads its final value. Other loops, `[unroll]` ones included,
//! are left as they are (the backend reports a texture offset that is
//! still not a constant).
//!
//! `precise` is unaffected: copies keep their flags, and `precise` runs
//! after this pass. A function with an unrolled loop is rebuilt (new
//! expression handles). From -O2, a function that `inline` copies into its
//! one caller is unrolled in that copy instead, where [`deferrable`] finds
//! that this makes the same IR (`inline/deferred.rs`).

use super::rewrite;
use crate::ir::*;

/// The most iterations a loop is unrolled to.
pub const MAX_TRIPS: u32 = 256;
/// The most expressions the copies of one loop may add.
pub const MAX_EXPRESSIONS: usize = 16_384;

pub fn run(module: &mut Module) {
    let handles: Vec<_> = module.functions.iter().map(|(h, _)| h).collect();
    for h in handles {
        if has_unroll(&module.functions[h].body) {
            unroll_function(module, h);
        }
    }
}

/// Unrolls the loops of function `h` (one rebuild).
pub(super) fn unroll_function(module: &mut Module, h: Handle<Function>) {
    rewrite::rebuild_function(module, h, &mut Unroller);
}

pub(super) fn has_unroll(block: &[Statement]) -> bool {
    let mut found = false;
    crate::ir::visit::walk_statements(block, |s| {
        if let Statement::Loop {
            control: LoopControl::Unroll(_),
            ..
        } = s
        {
            found = true;
        }
    });
    found
}

/// The rebuild that unrolls: the copies are made by [`rewrite`]'s walk,
/// loops nested in them included.
struct Unroller;

impl rewrite::Rewrite for Unroller {
    const KEEPS_EXPRESSIONS: bool = true;
    fn unroll(
        &mut self,
        cx: &rewrite::Cx,
        before: &[Statement],
        old: &Statement,
    ) -> Option<rewrite::Unrolling> {
        plan(cx.old, before, old)
    }
}

/// What unrolling a function appends to its arena, found without
/// rebuilding it: what `inline` needs to unroll the function in the
/// rebuild that copies it into its caller (see [`deferrable`]).
#[derive(Debug, PartialEq)]
pub struct Unrolled {
    /// The literals the rebuild appends for the counters' values, in the
    /// order it asks for them (a value asked for again, or one the
    /// function already has, is found again by the rebuild that takes
    /// them in: it adds nothing).
    pub literals: Vec<Literal>,
    /// How many expressions the copies hold.
    pub added: usize,
}

/// What unrolling `f` appends (see [`Unrolled`]), when a rebuild that
/// unrolls `f`'s loops as it walks `f`'s body (with [`plan`]) gives the
/// very function that [`run`] followed by a rebuild gives, and `f` reads
/// the same to `inline` before and after. `None` where it might not: `f`
/// has a statement after one that ends its block (the rebuild drops it),
/// or a trivial expression in an `Emit` (the rebuild appends it again);
/// or a loop to unroll has no copy (its expressions vanish), or a loop, a
/// call (one statement, several calls) or a statement that ends the copy
/// in its body.
pub fn deferrable(f: &Function) -> Option<Unrolled> {
    let mut out = Unrolled {
        literals: Vec::new(),
        added: 0,
    };
    deferrable_block(f, &f.body, &mut out)?;
    Some(out)
}

/// [`deferrable`] for the statements of a block, as the rebuild walks them.
fn deferrable_block(f: &Function, stmts: &[Statement], out: &mut Unrolled) -> Option<()> {
    for (i, s) in stmts.iter().enumerate() {
        if let Statement::Loop {
            body, continuing, ..
        } = s
            && let Some(u) = plan(f, &stmts[..i], s)
        {
            // Each copy asks for its counter's value (at the latest in its
            // step, in `continuing`) and for no other literal.
            let asks = continuing.iter().any(|c| match c {
                Statement::Emit(r) => r.iter().any(|h| loads(f, h, u.counter)),
                _ => false,
            });
            let copied = body.iter().enumerate().filter(|&(i, _)| i != u.skip);
            if u.values.is_empty()
                || !asks
                || !copied.chain(continuing.iter().enumerate()).all(|(_, s)| plain(f, s, true))
            {
                return None;
            }
            out.added += u.values.len() * (count_expressions(body) + count_expressions(continuing));
            out.literals.extend(u.values);
            continue;
        }
        deferrable_statement(f, s, out)?;
        if s.ends_block() && i + 1 < stmts.len() {
            return None;
        }
    }
    Some(())
}

fn deferrable_statement(f: &Function, s: &Statement, out: &mut Unrolled) -> Option<()> {
    match s {
        Statement::Emit(r) if r.iter().any(|h| f.expressions[h].is_trivial()) => return None,
        Statement::Block(b) => deferrable_block(f, b, out)?,
        Statement::If { accept, reject, .. } => {
            deferrable_block(f, accept, out)?;
            deferrable_block(f, reject, out)?;
        }
        Statement::Switch { cases, .. } => {
            for c in cases {
                deferrable_block(f, &c.body, out)?;
            }
        }
        Statement::Loop {
            body, continuing, ..
        } => {
            deferrable_block(f, body, out)?;
            // The rebuild copies `continuing` whole, unrolling nothing.
            for s in continuing {
                deferrable_statement(f, s, out)?;
            }
        }
        _ => {}
    }
    Some(())
}

/// Whether `s`, in the copies of an unrolled loop, is copied as it is
/// with no loop, call or trivial expression in an `Emit` in it, and
/// neither it (when `top`: a statement of the copy itself) nor a
/// statement before the end of its nested block ends its block.
fn plain(f: &Function, s: &Statement, top: bool) -> bool {
    match s {
        Statement::Emit(r) => r.iter().all(|h| !f.expressions[h].is_trivial()),
        Statement::Loop { .. } | Statement::Call { .. } => false,
        _ if top && s.ends_block() => false,
        _ => s.blocks().into_iter().all(|b| {
            b.iter()
                .enumerate()
                .all(|(i, t)| plain(f, t, false) && (i + 1 == b.len() || !t.ends_block()))
        }),
    }
}

/// The local variable `h` points at, if it is one.
fn local_of(f: &Function, h: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    match f.expressions[h] {
        Expression::LocalVariable(l) => Some(l),
        _ => None,
    }
}

/// `h` as a 32-bit integer literal (value, signed).
fn int_literal(f: &Function, h: Handle<Expression>) -> Option<(i64, bool)> {
    match f.expressions[h] {
        Expression::Literal(Literal::I32(v)) => Some((v.into(), true)),
        Expression::Literal(Literal::U32(v)) => Some((v.into(), false)),
        _ => None,
    }
}

/// Whether `h` is a load of `counter`.
fn loads(f: &Function, h: Handle<Expression>, counter: Handle<LocalVariable>) -> bool {
    matches!(f.expressions[h], Expression::Load { pointer } if local_of(f, pointer) == Some(counter))
}

/// The copies that replace loop `lp` (after the statements `before` of
/// its block in `f`), if it is one this pass unrolls.
pub(super) fn plan(f: &Function, before: &[Statement], lp: &Statement) -> Option<rewrite::Unrolling> {
    let Statement::Loop {
        body,
        continuing,
        break_if: None,
        control: LoopControl::Unroll(n),
    } = lp
    else {
        return None;
    };
    let limit = n.unwrap_or(MAX_TRIPS).min(MAX_TRIPS);
    // The exit test: the first statement after the body's leading Emits.
    let test = body.iter().position(|s| !matches!(s, Statement::Emit(_)))?;
    let Statement::If {
        condition,
        accept,
        reject,
        ..
    } = &body[test]
    else {
        return None;
    };
    let exit_when = match (accept.as_slice(), reject.as_slice()) {
        ([], [Statement::Break]) => false,
        ([Statement::Break], []) => true,
        _ => return None,
    };
    let Expression::Binary {
        op, left, right, ..
    } = f.expressions[*condition]
    else {
        return None;
    };
    // `i OP bound` or `bound OP i`.
    let (counter_load, bound, op) = match (int_literal(f, left), int_literal(f, right)) {
        (None, Some(b)) => (left, b, op),
        (Some(b), None) => (right, b, mirror(op)?),
        _ => return None,
    };
    let Expression::Load { pointer } = f.expressions[counter_load] else {
        return None;
    };
    let counter = local_of(f, pointer)?;
    let signed = bound.1;
    // The step: `store i, i ± c` and nothing else in `continuing`.
    let step = step(f, continuing, counter)?;
    // The start: the last store before the loop.
    let start = before.iter().rev().find_map(|s| match *s {
        Statement::Emit(_) => None,
        Statement::Store { pointer, value } if local_of(f, pointer) == Some(counter) => {
            Some(int_literal(f, value).map(|(v, _)| v))
        }
        _ => Some(None),
    })??;
    if !body_keeps_counter(f, &body[test + 1..], counter, 0) {
        return None;
    }
    let wrap = |v: i64| -> i64 {
        if signed {
            i64::from(v as i32)
        } else {
            i64::from(v as u32)
        }
    };
    let mut values = Vec::new();
    let mut v = wrap(start);
    loop {
        let holds = compare(op, v, wrap(bound.0));
        if holds == exit_when {
            break;
        }
        if values.len() as u32 >= limit {
            return None;
        }
        values.push(if signed {
            Literal::I32(v as i32)
        } else {
            Literal::U32(v as u32)
        });
        v = wrap(v.wrapping_add(step));
    }
    let per_copy = count_expressions(body) + count_expressions(continuing);
    if per_copy.saturating_mul(values.len()) > MAX_EXPRESSIONS {
        return None;
    }
    Some(rewrite::Unrolling {
        counter,
        skip: test,
        values,
    })
}

/// `b OP i` as `i OP' b`.
fn mirror(op: BinaryOperator) -> Option<BinaryOperator> {
    use BinaryOperator as B;
    Some(match op {
        B::Less => B::Greater,
        B::LessEqual => B::GreaterEqual,
        B::Greater => B::Less,
        B::GreaterEqual => B::LessEqual,
        B::NotEqual => B::NotEqual,
        _ => return None,
    })
}

fn compare(op: BinaryOperator, a: i64, b: i64) -> bool {
    use BinaryOperator as B;
    match op {
        B::Less => a < b,
        B::LessEqual => a <= b,
        B::Greater => a > b,
        B::GreaterEqual => a >= b,
        _ => a != b,
    }
}

/// The constant the continuing block adds to the counter.
fn step(f: &Function, continuing: &[Statement], counter: Handle<LocalVariable>) -> Option<i64> {
    let mut store = None;
    for s in continuing {
        match *s {
            Statement::Emit(_) => {}
            Statement::Store { pointer, value }
                if store.is_none() && local_of(f, pointer) == Some(counter) =>
            {
                store = Some(value)
            }
            _ => return None,
        }
    }
    let Expression::Binary {
        op, left, right, ..
    } = f.expressions[store?]
    else {
        return None;
    };
    match op {
        BinaryOperator::Add if loads(f, left, counter) => int_literal(f, right).map(|v| v.0),
        BinaryOperator::Add if loads(f, right, counter) => int_literal(f, left).map(|v| v.0),
        BinaryOperator::Subtract if loads(f, left, counter) => int_literal(f, right).map(|v| -v.0),
        _ => None,
    }
}

/// Whether `stmts` only ever load `counter` (no store, no address handed
/// to a call or an atomic) and neither break nor continue the loop
/// (`depth` counts the switches and loops they are nested in).
fn body_keeps_counter(
    f: &Function,
    stmts: &[Statement],
    counter: Handle<LocalVariable>,
    depth: u32,
) -> bool {
    stmts.iter().all(|s| {
        let mut ok = true;
        match s {
            Statement::Emit(r) => {
                for h in r.iter() {
                    let e = &f.expressions[h];
                    if !matches!(e, Expression::Load { .. }) {
                        e.for_each_operand(|o| ok &= local_of(f, o) != Some(counter));
                    }
                }
            }
            Statement::Break => ok = depth > 0,
            Statement::Continue => ok = false,
            Statement::Block(b) => ok = body_keeps_counter(f, b, counter, depth),
            Statement::If { accept, reject, .. } => {
                ok = body_keeps_counter(f, accept, counter, depth)
                    && body_keeps_counter(f, reject, counter, depth)
            }
            Statement::Switch { cases, .. } => {
                // `continue` in a switch continues the loop.
                ok = cases.iter().all(|c| {
                    body_keeps_counter(f, &c.body, counter, depth + 1) && !has_continue(&c.body)
                })
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                ok = body_keeps_counter(f, body, counter, depth + 1)
                    && body_keeps_counter(f, continuing, counter, depth + 1)
            }
            _ => {}
        }
        if ok {
            s.for_each_operand(|o| ok &= local_of(f, o) != Some(counter));
        }
        ok
    })
}

/// Whether a `continue` outside nested loops is in `stmts`.
fn has_continue(stmts: &[Statement]) -> bool {
    stmts.iter().any(|s| match s {
        Statement::Continue => true,
        Statement::Block(b) => has_continue(b),
        Statement::If { accept, reject, .. } => has_continue(accept) || has_continue(reject),
        Statement::Switch { cases, .. } => cases.iter().any(|c| has_continue(&c.body)),
        _ => false,
    })
}

fn count_expressions(stmts: &[Statement]) -> usize {
    let mut n = 0;
    crate::ir::visit::walk_statements(stmts, |s| {
        if let Statement::Emit(r) = s {
            n += r.iter().len();
        }
    });
    n
}
