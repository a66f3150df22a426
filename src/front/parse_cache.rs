//! Syntax trees shared by the compiles of one batch: jobs whose
//! preprocessed token streams are identical (a file compiled for several
//! entry points or profiles, or with defines it does not test) get one
//! tree, parsed once, and the syntax errors that parse reported.
//!
//! Parsing is a function of the token stream alone: the tokens' kinds,
//! texts, places in the location space and flags decide the tree, its
//! spans and the diagnostics. So a stream equal to a cached one, token for
//! token, gets the cached tree. Only the last few trees are kept, and none
//! of a large file (whose compile frees its tree early to lower its peak
//! memory), so the cache stays small however many jobs a batch has.

use super::ast::TranslationUnit;
use super::lexer::PpToken;
use super::parser;
use crate::diag::{Diagnostic, Diagnostics};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many trees the cache keeps: a batch lists a shader's permutations
/// together, and its threads take jobs in order, so the jobs that share a
/// tree run close together.
const KEPT: usize = 16;

/// The longest token stream whose tree is cached (a 256 KiB shader has
/// about 60,000 tokens).
const MAX_TOKENS: usize = 32 * 1024;

/// One parse: the tokens it read, the tree and the syntax errors.
struct Entry {
    tokens: Vec<PpToken>,
    unit: Arc<TranslationUnit>,
    diagnostics: Vec<Diagnostic>,
}

/// The trees of the latest parses, shared by compiles on any number of
/// threads (see [`crate::CachingLoader`]).
#[derive(Default)]
pub struct ParseCache {
    recent: Mutex<VecDeque<Arc<Entry>>>,
}

impl std::fmt::Debug for ParseCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.recent.lock().map_or(0, |r| r.len());
        f.debug_struct("ParseCache").field("trees", &n).finish()
    }
}

impl ParseCache {
    /// An empty cache.
    pub fn new() -> ParseCache {
        ParseCache::default()
    }

    /// The tree of `tokens`, and its syntax errors added to `diags`: the
    /// cached ones when a kept parse read the same tokens, else a parse
    /// now (kept for the next compiles).
    pub fn parse(&self, tokens: Vec<PpToken>, diags: &mut Diagnostics) -> Arc<TranslationUnit> {
        if tokens.len() > MAX_TOKENS {
            return Arc::new(parser::parse(&tokens, diags));
        }
        if let Some(e) = self.find(&tokens) {
            diags.extend(e.diagnostics.iter().cloned());
            return e.unit.clone();
        }
        let (unit, found) = parser::parse_apart(&tokens);
        let unit = Arc::new(unit);
        diags.extend(found.iter().cloned());
        let entry = Arc::new(Entry {
            tokens,
            unit: unit.clone(),
            diagnostics: found,
        });
        if let Ok(mut recent) = self.recent.lock() {
            if recent.len() == KEPT {
                recent.pop_front();
            }
            recent.push_back(entry);
        }
        unit
    }

    /// The kept parse of `tokens`, if any. The streams of the same length
    /// are compared outside the lock.
    fn find(&self, tokens: &[PpToken]) -> Option<Arc<Entry>> {
        let same_length: Vec<Arc<Entry>> = self
            .recent
            .lock()
            .ok()?
            .iter()
            .rev()
            .filter(|e| e.tokens.len() == tokens.len())
            .cloned()
            .collect();
        same_length.into_iter().find(|e| e.tokens == tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::lexer::lex_interned;

    fn tokens(text: &str) -> Vec<PpToken> {
        lex_interned(text, 0).0
    }

    /// A stream read again gets the same tree and the same syntax errors
    /// as its first parse, which are those a parse without the cache
    /// gives; another stream (here: the same text elsewhere in the
    /// location space) is parsed anew.
    #[test]
    fn equal_streams_share_a_tree() {
        let text = "float f(float x) { return x * 2 +; }\nstruct S { int a; };\nint g() { S s; return s.a; }\n";
        let cache = ParseCache::new();
        let mut first = Diagnostics::new();
        let a = cache.parse(tokens(text), &mut first);
        let mut fresh = Diagnostics::new();
        let plain = parser::parse(&tokens(text), &mut fresh);
        assert!(!first.is_empty());
        assert_eq!(first.list, fresh.list);
        assert_eq!(format!("{:?}", *a), format!("{plain:?}"));
        let mut again = Diagnostics::new();
        let b = cache.parse(tokens(text), &mut again);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(again.list, first.list);
        let moved = lex_interned(text, 7).0;
        let mut other = Diagnostics::new();
        let c = cache.parse(moved, &mut other);
        assert!(!Arc::ptr_eq(&a, &c));
        assert_ne!(other.list, first.list);
    }

    /// Only the last [`KEPT`] trees are kept.
    #[test]
    fn keeps_the_latest_trees() {
        let cache = ParseCache::new();
        let text = |i: usize| format!("static const int v{i} = {i};");
        let first = cache.parse(tokens(&text(0)), &mut Diagnostics::new());
        for i in 1..=KEPT {
            cache.parse(tokens(&text(i)), &mut Diagnostics::new());
        }
        let last = cache.parse(tokens(&text(KEPT)), &mut Diagnostics::new());
        assert_eq!(Arc::strong_count(&last), 2);
        let again = cache.parse(tokens(&text(0)), &mut Diagnostics::new());
        assert!(!Arc::ptr_eq(&first, &again));
    }
}
