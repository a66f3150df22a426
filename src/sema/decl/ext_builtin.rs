//! What Vulkan requires of the built-ins that `vk::ext_builtin_input` and
//! `vk::ext_builtin_output` name (the Vulkan specification's "Built-In
//! Variables"): whether the variable is an input or an output, and its
//! type. Only built-ins whose direction and type are the same in every
//! stage are checked; others (`Position`, `Layer`, `ClipDistance`, …,
//! arrayed in some stages) are declared as written.

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::sema::Sema;
use crate::sema::types::{Sc, Ty, TyId};
use crate::span::Span;
use spirv::BuiltIn as B;

/// The type a built-in must have.
#[derive(Clone, Copy)]
enum Want {
    /// A 32-bit float scalar (`n` 1) or vector of `n` components.
    Float(u8),
    /// A 32-bit integer (signed or not) scalar or vector.
    Int(u8),
    Bool,
}

/// The rules: the built-in, whether it is an input (else an output), and
/// its type.
const RULES: &[(B, bool, Want)] = &[
    (B::InvocationId, true, Want::Int(1)),
    (B::TessCoord, true, Want::Float(3)),
    (B::PatchVertices, true, Want::Int(1)),
    (B::FragCoord, true, Want::Float(4)),
    (B::PointCoord, true, Want::Float(2)),
    (B::FrontFacing, true, Want::Bool),
    (B::SampleId, true, Want::Int(1)),
    (B::SamplePosition, true, Want::Float(2)),
    (B::FragDepth, false, Want::Float(1)),
    (B::HelperInvocation, true, Want::Bool),
    (B::NumWorkgroups, true, Want::Int(3)),
    (B::WorkgroupId, true, Want::Int(3)),
    (B::LocalInvocationId, true, Want::Int(3)),
    (B::GlobalInvocationId, true, Want::Int(3)),
    (B::LocalInvocationIndex, true, Want::Int(1)),
    (B::SubgroupSize, true, Want::Int(1)),
    (B::NumSubgroups, true, Want::Int(1)),
    (B::SubgroupId, true, Want::Int(1)),
    (B::SubgroupLocalInvocationId, true, Want::Int(1)),
    (B::VertexIndex, true, Want::Int(1)),
    (B::InstanceIndex, true, Want::Int(1)),
    (B::SubgroupEqMask, true, Want::Int(4)),
    (B::SubgroupGeMask, true, Want::Int(4)),
    (B::SubgroupGtMask, true, Want::Int(4)),
    (B::SubgroupLeMask, true, Want::Int(4)),
    (B::SubgroupLtMask, true, Want::Int(4)),
    (B::BaseVertex, true, Want::Int(1)),
    (B::BaseInstance, true, Want::Int(1)),
    (B::DrawIndex, true, Want::Int(1)),
    (B::DeviceIndex, true, Want::Int(1)),
    (B::ViewIndex, true, Want::Int(1)),
    (B::FragStencilRefEXT, false, Want::Int(1)),
    (B::BaryCoordKHR, true, Want::Float(3)),
    (B::BaryCoordNoPerspKHR, true, Want::Float(3)),
];

impl Want {
    /// Whether `ty` is of this kind.
    fn fits(self, ty: &Ty) -> bool {
        let (sc, n) = match *ty {
            Ty::Scalar(s) => (s, 1),
            Ty::Vector(s, n) => (s, n),
            _ => return false,
        };
        match self {
            Want::Float(m) => sc == Sc::F32 && n == m,
            Want::Int(m) => matches!(sc, Sc::I32 | Sc::U32) && n == m,
            Want::Bool => sc == Sc::Bool && n == 1,
        }
    }

    fn text(self) -> String {
        match self {
            Want::Float(1) => "a 32-bit float scalar".to_string(),
            Want::Float(n) => format!("a vector of {n} 32-bit floats (`float{n}`)"),
            Want::Int(1) => "a 32-bit integer scalar (`int` or `uint`)".to_string(),
            Want::Int(n) => format!("a vector of {n} 32-bit integers (`uint{n}` or `int{n}`)"),
            Want::Bool => "a `bool`".to_string(),
        }
    }
}

impl Sema<'_> {
    /// Whether a variable of type `ty` in `space` may be built-in `b` (an
    /// error at `span` if not).
    pub(super) fn ext_builtin_fits(&mut self, b: B, space: ir::AddressSpace, ty: TyId, span: Span) -> bool {
        let caps = rspirv::dr::Operand::BuiltIn(b).required_capabilities();
        if let Some(cap) = super::inline_spirv::kernel_only(&caps) {
            let what = format!("built-in {b:?} ({})", b as u32);
            self.push(super::inline_spirv::kernel_only_error(what, cap, span));
            return false;
        }
        let Some(&(_, input, want)) = RULES.iter().find(|r| r.0 == b) else {
            return true;
        };
        if input != (space == ir::AddressSpace::Input) {
            let (is, attr) = if input {
                ("an input", "vk::ext_builtin_input")
            } else {
                ("an output", "vk::ext_builtin_output")
            };
            self.push(
                Diagnostic::error(codes::BAD_ATTRIBUTE, format!("built-in {b:?} ({}) is {is}", b as u32))
                    .label(span, format!("declare it with `{attr}`")),
            );
            return false;
        }
        if !want.fits(self.types.get(ty)) {
            let msg = format!("built-in {b:?} ({}) is {}", b as u32, want.text());
            let label = format!("this variable is `{}`", self.ty_name(ty));
            self.push(Diagnostic::error(codes::BAD_ATTRIBUTE, msg).label(span, label));
            return false;
        }
        true
    }
}
