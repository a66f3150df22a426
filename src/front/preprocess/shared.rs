//! Lexed files shared by the compiles of one process: a batch compiles
//! many jobs that include the same headers, and each file is lexed once
//! for all of them, however many jobs and threads read it.
//!
//! The cache is keyed by the normalised path and checked against the text
//! each job reads: a file edited between two jobs (a build writing a
//! header while shaders compile) is lexed again, never served stale.

use super::include::{LexIssue, lex_file};
use crate::front::lexer::FileToken;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One file's tokens and lex issues, and the text they were lexed from.
pub(super) struct Lexed {
    text: Box<str>,
    pub toks: Arc<Vec<FileToken>>,
    pub issues: Arc<Vec<LexIssue>>,
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

    /// The tokens of `text`, the file at `key`: from the cache when the
    /// cached text is `text`, else lexed now (and remembered).
    pub(super) fn lex(&self, key: &Path, text: &str) -> Arc<Lexed> {
        let cached = self.files.lock().ok().and_then(|m| m.get(key).cloned());
        if let Some(l) = cached
            && *l.text == *text
        {
            return l;
        }
        let (toks, issues) = lex_file(text);
        let lexed = Arc::new(Lexed {
            text: text.into(),
            toks: toks.into(),
            issues: issues.into(),
        });
        if let Ok(mut m) = self.files.lock() {
            m.insert(key.to_path_buf(), lexed.clone());
        }
        lexed
    }
}
