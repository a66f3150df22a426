//! Texture and texel-buffer methods: sampling (`Sample*`, `Gather*`) and
//! size queries (`GetDimensions`).

use crate::diag::codes;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::resources::texture_rules::takes_clamp;
use crate::sema::resources::{coord_count, offset_count};
use crate::sema::types::{self, ResKind, Sc, TexDim, Ty, TyId};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `GetDimensions` of textures and texel buffers.
    pub(in crate::sema) fn texture_dims(
        &mut self,
        obj: Val,
        kind: ResKind,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let Some(image) = self.value(&obj) else {
            return Val::error();
        };
        let (dims, array, ms, has_levels) = match kind {
            ResKind::Texture {
                dim, array, ms, rw, ..
            } => (
                match dim {
                    TexDim::D1 => 1,
                    TexDim::D2 | TexDim::Cube => 2,
                    TexDim::D3 => 3,
                },
                array,
                ms,
                !rw && !ms,
            ),
            ResKind::TexelBuffer { .. } => (1, false, false, false),
            _ => return Val::error(),
        };
        let base = dims + array as usize + ms as usize;
        let with_mip = has_levels && args.len() == base + 2;
        if args.len() != base && !with_mip {
            return self.wrong_args("GetDimensions", span);
        }
        let (level, outs) = if with_mip {
            (self.arg_as(&args[0], types::UINT), &args[1..])
        } else if has_levels {
            (Some(self.u32_lit(0)), &args[..])
        } else {
            (None, &args[..])
        };
        let n = (dims + array as usize) as u8;
        let st = self.s.types.vector(Sc::U32, n);
        let sit = self.s.ir_ty(st);
        let size = self.add(
            ir::Expression::ImageQuery {
                image,
                query: ir::ImageQuery::Size { level },
            },
            sit,
        );
        for (i, out) in outs.iter().enumerate().take(n as usize) {
            let c = if n == 1 {
                size
            } else {
                let u = self.s.ir_ty(types::UINT);
                self.add(
                    ir::Expression::AccessIndex {
                        base: size,
                        index: i as u32,
                    },
                    u,
                )
            };
            self.write_out(out, c, types::UINT);
        }
        let u = self.s.ir_ty(types::UINT);
        // The sample count or the level count follows the dimensions.
        for (wanted, query) in [
            (ms, ir::ImageQuery::NumSamples),
            (with_mip, ir::ImageQuery::NumLevels),
        ] {
            if wanted {
                let q = self.add(ir::Expression::ImageQuery { image, query }, u);
                self.write_out(&outs[n as usize], q, types::UINT);
            }
        }
        Val::void()
    }

    /// A `Sample*` or `Gather*` method of a texture; every early error is
    /// an `Err` holding the error value.
    pub(in crate::sema) fn sample(
        &mut self,
        obj: Val,
        dim: TexDim,
        array: bool,
        elem: TyId,
        m: &str,
        args: &[Arg],
        span: Span,
    ) -> Result<Val, Val> {
        let combined = self.is_combined_sampler(&obj);
        let image = self.value(&obj).ok_or_else(Val::error)?;
        // A `vk::SampledTexture*` carries its sampler: no sampler argument.
        // DXC gives it every sampling method at every shader model.
        let (sampler, args) = if combined {
            (None, args)
        } else {
            let Some(sa) = args.first() else {
                return Err(self.sample_args_error(m, dim, span));
            };
            self.check_sampler(m, sa, span)?;
            if self.paired_sampler(&obj, sa)? {
                (None, &args[1..])
            } else {
                let sampler = self.value(&sa.val).ok_or_else(Val::error)?;
                (Some(sampler), &args[1..])
            }
        };
        let Some(ca) = args.first() else {
            return Err(self.sample_args_error(m, dim, span));
        };
        let n = coord_count(dim, array);
        let coord = self.float_coord(ca, n).ok_or_else(Val::error)?;
        let on = offset_count(dim);
        let mut rest = &args[1..];
        let (level, depth_ref) = self.sample_level(m, dim, &mut rest, span)?;
        let gather = match m {
            "Gather" | "GatherRed" | "GatherCmp" | "GatherCmpRed" => Some(0),
            "GatherGreen" => Some(1),
            "GatherBlue" => Some(2),
            "GatherAlpha" => Some(3),
            _ => None,
        };
        let offset = match rest.first() {
            Some(o) if on > 0 => {
                let ot = self.s.types.vector(Sc::I32, on);
                let h = self.arg_as(o, ot);
                rest = &rest[1..];
                h
            }
            _ => None,
        };
        // Vulkan takes variable offsets in gathers only
        // (VUID-StandaloneSpirv-Offset-04663).
        if gather.is_none()
            && let Some(o) = offset
            && !self.may_become_constant(o)
        {
            let at = args
                .get(args.len() - rest.len() - 1)
                .map_or(span, |a| a.span);
            return Err(self.error(
                codes::TYPE_MISMATCH,
                format!("the offset of `{m}` must be a constant"),
                at,
                "not a constant (only gathers take variable offsets)",
            ));
        }
        // Gathers with four offsets, one per texel of the footprint.
        let mut offsets = None;
        if gather.is_some()
            && let Some(o0) = offset
            && rest.len() >= 3
        {
            let ot = self.s.types.vector(Sc::I32, on);
            let (Some(o1), Some(o2), Some(o3)) = (
                self.arg_as(&rest[0], ot),
                self.arg_as(&rest[1], ot),
                self.arg_as(&rest[2], ot),
            ) else {
                return Err(Val::error());
            };
            offsets = Some([o0, o1, o2, o3]);
            rest = &rest[3..];
        }
        // The tiled-resources `clamp` (MinLod) comes after the offset of the
        // implicit-LOD and gradient forms only.
        let clamp = match rest.first() {
            Some(c) if takes_clamp(m) => {
                let h = self.arg_as(c, types::FLOAT);
                rest = &rest[1..];
                h
            }
            _ => None,
        };
        let status = match rest {
            [] => None,
            // A float value where the status goes is a clamp the form lacks.
            [c] if !takes_clamp(m)
                && c.val.as_place().is_none()
                && self.s.types.component(c.val.ty).is_some_and(Sc::is_float) =>
            {
                return Err(self.no_clamp_error(m, dim, c));
            }
            [st] => {
                if !self.status_arg_ok(st) {
                    return Err(Val::error());
                }
                Some(st)
            }
            [c, _] if !takes_clamp(m) => return Err(self.no_clamp_error(m, dim, c)),
            _ => return Err(self.sample_args_error(m, dim, span)),
        };
        if matches!(level, ir::SampleLevel::Auto | ir::SampleLevel::Bias(_))
            && m.starts_with("Sample")
            && !self.use_derivatives(m, span)
        {
            return Err(Val::error());
        }
        let sc = self.s.types.texel_scalar(elem);
        let (rty, result_ty) = if gather.is_some() {
            let v4 = self.s.types.vector(sc, 4);
            (v4, v4)
        } else if depth_ref.is_some() {
            let f = self.s.types.scalar(Sc::F32);
            (f, f)
        } else {
            (self.s.types.vector(sc, 4), elem)
        };
        let it = self.s.ir_ty(rty);
        let sample = |sparse, offset| {
            ir::Expression::ImageSample(Box::new(ir::ImageSampling {
                image,
                sampler,
                coordinate: coord,
                offset,
                level,
                depth_ref,
                clamp,
                gather,
                sparse,
            }))
        };
        let h = match (status, offsets) {
            (Some(st), None) => self.sparse_read(sample(true, offset), it, st),
            (None, None) => self.add(sample(false, offset), it),
            // Four constant offsets: one gather with `ConstOffsets`
            // (SPIR-V.rst, "GatherRed…"); the backend sees an array.
            (status, Some(offsets)) if offsets.iter().all(|&o| self.is_constant_value(o)) => {
                let ot = self.s.types.vector(Sc::I32, on);
                let oit = self.s.ir_ty(ot);
                let at = self.s.module.ty(ir::TypeInner::Array {
                    base: oit,
                    size: ir::ArraySize::Constant(4),
                    stride: None,
                });
                let all = self.add(
                    ir::Expression::Compose {
                        ty: at,
                        components: offsets.to_vec(),
                    },
                    at,
                );
                match status {
                    Some(st) => self.sparse_read(sample(true, Some(all)), it, st),
                    None => self.add(sample(false, Some(all)), it),
                }
            }
            (status, Some(offsets)) => self.gather_each_offset(&sample, offsets, status, sc, it),
        };
        self.tag_span(h, span);
        if depth_ref.is_some() || gather.is_some() {
            return Ok(Val::expr(result_ty, h));
        }
        let r = self.texel_element(h, elem);
        Ok(Val::expr(elem, r))
    }

    /// The sampler argument of `m`: a sampler, a comparison sampler for
    /// the comparing forms; and the shader model the newer forms need.
    fn check_sampler(&mut self, m: &str, sa: &Arg, span: Span) -> Result<(), Val> {
        let comparison = m.contains("Cmp");
        match self.s.types.get(sa.val.ty) {
            Ty::Sampler { comparison: false } if comparison => {
                return Err(self.error(
                    codes::TYPE_MISMATCH,
                    format!("`{m}` needs a `SamplerComparisonState`"),
                    sa.span,
                    "a `SamplerState`",
                ));
            }
            Ty::Sampler { .. } => {}
            _ => {
                return Err(self.error(
                    codes::TYPE_MISMATCH,
                    format!("the first argument of `{m}` must be a sampler"),
                    sa.span,
                    "not a sampler",
                ));
            }
        }
        self.method_shader_model(m, span)
    }

    /// Whether sampler `sa` is the other half of texture `obj`'s
    /// `[[vk::combinedImageSampler]]` pair (then `obj` is sampled as it
    /// is). A sampler combined with another texture is an error: its
    /// descriptor holds that texture, and SPIR-V cannot take a sampler
    /// out of a combined image sampler.
    pub(in crate::sema) fn paired_sampler(&mut self, obj: &Val, sa: &Arg) -> Result<bool, Val> {
        let Some(sp) = self.res_path(&sa.val) else {
            return Ok(false);
        };
        let g = &self.s.module.globals[sp.gv];
        if !matches!(
            self.s.module.types[g.ty].inner,
            ir::TypeInner::SampledImage { .. }
        ) {
            return Ok(false);
        }
        if self.res_path(obj).is_some_and(|tp| tp.gv == sp.gv) {
            return Ok(true);
        }
        let name = g.name.clone().unwrap_or_default();
        Err(self.error(
            codes::RESOURCE_MISUSE,
            format!("this sampler is combined with `{name}` by `[[vk::combinedImageSampler]]`: it samples only `{name}`"),
            sa.span,
            format!("one descriptor with `{name}`"),
        ))
    }

    /// Whether `obj` is a `vk::SampledTexture*`, a combined image sampler.
    pub(in crate::sema) fn is_combined_sampler(&self, obj: &Val) -> bool {
        matches!(
            self.s.types.get(obj.ty),
            Ty::Resource(ResKind::Texture { combined: true, .. }, _)
        )
    }

    /// The shader model the newer sampling methods need.
    fn method_shader_model(&mut self, m: &str, span: Span) -> Result<(), Val> {
        // Newer methods (SM 6.7 SampleCmpLevel, SM 6.8 SampleCmpBias/Grad).
        let since = match m {
            "SampleCmpLevel" => Some(7),
            "SampleCmpBias" | "SampleCmpGrad" => Some(8),
            _ => None,
        };
        if let Some(minor) = since
            && !self.require_shader_model(6, minor, m, span, "")
        {
            return Err(Val::error());
        }
        Ok(())
    }

    /// The level of detail of `m` and its depth comparator, taken from the
    /// front of `rest`: the comparator first, then a level or bias, or the
    /// two gradients.
    fn sample_level(
        &mut self,
        m: &str,
        dim: TexDim,
        rest: &mut &[Arg],
        span: Span,
    ) -> Result<(ir::SampleLevel, Option<ir::Handle<ir::Expression>>), Val> {
        let mut depth_ref = None;
        if matches!(
            m,
            "SampleCmpBias"
                | "SampleCmpGrad"
                | "SampleCmp"
                | "SampleCmpLevelZero"
                | "SampleCmpLevel"
                | "GatherCmp"
                | "GatherCmpRed"
        ) {
            // The comparator, then (bias | ddx, ddy), as DXC's
            // texture.sample-cmp-bias/-grad tests call them.
            let Some(r) = rest.first() else {
                return Err(self.sample_args_error(m, dim, span));
            };
            depth_ref = self.arg_as(r, types::FLOAT);
            *rest = &rest[1..];
        }
        let level = match m {
            "Sample" | "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha"
            | "SampleCmp" | "GatherCmp" | "GatherCmpRed" => ir::SampleLevel::Auto,
            "SampleCmpLevelZero" => ir::SampleLevel::Zero,
            "SampleLevel" | "SampleCmpLevel" => {
                ir::SampleLevel::Exact(self.lod_arg(m, dim, rest, span)?)
            }
            "SampleBias" | "SampleCmpBias" => {
                ir::SampleLevel::Bias(self.lod_arg(m, dim, rest, span)?)
            }
            "SampleGrad" | "SampleCmpGrad" => {
                let (Some(x), Some(y)) = (rest.first(), rest.get(1)) else {
                    return Err(self.sample_args_error(m, dim, span));
                };
                let gn = gradient_count(dim);
                let (Some(xh), Some(yh)) = (self.float_coord(x, gn), self.float_coord(y, gn))
                else {
                    return Err(Val::error());
                };
                *rest = &rest[2..];
                ir::SampleLevel::Gradient { x: xh, y: yh }
            }
            _ => return Err(self.sample_args_error(m, dim, span)),
        };
        Ok((level, depth_ref))
    }

    /// A float level or bias taken from the front of `rest`.
    fn lod_arg(
        &mut self,
        m: &str,
        dim: TexDim,
        rest: &mut &[Arg],
        span: Span,
    ) -> Result<ir::Handle<ir::Expression>, Val> {
        let Some(l) = rest.first() else {
            return Err(self.sample_args_error(m, dim, span));
        };
        let lh = self.arg_as(l, types::FLOAT).ok_or_else(Val::error)?;
        *rest = &rest[1..];
        Ok(lh)
    }

    /// A gather with four offsets that are not all constant: one gather
    /// per offset, texel i from gather i (SPIR-V.rst: the non-constant
    /// form of the four-offset overloads, which is also exact for constant
    /// offsets), and for a sparse read the first non-resident code.
    fn gather_each_offset(
        &mut self,
        sample: &dyn Fn(bool, Option<ir::Handle<ir::Expression>>) -> ir::Expression,
        offsets: [ir::Handle<ir::Expression>; 4],
        status: Option<&Arg>,
        sc: Sc,
        it: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        let st = self.s.types.scalar(sc);
        let sit = self.s.ir_ty(st);
        let u = self.s.ir_ty(types::UINT);
        let b = self.s.ir_ty(types::BOOL);
        let mut texels = Vec::with_capacity(4);
        let mut codes = Vec::with_capacity(4);
        for (i, o) in offsets.into_iter().enumerate() {
            let g = match status {
                Some(_) => {
                    let op = sample(true, Some(o));
                    let (code, g) = self.sparse_parts(op, it);
                    codes.push(code);
                    g
                }
                None => self.add(sample(false, Some(o)), it),
            };
            texels.push(self.add(
                ir::Expression::AccessIndex {
                    base: g,
                    index: i as u32,
                },
                sit,
            ));
        }
        if let Some(st) = status {
            // Fully mapped iff all four are: report the first
            // non-resident code, else the last one.
            let mut code = codes[3];
            for &c in codes[..3].iter().rev() {
                let resident = self.add(ir::Expression::SparseTexelsResident { code: c }, b);
                code = self.add(
                    ir::Expression::Select {
                        condition: resident,
                        accept: code,
                        reject: c,
                    },
                    u,
                );
            }
            self.write_out(st, code, types::UINT);
        }
        self.add(
            ir::Expression::Compose {
                ty: it,
                components: texels,
            },
            it,
        )
    }
}

/// Components of the `ddx`/`ddy` arguments of the gradient forms: the
/// coordinate without its array layer.
fn gradient_count(dim: TexDim) -> u8 {
    match dim {
        TexDim::D1 => 1,
        TexDim::D2 => 2,
        TexDim::D3 | TexDim::Cube => 3,
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `res[i]` for buffers and textures.
    /// `tex.mips[level][coord]` / `tex.sample[s][coord]`: a texel of a mip
    /// level, or a sample of a multisampled texture.
    pub fn texture_element(
        &mut self,
        tex: Val,
        sel: Val,
        sel_span: Span,
        coord: Val,
        coord_span: Span,
        span: Span,
    ) -> Val {
        let Ty::Resource(ResKind::Texture { dim, array, ms, .. }, elem) =
            self.s.types.get(tex.ty).clone()
        else {
            return Val::error();
        };
        let elem_ty = elem.unwrap_or(types::FLOAT);
        let Some(image) = self.value(&tex) else {
            return Val::error();
        };
        let sv = self.convert(sel, types::INT, sel_span);
        let Some(s) = self.value(&sv) else {
            return Val::error();
        };
        let n = coord_count(dim, array);
        let ct = if n == 1 {
            types::INT
        } else {
            self.s.types.vector(Sc::I32, n)
        };
        let cv = self.convert(coord, ct, coord_span);
        let Some(c) = self.value(&cv) else {
            return Val::error();
        };
        let _ = span;
        let (level, sample) = if ms { (None, Some(s)) } else { (Some(s), None) };
        let v4 = self.image_load(image, c, level, sample, None, elem_ty, None);
        let h = self.texel_element(v4, elem_ty);
        Val::expr(elem_ty, h)
    }

    /// A coordinate with exactly `n` components (truncating or padding with
    /// zeros as needed).
    pub(in crate::sema) fn fit_coord(
        &mut self,
        c: ir::Handle<ir::Expression>,
        n: u8,
        _span: Span,
    ) -> ir::Handle<ir::Expression> {
        let cty = self.expr_ty(c);
        let (have, scalar) = match self.s.module.types[cty].inner {
            ir::TypeInner::Vector { size, scalar } => (size, scalar),
            ir::TypeInner::Scalar(s) => (1, s),
            _ => return c,
        };
        if have == n {
            return c;
        }
        let sc = Sc::from_ir(scalar);
        let from = self.s.types.vector(sc, have);
        if have > n {
            let comps: Vec<u8> = (0..n).collect();
            return self.swizzle_value(c, from, &comps);
        }
        let mut parts = Vec::new();
        if have == 1 {
            parts.push(c);
        } else {
            let st = self.s.types.scalar(sc);
            let sit = self.s.ir_ty(st);
            for i in 0..have as u32 {
                parts.push(self.add(ir::Expression::AccessIndex { base: c, index: i }, sit));
            }
        }
        let zero = crate::sema::body::place::konst_literal(
            crate::sema::types::consteval::Konst::int(0).convert(sc),
        );
        let z = self.lit(zero);
        while parts.len() < n as usize {
            parts.push(z);
        }
        let t = self.s.types.vector(sc, n);
        self.compose(t, parts)
    }

    pub(in crate::sema) fn image_load(
        &mut self,
        image: ir::Handle<ir::Expression>,
        coord: ir::Handle<ir::Expression>,
        level: Option<ir::Handle<ir::Expression>>,
        sample: Option<ir::Handle<ir::Expression>>,
        offset: Option<ir::Handle<ir::Expression>>,
        elem: TyId,
        status: Option<&Arg>,
    ) -> ir::Handle<ir::Expression> {
        let sc = self.s.types.texel_scalar(elem);
        let v4 = self.s.types.vector(sc, 4);
        let it = self.s.ir_ty(v4);
        let load = |sparse| ir::Expression::ImageLoad {
            image,
            coordinate: coord,
            level,
            sample,
            offset,
            sparse,
        };
        match status {
            Some(st) => self.sparse_read(load(true), it, st),
            None => self.add(load(false), it),
        }
    }

    /// Checks the trailing `status` argument of a texture read: the
    /// residency code is written to it, so it must be an lvalue
    /// (SPIR-V.rst, "Texture methods": OpImageSparse* when a status is
    /// present).
    pub(in crate::sema) fn status_arg_ok(&mut self, a: &Arg) -> bool {
        if a.val.is_error() {
            return false;
        }
        if a.val.as_place().is_none() {
            self.s.error(
                codes::OUT_ARG_NOT_LVALUE,
                "the status argument must be an lvalue: the operation writes its residency code there",
                a.span,
                "not an lvalue",
            );
            return false;
        }
        self.status_type_ok(a) && self.check_writable(&a.val, a.span)
    }

    /// Emits the sparse form `op` of a read whose dense result has IR type
    /// `texel`: its result is `{ uint code; texel }`; the code goes to
    /// `status` and the texel is returned.
    pub(in crate::sema) fn sparse_read(
        &mut self,
        op: ir::Expression,
        texel: ir::Handle<ir::Type>,
        status: &Arg,
    ) -> ir::Handle<ir::Expression> {
        let (code, texel) = self.sparse_parts(op, texel);
        self.write_out(status, code, types::UINT);
        texel
    }

    /// Emits the sparse read `op` (dense result type `texel`) and returns
    /// its residency code and texel.
    pub(in crate::sema) fn sparse_parts(
        &mut self,
        op: ir::Expression,
        texel: ir::Handle<ir::Type>,
    ) -> (ir::Handle<ir::Expression>, ir::Handle<ir::Expression>) {
        let u = self.s.ir_ty(types::UINT);
        let member = |name: &str, ty| ir::StructMember {
            name: Some(name.into()),
            ty,
            offset: None,
            matrix_layout: None,
            precise: false,
            binding: None,
            decorations: Vec::new(),
        };
        let rty = self.s.module.types.insert(ir::Type {
            name: Some("SparseResidencyStruct".into()),
            inner: ir::TypeInner::Struct {
                members: vec![member("code", u), member("texel", texel)],
                size: 0,
            },
        });
        let r = self.add(op, rty);
        let code = self.add(ir::Expression::AccessIndex { base: r, index: 0 }, u);
        let texel = self.add(ir::Expression::AccessIndex { base: r, index: 1 }, texel);
        (code, texel)
    }
}
