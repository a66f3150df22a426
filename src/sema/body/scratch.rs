//! The containers that lowering one function body fills and the next one
//! reuses, emptied with their room kept ([`Scratch`]).

use super::{CacheKey, FnBuilder, Locals};
use crate::ir;
use rustc_hash::FxHashMap;

/// What lowering a body needs besides the IR it builds: its block scopes
/// and its literal and constant caches. Made anew for every function, they
/// were allocated and grown (the maps rehashed) again on each of a file's
/// small functions; now the first function's grow, and the rest reuse
/// them. (A body lowered while another is, for its caller, takes what is
/// left: each builder owns its containers while it lowers.) The expression
/// arenas are not reused: handing a checked body's arenas on saved little
/// (2.6 K instructions on blur) and moved peak memory on large files.
#[derive(Default)]
pub struct Scratch {
    pub(super) locals: Locals,
    pub(super) lit_cache: FxHashMap<ir::Literal, ir::Handle<ir::Expression>>,
    pub(super) const_cache: FxHashMap<ir::Handle<ir::Expression>, ir::Handle<ir::Expression>>,
    pub(super) cache_log: Vec<(ir::Handle<ir::Expression>, CacheKey)>,
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
        }
    }
}
