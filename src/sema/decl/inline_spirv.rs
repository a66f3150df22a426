//! The module-wide requirements of inline SPIR-V: the capabilities and
//! extensions a declaration asks for with `[[vk::ext_capability(N)]]` and
//! `[[vk::ext_extension("name")]]` (on a function, a variable or a struct
//! field), added to the module when the declaration is used.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::sema::Sema;
use crate::sema::types::resolve::Env;

impl<'a> Sema<'a> {
    /// Adds the capabilities and extensions `attrs` ask for to the module.
    pub fn require_spirv_features(&mut self, attrs: &'a [ast::Attribute], env: &Env) {
        for a in attrs {
            match a.kind {
                Some(Attr::VkExtCapability) => {
                    let Some(n) = self.const_int(&a.args[0], env) else {
                        continue;
                    };
                    let cap = u32::try_from(n).ok().and_then(spirv::Capability::from_u32);
                    match cap {
                        Some(cap) => {
                            if !self.module.required_capabilities.contains(&cap) {
                                self.module.required_capabilities.push(cap);
                            }
                        }
                        None => self.push(
                            Diagnostic::error(
                                codes::BAD_ATTRIBUTE,
                                format!("{n} is not a SPIR-V capability"),
                            )
                            .label(a.args[0].span, "no capability has this number")
                            .note("the numbers are those of the SPIR-V specification's Capability table"),
                        ),
                    }
                }
                Some(Attr::VkExtExtension) => {
                    if let Some(name) = a.string_arg(0)
                        && !self.module.required_extensions.iter().any(|e| e == name)
                    {
                        self.module.required_extensions.push(name.to_string());
                    }
                }
                _ => {}
            }
        }
    }
}
