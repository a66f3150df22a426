//! The IR image types of texture and texel-buffer resources, and the
//! image formats inferred from their element types.

use super::{ResKind, Sc, TexDim, Ty, TyId, Types};
use crate::ir;

/// The image type of a texture or texel buffer resource.
pub fn image_of(types: &Types, kind: ResKind, elem: Option<TyId>) -> Option<ir::TypeInner> {
    let sampled = elem.map_or(Sc::F32, |e| types.texel_scalar(e)).ir();
    let (dim, arrayed, multisampled, rw) = match kind {
        ResKind::Texture {
            dim, array, ms, rw, ..
        } => (
            match dim {
                TexDim::D1 => ir::ImageDim::D1,
                TexDim::D2 => ir::ImageDim::D2,
                TexDim::D3 => ir::ImageDim::D3,
                TexDim::Cube => ir::ImageDim::Cube,
            },
            array,
            ms,
            rw,
        ),
        ResKind::TexelBuffer { rw } => (ir::ImageDim::Buffer, false, false, rw),
        ResKind::SubpassInput { ms } => (ir::ImageDim::SubpassData, false, ms, false),
        _ => return None,
    };
    let class = if rw {
        ir::ImageClass::Storage {
            format: infer_format(types, elem),
        }
    } else {
        ir::ImageClass::Sampled
    };
    Some(ir::TypeInner::Image {
        dim,
        arrayed,
        multisampled,
        sampled,
        class,
    })
}

/// The storage image format DXC infers from the element type of a RW
/// texture or buffer (SPIR-V.rst, "Vulkan specific Image Formats": 32-bit
/// scalar types and vectors of them map to R32*/Rg32*/Rgba32*; 3-component
/// and other types are Unknown).
pub fn infer_format(types: &Types, elem: Option<TyId>) -> ir::ImageFormat {
    use ir::ImageFormat as F;
    let Some(e) = elem else {
        return F::Unknown;
    };
    let (s, n) = match *types.get(e) {
        Ty::Scalar(s) => (s, 1),
        Ty::Vector(s, n) => (s, n),
        _ => return F::Unknown,
    };
    match (s, n) {
        (Sc::F32, 1) => F::R32f,
        (Sc::F32, 2) => F::Rg32f,
        (Sc::F32, 4) => F::Rgba32f,
        (Sc::I32, 1) => F::R32i,
        (Sc::I32, 2) => F::Rg32i,
        (Sc::I32, 4) => F::Rgba32i,
        (Sc::U32, 1) => F::R32ui,
        (Sc::U32, 2) => F::Rg32ui,
        (Sc::U32, 4) => F::Rgba32ui,
        (Sc::F16, 1) => F::R16f,
        (Sc::F16, 2) => F::Rg16f,
        (Sc::F16, 4) => F::Rgba16f,
        (Sc::I16, 1) => F::R16i,
        (Sc::I16, 2) => F::Rg16i,
        (Sc::I16, 4) => F::Rgba16i,
        (Sc::U16, 1) => F::R16ui,
        (Sc::U16, 2) => F::Rg16ui,
        (Sc::U16, 4) => F::Rgba16ui,
        (Sc::I64, 1) => F::R64i,
        (Sc::U64, 1) => F::R64ui,
        _ => F::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::types::UINT;

    #[test]
    fn formats_follow_element_types() {
        let mut t = Types::new();
        let f4 = t.vector(Sc::F32, 4);
        let f3 = t.vector(Sc::F32, 3);
        assert_eq!(infer_format(&t, Some(f4)), ir::ImageFormat::Rgba32f);
        assert_eq!(infer_format(&t, Some(UINT)), ir::ImageFormat::R32ui);
        assert_eq!(infer_format(&t, Some(f3)), ir::ImageFormat::Unknown);
    }
}
