//! Inlay hints: the parameter name before each argument of a call of a
//! user function or method, from the calls sema resolved (the overload it
//! chose). Intrinsics have no parameter names, so they get none.

use super::analysis::{Analysis, At};
use super::requests::offset_of;
use lsp_types::{InlayHint, InlayHintKind, InlayHintLabel, Range};

/// The hints of file `f` whose argument starts in `range`.
pub(super) fn parameter_names(a: &Analysis, f: usize, range: Range) -> Vec<InlayHint> {
    let (from, to) = (offset_of(a, f, range.start), offset_of(a, f, range.end));
    let file = &a.files[f];
    let mut out = Vec::new();
    for call in a.calls.iter().filter(|c| c.callee.file == f) {
        let names = &a.symbols[call.function].param_names;
        for (i, arg) in &call.args {
            let Some(name) = names.get(*i).filter(|n| !n.is_empty()) else {
                continue;
            };
            if !(arg.file == f && from <= arg.range.start && arg.range.start <= to)
                || names_itself(&file.text, arg, name)
            {
                continue;
            }
            out.push(InlayHint {
                position: file.lines.position(&file.text, arg.range.start),
                label: InlayHintLabel::String(format!("{name}:")),
                kind: Some(InlayHintKind::PARAMETER),
                text_edits: None,
                tooltip: None,
                padding_left: None,
                padding_right: Some(true),
                data: None,
            });
        }
    }
    out.sort_by_key(|h| (h.position.line, h.position.character));
    out
}

/// Whether the argument's text already says the name: `n` or `light.n`
/// for a parameter `n`.
fn names_itself(text: &str, arg: &At, name: &str) -> bool {
    let written = text.get(arg.range.clone()).unwrap_or("").trim();
    written == name || written.strip_suffix(name).is_some_and(|r| r.ends_with('.'))
}
