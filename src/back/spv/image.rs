//! Images: sampling, gathers, fetches and storage reads (with their sparse
//! residency forms), writes, queries and texel pointers (SPIR-V.rst,
//! "Read-only textures", "Read-write textures", "Buffers").

use super::function::{FunctionWriter, PointerValue, Value};
use super::types::SpvType;
use super::{BackResult, internal};
use crate::ir::{
    self, Expression, Handle, ImageClass, ImageDim, ImageSampling, SampleLevel, Scalar, TypeInner,
};
use rspirv::dr::Operand;
use smallvec::SmallVec;
use spirv::{Capability, ImageOperands, Op, StorageClass, Word};

/// Image operands, collected in the order of their mask bits (SPIR-V 3.14).
struct Operands {
    mask: ImageOperands,
    params: Vec<Word>,
}

impl Default for Operands {
    fn default() -> Self {
        Operands {
            mask: ImageOperands::NONE,
            params: Vec::new(),
        }
    }
}

impl Operands {
    fn push(&mut self, bit: ImageOperands, id: Word) {
        self.mask |= bit;
        self.params.push(id);
    }

    fn append_to(self, operands: &mut Vec<Operand>) {
        if !self.mask.is_empty() {
            operands.push(Operand::ImageOperands(self.mask));
            operands.extend(self.params.into_iter().map(Operand::IdRef));
        }
    }
}

impl FunctionWriter<'_, '_> {
    /// The image (or sampler) value of `h` and its IR type: a pointer to a
    /// `Handle` global is loaded.
    pub(super) fn handle_value(
        &mut self,
        h: Handle<Expression>,
    ) -> BackResult<(Word, Handle<ir::Type>)> {
        if let Some(&Value::Pointer(i)) = self.values.get(h.index()) {
            let pv = self.pointer_at(i)?.clone();
            let p = self.pointer_id(&pv)?;
            let ty = self.w.type_id(pv.pointee)?;
            let id = self.emit_value(Op::Load, ty, [Operand::IdRef(p)])?;
            if pv.non_uniform {
                self.mark_non_uniform(id);
            }
            return Ok((id, pv.pointee));
        }
        Ok((self.value(h)?, self.expr_type(h)?))
    }

    fn image_inner(&self, ty: Handle<ir::Type>) -> BackResult<TypeInner> {
        Ok(self.w.ir_type(ty)?.inner.clone())
    }

    /// The image value of `h` and its IR type: a `Handle` global is
    /// loaded, and the image of a combined image sampler taken (OpImage).
    fn image_value(&mut self, h: Handle<Expression>) -> BackResult<(Word, Handle<ir::Type>)> {
        let (v, ty) = self.handle_value(h)?;
        let TypeInner::SampledImage { image } = self.image_inner(ty)? else {
            return Ok((v, ty));
        };
        let image_ty = self.w.type_id(image)?;
        let id = self.emit_value(Op::Image, image_ty, [Operand::IdRef(v)])?;
        if self.non_uniform.contains(&v) {
            self.mark_non_uniform(id);
        }
        Ok((id, image))
    }

    /// The image `image` (loaded), its dimension, whether it is
    /// multisampled, and its class; `what` names the internal error of a
    /// non-image.
    fn image_of(
        &mut self,
        image: Handle<Expression>,
        what: &'static str,
    ) -> BackResult<(Word, ImageDim, bool, ImageClass)> {
        let (img, img_ty) = self.image_value(image)?;
        let TypeInner::Image {
            dim,
            multisampled,
            class,
            ..
        } = self.image_inner(img_ty)?
        else {
            return Err(internal(what));
        };
        Ok((img, dim, multisampled, class))
    }

    /// An `OpSampledImage` of `image` and `sampler`, or without a
    /// sampler the combined image sampler `image` itself.
    fn sampled_image(
        &mut self,
        image: Handle<Expression>,
        sampler: Option<Handle<Expression>>,
    ) -> BackResult<Word> {
        let Some(sampler) = sampler else {
            let (si, ty) = self.handle_value(image)?;
            return match self.image_inner(ty)? {
                TypeInner::SampledImage { .. } => Ok(si),
                other => Err(internal(format!("sampling {other:?} without a sampler"))),
            };
        };
        let (img, img_ty) = self.image_value(image)?;
        match self.image_inner(img_ty)? {
            TypeInner::Image { .. } => {
                let (s, _) = self.handle_value(sampler)?;
                let image_ty = self.w.type_id(img_ty)?;
                let ty = self.w.spv_type(SpvType::SampledImage { image: image_ty });
                let id = self.emit_value(
                    Op::SampledImage,
                    ty,
                    [Operand::IdRef(img), Operand::IdRef(s)],
                )?;
                if self.non_uniform.contains(&img) || self.non_uniform.contains(&s) {
                    self.mark_non_uniform(id);
                }
                Ok(id)
            }
            other => Err(internal(format!("sampling a non-image {other:?}"))),
        }
    }

    /// `ConstOffset` when the offset is a constant, else `Offset`
    /// (which needs ImageGatherExtended, and only gathers may take:
    /// VUID-StandaloneSpirv-Offset-04663).
    fn offset_operand(
        &mut self,
        ops: &mut Operands,
        op: Handle<Expression>,
        offset: Handle<Expression>,
        gather: bool,
    ) -> BackResult<()> {
        match self.constant(offset)? {
            Some(c) => ops.push(ImageOperands::CONST_OFFSET, c),
            None if !gather => {
                let mut d = crate::diag::Diagnostic::error(
                    crate::diag::codes::NON_CONSTANT_OFFSET,
                    "this texture offset is not a constant, even after inlining calls and unrolling `[unroll]` loops",
                );
                let span = self.fun.expr_span(op);
                if span != crate::span::Span::default() {
                    d = d.label(span, "read with a variable offset");
                }
                return Err(d.note(
                    "Vulkan allows variable offsets only in gathers; pass constants down to the texture read, or loop with `[unroll]` and a counter known at compile time",
                ));
            }
            None => {
                self.w.capability(Capability::ImageGatherExtended);
                let v = self.value(offset)?;
                ops.push(ImageOperands::OFFSET, v);
            }
        }
        Ok(())
    }

    pub fn write_image_sample(&mut self, h: Handle<Expression>) -> BackResult<Word> {
        let Expression::ImageSample(sampling) = &self.fun.expressions[h] else {
            return Err(internal("not an image sample"));
        };
        let ImageSampling {
            image,
            sampler,
            coordinate,
            offset,
            level,
            depth_ref,
            clamp,
            gather,
            sparse,
        } = **sampling;
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let si = self.sampled_image(image, sampler)?;
        let coord = self.value(coordinate)?;
        let mut ops = Operands::default();
        let implicit = matches!(level, SampleLevel::Auto | SampleLevel::Bias(_));
        // Gathers read level 0 and take no level operand.
        let level = if gather.is_some() {
            SampleLevel::Auto
        } else {
            level
        };
        match level {
            SampleLevel::Auto => {}
            SampleLevel::Bias(b) => {
                let b = self.value(b)?;
                ops.push(ImageOperands::BIAS, b);
            }
            SampleLevel::Exact(l) => {
                let l = self.value(l)?;
                ops.push(ImageOperands::LOD, l);
            }
            SampleLevel::Zero => {
                let zero = self.w.const_f32(0.0);
                ops.push(ImageOperands::LOD, zero);
            }
            SampleLevel::Gradient { x, y } => {
                let x = self.value(x)?;
                let y = self.value(y)?;
                ops.mask |= ImageOperands::GRAD;
                ops.params.extend([x, y]);
            }
        }
        if let Some(o) = offset
            && matches!(self.expr_inner(o)?, TypeInner::Array { .. })
        {
            // Four constant gather offsets (`GatherRed(s, uv, o0, o1, o2,
            // o3)`): one ConstOffsets operand, which needs
            // ImageGatherExtended (SPIR-V 3.14, "Image Operands").
            let Some(c) = self.constant(o)? else {
                return Err(internal("ConstOffsets of a gather that are not constant"));
            };
            self.w.capability(Capability::ImageGatherExtended);
            ops.push(ImageOperands::CONST_OFFSETS, c);
        } else if let Some(o) = offset {
            if gather.is_some() {
                self.w.capability(Capability::ImageGatherExtended);
            }
            self.offset_operand(&mut ops, h, o, gather.is_some())?;
        }
        if let Some(c) = clamp {
            // The tiled-resources LOD clamp (HLSL-SEMANTICS.md).
            self.w.capability(Capability::MinLod);
            let c = self.value(c)?;
            ops.push(ImageOperands::MIN_LOD, c);
        }
        if sparse {
            self.w.capability(Capability::SparseResidency);
        }
        let dref = match depth_ref {
            Some(d) => Some(self.value(d)?),
            None => None,
        };
        let pick = |dense: Op, sparse_op: Op| if sparse { sparse_op } else { dense };
        let mut operands = vec![Operand::IdRef(si), Operand::IdRef(coord)];
        let op = match (gather, dref) {
            (Some(component), None) => {
                let c = self.w.const_u32(component);
                operands.push(Operand::IdRef(c));
                pick(Op::ImageGather, Op::ImageSparseGather)
            }
            (Some(_), Some(d)) => {
                operands.push(Operand::IdRef(d));
                pick(Op::ImageDrefGather, Op::ImageSparseDrefGather)
            }
            (None, Some(d)) => {
                operands.push(Operand::IdRef(d));
                if implicit {
                    pick(
                        Op::ImageSampleDrefImplicitLod,
                        Op::ImageSparseSampleDrefImplicitLod,
                    )
                } else {
                    pick(
                        Op::ImageSampleDrefExplicitLod,
                        Op::ImageSparseSampleDrefExplicitLod,
                    )
                }
            }
            (None, None) => {
                if implicit {
                    pick(Op::ImageSampleImplicitLod, Op::ImageSparseSampleImplicitLod)
                } else {
                    pick(Op::ImageSampleExplicitLod, Op::ImageSparseSampleExplicitLod)
                }
            }
        };
        ops.append_to(&mut operands);
        self.emit_value(op, rt, operands)
    }

    pub fn write_image_load(&mut self, h: Handle<Expression>) -> BackResult<Word> {
        let Expression::ImageLoad {
            image,
            coordinate,
            level,
            sample,
            offset,
            sparse,
        } = self.fun.expressions[h]
        else {
            return Err(internal("not an image load"));
        };
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let (img, dim, multisampled, class) = self.image_of(image, "loading from a non-image")?;
        let coord = self.value(coordinate)?;
        // Storage images and subpass inputs are read without a sampler
        // (OpImageRead); sampled images and texel buffers are fetched.
        let read = matches!(class, ImageClass::Storage { .. }) || dim == ImageDim::SubpassData;
        let mut ops = Operands::default();
        if !read {
            match level {
                Some(l) => {
                    let l = self.value(l)?;
                    ops.push(ImageOperands::LOD, l);
                }
                // Fetches from mipmapped images name the level.
                None if dim != ImageDim::Buffer && !multisampled => {
                    let zero = self.w.const_i32(0);
                    ops.push(ImageOperands::LOD, zero);
                }
                None => {}
            }
        }
        if let Some(o) = offset {
            self.offset_operand(&mut ops, h, o, false)?;
        }
        if let Some(s) = sample {
            let s = self.value(s)?;
            ops.push(ImageOperands::SAMPLE, s);
        }
        if let ImageClass::Storage {
            format: ir::ImageFormat::Unknown,
        } = class
        {
            self.w.capability(Capability::StorageImageReadWithoutFormat);
        }
        if sparse {
            self.w.capability(Capability::SparseResidency);
        }
        let op = match (read, sparse) {
            (true, false) => Op::ImageRead,
            (true, true) => Op::ImageSparseRead,
            (false, false) => Op::ImageFetch,
            (false, true) => Op::ImageSparseFetch,
        };
        let mut operands = vec![Operand::IdRef(img), Operand::IdRef(coord)];
        ops.append_to(&mut operands);
        self.emit_value(op, rt, operands)
    }

    pub fn write_image_store(
        &mut self,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        value: Handle<Expression>,
    ) -> BackResult<()> {
        let (img, img_ty) = self.handle_value(image)?;
        let TypeInner::Image { class, .. } = self.image_inner(img_ty)? else {
            return Err(internal("storing to a non-image"));
        };
        if let ImageClass::Storage {
            format: ir::ImageFormat::Unknown,
        } = class
        {
            self.w
                .capability(Capability::StorageImageWriteWithoutFormat);
        }
        let coord = self.value(coordinate)?;
        let v = self.value(value)?;
        self.emit_void(
            Op::ImageWrite,
            [
                Operand::IdRef(img),
                Operand::IdRef(coord),
                Operand::IdRef(v),
            ],
        )
    }

    pub fn write_image_query(
        &mut self,
        h: Handle<Expression>,
        image: Handle<Expression>,
        query: ir::ImageQuery,
    ) -> BackResult<Word> {
        let rt = self.w.type_id(self.expr_type(h)?)?;
        self.w.capability(Capability::ImageQuery);
        if let ir::ImageQuery::Lod {
            sampler,
            coordinate,
            clamped,
        } = query
        {
            // OpImageQueryLod gives (LOD used, LOD computed): Calculate-
            // LevelOfDetail is the first, the Unclamped form the second.
            let si = self.sampled_image(image, sampler)?;
            let coord = self.value(coordinate)?;
            let v2 = self.w.vector_type(Scalar::F32, 2);
            let lods = self.emit_value(
                Op::ImageQueryLod,
                v2,
                [Operand::IdRef(si), Operand::IdRef(coord)],
            )?;
            return self.extract(rt, lods, if clamped { 0 } else { 1 });
        }
        let (img, dim, multisampled, class) = self.image_of(image, "querying a non-image")?;
        match query {
            ir::ImageQuery::Size { level } => {
                // OpImageQuerySize is only for images without levels
                // (buffers, multisampled and storage images); the others
                // query level 0 when none is given (SPIR-V.rst,
                // "GetDimensions").
                let has_levels = class == ImageClass::Sampled
                    && dim != ImageDim::Buffer
                    && !multisampled
                    && dim != ImageDim::SubpassData;
                let level = match level {
                    Some(l) => Some(self.value(l)?),
                    None if has_levels => Some(self.w.const_u32(0)),
                    None => None,
                };
                match level {
                    Some(l) => self.emit_value(
                        Op::ImageQuerySizeLod,
                        rt,
                        [Operand::IdRef(img), Operand::IdRef(l)],
                    ),
                    None => self.emit_value(Op::ImageQuerySize, rt, [Operand::IdRef(img)]),
                }
            }
            ir::ImageQuery::NumLevels => {
                self.emit_value(Op::ImageQueryLevels, rt, [Operand::IdRef(img)])
            }
            ir::ImageQuery::NumSamples => {
                self.emit_value(Op::ImageQuerySamples, rt, [Operand::IdRef(img)])
            }
            ir::ImageQuery::Lod { .. } => Err(internal("unreachable image query")),
        }
    }

    /// A pointer to one texel, for atomics on storage images.
    pub fn write_texel_pointer(
        &mut self,
        h: Handle<Expression>,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        sample: Handle<Expression>,
    ) -> BackResult<Value> {
        // OpImageTexelPointer takes a pointer to the image: look through a
        // load of it.
        let pv = match (
            self.values.get(image.index()),
            self.fun.expressions.get(image),
        ) {
            (Some(Value::Pointer(_)), _) => self.pointer(image)?,
            (_, Some(Expression::Load { pointer })) => self.pointer(*pointer)?,
            _ => {
                return Err(internal(
                    "texel pointer into an image that is not in memory",
                ));
            }
        };
        let TypeInner::Image { sampled, .. } = self.image_inner(pv.pointee)? else {
            return Err(internal("texel pointer into a non-image"));
        };
        let pointee = match self.expr_inner(h)? {
            TypeInner::Pointer { base, .. } => *base,
            _ => return Err(internal("texel pointer without a pointer type")),
        };
        let p = self.pointer_id(&pv)?;
        let coord = self.value(coordinate)?;
        let s = self.value(sample)?;
        let scalar = self.w.scalar_type(sampled);
        let ty = self.w.pointer_type(scalar, StorageClass::Image);
        let id = self.emit_value(
            Op::ImageTexelPointer,
            ty,
            [Operand::IdRef(p), Operand::IdRef(coord), Operand::IdRef(s)],
        )?;
        if pv.non_uniform {
            self.mark_non_uniform(id);
        }
        Ok(self.new_pointer(PointerValue {
            root: id,
            indices: SmallVec::new(),
            const_indices: SmallVec::new(),
            class: StorageClass::Image,
            pointee,
            global: None,
            non_uniform: false,
            align: None,
        }))
    }
}
