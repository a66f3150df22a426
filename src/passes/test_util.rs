//! Helpers for the passes' unit tests.

use crate::ir::build::{add_compute_entry, add_global};
use crate::ir::display::module_to_string;
use crate::ir::valid::{errors_to_string, validate};
use crate::ir::{AddressSpace, Function, GlobalVariable, Handle, Module, Scalar, Type};

/// Panics with the validator's messages and the module text when invalid.
pub fn check_valid(m: &Module) {
    if let Err(e) = validate(m) {
        panic!(
            "invalid IR:\n{}\n{}",
            errors_to_string(&e),
            module_to_string(m)
        );
    }
}

/// Makes `f` the compute entry point `main`, runs `pass` on the module and
/// gives the module's text; the IR is validated before and after the pass.
pub fn run_main(m: &mut Module, f: Handle<Function>, pass: impl FnOnce(&mut Module)) -> String {
    add_compute_entry(m, "main", f);
    check_valid(m);
    pass(m);
    check_valid(m);
    module_to_string(m)
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

/// The float type, and a Private float global `name`.
pub fn private_float(m: &mut Module, name: &str) -> (Handle<Type>, Handle<GlobalVariable>) {
    let f32t = m.scalar_type(Scalar::F32);
    (f32t, add_global(m, name, AddressSpace::Private, f32t))
}
