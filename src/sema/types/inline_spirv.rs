//! The types of inline SPIR-V that the compiler itself provides in the
//! `vk` namespace: `vk::ext_result_id<T>`, the result of an
//! `ext_instruction` function used as a value of `T`.

use super::scope::TypeEntry;
use crate::diag::codes;
use crate::front::ast;
use crate::sema::Sema;
use crate::sema::types::resolve::Env;
use crate::span::Span;

impl<'a> Sema<'a> {
    /// The built-in inline SPIR-V type `path` names (`vk::ext_result_id<T>`),
    /// if it names one.
    pub(in crate::sema) fn inline_spirv_type(
        &mut self,
        path: &'a ast::Path,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TypeEntry> {
        let [vk, name] = path.segments.as_slice() else {
            return None;
        };
        if path.global || path.qualifier.is_some() || vk.name.as_str() != "vk" {
            return None;
        }
        match name.name.as_str() {
            // The id of a value of `T`: in hlslc the value itself.
            "ext_result_id" => {
                let ty = match args {
                    Some([arg]) => self.template_type_arg(arg, env),
                    _ => {
                        self.error(
                            codes::BAD_TEMPLATE_ARGS,
                            "`vk::ext_result_id` takes one type argument",
                            span,
                            "expected `vk::ext_result_id<T>`",
                        );
                        super::ERROR
                    }
                };
                Some(TypeEntry { ty, major: None })
            }
            _ => None,
        }
    }
}
