//! Helpers for the passes' unit tests.

use crate::ir::Module;
use crate::ir::valid::{errors_to_string, validate};

/// Panics with the validator's messages and the module text when invalid.
pub fn check_valid(m: &Module) {
    if let Err(e) = validate(m) {
        panic!(
            "invalid IR:\n{}\n{}",
            errors_to_string(&e),
            crate::ir::display::module_to_string(m)
        );
    }
}

/// The first line of `text` that starts (after indentation) with `prefix`;
/// panics with the text when there is none.
pub fn line_of<'t>(text: &'t str, prefix: &str) -> &'t str {
    text.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with {prefix:?} in:\n{text}"))
}

/// The text of function `name` (from `fn name(` to its closing brace).
pub fn fn_text<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("no fn {name} in:\n{text}"));
    let rest = &text[start..];
    &rest[..rest.find("\n}\n").map_or(rest.len(), |e| e + 3)]
}
