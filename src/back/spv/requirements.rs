//! What a module needs from its target, decided in one place.
//!
//! The rest of the backend records only what the module uses: each
//! capability an instruction, type, built-in or execution mode needs
//! (`Writer::capability`, with the source span of its first use), and the
//! few extensions no capability stands for (decorations, instruction sets,
//! execution modes without a capability). From those, and from what the
//! shader asked for itself (`[[vk::ext_capability]]`, `[[vk::ext_extension]]`
//! in [`crate::ir::Module::required_capabilities`]), this module derives:
//! - the extension each capability needs, unless the SPIR-V version has it
//!   in core or the module already declares one that enables it (the
//!   choice among several follows `-fspv-extension`, then prefers
//!   Khronos extensions, then the grammar's first);
//! - the addressing model (`PhysicalStorageBuffer64` for device
//!   addresses) and the memory model (`Vulkan` with VulkanMemoryModel,
//!   which cooperative matrices bring);
//! - and checks the result against the target: an extension
//!   `-fspv-extension` does not allow (E0804) or one the SPIR-V version
//!   cannot carry (E0801) is an error at the first line that needs it.

use super::function::FunctionWriter;
use super::writer::Writer;
use super::{BackResult, needs_newer_target};
use crate::diag::{Diagnostic, codes};
use crate::ir::extensions;
use crate::ir::{Expression, Handle, Statement};
use crate::span::Span;
use rspirv::dr::Operand;
use spirv::{AddressingModel, Capability, MemoryModel};
use std::collections::BTreeMap;

/// The module's requirements, as they go into its header.
pub(super) struct Resolved {
    pub capabilities: Vec<Capability>,
    pub extensions: Vec<String>,
    pub addressing: AddressingModel,
    pub memory: MemoryModel,
}

/// Why the module declares an extension: the capability that needs it
/// (`None`: the backend or the shader asked for the extension itself),
/// and the first span that did.
type Reasons = BTreeMap<String, (Option<Capability>, Span)>;

impl Writer<'_> {
    /// Records that the module uses `cap`, at the span being written.
    pub fn capability(&mut self, cap: Capability) {
        self.capabilities.insert(cap);
        let span = self.cur_span;
        let first = self.first_use.entry(cap).or_insert(span);
        if first.is_dummy() {
            *first = span;
        }
    }

    /// Records that the module declares `extension` for something no
    /// capability stands for; dropped where the SPIR-V version has it in
    /// core.
    pub fn extension(&mut self, extension: &str) {
        if !self.extensions.contains(extension) {
            self.extensions.insert(extension.to_string());
            self.ext_first_use
                .insert(extension.to_string(), self.cur_span);
        }
    }

    /// Records that the module holds `OpDecorateId` ([`DECORATE_ID`]) or
    /// `OpExecutionModeId` ([`EXECUTION_MODE_ID`]), at the span being
    /// written.
    pub fn instruction(&mut self, what: (&'static str, (u8, u8))) {
        let span = self.cur_span;
        let first = self
            .instruction_first_use
            .entry(what.0)
            .or_insert((what.1, span));
        if first.1.is_dummy() {
            first.1 = span;
        }
    }

    /// The capabilities, extensions and models of the whole module.
    pub(super) fn resolve_requirements(&mut self) -> BackResult<Resolved> {
        self.capability(Capability::Shader);
        for &cap in &self.ir.required_capabilities {
            self.capabilities.insert(cap);
        }
        let version = self.version;
        // Extensions the backend asked for by name, then those the
        // shader asked for (never dropped or checked: the shader knows).
        let mut exts: Reasons = BTreeMap::new();
        for e in &self.extensions {
            let in_core = extensions::lookup(e)
                .and_then(|x| x.core_since)
                .is_some_and(|v| version >= v);
            if !in_core {
                let span = self.ext_first_use.get(e).copied().unwrap_or_default();
                exts.insert(e.clone(), (None, span));
            }
        }
        let own: Vec<&String> = self.ir.required_extensions.iter().collect();
        // Cooperative matrices in a shader need the Vulkan memory model
        // (SPV_KHR_cooperative_matrix's validation rules).
        if self.capabilities.contains(&Capability::CooperativeMatrixKHR) {
            self.capabilities.insert(Capability::VulkanMemoryModel);
        }
        if self.capabilities.contains(&Capability::VulkanMemoryModel) && self.device_scope_used {
            self.capabilities
                .insert(Capability::VulkanMemoryModelDeviceScope);
        }
        for &cap in &self.capabilities {
            let options = Operand::Capability(cap).required_extensions();
            let declared = |e: &&str| exts.contains_key(*e) || own.iter().any(|o| o == e);
            if options.iter().any(declared) {
                continue;
            }
            let Some(choice) = choose(cap, &options, &self.options.allowed_extensions) else {
                continue;
            };
            let in_core = extensions::lookup(choice)
                .and_then(|x| x.core_since)
                .is_some_and(|v| version >= v);
            if !in_core {
                let span = self.first_use.get(&cap).copied().unwrap_or_default();
                exts.insert(choice.to_string(), (Some(cap), span));
            }
        }
        self.check_extensions(&exts)?;
        // The shader's own (`vk::ext_extension`) must fit the SPIR-V
        // version at least.
        for name in &own {
            let min = extensions::lookup(name).map_or((1, 0), |x| x.min_version);
            if version < min {
                return Err(needs_newer_target(
                    &format!("{name} (asked for with `vk::ext_extension`)"),
                    min,
                    self.options.target_env,
                ));
            }
        }
        let declared = |e: &str| exts.contains_key(e) || own.iter().any(|o| *o == e);
        self.check_versions(declared("SPV_GOOGLE_hlsl_functionality1"))?;
        let mut all: Vec<String> = exts.into_keys().collect();
        all.extend(own.into_iter().cloned());
        all.sort();
        all.dedup();
        let caps = &self.capabilities;
        Ok(Resolved {
            capabilities: caps.iter().copied().collect(),
            extensions: all,
            addressing: if caps.contains(&Capability::PhysicalStorageBufferAddresses) {
                AddressingModel::PhysicalStorageBuffer64
            } else {
                AddressingModel::Logical
            },
            memory: if caps.contains(&Capability::VulkanMemoryModel) {
                MemoryModel::Vulkan
            } else {
                MemoryModel::GLSL450
            },
        })
    }

    /// Each extension must be one `-fspv-extension` allows and one the
    /// SPIR-V version can carry.
    fn check_extensions(&self, exts: &Reasons) -> BackResult<()> {
        let allowed = &self.options.allowed_extensions;
        for (name, &(cap, span)) in exts {
            let what = match cap {
                Some(c) => format!("capability {c:?}"),
                None => "the module".to_string(),
            };
            // `-fspv-reflect` asks for its own decorations' extensions.
            let reflect = self.options.spv_reflect && name.starts_with("SPV_GOOGLE_");
            if !reflect && !extensions::allowed(allowed, name) {
                let mut d = Diagnostic::error(
                    codes::EXTENSION_NOT_ALLOWED,
                    format!(
                        "SPIR-V extension `{name}` is needed for {what}, but -fspv-extension does not allow it"
                    ),
                );
                if !span.is_dummy() {
                    d = d.label(span, format!("needs {name}"));
                }
                return Err(d.note(format!(
                    "add -fspv-extension={name}{}",
                    if name.starts_with("SPV_KHR_") {
                        " (or -fspv-extension=KHR for every Khronos extension)"
                    } else {
                        ""
                    }
                )));
            }
            let min = extensions::lookup(name).map_or((1, 0), |x| x.min_version);
            if self.version < min {
                let mut d = needs_newer_target(
                    &format!("{name} (for {what})"),
                    min,
                    self.options.target_env,
                );
                if !span.is_dummy() {
                    d = d.label(span, format!("needs {name}"));
                }
                return Err(d);
            }
        }
        Ok(())
    }
}

/// `OpDecorateId` and `OpExecutionModeId` came with SPIR-V 1.2
/// (SPV_GOOGLE_hlsl_functionality1 allows the first from 1.0).
pub(super) const DECORATE_ID: (&str, (u8, u8)) = ("OpDecorateId", (1, 2));
pub(super) const EXECUTION_MODE_ID: (&str, (u8, u8)) = ("OpExecutionModeId", (1, 2));

/// The SPIR-V version a capability with no extension needs (the
/// specification's "Missing before" for core-only capabilities): the
/// wave operations' 1.3.
fn capability_version(cap: Capability) -> Option<(u8, u8)> {
    use Capability as C;
    match cap {
        C::GroupNonUniform
        | C::GroupNonUniformVote
        | C::GroupNonUniformArithmetic
        | C::GroupNonUniformBallot
        | C::GroupNonUniformShuffle
        | C::GroupNonUniformShuffleRelative
        | C::GroupNonUniformClustered
        | C::GroupNonUniformQuad => Some((1, 3)),
        _ => None,
    }
}

impl Writer<'_> {
    /// What only a newer SPIR-V has, or only a universal (non-Vulkan)
    /// environment allows, is an error at its first use: capabilities
    /// without an extension, `OpDecorateId` and `OpExecutionModeId`, and
    /// the `Linkage` of `export` functions (Vulkan never allows it).
    fn check_versions(&self, hlsl_functionality1: bool) -> BackResult<()> {
        let labelled = |d: Diagnostic, span: Span, label: String| {
            if span.is_dummy() {
                d
            } else {
                d.label(span, label)
            }
        };
        let env = self.options.target_env;
        if self.capabilities.contains(&Capability::Linkage) && !env.is_universal() {
            let span = self
                .first_use
                .get(&Capability::Linkage)
                .copied()
                .unwrap_or_default();
            let d = Diagnostic::error(
                codes::TARGET_TOO_OLD,
                format!(
                    "an `export` function needs the Linkage capability, which the target {} does not allow (Vulkan has no linking)",
                    env.flag()
                ),
            )
            .note("choose -fspv-target-env=universal1.5 for a library to be linked, or drop `export`");
            return Err(labelled(d, span, "exported here".into()));
        }
        for &cap in &self.capabilities {
            if let Some(min) = capability_version(cap)
                && self.version < min
            {
                let span = self.first_use.get(&cap).copied().unwrap_or_default();
                let what = format!("a wave operation (capability {cap:?})");
                let d = needs_newer_target(&what, min, env);
                return Err(labelled(d, span, format!("needs capability {cap:?}")));
            }
        }
        for (&name, &(min, span)) in &self.instruction_first_use {
            let allowed = hlsl_functionality1 && name == DECORATE_ID.0;
            if self.version < min && !allowed {
                let d = needs_newer_target(name, min, env);
                return Err(labelled(d, span, format!("needs {name}")));
            }
        }
        Ok(())
    }
}

/// The extension that enables `cap`, among `options` (the SPIR-V
/// grammar's list): one `-fspv-extension` names, else the preferred one.
fn choose(cap: Capability, options: &[&'static str], allowed: &[String]) -> Option<&'static str> {
    let named = |e: &&&str| allowed.iter().any(|a| a == **e);
    if let Some(&e) = options.iter().find(named) {
        return Some(e);
    }
    if !allowed.is_empty()
        && let Some(&e) = options.iter().find(|e| extensions::allowed(allowed, e))
    {
        return Some(e);
    }
    // Compute-shader derivatives: the NV spelling, which the tools and
    // drivers of today all know (the KHR one shares its capabilities).
    let derivatives = matches!(
        cap,
        Capability::ComputeDerivativeGroupQuadsKHR | Capability::ComputeDerivativeGroupLinearKHR
    );
    // Else a Khronos extension, else the first the grammar lists (the
    // one that introduced the capability).
    let rank = |e: &&&str| match () {
        _ if derivatives && e.starts_with("SPV_NV_") => 0,
        _ if e.starts_with("SPV_KHR_") => 1,
        _ => 2,
    };
    options.iter().min_by_key(rank).copied()
}

impl FunctionWriter<'_, '_> {
    /// What is written next comes from the source of expression `h`
    /// (when it has a span), for diagnostics of what it needs.
    pub(super) fn at(&mut self, h: Handle<Expression>) {
        let span = self.fun.expr_span(h);
        if !span.is_dummy() {
            self.w.cur_span = span;
        }
    }

    /// Likewise for a statement, by the expression it stores to or gives.
    pub(super) fn at_statement(&mut self, stmt: &Statement) {
        match *stmt {
            Statement::Store { pointer: h, .. }
            | Statement::ImageStore { image: h, .. }
            | Statement::Atomic { pointer: h, .. }
            | Statement::Subgroup { result: h, .. }
            | Statement::Call {
                result: Some(h), ..
            }
            | Statement::Ray {
                result: Some(h), ..
            }
            | Statement::Spirv {
                result: Some(h), ..
            } => self.at(h),
            _ => {}
        }
    }
}
