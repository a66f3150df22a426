//! Location bookkeeping of one entry point's interface: every variable
//! placed at a location claims the locations its type takes, and two
//! inputs (or two outputs) that would share one are an error. Vulkan
//! forbids it ("Location Assignment"), DXC rejects it, and spirv-val would
//! refuse the module.

use super::VkLoc;
use super::io::Io;
use super::semantics::IoDir;
use crate::diag::{Diagnostic, codes};
use crate::intern::Symbol;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::types::TyId;
use crate::span::Span;

/// Locations taken by one stage variable.
#[derive(Clone, Copy)]
pub(super) struct Claim {
    dir: IoDir,
    /// Per-patch variables (hull outputs, domain inputs) number their
    /// locations apart from per-vertex ones.
    patch: bool,
    /// The `vk::index` of a pixel shader output (dual-source blending):
    /// index 1 has locations of its own.
    index: u32,
    first: u32,
    count: u32,
    semantic: Symbol,
    span: Span,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Records that the stage variable with semantic `sname` (at `sspan`)
    /// of type `ty` takes the locations from `first` on (unless `vk` makes
    /// it a built-in); reports an error when one of them is already taken
    /// by a variable of the same direction, patch-ness and blend index.
    pub(super) fn claim_location(
        &mut self,
        io: &mut Io,
        dir: IoDir,
        patch: bool,
        vk: VkLoc,
        first: u32,
        ty: TyId,
        (semantic, span): (Symbol, Span),
    ) {
        if vk.builtin.is_some() {
            return;
        }
        let pixel_out = self.s.stage == Stage::Pixel && dir == IoDir::Output;
        let index = vk.index.filter(|_| pixel_out).unwrap_or(0);
        let count = self.location_count(ty).max(1);
        let clash = io.claims.iter().find(|c| {
            c.dir == dir
                && c.patch == patch
                && c.index == index
                && c.first < first + count
                && first < c.first + c.count
        });
        // A mix of explicit and automatic locations is reported by
        // `check_location_mix`, which says why they collide.
        let mixed = match dir {
            IoDir::Input => io.explicit_in.is_some() && io.auto_in.is_some(),
            IoDir::Output => io.explicit_out.is_some() && io.auto_out.is_some(),
        };
        // The same semantic twice is reported as such where the entry's
        // signature is checked (`Sema::check_interface`).
        let checked = matches!(
            self.s.stage,
            Stage::Vertex | Stage::Pixel | Stage::Geometry | Stage::Hull | Stage::Domain
        );
        let twice =
            |c: &Claim| checked && c.semantic.as_str().eq_ignore_ascii_case(semantic.as_str());
        if let Some(c) = clash.copied().filter(|c| !mixed && !twice(c)) {
            let what = match dir {
                IoDir::Input => "input",
                IoDir::Output => "output",
            };
            let taken = first.max(c.first);
            let at = if index == 0 {
                format!("location {taken}")
            } else {
                format!("location {taken} (index {index})")
            };
            let mut d = Diagnostic::error(
                codes::BAD_ATTRIBUTE,
                format!(
                    "stage {what} `{semantic}` is placed at {at}, which `{}` already takes",
                    c.semantic
                ),
            )
            .label(span, format!("`{semantic}` takes {}", range(first, count)))
            .label(
                c.span,
                format!("`{}` takes {}", c.semantic, range(c.first, c.count)),
            );
            if count > 1 || c.count > 1 {
                d = d.note(
                    "a matrix takes one location per row, an array one per element, and a 64-bit vector of 3 or 4 components two",
                );
            }
            d = d.note(format!(
                "Vulkan gives each location to one stage {what}: move one with `[[vk::location]]` or another semantic"
            ));
            self.s.push(d);
            return;
        }
        io.claims.push(Claim {
            dir,
            patch,
            index,
            first,
            count,
            semantic,
            span,
        });
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// [`Self::claim_location`] for a stage input that is not per vertex:
    /// a domain shader's are per patch.
    pub(super) fn claim_input(
        &mut self,
        io: &mut Io,
        vk: VkLoc,
        first: u32,
        ty: TyId,
        sem: (Symbol, Span),
    ) {
        let patch = self.s.stage == Stage::Domain;
        self.claim_location(io, IoDir::Input, patch, vk, first, ty, sem);
    }
}

/// `location 3` or `locations 3 to 4`.
fn range(first: u32, count: u32) -> String {
    if count == 1 {
        format!("location {first}")
    } else {
        format!("locations {first} to {}", first + count - 1)
    }
}
