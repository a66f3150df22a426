//! Rules on texture reads that HLSL states and DXC enforces, kept apart from
//! their lowering (`texture.rs`, `resources.rs`): the tiled-resources
//! `status` and `clamp` arguments (HLSL-SEMANTICS.md, "Streaming (tiled)
//! resources, tier 2"), where implicit-LOD sampling and derivatives exist,
//! and the shader models of the newer sampling methods.

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::types::{self, Sc, TexDim, Ty, TyId};
use crate::span::Span;

/// The overloads of a sampling or gather method, as a reader writes them:
/// `[, offset]` only where the texture has offsets (not cubes), `[, clamp]`
/// only on the implicit-LOD and gradient forms (SPIR-V.rst, "Common
/// texture methods"). `None` for names that are not sampling methods.
pub(in crate::sema) fn sample_signature(m: &str, dim: TexDim) -> Option<String> {
    let (fixed, clamp) = match m {
        "Sample" => ("", true),
        "SampleBias" => (", bias", true),
        "SampleGrad" => (", ddx, ddy", true),
        "SampleLevel" => (", lod", false),
        "SampleCmp" => (", compare_value", true),
        "SampleCmpLevelZero" => (", compare_value", false),
        "SampleCmpLevel" => (", compare_value, lod", false),
        "SampleCmpBias" => (", compare_value, bias", true),
        "SampleCmpGrad" => (", compare_value, ddx, ddy", true),
        "Gather" | "GatherRed" | "GatherGreen" | "GatherBlue" | "GatherAlpha" => ("", false),
        "GatherCmp" | "GatherCmpRed" => (", compare_value", false),
        _ => return None,
    };
    let offset = if dim == TexDim::Cube {
        ""
    } else {
        "[, offset]"
    };
    let clamp = if clamp { "[, clamp]" } else { "" };
    Some(format!(
        "{m}(sampler, location{fixed}{offset}{clamp}[, out uint status])"
    ))
}

/// Whether a sampling method takes the tiled-resources LOD clamp.
pub(in crate::sema) fn takes_clamp(m: &str) -> bool {
    matches!(
        m,
        "Sample" | "SampleBias" | "SampleGrad" | "SampleCmp" | "SampleCmpBias" | "SampleCmpGrad"
    )
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Whether `h` is a constant as the backend sees one (literals, module
    /// constants, and vectors of them): four such gather offsets become
    /// one `ConstOffsets` operand.
    pub(in crate::sema) fn is_constant_value(&self, h: ir::Handle<ir::Expression>) -> bool {
        use ir::Expression as E;
        match &self.fb.body.function.expressions[h] {
            E::Literal(_) | E::Constant(_) | E::ZeroValue(_) => true,
            E::Splat { value, .. } => self.is_constant_value(*value),
            E::Compose { components, .. } => components.iter().all(|&c| self.is_constant_value(c)),
            _ => false,
        }
    }

    /// The `status` argument receives a residency code: HLSL declares it
    /// `out uint` (DXC's `uint_only`), so it must be a `uint` variable.
    pub(in crate::sema) fn status_type_ok(&mut self, a: &Arg) -> bool {
        if *self.s.types.get(a.val.ty) == Ty::Scalar(Sc::U32) {
            return true;
        }
        let found = self.s.ty_name(a.val.ty);
        self.s.push(
            Diagnostic::error(
                codes::TYPE_MISMATCH,
                format!("the status argument must be a `uint` variable, not `{found}`"),
            )
            .label(a.span, format!("this is `{found}`"))
            .note("the read writes its residency code there, for `CheckAccessFullyMapped`"),
        );
        false
    }

    /// An argument after the offset of a method that has no `clamp`:
    /// `SampleLevel(s, uv, lod, offset, 1.5)`. The reader meant a clamp;
    /// say that this form has none rather than that `1.5` is no lvalue.
    pub(in crate::sema) fn no_clamp_error(&mut self, m: &str, dim: TexDim, extra: &Arg) -> Val {
        let mut d = Diagnostic::error(
            codes::WRONG_ARG_COUNT,
            format!("`{m}` takes no clamp argument"),
        )
        .label(extra.span, "a clamp, or an argument too many");
        if let Some(sig) = sample_signature(m, dim) {
            d = d.note(format!("the forms of `{m}` are {sig}"));
        }
        let note = if m.starts_with("Gather") {
            "gathers read one fixed level: there is no level of detail to clamp"
        } else {
            "only Sample, SampleBias, SampleGrad, SampleCmp, SampleCmpBias and SampleCmpGrad take a clamp (the MinLod operand); explicit-LOD forms have none"
        };
        self.s.push(d.note(note));
        Val::error()
    }

    /// Arguments that fit no form of a sampling method.
    pub(in crate::sema) fn sample_args_error(&mut self, m: &str, dim: TexDim, span: Span) -> Val {
        let mut d = Diagnostic::error(codes::WRONG_ARG_COUNT, format!("wrong arguments for `{m}`"))
            .label(span, "no form of the method takes these arguments");
        if let Some(sig) = sample_signature(m, dim) {
            d = d.note(format!("the forms are {sig}"));
        }
        self.s.push(d);
        Val::error()
    }

    /// Implicit-LOD sampling and derivatives exist in pixel, mesh and
    /// amplification shaders, and in compute shaders from shader model 6.6 (they
    /// then get a derivative group mode, `finish_entry_point`). SPIR-V
    /// allows implicit-LOD instructions only in the Fragment model, or with
    /// a derivative group mode (OpImageSampleImplicitLod;
    /// SPV_KHR_compute_shader_derivatives). Libraries leave the check to
    /// their entry points.
    /// Whether `what` at `span` may use derivatives here (reported when
    /// not), recording that the entry uses them. Code being discarded (dead
    /// code, the untaken branch of a constant condition) neither needs nor
    /// records them, as DXC's legalisation removes it first.
    pub(in crate::sema) fn use_derivatives(&mut self, what: &str, span: Span) -> bool {
        if self.fb.discarding > 0 {
            return true;
        }
        let ok = self.derivatives_available(what, span);
        if ok {
            self.s.entry.uses_derivatives = true;
        }
        ok
    }

    pub(in crate::sema) fn derivatives_available(&mut self, what: &str, span: Span) -> bool {
        match self.s.stage {
            // Mesh and amplification profiles start at 6.5, where DXC
            // already accepts derivatives in them.
            Stage::Pixel | Stage::Library | Stage::Mesh | Stage::Amplification => true,
            Stage::Compute => self.require_shader_model(
                6,
                6,
                what,
                span,
                " in compute, mesh and amplification shaders",
            ),
            Stage::Vertex
            | Stage::Geometry
            | Stage::Hull
            | Stage::Domain
            | Stage::RayGeneration
            | Stage::Intersection
            | Stage::AnyHit
            | Stage::ClosestHit
            | Stage::Miss
            | Stage::Callable
            | Stage::Node => {
                self.s.push(
                    Diagnostic::error(
                        codes::STAGE_STATEMENT,
                        format!("`{what}` needs derivatives, which this stage does not have"),
                    )
                    .label(span, "implicit level of detail")
                    .note("derivatives exist in pixel shaders, and in compute, mesh and amplification shaders from shader model 6.6; use SampleLevel or SampleGrad here"),
                );
                false
            }
        }
    }

    /// `SubpassLoad()` of a `SubpassInput`, `SubpassLoad(sample)` of a
    /// `SubpassInputMS`: an OpImageRead at coordinate (0, 0), which is the
    /// fragment's own position (Vulkan "Input Attachments"); pixel shaders
    /// only.
    pub(in crate::sema) fn subpass_load(
        &mut self,
        obj: Val,
        ms: bool,
        elem: TyId,
        args: &[Arg],
        span: Span,
    ) -> Val {
        if !matches!(self.s.stage, Stage::Pixel | Stage::Library) {
            self.s.push(
                Diagnostic::error(
                    codes::STAGE_STATEMENT,
                    "subpass inputs are read in pixel shaders only",
                )
                .label(span, "a subpass input read outside a pixel shader")
                .note("an input attachment holds the texel of the fragment being shaded"),
            );
            return Val::error();
        }
        if args.len() != ms as usize {
            let want = if ms {
                "`SubpassLoad(sample)` of a `SubpassInputMS` takes the sample index"
            } else {
                "`SubpassLoad()` of a `SubpassInput` takes no argument"
            };
            return self.error(
                codes::WRONG_ARG_COUNT,
                want,
                span,
                "wrong number of arguments",
            );
        }
        let sample = match args.first() {
            Some(a) => match self.arg_as(a, types::INT) {
                Some(s) => Some(s),
                None => return Val::error(),
            },
            None => None,
        };
        let Some(image) = self.value(&obj) else {
            return Val::error();
        };
        let zero = self.i32_lit(0);
        let i2 = self.s.types.vector(Sc::I32, 2);
        let i2t = self.s.ir_ty(i2);
        let coord = self.add(
            ir::Expression::Compose {
                ty: i2t,
                components: vec![zero, zero],
            },
            i2t,
        );
        let v4 = self.image_load(image, coord, None, sample, None, elem, None);
        self.tag_span(v4, span);
        let h = self.texel_element(v4, elem);
        Val::expr(elem, h)
    }

    /// Reports an error unless the target profile's shader model is at
    /// least `major.minor`; `context` ends the sentence (" in compute…").
    pub(in crate::sema) fn require_shader_model(
        &mut self,
        major: u32,
        minor: u32,
        what: &str,
        span: Span,
        context: &str,
    ) -> bool {
        let Some(p) = self.s.opts.profile else {
            return true;
        };
        if (p.major, p.minor) >= (major, minor) {
            return true;
        }
        let stage = p.stage.prefix();
        self.s.push(
            Diagnostic::error(
                codes::SHADER_MODEL_TOO_OLD,
                format!("`{what}` needs shader model {major}.{minor}{context}; the target is {p}"),
            )
            .label(span, format!("needs shader model {major}.{minor}"))
            .note(format!("compile with -T {stage}_{major}_{minor} or later")),
        );
        false
    }

    /// `Load(…, status)` on a structured or byte-address buffer: SPIR-V
    /// reports residency only for image reads, and these buffers are not
    /// images (SPIR-V.rst, "Unsupported HLSL features").
    pub(in crate::sema) fn buffer_status_error(&mut self, what: &str, status: &Arg) -> Val {
        self.s.push(
            Diagnostic::error(
                codes::NO_METHOD,
                format!("`{what}` has no form with a status argument in Vulkan"),
            )
            .label(status.span, "status argument")
            .note("SPIR-V reports residency only for image reads; structured and byte-address buffers are not images (Buffer<T> and textures are)"),
        );
        Val::error()
    }
}
