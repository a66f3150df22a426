//! Debug information in `dce`: it keeps nothing alive. A debug variable
//! goes with its value or local (or becomes a `DebugValue` of what a
//! removed local held), and scopes and lines that describe no code go.

use super::retain_all;
use crate::ir::visit::walk_statements;
use crate::ir::*;
use crate::span::Span;
use rustc_hash::FxHashMap;

/// Keeps the debug variables of live values and of live locals (named
/// by the local itself or a constant access chain into it: marked live
/// here), and drops the others: a debugger no longer sees what the
/// shader no longer computes.
pub(super) fn variables(f: &mut Function, live: &mut [bool], local_live: &[bool]) {
    let mut dead = false;
    walk_statements(&f.body, |s| {
        if let Statement::Debug(DebugInfo::Variable { value, .. }) = *s
            && !live[value.index()]
        {
            match kept_chain(f, value, local_live) {
                Some(chain) => {
                    for h in chain {
                        live[h.index()] = true;
                    }
                }
                _ => dead = true,
            }
        }
    });
    if !dead {
        return;
    }
    let live: &[bool] = live;
    let mut body = std::mem::take(&mut f.body);
    retain_all(&mut body, &|s| match s {
        Statement::Debug(DebugInfo::Variable { value, .. }) => live[value.index()],
        _ => true,
    });
    f.body = body;
}

/// The expressions of a pointer into a live local or into an argument
/// (an `out` parameter) through constant indices only, the pointer first;
/// `None` for any other value.
fn kept_chain(
    f: &Function,
    mut p: Handle<Expression>,
    local_live: &[bool],
) -> Option<Vec<Handle<Expression>>> {
    let mut chain = Vec::new();
    loop {
        chain.push(p);
        match f.expressions[p] {
            Expression::AccessIndex { base, .. } => p = base,
            Expression::LocalVariable(l) if local_live[l.index()] => return Some(chain),
            Expression::FunctionArgument(_) => return Some(chain),
            _ => return None,
        }
    }
}

/// What the debug variables that name a whole local say of it, per local
/// (the first of each).
pub(super) fn declarations(
    f: &Function,
    body: &Block,
) -> FxHashMap<Handle<LocalVariable>, (String, Span, Option<u32>)> {
    let mut declared = FxHashMap::default();
    walk_statements(body, |s| {
        if let Statement::Debug(DebugInfo::Variable {
            value,
            name,
            span,
            arg,
        }) = s
            && let Expression::LocalVariable(l) = f.expressions[*value]
        {
            declared
                .entry(l)
                .or_insert_with(|| (name.clone(), *span, *arg));
        }
    });
    declared
}

/// Drops the debug lines and scopes that describe no code, in `block`
/// and the blocks nested in it: a `Line` followed by no code before the
/// next `Line` of its block (or the block's end), and a `Begin` with no
/// code before its `End` (or the block's end), with that `End` and the
/// debug variables in it. For lines a debug variable is code: it says
/// where it is.
pub(super) fn drop_idle(block: &mut Block) {
    for s in block.iter_mut() {
        for b in super::blocks_mut(s) {
            drop_idle(b);
        }
    }
    let code = |s: &Statement| {
        !matches!(
            s,
            Statement::Debug(DebugInfo::Line(_) | DebugInfo::Begin(_) | DebugInfo::End)
        )
    };
    let mut keep = vec![true; block.len()];
    // Lines, last to first: whether code follows before the next line.
    let mut code_after = false;
    for (i, s) in block.iter().enumerate().rev() {
        match s {
            Statement::Debug(DebugInfo::Line(_)) => {
                keep[i] = code_after;
                code_after = false;
            }
            s if code(s) => code_after = true,
            _ => {}
        }
    }
    // Scopes: the open ones with whether code stood in them yet, and
    // the debug variables in them. A scope without code is never where
    // a debugger stops: its variables go with it.
    struct Open {
        begin: usize,
        code: bool,
        variables: Vec<usize>,
    }
    let mut open: Vec<Open> = Vec::new();
    let close = |o: Open, keep: &mut [bool], outer: Option<&mut Open>| {
        if o.code {
            if let Some(outer) = outer {
                outer.code = true;
            }
            return;
        }
        keep[o.begin] = false;
        for v in o.variables {
            keep[v] = false;
        }
    };
    for (i, s) in block.iter().enumerate() {
        match s {
            Statement::Debug(DebugInfo::Begin(_)) => open.push(Open {
                begin: i,
                code: false,
                variables: Vec::new(),
            }),
            Statement::Debug(DebugInfo::End) => {
                if let Some(o) = open.pop() {
                    if !o.code {
                        keep[i] = false;
                    }
                    close(o, &mut keep, open.last_mut());
                }
            }
            Statement::Debug(DebugInfo::Variable { .. }) => {
                if let Some(top) = open.last_mut() {
                    top.variables.push(i);
                }
            }
            s if code(s) => {
                if let Some(top) = open.last_mut() {
                    top.code = true;
                }
            }
            _ => {}
        }
    }
    // Unclosed scopes end with the block, innermost first.
    while let Some(o) = open.pop() {
        close(o, &mut keep, open.last_mut());
    }
    if keep.iter().all(|k| *k) {
        return;
    }
    let mut i = 0;
    block.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}
