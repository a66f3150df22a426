//! File URIs and paths, and the file loader that overlays open documents on
//! the disk.

use crate::{DiskLoader, FileLoader};
use rustc_hash::FxHashMap;
use std::path::{Component, Path, PathBuf};

/// `path` with `.` and `..` components resolved lexically (no file-system
/// access: an `#include "../x.hlsli"` of an unsaved buffer must find it
/// whether or not the directories exist).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.file_name().is_some() {
                    out.pop();
                } else if !out.has_root() {
                    // Leading `..` of a relative path stay; `/..` is `/`.
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex),
                b.get(i + 2).copied().and_then(hex),
            )
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The path a document URI stands for. `file:` URIs become file-system
/// paths; any other scheme (an editor's unsaved `untitled:` buffer) becomes
/// a made-up path that cannot collide with a real file, so the document can
/// still be compiled from memory.
pub fn uri_to_path(uri: &str) -> PathBuf {
    let Some(rest) = uri.strip_prefix("file://") else {
        return PathBuf::from(format!("/{}", percent_decode(uri).replace(':', "/")));
    };
    // The authority: empty or `localhost` for local files; another host is a
    // UNC share.
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let path = percent_decode(path.split(['?', '#']).next().unwrap_or(""));
    let path = if !host.is_empty() && host != "localhost" {
        format!("//{host}{path}")
    } else if cfg!(windows) && path.len() >= 3 && path.as_bytes()[2] == b':' {
        // `/C:/x` → `C:/x`
        path[1..].to_string()
    } else {
        path
    };
    normalize(Path::new(&path))
}

/// The `file:` URI of a path (absolute paths; a relative one is taken as
/// relative to the root).
pub fn path_to_uri(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            // A Windows drive letter's colon stays as it is.
            b':' => out.push(':'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Serves open documents from memory and everything else from the disk, so
/// that an `#include` of an open, unsaved header sees the editor's text.
pub struct OverlayLoader<'a> {
    pub open: &'a FxHashMap<PathBuf, super::text::Document>,
}

impl FileLoader for OverlayLoader<'_> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        match self.open.get(&normalize(path)) {
            Some(d) => Ok(d.text.clone()),
            None => DiskLoader.read(path),
        }
    }
    fn exists(&self, path: &Path) -> bool {
        self.open.contains_key(&normalize(path)) || DiskLoader.exists(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_round_trip() {
        let p = uri_to_path("file:///home/me/My%20Shaders/a%2Bb.hlsl");
        assert_eq!(p, PathBuf::from("/home/me/My Shaders/a+b.hlsl"));
        assert_eq!(path_to_uri(&p), "file:///home/me/My%20Shaders/a%2Bb.hlsl");
        assert_eq!(
            uri_to_path("file://localhost/x/./y/../z.hlsl"),
            PathBuf::from("/x/z.hlsl")
        );
        assert_eq!(path_to_uri(Path::new("/é.hlsl")), "file:///%C3%A9.hlsl");
        assert_eq!(uri_to_path("file:///%C3%A9.hlsl"), PathBuf::from("/é.hlsl"));
        // Broken escapes are kept as they are.
        assert_eq!(uri_to_path("file:///a%zz"), PathBuf::from("/a%zz"));
        assert_eq!(
            uri_to_path("untitled:Untitled-1"),
            PathBuf::from("/untitled/Untitled-1")
        );
    }

    #[test]
    fn normalization() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(normalize(Path::new("../../x")), PathBuf::from("../../x"));
        assert_eq!(normalize(Path::new("/../x")), PathBuf::from("/x"));
    }
}
