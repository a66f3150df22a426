//! The operands of a sampling expression ([`Expression::ImageSample`]),
//! boxed apart: with them in place, every expression of every arena was
//! 48 bytes instead of 32, for the few that sample.

use super::{Expression, Handle, SampleLevel};

/// Sampling. `image` and `sampler` are values of image/sampler type or
/// pointers to `Handle` globals (the backend loads them). A combined
/// image sampler (`SampledImage`) is sampled as it is when `sampler` is
/// `None` (only then may it be), or its image with another sampler. Where
/// the other image expressions (`ImageLoad`, `ImageQuery`) take a combined
/// image sampler, they read its image (OpImage). The result is a
/// 4-component vector of the image's sampled type (or a scalar for depth
/// comparison, and for gathers a 4-vector), or, when `sparse`, a struct
/// `{ uint residency_code; T texel; }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageSampling {
    pub image: Handle<Expression>,
    pub sampler: Option<Handle<Expression>>,
    /// Coordinates, with the array layer as the last component when
    /// the image is arrayed (as SPIR-V wants).
    pub coordinate: Handle<Expression>,
    /// A texel offset (an int vector; a constant except in gathers,
    /// VUID-StandaloneSpirv-Offset-04663), or for gathers a constant
    /// array of four: one offset per texel of the footprint
    /// (`ConstOffsets`).
    pub offset: Option<Handle<Expression>>,
    pub level: SampleLevel,
    /// `SampleCmp`: the reference value.
    pub depth_ref: Option<Handle<Expression>>,
    /// `clamp` argument of the tiled-resources forms → `MinLod`.
    pub clamp: Option<Handle<Expression>>,
    /// `Gather` / `GatherRed`…: the component (0..=3). Gathers read
    /// level 0: `level` is ignored for them.
    pub gather: Option<u32>,
    pub sparse: bool,
}

#[cfg(test)]
mod tests {
    use super::super::Expression;

    #[test]
    fn expressions_stay_small() {
        // Every arena holds expressions by value, and every rebuild copies
        // each one a few times: a new variant with more operands than fit
        // here goes in a box, as sampling's do.
        assert!(std::mem::size_of::<Expression>() <= 32);
    }
}
