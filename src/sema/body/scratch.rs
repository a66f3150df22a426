//! The containers that lowering one function body fills and the next one
//! reuses, emptied with their room kept ([`Scratch`]).

use super::{CacheKey, FnBuilder, Locals};
use crate::ir;
use crate::span::Span;
use rustc_hash::FxHashMap;

/// What lowering a body needs besides the IR it keeps: its block scopes,
/// its literal and constant caches, and the expression arenas of a body
/// lowered only to be checked. Made anew for every function, they were
/// allocated and grown (the maps rehashed) again on each of a file's
/// small functions; now the first function's grow, and the rest reuse
/// them. (A body lowered while another is, for its caller, takes what is
/// left: each builder owns its containers while it lowers.)
pub struct Scratch {
    pub(super) locals: Locals,
    pub(super) lit_cache: FxHashMap<ir::Literal, ir::Handle<ir::Expression>>,
    pub(super) const_cache: FxHashMap<ir::Handle<ir::Expression>, ir::Handle<ir::Expression>>,
    pub(super) cache_log: Vec<(ir::Handle<ir::Expression>, CacheKey)>,
    /// The arenas of the last body lowered only to be checked (a kept
    /// body keeps its own).
    expressions: ir::Arena<ir::Expression>,
    expr_types: Vec<ir::Handle<ir::Type>>,
    expr_spans: Vec<Span>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            locals: Locals::default(),
            // Most functions use a few literals: room for them from the
            // start spares the map growing (and rehashing) three times.
            lit_cache: FxHashMap::with_capacity_and_hasher(16, Default::default()),
            const_cache: FxHashMap::default(),
            cache_log: Vec::new(),
            expressions: ir::Arena::new(),
            expr_types: Vec::new(),
            expr_spans: Vec::new(),
        }
    }
}

impl Scratch {
    /// Gives a new function shell the arenas kept from a checked body
    /// (when it has no expressions of its own yet).
    pub(super) fn lend_arenas(&mut self, f: &mut ir::Function) {
        if f.expressions.len() == 0 && f.expr_types.is_empty() && f.expr_spans.is_empty() {
            f.expressions = std::mem::take(&mut self.expressions);
            f.expr_types = std::mem::take(&mut self.expr_types);
            f.expr_spans = std::mem::take(&mut self.expr_spans);
        }
    }

    /// Keeps the arenas of a body lowered only to be checked, emptied,
    /// for the next function.
    pub(super) fn keep_arenas(&mut self, f: &mut ir::Function) {
        f.expressions.truncate(0);
        f.expr_types.clear();
        f.expr_spans.clear();
        self.expressions = std::mem::take(&mut f.expressions);
        self.expr_types = std::mem::take(&mut f.expr_types);
        self.expr_spans = std::mem::take(&mut f.expr_spans);
    }

}

impl FnBuilder {
    /// Takes the scopes and caches, emptied, for the next function.
    pub(super) fn take_scratch(&mut self) -> Scratch {
        let mut locals = std::mem::take(&mut self.locals);
        locals.clear();
        let mut lit_cache = std::mem::take(&mut self.lit_cache);
        lit_cache.clear();
        let mut const_cache = std::mem::take(&mut self.const_cache);
        const_cache.clear();
        let mut cache_log = std::mem::take(&mut self.cache_log);
        cache_log.clear();
        Scratch {
            locals,
            lit_cache,
            const_cache,
            cache_log,
            expressions: ir::Arena::new(),
            expr_types: Vec::new(),
            expr_spans: Vec::new(),
        }
    }
}
