//! Which functions and globals a module's entry points reach: the one
//! answer the SPIR-V writer and reflection share about what a module
//! declares.
//!
//! DXC declares only what the entry point uses: its legalisation removes
//! resources, push constant blocks, `$Globals`, counters and stage
//! variables that no instruction of the entry point names
//! (`-fspv-preserve-bindings` keeps the resources with a binding,
//! `-fspv-preserve-interface` the stage inputs and outputs). Engines that
//! build descriptor set layouts from the SPIR-V then see exactly the
//! bindings the shader reads.

use super::{AddressSpace, Expression, Function, GlobalVariable, Handle, Module, Statement};

/// What [`Module::declared_globals`] keeps although no entry point uses
/// it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeepUnused {
    /// `-fspv-preserve-bindings`: every global with a descriptor set and
    /// binding (resources, buffer blocks, counters, `$Globals`).
    pub bindings: bool,
    /// `-fspv-preserve-interface`: every stage input and output.
    pub interface: bool,
}

impl Module {
    /// The functions reachable through calls from `roots` (by index).
    pub fn functions_reached_from(
        &self,
        roots: impl IntoIterator<Item = Handle<Function>>,
    ) -> Vec<bool> {
        let mut seen = vec![false; self.functions.len()];
        let mut stack: Vec<Handle<Function>> = roots.into_iter().collect();
        while let Some(f) = stack.pop() {
            let Some(fun) = self.functions.get(f) else {
                continue;
            };
            if std::mem::replace(&mut seen[f.index()], true) {
                continue;
            }
            super::visit::walk_statements(&fun.body, |s| {
                if let Statement::Call { function, .. } = s {
                    stack.push(*function);
                }
            });
        }
        seen
    }

    /// The functions the module's code may run: those reachable from its
    /// entry points and from its exported functions (a linker may call
    /// them).
    pub fn functions_reached(&self) -> Vec<bool> {
        let entries = self.entry_points.iter().map(|ep| ep.function);
        let exported = self
            .functions
            .iter()
            .filter(|(_, f)| f.export.is_some())
            .map(|(h, _)| h);
        self.functions_reached_from(entries.chain(exported))
    }

    /// Which globals an expression of the functions marked in `functions`
    /// names (by index).
    pub fn globals_named_by(&self, functions: &[bool]) -> Vec<bool> {
        let mut named = vec![false; self.globals.len()];
        for (h, fun) in self.functions.iter() {
            if !functions.get(h.index()).copied().unwrap_or(false) {
                continue;
            }
            for (_, e) in fun.expressions.iter() {
                if let Expression::GlobalVariable(g) = *e
                    && let Some(n) = named.get_mut(g.index())
                {
                    *n = true;
                }
            }
        }
        named
    }

    /// The globals the module declares (by index): those its code names
    /// ([`Module::functions_reached`]), and the unused ones `keep` asks
    /// for. Every other global is left out of the SPIR-V and the
    /// reflection, as DXC leaves it out.
    pub fn declared_globals(&self, keep: KeepUnused) -> Vec<bool> {
        self.declared_globals_among(self.globals_named_by(&self.functions_reached()), keep)
    }

    /// [`Module::declared_globals`] from `named`: the globals that the
    /// code of [`Module::functions_reached`] names, by index, for a caller
    /// that has found them already (the SPIR-V writer).
    pub fn declared_globals_among(&self, mut named: Vec<bool>, keep: KeepUnused) -> Vec<bool> {
        for (h, g) in self.globals.iter() {
            let kept =
                (keep.bindings && g.binding.is_some()) || (keep.interface && is_stage_variable(g));
            if kept && let Some(d) = named.get_mut(h.index()) {
                *d = true;
            }
        }
        named
    }
}

fn is_stage_variable(g: &GlobalVariable) -> bool {
    matches!(g.space, AddressSpace::Input | AddressSpace::Output)
}
