//! Writing an output file (`-Fo`, `-MF`, `-Fh`, …) that may already hold
//! the bytes a compile makes.
//!
//! A rebuild often makes exactly the file it replaces: a depfile almost
//! always, a module when only a comment or an unused header changed.
//! Writing such a file again costs far more than the compile on common
//! Linux file systems: truncating a file frees its blocks (on ext4, with
//! `discard`, about 0.1-3 ms) and makes the file system write the new data
//! out at `close`. So a regular file that already holds exactly the bytes
//! is left as it is, except for its modification time, which build tools
//! (make, ninja) read: one byte is written over itself in place, which
//! sets the time as any write does (the kernel's clock, as a full write
//! would) without truncating anything.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::Path;

/// Writes `bytes` to the file at `path`, as `std::fs::write` does (the
/// file is created, or truncated and filled), unless it is a regular file
/// that already holds exactly `bytes`: then only one byte is written over
/// itself. Returns whether the file was left in place.
pub(crate) fn write_output(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    if let Some(mut file) = same_size_file(path, bytes.len()) {
        if holds(&mut file, bytes) && touch(&file, bytes).is_ok() {
            return Ok(true);
        }
        // Different bytes: replaced through the handle already open.
        if file.set_len(0).is_ok() && file.rewind().is_ok() {
            file.write_all(bytes)?;
            return Ok(false);
        }
    }
    std::fs::write(path, bytes).map(|()| false)
}

/// The file at `path`, open for reading and writing, when it is a regular
/// file (a pipe or a device is written as before, never read) of `len`
/// bytes, not empty.
fn same_size_file(path: &Path, len: usize) -> Option<File> {
    let is_candidate = |m: &std::fs::Metadata| m.is_file() && m.len() == len as u64 && len > 0;
    // Checked before opening: opening a pipe could wait for a reader.
    if !std::fs::metadata(path).is_ok_and(|m| is_candidate(&m)) {
        return None;
    }
    let file = OpenOptions::new().read(true).write(true).open(path).ok()?;
    // The same file still (not replaced in between).
    file.metadata().is_ok_and(|m| is_candidate(&m)).then_some(file)
}

/// Whether `file` (at its start, of `bytes.len()` bytes) holds `bytes`.
fn holds(file: &mut File, bytes: &[u8]) -> bool {
    // Read into memory not zeroed first (which cost an instruction per
    // byte when the system allocator reused a block).
    let mut old = Vec::with_capacity(bytes.len());
    let limit = bytes.len() as u64;
    file.take(limit).read_to_end(&mut old).is_ok() && old == bytes
}

/// Writes the file's first byte (which is `bytes[0]`) over itself: the
/// contents stay, the modification time is the write's.
#[cfg(unix)]
fn touch(file: &File, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let first = bytes.get(..1).ok_or(io::ErrorKind::WriteZero)?;
    match file.write_at(first, 0)? {
        1 => Ok(()),
        _ => Err(io::ErrorKind::WriteZero.into()),
    }
}

/// Elsewhere, the file is written again.
#[cfg(not(unix))]
fn touch(_: &File, _: &[u8]) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}
