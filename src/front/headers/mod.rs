//! hlslc's built-in headers: `vk/spirv.h`, `vk/opcode_selector.h` and
//! `vk/khr/cooperative_matrix.h`, the headers DXC ships for inline
//! SPIR-V and cooperative matrices, with the same API (written for hlslc
//! from the SPIR-V specification). An `#include` finds them after the
//! including file's directory and the `-I` directories, as DXC finds its
//! own: a user's file of the same name on the include path wins.
//!
//! They live in the binary under the virtual directory [`DIR`]; their
//! diagnostics name them as `<hlslc>/vk/spirv.h`.

use std::path::{Path, PathBuf};

/// The directory the built-in headers appear to be in.
pub const DIR: &str = "<hlslc>";

/// Each header: its name as `#include` spells it, and its text.
const HEADERS: &[(&str, &str)] = &[
    ("vk/spirv.h", include_str!("vk/spirv.h")),
    ("vk/opcode_selector.h", include_str!("vk/opcode_selector.h")),
    (
        "vk/khr/cooperative_matrix.h",
        include_str!("vk/khr/cooperative_matrix.h"),
    ),
];

/// The path of the built-in header an `#include` of `name` finds
/// (`vk/spirv.h`, also spelt `vk\spirv.h`), if there is one.
pub fn find(name: &str) -> Option<PathBuf> {
    let name = name.replace('\\', "/");
    HEADERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, _)| Path::new(DIR).join(n))
}

/// The text of the built-in header at `path` (one [`find`] gave).
pub fn text(path: &Path) -> Option<&'static str> {
    let rest = path.strip_prefix(DIR).ok()?;
    HEADERS
        .iter()
        .find(|(n, _)| Path::new(n) == rest)
        .map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_is_found_by_its_name() {
        for (name, body) in HEADERS {
            let path = find(name).unwrap();
            assert_eq!(text(&path), Some(*body));
        }
        assert!(find("vk\\spirv.h").is_some());
        assert!(find("vk/none.h").is_none());
        assert!(text(Path::new("vk/spirv.h")).is_none());
    }
}
