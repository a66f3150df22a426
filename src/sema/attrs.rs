//! Attributes whose effect hlslc does not produce: an error for those
//! that would change the SPIR-V (`[[vk::combinedImageSampler]]` pairs two
//! descriptors into one; ignoring it gives two descriptors at one binding),
//! a warning for those Vulkan cannot express (`[WaveSize]`). Unknown names
//! were already warned about by the parser (`front::attributes`).

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::ast;
use crate::front::attributes::{Support, display_name, support};
use crate::options::Stage;

/// Checks the attributes of every declaration in `items`. Functions
/// without a body are skipped: a call to one is an error of its own.
pub fn check_items(items: &[ast::Item], stage: Stage, diags: &mut Diagnostics) {
    for item in items {
        match item {
            ast::Item::Var(v) => check(&v.attrs, diags),
            ast::Item::Function(f) => check_function(f, stage, diags),
            ast::Item::Struct(s) => check_struct(s, stage, diags),
            ast::Item::CBuffer(c) => {
                check(&c.attrs, diags);
                for m in &c.members {
                    check(&m.attrs, diags);
                }
            }
            ast::Item::Namespace(n) => check_items(&n.items, stage, diags),
            _ => {}
        }
    }
}

fn check_function(f: &ast::Function, stage: Stage, diags: &mut Diagnostics) {
    if f.body.is_none() {
        return;
    }
    for a in &f.attrs {
        // Helper lanes exist in pixel shaders only; elsewhere the attribute
        // asks for nothing (DXC emits nothing for it).
        if stage != Stage::Pixel
            && display_name(a).eq_ignore_ascii_case("WaveOpsIncludeHelperLanes")
        {
            continue;
        }
        check(std::slice::from_ref(a), diags);
    }
    for p in &f.params {
        check(&p.attrs, diags);
    }
}

fn check_struct(s: &ast::StructDecl, stage: Stage, diags: &mut Diagnostics) {
    check(&s.attrs, diags);
    for m in &s.members {
        match m {
            ast::StructMember::Field(v) => check(&v.attrs, diags),
            ast::StructMember::Method(f) => check_function(f, stage, diags),
            ast::StructMember::Struct(s) => check_struct(s, stage, diags),
            _ => {}
        }
    }
}

fn check(attrs: &[ast::Attribute], diags: &mut Diagnostics) {
    for a in attrs {
        match support(a) {
            Some(Support::NotYet) => diags.push(
                Diagnostic::error(
                    codes::UNSUPPORTED,
                    format!("not supported yet: the attribute `{}`", display_name(a)),
                )
                .label(a.span, "hlslc cannot produce its effect yet")
                .note("ignoring it would give SPIR-V that means something else"),
            ),
            Some(Support::Warn(why)) => diags.push(
                Diagnostic::warning(
                    codes::IGNORED_SYNTAX,
                    format!("the attribute `{}` is ignored", display_name(a)),
                )
                .label(a.span, "no effect in SPIR-V for Vulkan")
                .note(why),
            ),
            Some(Support::Yes | Support::NoEffect) | None => {}
        }
    }
}
