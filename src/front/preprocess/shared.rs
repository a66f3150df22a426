//! Lexed files shared by the compiles of one process: a batch compiles
//! many jobs that include the same headers, and each file is lexed once
//! for all of them, however many jobs and threads read it.
//!
//! The cache is keyed by the normalised path and checked against the text
//! each job reads: a file edited between two jobs (a build writing a
//! header while shaders compile) is lexed again, never served stale.

use super::include::{LexIssue, LexedFile, lex_file};
use crate::front::lexer::PpToken;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One file's tokens and lex issues, the text they were lexed from, and
/// where that text started in the location space of the compile that
/// lexed it.
struct Lexed {
    text: Box<str>,
    base: u32,
    toks: Arc<Vec<PpToken>>,
    issues: Arc<Vec<LexIssue>>,
}

/// Lexed files shared by compiles on any number of threads (see
/// [`crate::CachingLoader`]). Holds each file's text, tokens and
/// lex problems; a file whose text changed is lexed again.
#[derive(Default)]
pub struct LexCache {
    files: Mutex<FxHashMap<PathBuf, Arc<Lexed>>>,
}

impl std::fmt::Debug for LexCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.files.lock().map_or(0, |m| m.len());
        f.debug_struct("LexCache").field("files", &n).finish()
    }
}

impl LexCache {
    /// An empty cache.
    pub fn new() -> LexCache {
        LexCache::default()
    }

    /// The tokens and lex issues of `text`, the file at `key`, which starts
    /// at `base` in the location space: from the cache when the cached
    /// text is `text` (moved there when the file that lexed it started
    /// elsewhere), else lexed now (and remembered).
    pub(super) fn lex(
        &self,
        key: &Path,
        text: &str,
        base: u32,
    ) -> (Arc<Vec<PpToken>>, Arc<Vec<LexIssue>>) {
        let cached = self.files.lock().ok().and_then(|m| m.get(key).cloned());
        if let Some(l) = cached
            && *l.text == *text
        {
            if l.base == base {
                return (l.toks.clone(), l.issues.clone());
            }
            let (toks, issues) = LexedFile::moved(&l.toks, &l.issues, l.base, base);
            return (toks.into(), issues.into());
        }
        let (toks, issues) = lex_file(text, base);
        let lexed = Arc::new(Lexed {
            text: text.into(),
            base,
            toks: toks.into(),
            issues: issues.into(),
        });
        if let Ok(mut m) = self.files.lock() {
            m.insert(key.to_path_buf(), lexed.clone());
        }
        (lexed.toks.clone(), lexed.issues.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cached file read again where it starts elsewhere in the location
    /// space gets the tokens and issues lexing it there gives; where it
    /// starts at the same place, the cached ones themselves.
    #[test]
    fn cached_files_move_to_their_place() {
        let cache = LexCache::new();
        let key = Path::new("moved.hlsli");
        let text = "#define A 1 \u{1F600}\nint x = A; /* open";
        let (toks, issues) = cache.lex(key, text, 10);
        assert_eq!(issues.len(), 2);
        for base in [10, 7, 5000] {
            let (t, i) = cache.lex(key, text, base);
            let (want_t, want_i) = lex_file(text, base);
            assert_eq!(*t, want_t);
            assert_eq!(*i, want_i);
            assert_eq!(Arc::ptr_eq(&t, &toks), base == 10);
            assert_eq!(Arc::ptr_eq(&i, &issues), base == 10);
        }
    }
}
