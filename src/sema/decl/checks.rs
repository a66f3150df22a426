//! Checks over every declaration, made once lowering is done: the
//! groupshared budget and explicit offsets that break their buffer's
//! layout rule.

use crate::diag::{Diagnostic, codes};
use crate::sema::Sema;
use crate::sema::types::TyId;

impl<'a> Sema<'a> {
    /// Explicit offsets that break the layout rule of their buffer would
    /// give invalid SPIR-V (Vulkan "Offset and Stride Assignment").
    pub(in crate::sema) fn report_misaligned_offsets(&mut self) {
        let mut seen_overlap = rustc_hash::FxHashSet::default();
        for (span, prev) in std::mem::take(&mut self.layouts.overlaps) {
            if !seen_overlap.insert(span) {
                continue;
            }
            let mut d = Diagnostic::error(
                codes::MISALIGNED_OFFSET,
                "this member's explicit offset overlaps an earlier member",
            )
            .label(span, "placed over another member");
            if let Some(p) = prev {
                d = d.label(p, "overlapped member");
            }
            self.push(d);
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for m in std::mem::take(&mut self.layouts.misaligned) {
            if !seen.insert(m.span) {
                continue;
            }
            let msg = if m.straddles {
                format!(
                    "at offset {}, this vector would straddle a 16-byte boundary",
                    m.offset
                )
            } else {
                format!(
                    "offset {} is not a multiple of this member's alignment ({})",
                    m.offset, m.align
                )
            };
            self.push(
                Diagnostic::error(codes::MISALIGNED_OFFSET, msg)
                .label(m.span, "misaligned member")
                .note("the buffer's layout rule needs aligned members; `-fvk-use-scalar-layout` relaxes alignment to the component size"),
            );
        }
    }

    /// groupshared memory is limited to 32 KB in D3D11+ compute shaders.
    /// A library (`-T lib_6_x`) without a compute, mesh or amplification
    /// entry has no thread group to count against: its `export` functions
    /// meet one when they are linked (DXC checks none there either).
    pub(in crate::sema) fn check_groupshared_budget(&mut self) {
        const LIMIT: u64 = 32768;
        use crate::ir::Stage;
        let library = self.opts.profile.is_some_and(|p| p.stage == Stage::Library);
        let grouped = |s: Stage| matches!(s, Stage::Compute | Stage::Mesh | Stage::Amplification);
        if library && !self.module.entry_points.iter().any(|e| grouped(e.stage)) {
            return;
        }
        let mut total = 0u64;
        let mut sizes = Vec::new();
        for &(name, ty, span) in &self.decls.groupshared {
            let sz = self.value_size(ty) as u64;
            total += sz;
            sizes.push((name, sz, span));
        }
        if total <= LIMIT {
            return;
        }
        let mut d = Diagnostic::error(
            codes::GROUPSHARED_TOO_LARGE,
            format!("groupshared memory is {total} bytes, more than the limit of {LIMIT} bytes"),
        );
        for (i, (name, sz, span)) in sizes.iter().enumerate() {
            d = d.label(
                *span,
                if i == 0 {
                    format!("`{name}` takes {sz} bytes")
                } else {
                    format!("`{name}`: {sz} bytes")
                },
            );
        }
        d = d.note(format!(
            "total: {total} bytes; a thread group may share at most 32 KB (32768 bytes)"
        ));
        self.push(d);
    }

    /// Size in bytes of a value as `sizeof` and the groupshared budget
    /// count it (DXC's data layout): each component takes its own width
    /// (bool 4 bytes), members are aligned to their component width, and
    /// a struct is padded to a multiple of its largest member alignment, so
    /// `struct { uint64_t a; int b; }` is 16 bytes. An enum takes its
    /// underlying type's size.
    pub fn value_size(&self, ty: TyId) -> u32 {
        self.natural_layout(ty).0
    }

    /// Size and alignment of a value in DXC's data layout (see
    /// [`Self::value_size`]).
    fn natural_layout(&self, ty: TyId) -> (u32, u32) {
        use crate::sema::types::{Sc, Ty};
        let sc = |s: Sc| -> u32 {
            if s == Sc::Bool {
                4
            } else {
                s.concrete().width() as u32
            }
        };
        match *self.types.get(ty) {
            Ty::Scalar(s) => (sc(s), sc(s)),
            Ty::Enum(e) => {
                let n = sc(self.types.enum_info(e).underlying);
                (n, n)
            }
            Ty::Vector(s, n) => (sc(s) * n as u32, sc(s)),
            Ty::Matrix(s, r, c) => (sc(s) * r as u32 * c as u32, sc(s)),
            Ty::Array(e, n) => {
                let (size, align) = self.natural_layout(e);
                (size.saturating_mul(n.unwrap_or(0)), align)
            }
            Ty::Struct(sid) => {
                let (mut size, mut align) = (0u32, 1u32);
                for t in self.types.member_types(sid) {
                    let (s, a) = self.natural_layout(t);
                    size = size.div_ceil(a).saturating_mul(a).saturating_add(s);
                    align = align.max(a);
                }
                (size.div_ceil(align).saturating_mul(align), align)
            }
            // A 64-bit address.
            Ty::BufferPointer(..) => (8, 8),
            _ => (0, 1),
        }
    }
}
