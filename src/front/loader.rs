//! Where source comes from: [`FileLoader`]s read the main input and the
//! files `#include` names ([`DiskLoader`], [`MemoryLoader`], or your own);
//! a [`CachingLoader`] shares the lexed files and syntax trees among
//! compiles, and a [`SnapshotLoader`] reads each file once for all of them.

use super::ParseCache;
use super::preprocess::LexCache;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

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

/// A loader that asks `inner` about each path once, on any number of
/// threads: the first answer for a path (its text or the error reading
/// it; whether it exists) is the answer for as long as the loader lives.
/// A batch reads through one, so that the sixteen jobs that include one
/// header open and read it once, not sixteen times; a file that changes
/// while the batch runs is seen as it was first read, as it is within one
/// compile.
#[derive(Debug)]
pub struct SnapshotLoader<L> {
    inner: L,
    seen: Mutex<FxHashMap<PathBuf, Seen>>,
}

/// What a [`SnapshotLoader`] was told about one path.
#[derive(Debug, Default)]
struct Seen {
    exists: Option<bool>,
    text: Option<Result<Arc<str>, Failed>>,
}

/// A failed read, kept so that it can be told again in the same words.
#[derive(Debug, Clone)]
enum Failed {
    Os(i32),
    Other(std::io::ErrorKind, String),
}

impl Failed {
    fn of(e: &std::io::Error) -> Failed {
        match e.raw_os_error() {
            Some(code) => Failed::Os(code),
            None => Failed::Other(e.kind(), e.to_string()),
        }
    }

    fn error(&self) -> std::io::Error {
        match self {
            Failed::Os(code) => std::io::Error::from_raw_os_error(*code),
            Failed::Other(kind, message) => std::io::Error::new(*kind, message.clone()),
        }
    }
}

impl<L: FileLoader> SnapshotLoader<L> {
    /// Reads through `inner`, having read nothing yet.
    pub fn new(inner: L) -> Self {
        SnapshotLoader {
            inner,
            seen: Mutex::new(FxHashMap::default()),
        }
    }

    /// The loader it reads through.
    pub fn inner(&self) -> &L {
        &self.inner
    }

    /// What has been seen of `path`, if anything.
    fn recall<T>(&self, path: &Path, get: impl FnOnce(&Seen) -> Option<T>) -> Option<T> {
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.get(path).and_then(get)
    }

    /// Remembers something seen of `path` (a thread that asked at the
    /// same time may have remembered the same already).
    fn remember(&self, path: &Path, set: impl FnOnce(&mut Seen)) {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        set(seen.entry(path.to_path_buf()).or_default());
    }
}

impl<L: FileLoader> FileLoader for SnapshotLoader<L> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        if let Some(text) = self.recall(path, |s| s.text.clone()) {
            return text.map(|t| String::from(&*t)).map_err(|f| f.error());
        }
        let read = self.inner.read(path);
        let kept = match &read {
            Ok(text) => Ok(Arc::from(text.as_str())),
            Err(e) => Err(Failed::of(e)),
        };
        self.remember(path, |s| s.text = Some(kept));
        read
    }
    fn exists(&self, path: &Path) -> bool {
        if let Some(exists) = self.recall(path, |s| s.exists) {
            return exists;
        }
        let exists = self.inner.exists(path);
        self.remember(path, |s| s.exists = Some(exists));
        exists
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
