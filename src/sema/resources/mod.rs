//! Resource objects: how they are reached (pointers to Handle-space
//! images and samplers, to storage blocks, to uniform blocks), indexing
//! (`buf[i]`, `tex[uv]`), and their methods (SPIR-V.rst, "HLSL Methods"):
//! structured-buffer `Load`/`GetDimensions`/counters, `Append`/`Consume`,
//! byte-address `Load*`/`Store*`/`Interlocked*`, texture `Load`, `Sample*`,
//! `Gather`, `GetDimensions`.

pub mod aggregate;
pub mod byte_address;
pub mod counters;
pub mod paths;
pub mod sample_position;
pub mod structured;
pub mod texture;
pub mod texture_rules;

use super::Sema;
use super::body::FnCtx;
use super::body::place::Val;
use super::calls::Arg;
use super::types::layout::{BufferKind, Rule};
use super::types::{self, ResKind, Sc, TexDim, Ty, TyId};
use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::span::Span;

impl<'a> Sema<'a> {
    /// The memory type and address space a resource of HLSL type `ty`
    /// lives in.
    pub fn resource_mem(&mut self, ty: TyId) -> (ir::Handle<ir::Type>, ir::AddressSpace) {
        match self.types.get(ty).clone() {
            Ty::Array(e, n) => {
                let (m, space) = self.resource_mem(e);
                let t = self.module.ty(ir::TypeInner::Array {
                    base: m,
                    size: match n {
                        Some(n) => ir::ArraySize::Constant(n),
                        None => ir::ArraySize::Runtime,
                    },
                    stride: None,
                });
                (t, space)
            }
            Ty::Resource(kind, _) if kind.is_structured() || kind.is_byte_address() => (
                self.buffer_block(ty),
                ir::AddressSpace::Storage {
                    writable: kind.is_rw(),
                },
            ),
            Ty::Resource(ResKind::ConstantBuffer, Some(t)) => {
                let rule = Rule::for_buffer(self.opts.layout, BufferKind::Uniform);
                let name = format!("type.ConstantBuffer.{}", self.ty_name(t));
                (self.struct_block(t, name, rule), ir::AddressSpace::Uniform)
            }
            Ty::Resource(ResKind::TextureBuffer, Some(t)) => {
                let rule = Rule::for_buffer(self.opts.layout, BufferKind::Storage);
                let name = format!("type.TextureBuffer.{}", self.ty_name(t));
                (
                    self.struct_block(t, name, rule),
                    ir::AddressSpace::Storage { writable: false },
                )
            }
            _ => (self.ir_ty(ty), ir::AddressSpace::Handle),
        }
    }

    /// The pointer type a resource parameter takes.
    pub fn resource_pointer_type(&mut self, ty: TyId) -> ir::Handle<ir::Type> {
        let (base, space) = self.resource_mem(ty);
        self.module.ty(ir::TypeInner::Pointer { base, space })
    }
}

/// Number of coordinate components a texture takes (array layer included).
pub(super) fn coord_count(dim: TexDim, array: bool) -> u8 {
    let n = match dim {
        TexDim::D1 => 1,
        TexDim::D2 => 2,
        TexDim::D3 | TexDim::Cube => 3,
    };
    n + array as u8
}

/// Number of offset components (no array layer; cubes take none).
pub(super) fn offset_count(dim: TexDim) -> u8 {
    match dim {
        TexDim::D1 => 1,
        TexDim::D2 => 2,
        TexDim::D3 => 3,
        TexDim::Cube => 0,
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    pub(super) fn res_error(&mut self, kind: ResKind, method: ast::Ident) -> Val {
        self.error(
            codes::NO_METHOD,
            format!("`{}` has no method `{}`", kind.name(), method.name),
            method.span,
            "unknown method",
        )
    }

    pub(super) fn wrong_args(&mut self, what: &str, span: Span) -> Val {
        self.error(
            codes::WRONG_ARG_COUNT,
            format!("wrong arguments for `{what}`"),
            span,
            "check the number and kinds of arguments",
        )
    }

    /// A value converted to `ty`, as an IR expression.
    pub fn arg_as(&mut self, a: &Arg, ty: TyId) -> Option<ir::Handle<ir::Expression>> {
        let c = self.convert(a.val.clone(), ty, a.span);
        self.value(&c)
    }

    /// An integer or uint vector coordinate of `n` components.
    pub(super) fn int_coord(
        &mut self,
        a: &Arg,
        n: u8,
        signed: bool,
    ) -> Option<ir::Handle<ir::Expression>> {
        let sc = if signed { Sc::I32 } else { Sc::U32 };
        let t = self.s.types.vector(sc, n);
        // Keep the argument's signedness when it is already an int vector.
        let t = match self.s.types.component(a.val.ty) {
            Some(Sc::I32) | Some(Sc::U32)
                if self.s.types.shape(a.val.ty) == self.s.types.shape(t) =>
            {
                a.val.ty
            }
            _ => t,
        };
        self.arg_as(a, t)
    }

    pub(super) fn float_coord(&mut self, a: &Arg, n: u8) -> Option<ir::Handle<ir::Expression>> {
        let t = self.s.types.vector(Sc::F32, n);
        self.arg_as(a, t)
    }

    /// Writes `value` (HLSL type `vty`) to an out argument.
    pub fn write_out(&mut self, a: &Arg, value: ir::Handle<ir::Expression>, vty: TyId) {
        if !self.check_writable(&a.val, a.span) {
            return;
        }
        let Some(place) = a.val.as_place().cloned() else {
            return;
        };
        let c = self.convert(Val::expr(vty, value), a.val.ty, a.span);
        if let Some(h) = self.value(&c) {
            self.write_place(&place, a.val.ty, h);
        }
    }

    /// Methods of resource objects.
    pub fn resource_method(
        &mut self,
        obj: Val,
        kind: ResKind,
        elem: Option<TyId>,
        method: ast::Ident,
        targs: Option<&'a [ast::TemplateArg]>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let m = method.name.as_str();
        let elem_ty = elem.unwrap_or(types::UINT);
        if kind.is_structured() {
            return self.structured_method(obj, kind, elem_ty, method, args, span);
        }
        if kind.is_byte_address() {
            return self.byte_address_method(obj, kind, method, targs, args, span);
        }
        match kind {
            ResKind::Texture {
                dim, array, ms, rw, ..
            } => match m {
                "GetDimensions" => self.texture_dims(obj, kind, args, span),
                "GetSamplePosition" if ms => self.sample_position(obj, &args, span),
                // Cubes are sampled, never fetched (OpImageFetch: "Dim
                // cannot be Cube").
                "Load" if dim == TexDim::Cube => self.res_error(kind, method),
                "Load" => {
                    let Some(image) = self.value(&obj) else {
                        return Val::error();
                    };
                    let n = coord_count(dim, array);
                    // Load(location[, sample][, offset][, status]); RW
                    // textures have neither sample nor offset.
                    let status_at = if rw {
                        1
                    } else if ms {
                        3
                    } else {
                        2
                    };
                    if args.len() > status_at + 1 {
                        return self.wrong_args("Load", span);
                    }
                    let status = args.get(status_at);
                    if let Some(st) = status
                        && !self.status_arg_ok(st)
                    {
                        return Val::error();
                    }
                    let (coord, level, sample, offset) = if rw {
                        let Some(a) = args.first() else {
                            return self.wrong_args("Load", span);
                        };
                        let Some(c) = self.int_coord(a, n, true) else {
                            return Val::error();
                        };
                        (c, None, None, None)
                    } else if ms {
                        let (Some(a), Some(s)) = (args.first(), args.get(1)) else {
                            return self.wrong_args("Load", span);
                        };
                        let Some(c) = self.int_coord(a, n, true) else {
                            return Val::error();
                        };
                        let Some(sh) = self.arg_as(s, types::INT) else {
                            return Val::error();
                        };
                        let off = match args.get(2) {
                            Some(o) if status_at > 2 => {
                                let ot = self.s.types.vector(Sc::I32, offset_count(dim));
                                self.arg_as(o, ot)
                            }
                            _ => None,
                        };
                        (c, None, Some(sh), off)
                    } else {
                        // The last component of the location is the mip level.
                        let Some(a) = args.first() else {
                            return self.wrong_args("Load", span);
                        };
                        let Some(all) = self.int_coord(a, n + 1, true) else {
                            return Val::error();
                        };
                        let it = self.s.types.vector(Sc::I32, n + 1);
                        let comps: Vec<u8> = (0..n).collect();
                        let c = self.swizzle_value(all, it, &comps);
                        let lvl = self.swizzle_value(all, it, &[n]);
                        let off = match args.get(1) {
                            Some(o) => {
                                let ot = self.s.types.vector(Sc::I32, offset_count(dim));
                                self.arg_as(o, ot)
                            }
                            None => None,
                        };
                        (c, Some(lvl), None, off)
                    };
                    // Vulkan takes only constant offsets outside gathers
                    // (VUID-StandaloneSpirv-Offset-04663); a parameter may
                    // still become one once the call is inlined.
                    if let Some(o) = offset
                        && !self.may_become_constant(o)
                    {
                        let at = args.get(if ms { 2 } else { 1 }).map_or(span, |a| a.span);
                        return self.error(
                            codes::TYPE_MISMATCH,
                            "the offset of `Load` must be a constant",
                            at,
                            "not a constant",
                        );
                    }
                    let v4 = self.image_load(image, coord, level, sample, offset, elem_ty, status);
                    self.tag_span(v4, span);
                    let h = self.texel_element(v4, elem_ty);
                    Val::expr(elem_ty, h)
                }
                "CalculateLevelOfDetail" | "CalculateLevelOfDetailUnclamped" if !rw && !ms => {
                    let combined = self.is_combined_sampler(&obj);
                    let Some(image) = self.value(&obj) else {
                        return Val::error();
                    };
                    // A `vk::SampledTexture*` carries its sampler.
                    let (sampler, ca) = if combined {
                        (None, args.first())
                    } else {
                        let Some(sa) = args.first() else {
                            return self.wrong_args(m, span);
                        };
                        if !matches!(self.s.types.get(sa.val.ty), Ty::Sampler { .. }) {
                            return self.error(
                                codes::TYPE_MISMATCH,
                                "the first argument must be a sampler",
                                sa.span,
                                "not a sampler",
                            );
                        }
                        match self.paired_sampler(&obj, sa) {
                            Ok(true) => (None, args.get(1)),
                            Ok(false) => {
                                let Some(sampler) = self.value(&sa.val) else {
                                    return Val::error();
                                };
                                (Some(sampler), args.get(1))
                            }
                            Err(e) => return e,
                        }
                    };
                    let Some(ca) = ca else {
                        return self.wrong_args(m, span);
                    };
                    // The coordinate has no array layer.
                    let n = coord_count(dim, false);
                    let Some(coordinate) = self.float_coord(ca, n) else {
                        return Val::error();
                    };
                    if !self.use_derivatives(m, span) {
                        return Val::error();
                    }
                    let f = self.s.ir_ty(types::FLOAT);
                    let clamped = m == "CalculateLevelOfDetail";
                    let query = ir::ImageQuery::Lod {
                        sampler,
                        coordinate,
                        clamped,
                    };
                    let h = self.add(ir::Expression::ImageQuery { image, query }, f);
                    Val::expr(types::FLOAT, h)
                }
                "GatherCmpGreen" | "GatherCmpBlue" | "GatherCmpAlpha" if !rw && !ms => {
                    // SPIR-V.rst, "Unsupported HLSL features": OpImageDrefGather
                    // takes no component.
                    self.error(
                        codes::NO_METHOD,
                        format!("`{m}` has no Vulkan equivalent"),
                        method.span,
                        "use `GatherCmp` or `GatherCmpRed`",
                    )
                }
                "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha"
                | "GatherCmp" | "GatherCmpRed"
                    if matches!(dim, TexDim::D1 | TexDim::D3) =>
                {
                    self.res_error(kind, method)
                }
                // No depth comparison on 3D images (SPIR-V.rst; Vulkan:
                // VUID-StandaloneSpirv-OpImage-04777).
                "SampleCmp" | "SampleCmpLevelZero" | "SampleCmpLevel" | "SampleCmpBias"
                | "SampleCmpGrad"
                    if dim == TexDim::D3 =>
                {
                    self.res_error(kind, method)
                }
                "Sample" | "SampleLevel" | "SampleBias" | "SampleGrad" | "SampleCmp"
                | "SampleCmpLevelZero" | "SampleCmpLevel" | "SampleCmpBias" | "SampleCmpGrad"
                | "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha"
                | "GatherCmp" | "GatherCmpRed"
                    if !rw && !ms =>
                {
                    // An early error is an `Err` holding the error value.
                    self.sample(obj, dim, array, elem_ty, m, &args, span)
                        .unwrap_or_else(|v| v)
                }
                _ => self.res_error(kind, method),
            },
            ResKind::TexelBuffer { .. } => match m {
                "Load" => self.texel_buffer_load(obj, elem_ty, &args, span),
                "GetDimensions" => self.texture_dims(obj, kind, args, span),
                _ => self.res_error(kind, method),
            },
            ResKind::SubpassInput { ms } if m == "SubpassLoad" => {
                self.subpass_load(obj, ms, elem_ty, &args, span)
            }
            _ => self.res_error(kind, method),
        }
    }

    /// `Buffer<T>.Load(index[, status])`, `RWBuffer<T>.Load(…)`.
    fn texel_buffer_load(&mut self, obj: Val, elem_ty: TyId, args: &[Arg], span: Span) -> Val {
        let Some(image) = self.value(&obj) else {
            return Val::error();
        };
        let Some(a) = args.first() else {
            return self.wrong_args("Load", span);
        };
        let Some(i) = self.arg_as(a, types::INT) else {
            return Val::error();
        };
        if args.len() > 2 {
            return self.wrong_args("Load", span);
        }
        let status = args.get(1);
        if let Some(st) = status
            && !self.status_arg_ok(st)
        {
            return Val::error();
        }
        let v4 = self.image_load(image, i, None, None, None, elem_ty, status);
        let h = self.texel_element(v4, elem_ty);
        Val::expr(elem_ty, h)
    }
}
