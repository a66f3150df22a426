//! The arguments of every known attribute, as the registry
//! (`front::attributes`) gives them, and the attributes whose effect hlslc
//! does not produce: an error for those that would change the SPIR-V
//! (ignoring one would give SPIR-V that means something else), a warning
//! for those Vulkan cannot express (`[WaveSize]`). Unknown names were already warned about
//! by the parser. Sema reads an attribute's arguments knowing that they
//! are as the registry says: a wrong one was reported here.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::ast;
use crate::front::attributes::{self, Attr, Support, display_name};
use crate::sema::decl::find_attr;

/// Checks the attributes of every declaration in `items`. Functions
/// without a body are skipped: a call to one is an error of its own.
pub fn check_items(items: &[ast::Item], diags: &mut Diagnostics) {
    Checker { diags }.items(items);
}

struct Checker<'d> {
    diags: &'d mut Diagnostics,
}

impl Checker<'_> {
    fn items(&mut self, items: &[ast::Item]) {
        for item in items {
            match item {
                ast::Item::Var(v) => self.check(&v.attrs),
                ast::Item::Function(f) => self.function(f),
                ast::Item::Struct(s) => self.structure(s),
                ast::Item::CBuffer(c) => {
                    self.check(&c.attrs);
                    for m in &c.members {
                        self.check(&m.attrs);
                    }
                }
                ast::Item::Namespace(n) => self.items(&n.items),
                _ => {}
            }
        }
    }

    fn function(&mut self, f: &ast::Function) {
        let instruction = find_attr(&f.attrs, Attr::VkExtInstruction);
        if let (Some(a), Some(body)) = (instruction, &f.body) {
            self.diags.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    "a `vk::ext_instruction` function cannot have a body",
                )
                .label(body.span, "this body")
                .label(a.span, "the call is this SPIR-V instruction")
                .note("declare it without a body: `float f(float x);`"),
            );
        }
        let type_def = find_attr(&f.attrs, Attr::VkExtTypeDef);
        if let (Some(a), Some(body)) = (type_def, &f.body) {
            self.diags.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    "a `vk::ext_type_def` function cannot have a body",
                )
                .label(body.span, "this body")
                .label(a.span, "a call of it defines a SPIR-V type")
                .note("declare it without a body: `void defineT([[vk::ext_literal]] int width);`"),
            );
        }
        if f.body.is_none() && instruction.is_none() && type_def.is_none() {
            return;
        }
        let by_id_or_string = |a: &&ast::Attribute| {
            matches!(
                a.kind,
                Some(Attr::VkExtDecorateId | Attr::VkExtDecorateString)
            )
        };
        for a in f.attrs.iter().filter(by_id_or_string) {
            // SPIR-V has no form of these decorations for a function.
            self.diags.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("`{}` does not apply to functions", display_name(a)),
                )
                .label(a.span, "on a function")
                .note("decorate a function with `vk::ext_decorate` (literal operands)"),
            );
        }
        self.check(&f.attrs);
        for p in &f.params {
            self.check(&p.attrs);
            let reference =
                instruction.is_some() && find_attr(&p.attrs, Attr::VkExtReference).is_some();
            if let Some(a) = find_attr(&p.attrs, Attr::VkExtStorageClass)
                && !reference
            {
                self.diags.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        "`vk::ext_storage_class` on a parameter needs `[[vk::ext_reference]]` on a `vk::ext_instruction` function",
                    )
                    .label(a.span, "a parameter is a value or a function variable")
                    .note("on an `ext_reference` parameter, it names the storage class of the argument's variable"),
                );
            }
        }
    }

    fn structure(&mut self, s: &ast::StructDecl) {
        self.check(&s.attrs);
        for m in &s.members {
            match m {
                ast::StructMember::Field(v) => {
                    self.check(&v.attrs);
                }
                ast::StructMember::Method(f) => self.function(f),
                ast::StructMember::Struct(s) => self.structure(s),
                _ => {}
            }
        }
    }

    fn check(&mut self, attrs: &[ast::Attribute]) {
        self.diags.extend(arg_errors(attrs));
        for a in attrs {
            match a.kind.map(|k| k.support()) {
                Some(Support::NotYet) => self.diags.push(not_yet(a)),
                Some(Support::Warn(why)) => self.diags.push(
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
}

/// An error for each of `attrs` whose arguments are not as the registry
/// says (their number, a string literal where one is written).
pub fn arg_errors(attrs: &[ast::Attribute]) -> impl Iterator<Item = Diagnostic> + '_ {
    attrs.iter().filter_map(|a| {
        let (message, arg) = attributes::check_args(a.kind?, &a.args)?;
        Some(Diagnostic::error(codes::BAD_ATTRIBUTE, message).label(
            arg.map_or(a.span, |i| a.args[i].span),
            if arg.is_some() {
                "not a string literal"
            } else {
                "wrong number of arguments"
            },
        ))
    })
}

/// The error for a known attribute whose effect hlslc does not produce.
fn not_yet(a: &ast::Attribute) -> Diagnostic {
    Diagnostic::error(
        codes::UNSUPPORTED,
        format!("not supported yet: the attribute `{}`", display_name(a)),
    )
    .label(a.span, "hlslc cannot produce its effect yet")
    .note("ignoring it would give SPIR-V that means something else")
}
