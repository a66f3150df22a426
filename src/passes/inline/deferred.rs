//! Unrolling in `inline`'s rebuild. From -O2, a function with `[unroll]`
//! loops that is inlined wherever it is called (a function called from
//! one place) and never kept on its own is not rebuilt by `unroll`: the
//! rebuild that copies it into its caller unrolls its loops as it walks
//! its body (one walk of the copies instead of two). What that rebuild
//! makes is the function that `unroll` and then `inline` make: the
//! literals that unrolling appends to the function's arena join the
//! trivial expressions of its copy, in their place (see
//! [`unroll::deferrable`], which also says which functions qualify).
//!
//! A deferred function is unrolled on its own after all where it is read
//! otherwise: before a caller's calls are spliced (`inline_call` copies
//! the body as it is), and at the end of the pass when it is still
//! called.

use super::super::unroll::{self, Unrolled};
use super::{Policy, inlinable, sites};
use crate::ir::*;

/// The functions whose unrolling `inline` does, with what it appends.
/// Each is inlinable under `Policy::All` (it was deferred because it is),
/// and stays as it is until `inline` reads it.
#[derive(Default)]
pub struct DeferredUnrolls {
    /// By function: what unrolling it appends, and the type of each
    /// literal.
    of: Vec<Option<(Unrolled, Vec<Handle<Type>>)>>,
    /// The entry functions and call sites as `inline` counts them (the
    /// deferred functions' calls are the same unrolled or not), found
    /// once for both passes.
    sites: Option<(Vec<bool>, Vec<u32>)>,
}

impl DeferredUnrolls {
    /// The literals (with their types) and size that unrolling function
    /// `h` appends, if `inline` is to unroll it.
    pub(super) fn get(&self, h: Handle<Function>) -> Option<(&Unrolled, &[Handle<Type>])> {
        self.of
            .get(h.index())?
            .as_ref()
            .map(|(u, t)| (u, t.as_slice()))
    }

    /// The entry functions and call sites of `module`, found when the
    /// functions were deferred or now.
    pub(super) fn take_sites(&mut self, module: &Module) -> (Vec<bool>, Vec<u32>) {
        match self.sites.take() {
            Some(s) if s.1.len() == module.functions.len() => s,
            _ => sites(module),
        }
    }

    /// Unrolls the functions still deferred, now, that `kept` keeps (all
    /// of them without `kept`), and forgets them all.
    pub(super) fn unroll_now(&mut self, module: &mut Module, kept: Option<&[bool]>) {
        for (i, d) in std::mem::take(&mut self.of).into_iter().enumerate() {
            if d.is_some() && kept.is_none_or(|k| k.get(i).copied().unwrap_or(true)) {
                unroll::unroll_function(module, Handle::from_index(i));
            }
        }
    }
}

/// The `unroll` pass, but for the functions with `[unroll]` loops that
/// `inline` under `policy` will copy into every caller and drop, and can
/// unroll as it copies them: those are returned.
pub fn unroll_deferring(module: &mut Module, policy: Policy) -> DeferredUnrolls {
    let handles: Vec<_> = module.functions.iter().map(|(h, _)| h).collect();
    let mut of = Vec::with_capacity(handles.len());
    for &h in &handles {
        let f = &module.functions[h];
        let unrolled = if unroll::has_unroll(&f.body) {
            let u = unroll::deferrable(f);
            if u.is_none() {
                unroll::unroll_function(module, h);
            }
            u
        } else {
            None
        };
        of.push(unrolled);
    }
    // The calls that `inline` counts: unrolling the functions left does
    // not change theirs (none is in a copy or out of reach).
    let (entry, calls) = sites(module);
    let mut deferred = Vec::with_capacity(handles.len());
    for (h, u) in handles.into_iter().zip(of) {
        let Some(u) = u else {
            deferred.push(None);
            continue;
        };
        let i = h.index();
        let f = &module.functions[h];
        // As `run` finds what vanishes, under `Policy::All` only: the
        // other policies read the loops and the size, which change.
        let vanishes = calls[i] > 0
            && !entry[i]
            && f.export.is_none()
            && super::policy_of(policy, &calls, h) == Policy::All
            && inlinable(f, Policy::All);
        let types = u
            .literals
            .iter()
            .map(|l| {
                module.types.get(&Type {
                    name: None,
                    inner: TypeInner::Scalar(l.scalar()),
                })
            })
            .collect::<Option<Vec<_>>>();
        match types {
            Some(types) if vanishes => deferred.push(Some((u, types))),
            _ => {
                unroll::unroll_function(module, h);
                deferred.push(None);
            }
        }
    }
    DeferredUnrolls {
        of: deferred,
        sites: Some((entry, calls)),
    }
}

#[cfg(test)]
mod tests;
