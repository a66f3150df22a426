//! Inline SPIR-V decorations (`vk::ext_decorate*`) on the entry function,
//! its parameters and the members of its input and output structs: they
//! decorate the stage variables these become (the result's for the
//! function itself), as DXC does. `Location` and `BuiltIn` written that
//! way place the variable, as `[[vk::location]]` does and instead of a
//! location; the other decorations are written as they are.

use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::Sema;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::FuncDeclId;
use super::VkLoc;

/// `Decoration::BuiltIn` and `Decoration::Location`.
const BUILT_IN: u32 = spirv::Decoration::BuiltIn as u32;
const LOCATION: u32 = spirv::Decoration::Location as u32;

/// Whether `d` places a stage variable (a location or a built-in).
fn places(d: &ir::SpirvDecoration) -> bool {
    matches!(d.operands, ir::SpirvDecorationOperands::Literals(_))
        && (d.decoration == BUILT_IN || d.decoration == LOCATION)
}

impl VkLoc {
    /// The `vk::location`/`vk::index` of a struct field, or the location
    /// or built-in its `vk::ext_decorate` gives.
    pub(super) fn field(f: &crate::sema::types::Field) -> VkLoc {
        let placed = |decoration: u32| {
            f.decorations.iter().find_map(|d| match &d.operands {
                ir::SpirvDecorationOperands::Literals(w)
                    if d.decoration == decoration && w.len() == 1 =>
                {
                    Some(w[0])
                }
                _ => None,
            })
        };
        VkLoc {
            location: f.vk_location.or(placed(LOCATION)),
            index: f.vk_index,
            builtin: placed(BUILT_IN)
                .and_then(spirv::BuiltIn::from_u32)
                .or_else(|| f.vk_builtin.and_then(|b| vk_builtin(b.as_str()))),
        }
    }
}

/// The built-in `[[vk::builtin("…")]]` names on an entry parameter or a
/// field of one (SPIR-V.rst, "Builtin variables"); its rules are checked
/// with the rest of the interface.
pub(super) fn vk_builtin(name: &str) -> Option<spirv::BuiltIn> {
    use spirv::BuiltIn as B;
    Some(match name {
        "PointSize" => B::PointSize,
        "HelperInvocation" => B::HelperInvocation,
        "BaseVertex" => B::BaseVertex,
        "BaseInstance" => B::BaseInstance,
        "DrawIndex" => B::DrawIndex,
        "DeviceIndex" => B::DeviceIndex,
        "ViewportMaskNV" => B::ViewportMaskNV,
        _ => return None,
    })
}

impl<'a> Sema<'a> {
    /// The entry function's decorations and its parameters' belong to
    /// its stage variables, not to the function the wrapper calls.
    pub(super) fn undecorate_entry(&mut self, user: ir::Handle<ir::Function>) {
        let f = &mut self.module.functions[user];
        f.spirv_decorations.clear();
        for a in &mut f.arguments {
            a.spirv_decorations.clear();
        }
    }

    /// The location and built-in `vk::ext_decorate(Location, l)` and
    /// `vk::ext_decorate(BuiltIn, b)` in `attrs` give a stage variable.
    pub(super) fn ext_stage_binding(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> (Option<u32>, Option<spirv::BuiltIn>) {
        let (mut location, mut builtin) = (None, None);
        for a in attrs.iter().filter(|a| a.kind == Some(Attr::VkExtDecorate)) {
            // The numbers' own errors are reported with the decorations.
            let mut words = Vec::new();
            for e in &a.args {
                match self.const_eval(e, env) {
                    Ok(k) => words.push(k.as_i64() as u32),
                    Err(_) => break,
                }
            }
            let Some((&decoration, words)) = words.split_first() else {
                continue;
            };
            if words.len() + 1 != a.args.len() {
                continue;
            }
            match (decoration, words) {
                (LOCATION, &[l]) => location = Some(l),
                (BUILT_IN, &[b]) => match spirv::BuiltIn::from_u32(b) {
                    Some(b) => builtin = Some(b),
                    None => self.error(
                        crate::diag::codes::BAD_ATTRIBUTE,
                        format!("{b} is not a SPIR-V built-in"),
                        a.span,
                        "no built-in has this number",
                    ),
                },
                (LOCATION | BUILT_IN, _) => self.error(
                    crate::diag::codes::BAD_ATTRIBUTE,
                    "`Location` and `BuiltIn` take one literal operand",
                    a.span,
                    "wrong number of operands",
                ),
                _ => {}
            }
        }
        (location, builtin)
    }

    /// The decorations of an entry parameter or function (`attrs`) that
    /// its stage variables take as written.
    pub(super) fn stage_decorations(
        &mut self,
        attrs: &'a [ast::Attribute],
        id: FuncDeclId,
    ) -> Vec<ir::SpirvDecoration> {
        let env = Env::at(self.decls.funcs[id].scope);
        let mut all = self.spirv_decorations(attrs, &env);
        all.retain(|d| !places(d));
        all
    }

    /// Decorates the stage variables made since global `first` for field
    /// `f` of an entry point's input or output struct with the field's
    /// decorations.
    pub(super) fn decorate_field_vars(&mut self, first: usize, f: &crate::sema::types::Field) {
        let ds = f.type_decorations();
        self.decorate_stage_vars(first, &ds, VkLoc::field(f));
    }

    /// Decorates the stage variables made since global `first` with `ds`;
    /// those given a location are the built-in `vk` names instead.
    pub(super) fn decorate_stage_vars(
        &mut self,
        first: usize,
        ds: &[ir::SpirvDecoration],
        vk: VkLoc,
    ) {
        if ds.is_empty() && vk.builtin.is_none() {
            return;
        }
        let made: Vec<_> = self
            .module
            .globals
            .iter()
            .skip(first)
            .filter(|(_, g)| matches!(g.space, ir::AddressSpace::Input | ir::AddressSpace::Output))
            .map(|(h, _)| h)
            .collect();
        for g in made {
            let var = &mut self.module.globals[g];
            if let (Some(b), Some(ir::Binding::Location { .. })) = (vk.builtin, var.io) {
                var.io = Some(ir::Binding::BuiltIn(b));
            }
            self.module
                .spirv_decorations
                .extend(ds.iter().map(|d| (g, d.clone())));
        }
    }
}
