//! The implicit `vk` namespace (SPIR-V.rst, "The Implicit vk Namespace"):
//! DXC's built-in constants and functions named `vk::NAME`.
//!
//! [`VK_BUILTINS`] is the one table of them. To add one, add a row (a
//! `Const` is a `uint` value; a `Func` names a lowering) and, for a
//! function, a case in [`FnCtx::vk_call`]. Names and calls reach this
//! module only for paths spelt `vk::NAME` or `::vk::NAME` whose `NAME` is
//! in the table, so user namespaces and the `vk::` types are untouched.

use crate::diag::codes;
use crate::front::ast;
use crate::intern::builtins::vk_symbol;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::consteval::Konst;
use crate::sema::types::{self, Sc};
use crate::span::Span;

/// What a `vk::` name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VkBuiltin {
    /// A `const uint`: the scopes are SPIR-V's `Scope` values.
    Const(u32),
    Func(VkFunc),
}

/// The `vk::` functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VkFunc {
    /// `uint64_t ReadClock(uint scope)` → OpReadClockKHR (SPV_KHR_shader_clock).
    ReadClock,
    /// `ext_execution_mode(mode, literals…)`: an execution mode of the
    /// entry point (inline SPIR-V).
    ExtExecutionMode,
    /// `ext_execution_mode_id(mode, constants…)`: one with id operands.
    ExtExecutionModeId,
}

/// Every `vk::` constant and function, by name.
pub const VK_BUILTINS: &[(&str, VkBuiltin)] = &[
    ("CrossDeviceScope", VkBuiltin::Const(0)),
    ("DeviceScope", VkBuiltin::Const(1)),
    ("WorkgroupScope", VkBuiltin::Const(2)),
    ("SubgroupScope", VkBuiltin::Const(3)),
    ("InvocationScope", VkBuiltin::Const(4)),
    ("QueueFamilyScope", VkBuiltin::Const(5)),
    ("ReadClock", VkBuiltin::Func(VkFunc::ReadClock)),
    (
        "ext_execution_mode",
        VkBuiltin::Func(VkFunc::ExtExecutionMode),
    ),
    (
        "ext_execution_mode_id",
        VkBuiltin::Func(VkFunc::ExtExecutionModeId),
    ),
];

/// The built-in a path names: `vk::NAME` or `::vk::NAME` with `NAME` in
/// [`VK_BUILTINS`].
pub fn vk_builtin(path: &ast::Path) -> Option<VkBuiltin> {
    if path.qualifier.is_some() || path.segments.len() != 2 || path.segments[0].name != vk_symbol()
    {
        return None;
    }
    let name = path.segments[1].name.as_str();
    VK_BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, b)| b)
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `vk::NAME` as a value: a constant, or an error for a function.
    pub(in crate::sema) fn vk_name(&mut self, path: &ast::Path, span: Span) -> Option<Val> {
        Some(match vk_builtin(path)? {
            VkBuiltin::Const(v) => {
                Val::konst(types::UINT, Konst::int(i64::from(v)).convert(Sc::U32))
            }
            VkBuiltin::Func(_) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a function, not a value", path.last().name),
                span,
                "call it: add `(…)`",
            ),
        })
    }

    /// A call of a `vk::` function; `None` when the path names none.
    pub(in crate::sema) fn vk_call(
        &mut self,
        callee: &ast::Path,
        targs: Option<&'a [ast::TemplateArg]>,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Option<Val> {
        let f = match vk_builtin(callee)? {
            VkBuiltin::Func(f) => f,
            VkBuiltin::Const(_) => {
                let _ = self.lower_args(args);
                return Some(self.error(
                    codes::NOT_CALLABLE,
                    format!("`{}` is a constant, not a function", callee.last().name),
                    callee.span,
                    "not callable",
                ));
            }
        };
        let a = self.lower_args(args);
        if a.iter().any(|x| x.val.is_error()) {
            return Some(Val::error());
        }
        if targs.is_some() {
            return Some(self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!("`vk::{}` takes no template arguments", callee.last().name),
                span,
                "template arguments given here",
            ));
        }
        Some(match f {
            VkFunc::ReadClock => self.read_clock(&a, span),
            VkFunc::ExtExecutionMode => self.ext_execution_mode(&a, false, span),
            VkFunc::ExtExecutionModeId => self.ext_execution_mode(&a, true, span),
        })
    }

    /// `vk::ReadClock(scope)`: the scope must be a constant, and Vulkan
    /// allows only Device and Subgroup (VUID-StandaloneSpirv-OpReadClockKHR-04652).
    fn read_clock(&mut self, a: &[Arg], span: Span) -> Val {
        let [arg] = a else {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!(
                    "`vk::ReadClock` takes 1 argument (the scope), not {}",
                    a.len()
                ),
                span,
                "wrong number of arguments",
            );
        };
        let scope = match (&arg.val.kind, self.s.types.component(arg.val.ty)) {
            (ValKind::Const(k), Some(c)) if c.is_int() => k.as_i64(),
            _ => {
                return self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    "the scope of `vk::ReadClock` must be a constant integer",
                    arg.span,
                    "use `vk::DeviceScope` or `vk::SubgroupScope`",
                );
            }
        };
        if scope != 1 && scope != 3 {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!("`vk::ReadClock` reads the device or subgroup clock, not scope {scope}"),
                arg.span,
                "use `vk::DeviceScope` or `vk::SubgroupScope`",
            );
        }
        let u64t = self.s.types.scalar(Sc::U64);
        let it = self.s.ir_ty(u64t);
        let res = self.add(ir::Expression::SubgroupResult, it);
        self.stmt(ir::Statement::Subgroup {
            op: ir::SubgroupOperation::ReadClock { device: scope == 1 },
            args: vec![],
            result: res,
        });
        Val::expr(u64t, res)
    }

    /// `vk::ext_execution_mode(mode, literals…)` and
    /// `vk::ext_execution_mode_id(mode, constants…)` (`ids`): every
    /// argument a constant; the mode joins the entry point's.
    fn ext_execution_mode(&mut self, a: &[Arg], ids: bool, span: Span) -> Val {
        let name = if ids {
            "vk::ext_execution_mode_id"
        } else {
            "vk::ext_execution_mode"
        };
        let Some((first, rest)) = a.split_first() else {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!("`{name}` takes the execution mode and its operands"),
                span,
                "no execution mode given",
            );
        };
        let mut konsts = Vec::with_capacity(a.len());
        for arg in a {
            match (&arg.val.kind, self.s.types.component(arg.val.ty)) {
                (ValKind::Const(k), Some(c)) if c.is_int() || c == Sc::Bool => {
                    konsts.push((c.concrete(), k.as_i64()));
                }
                _ => {
                    return self.error(
                        codes::NOT_CONSTANT,
                        format!("the arguments of `{name}` must be integer constants"),
                        arg.span,
                        "not an integer constant",
                    );
                }
            }
        }
        let n = konsts[0].1;
        let Some(mode) = u32::try_from(n)
            .ok()
            .and_then(spirv::ExecutionMode::from_u32)
        else {
            return self.error(
                codes::BAD_ATTRIBUTE,
                format!("{n} is not a SPIR-V execution mode"),
                first.span,
                "no execution mode has this number",
            );
        };
        let operands = if ids {
            ir::SpirvModeOperands::Ids(konsts[1..].iter().map(|&(s, v)| (s.ir(), v)).collect())
        } else {
            let mut words = Vec::with_capacity(rest.len());
            for (arg, &(_, v)) in rest.iter().zip(&konsts[1..]) {
                match u32::try_from(v) {
                    Ok(w) => words.push(w),
                    Err(_) => {
                        return self.error(
                            codes::BAD_ATTRIBUTE,
                            "a literal operand is a 32-bit unsigned number",
                            arg.span,
                            "out of range",
                        );
                    }
                }
            }
            ir::SpirvModeOperands::Literals(words)
        };
        self.s.require_mode_features(mode, span);
        let m = ir::SpirvExecutionMode { mode, operands };
        if !self.s.module.spirv_execution_modes.contains(&m) {
            self.s.module.spirv_execution_modes.push(m);
        }
        Val::void()
    }
}
