//! What the fuzz targets share: the in-memory file system the CLI's
//! `-I`-less compile would see, and the diagnostic renderers.

use hlslc::Compilation;
use hlslc::diag::DiagnosticFormat;
use hlslc::source::MemoryLoader;
use std::path::PathBuf;

/// `main.hlsl` holding `text`, beside the two headers the samples include,
/// so that the sample seeds get past `#include` and into the compiler.
pub fn loader(text: String) -> (MemoryLoader, PathBuf) {
    let mut loader = MemoryLoader::new();
    loader.add("main.hlsl", text);
    loader.add("common.hlsli", include_str!("../../samples/common.hlsli"));
    loader.add(
        "particle.hlsli",
        include_str!("../../samples/particle.hlsli"),
    );
    (loader, PathBuf::from("main.hlsl"))
}

/// Renders the diagnostics in every format the CLI offers: the renderer
/// must not panic on any span the compiler produced.
pub fn render(c: &Compilation) {
    let list = &c.diagnostics.list;
    for format in [
        DiagnosticFormat::Human,
        DiagnosticFormat::Short,
        DiagnosticFormat::Json,
    ] {
        let text = hlslc::diag::render_to_string(list, &c.source_map, format);
        // Every diagnostic renders to something.
        assert!(list.is_empty() || !text.is_empty());
    }
}
