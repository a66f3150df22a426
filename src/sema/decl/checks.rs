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
    pub(in crate::sema) fn check_groupshared_budget(&mut self) {
        const LIMIT: u64 = 32768;
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

    /// Size in bytes of a value as D3D counts groupshared memory (scalar
    /// packing; bool takes 4 bytes).
    pub fn value_size(&self, ty: TyId) -> u32 {
        use crate::sema::types::{Sc, Ty};
        let sc = |s: Sc| -> u32 {
            if s == Sc::Bool {
                4
            } else {
                s.concrete().width() as u32
            }
        };
        match *self.types.get(ty) {
            Ty::Scalar(s) => sc(s),
            Ty::Enum(_) => 4,
            Ty::Vector(s, n) => sc(s) * n as u32,
            Ty::Matrix(s, r, c) => sc(s) * r as u32 * c as u32,
            Ty::Array(e, n) => self.value_size(e).saturating_mul(n.unwrap_or(0)),
            Ty::Struct(sid) => self
                .types
                .member_types(sid)
                .into_iter()
                .fold(0u32, |a, t| a.saturating_add(self.value_size(t))),
            _ => 0,
        }
    }
}
