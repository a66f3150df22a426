//! Inline SPIR-V on declarations: the capabilities and extensions a
//! declaration asks for with `[[vk::ext_capability(N)]]` and
//! `[[vk::ext_extension("name")]]` (on a function, a variable or a
//! statement), added to the module when the declaration is used; the
//! decorations of `vk::ext_decorate*` on functions, global variables (their
//! `$Globals` member for a uniform one), cbuffer members and
//! struct members;
//! the execution modes of `[[vk::spvexecutionmode]]` on the entry function.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::{ScopeId, Sym, TypeEntry};
use crate::sema::{GlobalKind, Sema};
use crate::span::Span;

const NOT_OWN_VARIABLE: &str = "`vk::ext_decorate*` on a global that is neither a variable of its own nor a `$Globals` member (a constant)";

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
                        Some(cap) => self.require_capability(cap, a.args[0].span),
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
                    if let Some(name) = a.string_arg(0) {
                        self.check_extension_version(name, a.span);
                        self.require_extension(name);
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'a> Sema<'a> {
    /// Records the capabilities and extensions a typedef or alias asks for
    /// (`typedef [[vk::ext_capability(N)]] …`, `using T [[…]] = …`): the
    /// index [`crate::sema::types::scope::TypeEntry::features`] keeps, or
    /// `None` when it asks for none.
    pub fn alias_features(&mut self, attrs: &'a [ast::Attribute], scope: ScopeId) -> Option<u32> {
        let asks = attrs
            .iter()
            .any(|a| matches!(a.kind, Some(Attr::VkExtCapability | Attr::VkExtExtension)));
        if let Some(a) = attrs.iter().find(|a| {
            a.kind.is_some()
                && !matches!(a.kind, Some(Attr::VkExtCapability | Attr::VkExtExtension))
        }) {
            self.unsupported(
                format!(
                    "the attribute `{}` on a typedef or type alias",
                    crate::front::attributes::display_name(a)
                ),
                a.span,
            );
        }
        if !asks {
            return None;
        }
        self.decls.alias_features.push((attrs, scope));
        Some(self.decls.alias_features.len() as u32 - 1)
    }

    /// A use of a type name: the capabilities and extensions its typedef
    /// asks for join the module.
    pub fn used_alias(&mut self, t: TypeEntry) -> TypeEntry {
        if let Some(i) = t.features
            && let Some(&(attrs, scope)) = self.decls.alias_features.get(i as usize)
        {
            self.require_spirv_features(attrs, &Env::at(scope));
        }
        t
    }

    /// The decorations `attrs` write (`vk::ext_decorate`,
    /// `vk::ext_decorate_id`, `vk::ext_decorate_string`) on a variable, a
    /// function or a type: the decorations of struct members only
    /// (`RowMajor`, `ColMajor`, `MatrixStride`, `Offset`) are errors.
    pub fn spirv_decorations(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> Vec<ir::SpirvDecoration> {
        // Most declarations have no attributes at all.
        if attrs.is_empty() {
            return Vec::new();
        }
        let all = self.decorations_of(attrs, env);
        let member_only = [
            spirv::Decoration::RowMajor,
            spirv::Decoration::ColMajor,
            spirv::Decoration::MatrixStride,
            spirv::Decoration::Offset,
        ];
        for d in &all {
            if let Some(m) = member_only.iter().find(|m| **m as u32 == d.decoration) {
                let span = attrs
                    .iter()
                    .find(|a| is_decoration(a))
                    .map_or_else(Span::default, |a| a.span);
                self.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("decoration {} ({m:?}) applies to struct members only", d.decoration),
                    )
                    .label(span, "not on a struct member"),
                );
            }
        }
        all
    }

    /// The decorations `attrs` write, wherever they are.
    fn decorations_of(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> Vec<ir::SpirvDecoration> {
        let mut all = Vec::new();
        for a in attrs {
            let strings = match a.kind {
                Some(Attr::VkExtDecorate | Attr::VkExtDecorateId) => false,
                Some(Attr::VkExtDecorateString) => true,
                _ => continue,
            };
            let Some(decoration) = self.spirv_number(a, 0, "a decoration", env) else {
                continue;
            };
            if self.refused_decoration(a, decoration, env) {
                continue;
            }
            let operands = if strings {
                let mut strings = Vec::new();
                for (i, e) in a.args.iter().enumerate().skip(1) {
                    match a.string_arg(i) {
                        Some(s) => strings.push(s.to_string()),
                        None => self.error(
                            codes::BAD_ATTRIBUTE,
                            "`vk::ext_decorate_string` takes string operands",
                            e.span,
                            "not a string literal",
                        ),
                    }
                }
                ir::SpirvDecorationOperands::Strings(strings)
            } else {
                let words = (1..a.args.len())
                    .filter_map(|i| self.spirv_number(a, i, "a literal operand", env))
                    .collect();
                if a.kind == Some(Attr::VkExtDecorateId) {
                    ir::SpirvDecorationOperands::Ids(words)
                } else {
                    ir::SpirvDecorationOperands::Literals(words)
                }
            };
            all.push(ir::SpirvDecoration {
                decoration,
                operands,
            });
        }
        all
    }

    /// Whether decoration `decoration` of `a` cannot be written (an error
    /// then): a number that is no decoration, or a decoration (or the
    /// built-in it names) of OpenCL kernels only.
    fn refused_decoration(&mut self, a: &'a ast::Attribute, decoration: u32, env: &Env) -> bool {
        let Some(d) = spirv::Decoration::from_u32(decoration) else {
            let e = a.args.first().map_or(a.span, |e| e.span);
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("{decoration} is not a SPIR-V decoration"),
                )
                .label(e, "no decoration has this number"),
            );
            return true;
        };
        let (what, caps) = match d {
            spirv::Decoration::BuiltIn => {
                let b = a.args.get(1).and_then(|e| self.const_int(e, env));
                let Some(b) = b.and_then(|b| u32::try_from(b).ok()).and_then(spirv::BuiltIn::from_u32) else {
                    return false;
                };
                let caps = rspirv::dr::Operand::BuiltIn(b).required_capabilities();
                (format!("built-in {b:?} ({})", b as u32), caps)
            }
            _ => (
                format!("decoration {d:?} ({decoration})"),
                rspirv::dr::Operand::Decoration(d).required_capabilities(),
            ),
        };
        match kernel_only(&caps) {
            Some(cap) => {
                self.push(kernel_only_error(what, cap, a.span));
                true
            }
            None => false,
        }
    }

    /// The decorations `attrs` write on a struct field's member. SPIR-V
    /// has no member form of `OpDecorateId`: `vk::ext_decorate_id` there
    /// is an error.
    pub fn member_decorations(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> Vec<ir::SpirvDecoration> {
        for a in attrs
            .iter()
            .filter(|a| a.kind == Some(Attr::VkExtDecorateId))
        {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    "`vk::ext_decorate_id` does not apply to struct members",
                )
                .label(a.span, "on a struct member")
                .note("SPIR-V decorates members with literal or string operands only (`vk::ext_decorate`, `vk::ext_decorate_string`)"),
            );
        }
        let mut all = self.decorations_of(attrs, env);
        all.retain(|d| !matches!(d.operands, ir::SpirvDecorationOperands::Ids(_)));
        all
    }

    /// The decorations of a global variable's declaration: on its own IR
    /// global, or on its member of `$Globals`; one without either (a
    /// constant) cannot have them yet.
    pub fn decorate_global(
        &mut self,
        attrs: &'a [ast::Attribute],
        name: ast::Ident,
        scope: ScopeId,
    ) {
        let Some(a) = attrs.iter().find(|a| is_decoration(a)) else {
            return;
        };
        let (id, kind) = match self.scopes.lookup_in(scope, name.name) {
            Some(Sym::Global(id)) => (*id, self.decls.globals[*id].kind.clone()),
            _ => return self.unsupported(NOT_OWN_VARIABLE, a.span),
        };
        match kind {
            GlobalKind::Var { gv, .. } => {
                let ds = self.spirv_decorations(attrs, &Env::at(scope));
                self.module
                    .spirv_decorations
                    .extend(ds.into_iter().map(|d| (gv, d)));
            }
            GlobalKind::PendingGlobal => {
                let ds = self.member_decorations(attrs, &Env::at(scope));
                let members = &mut self.res.globals_members;
                let member = members.iter().find(|(_, m)| m.global == id).map(|(i, _)| i);
                match member.and_then(|i| members.get_mut(i)) {
                    Some(m) => m.decorations = ds,
                    None => self.unsupported(NOT_OWN_VARIABLE, a.span),
                }
            }
            _ => self.unsupported(NOT_OWN_VARIABLE, a.span),
        }
    }

    /// The execution modes of `[[vk::spvexecutionmode(mode, operands…)]]`
    /// on the entry function, with the capabilities and extensions they
    /// need.
    pub fn spirv_execution_modes(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> Vec<(spirv::ExecutionMode, Vec<u32>)> {
        let mut modes = Vec::new();
        for a in attrs
            .iter()
            .filter(|a| a.kind == Some(Attr::VkSpvExecutionMode))
        {
            let Some(n) = self.spirv_number(a, 0, "an execution mode", env) else {
                continue;
            };
            let Some(mode) = spirv::ExecutionMode::from_u32(n) else {
                self.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("{n} is not a SPIR-V execution mode"),
                    )
                    .label(a.args[0].span, "no execution mode has this number")
                    .note(
                        "the numbers are those of the SPIR-V specification's Execution Mode table",
                    ),
                );
                continue;
            };
            let operands = (1..a.args.len())
                .filter_map(|i| self.spirv_number(a, i, "a literal operand", env))
                .collect();
            self.require_mode_features(mode, a.args[0].span);
            modes.push((mode, operands));
        }
        modes
    }

    /// The capability and extensions an execution mode of inline SPIR-V
    /// needs.
    pub fn require_mode_features(&mut self, mode: spirv::ExecutionMode, span: Span) {
        let m = rspirv::dr::Operand::ExecutionMode(mode);
        for cap in m.required_capabilities().into_iter().take(1) {
            self.require_capability(cap, span);
        }
        for ext in m.required_extensions() {
            self.require_extension(ext);
        }
    }

    /// Argument `i` of `a`: a constant that fits a SPIR-V word.
    fn spirv_number(
        &mut self,
        a: &'a ast::Attribute,
        i: usize,
        what: &str,
        env: &Env,
    ) -> Option<u32> {
        let e = a.args.get(i)?;
        let v = self.const_int(e, env)?;
        match u32::try_from(v) {
            Ok(v) => Some(v),
            Err(_) => {
                self.error(
                    codes::BAD_ATTRIBUTE,
                    format!("{what} is a 32-bit unsigned number"),
                    e.span,
                    "out of range",
                );
                None
            }
        }
    }

    /// Adds `cap`, which the shader asked for at `span`: an error for the
    /// capabilities of OpenCL kernels, which no Vulkan environment allows.
    fn require_capability(&mut self, cap: spirv::Capability, span: Span) {
        if is_kernel_capability(cap) {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("capability {cap:?} is for OpenCL kernels; Vulkan does not allow it"),
                )
                .label(span, format!("needs {cap:?}")),
            );
            return;
        }
        if !self.module.required_capabilities.contains(&cap) {
            self.module.required_capabilities.push(cap);
        }
        for ext in rspirv::dr::Operand::Capability(cap).required_extensions() {
            self.require_extension(ext);
        }
    }

    /// An extension the shader names itself must fit the target's SPIR-V
    /// version: an error at the attribute otherwise.
    fn check_extension_version(&mut self, name: &str, span: Span) {
        let env = self.opts.target_env;
        let min = crate::ir::extensions::lookup(name).map_or((1, 0), |x| x.min_version);
        if env.spirv_version() < min {
            let (major, minor) = env.spirv_version();
            self.push(
                Diagnostic::error(
                    codes::TARGET_TOO_OLD,
                    format!(
                        "{name} needs SPIR-V {}.{}, but the target is {} (SPIR-V {major}.{minor})",
                        min.0,
                        min.1,
                        env.name()
                    ),
                )
                .label(span, "asked for here")
                .note(format!(
                    "choose a newer target environment, e.g. -fspv-target-env={}",
                    crate::ir::TargetEnv::oldest_vulkan_with(min).flag()
                )),
            );
        }
    }

    fn require_extension(&mut self, name: &str) {
        if !self.module.required_extensions.iter().any(|e| e == name) {
            self.module.required_extensions.push(name.to_string());
        }
    }
}

/// Whether `a` is one of the `vk::ext_decorate*` attributes.
pub fn is_decoration(a: &ast::Attribute) -> bool {
    matches!(
        a.kind,
        Some(Attr::VkExtDecorate | Attr::VkExtDecorateId | Attr::VkExtDecorateString)
    )
}

/// Whether `cap` is one of the capabilities of OpenCL kernels, which no
/// Vulkan environment allows.
fn is_kernel_capability(cap: spirv::Capability) -> bool {
    use spirv::Capability as C;
    matches!(
        cap,
        C::Kernel
            | C::Addresses
            | C::Vector16
            | C::Float16Buffer
            | C::ImageBasic
            | C::ImageReadWrite
            | C::ImageMipmap
            | C::Pipes
            | C::Groups
            | C::DeviceEnqueue
            | C::LiteralSampler
            | C::GenericPointer
            | C::SubgroupDispatch
            | C::NamedBarrier
            | C::PipeStorage
    )
}

/// Whether a feature that any of `caps` enables (a decoration, built-in or
/// instruction, as SPIR-V's grammar lists them) is for OpenCL kernels
/// only: the capability it would need, written into a module, fails every
/// Vulkan environment. Returns the first such capability.
pub(crate) fn kernel_only(caps: &[spirv::Capability]) -> Option<spirv::Capability> {
    let first = *caps.first()?;
    caps.iter().all(|&c| is_kernel_capability(c)).then_some(first)
}

/// The error for a feature `what` of OpenCL kernels (needing `cap`) asked
/// for at `span`.
pub(crate) fn kernel_only_error(what: String, cap: spirv::Capability, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::BAD_ATTRIBUTE,
        format!("{what} is for OpenCL kernels (capability {cap:?}); Vulkan does not allow it"),
    )
    .label(span, "asked for here")
}
