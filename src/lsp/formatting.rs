//! Formatting: `textDocument/formatting` and `textDocument/rangeFormatting`
//! ([`crate::format`]). The settings are those of the nearest
//! `.clang-format` above the file, else the editor's (`tabSize`,
//! `insertSpaces`).

use super::Server;
use super::paths;
use crate::front::format::{self, FormatOptions};
use lsp_types::{Position, Range, TextEdit};
use serde_json::Value;
use std::path::Path;

impl Server<'_> {
    /// The edits that format the document (or the lines of `range`).
    pub(super) fn formatting(&self, p: &Value, range: bool) -> Option<Vec<TextEdit>> {
        let uri = p.pointer("/textDocument/uri").and_then(Value::as_str)?;
        let path = paths::uri_to_path(uri);
        let text = self.text_of(&path)?;
        let options = settings(&path, p);
        let lines = super::text::LineIndex::new(&text);
        if !range {
            let formatted = format::format(&text, &options)?;
            if formatted == text {
                return Some(Vec::new());
            }
            return Some(vec![TextEdit {
                range: lines.range(&text, 0, text.len()),
                new_text: formatted,
            }]);
        }
        let r: Range = serde_json::from_value(p.get("range")?.clone()).ok()?;
        let formatted = format::format_lines(&text, &options)?;
        let mut edits = Vec::new();
        for (n, old) in text.lines().enumerate() {
            let n = n as u32;
            if n < r.start.line || n > r.end.line || (n == r.end.line && r.end.character == 0 && n > r.start.line) {
                continue;
            }
            let Some(new) = formatted.get(n as usize) else {
                break;
            };
            if new != old {
                let end = old.encode_utf16().count() as u32;
                edits.push(TextEdit {
                    range: Range::new(Position::new(n, 0), Position::new(n, end)),
                    new_text: new.clone(),
                });
            }
        }
        Some(edits)
    }
}

/// The `.clang-format` settings for `path`, else the request's options.
fn settings(path: &Path, p: &Value) -> FormatOptions {
    if let Some(found) = format::options_for(path) {
        return found;
    }
    let mut o = FormatOptions::default();
    if let Some(n) = p.pointer("/options/tabSize").and_then(Value::as_u64) {
        o.indent_width = n as usize;
    }
    if let Some(spaces) = p.pointer("/options/insertSpaces").and_then(Value::as_bool) {
        o.use_tabs = !spaces;
    }
    o
}
