//! Where source comes from: [`FileLoader`]s read the main input and the
//! files `#include` names ([`DiskLoader`], [`MemoryLoader`], or your own);
//! a [`CachingLoader`] shares the lexed files and syntax trees among
//! compiles.

use super::ParseCache;
use super::preprocess::LexCache;
use std::path::{Path, PathBuf};

/// Reads files for `#include` and the main input. The CLI reads the disk; the
/// LSP server overlays open editor buffers; tests use an in-memory map.
pub trait FileLoader {
    /// The text of the file at `path` (as the input or an `#include`
    /// names it, joined to the including file's directory or an include
    /// directory).
    fn read(&self, path: &Path) -> std::io::Result<String>;
    /// Whether there is a file at `path` (the include search asks before
    /// reading).
    fn exists(&self, path: &Path) -> bool;
    /// The lexed files this loader shares among the compiles that use it,
    /// if it keeps any ([`CachingLoader`]).
    fn lex_cache(&self) -> Option<&LexCache> {
        None
    }
    /// The syntax trees this loader shares among the compiles that use it,
    /// if it keeps any ([`CachingLoader`]).
    fn parse_cache(&self) -> Option<&ParseCache> {
        None
    }
}

/// A loader whose compiles share their lexed files, on any number of
/// threads: the headers of a batch of jobs are lexed once. It reads
/// through `inner` every time; a file whose text changed since it was
/// lexed is lexed again. Jobs whose preprocessed tokens are the same
/// share one syntax tree ([`ParseCache`]).
#[derive(Debug)]
pub struct CachingLoader<L> {
    inner: L,
    cache: LexCache,
    trees: ParseCache,
}

impl<L: FileLoader> CachingLoader<L> {
    /// Reads through `inner`, with an empty cache.
    pub fn new(inner: L) -> Self {
        CachingLoader {
            inner,
            cache: LexCache::new(),
            trees: ParseCache::new(),
        }
    }

    /// The loader it reads through.
    pub fn inner(&self) -> &L {
        &self.inner
    }
}

impl<L: FileLoader> FileLoader for CachingLoader<L> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        self.inner.read(path)
    }
    fn exists(&self, path: &Path) -> bool {
        self.inner.exists(path)
    }
    fn lex_cache(&self) -> Option<&LexCache> {
        Some(&self.cache)
    }
    fn parse_cache(&self) -> Option<&ParseCache> {
        Some(&self.trees)
    }
}

/// Reads from the file system.
pub struct DiskLoader;

impl FileLoader for DiskLoader {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        let bytes = std::fs::read(path)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
    fn exists(&self, path: &Path) -> bool {
        path.is_file()
    }
}

/// An in-memory file system: paths map to contents. Used by tests and the LSP.
#[derive(Default, Clone)]
pub struct MemoryLoader {
    files: rustc_hash::FxHashMap<PathBuf, String>,
}

impl MemoryLoader {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds (or replaces) the file at `path`.
    pub fn add(&mut self, path: impl Into<PathBuf>, text: impl Into<String>) -> &mut Self {
        self.files.insert(path.into(), text.into());
        self
    }
}

impl FileLoader for MemoryLoader {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    }
    fn exists(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }
}
