//! System-value semantics: which builtin each `SV_` semantic is in each
//! stage and direction, the builtin variables, and `SV_ClipDistanceN` /
//! `SV_CullDistanceN` packed into one array each.

use super::io::Io;
use crate::diag::codes;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::Sema;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::types::{self, Sc, TyId};
use crate::span::Span;

/// Direction of a stage interface variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum IoDir {
    Input,
    Output,
}

/// A system-value semantic as a builtin: the builtin, its natural HLSL
/// type, and the name DXC gives the variable.
/// `SV_ClipDistanceN` → `(false, N)`, `SV_CullDistanceN` → `(true, N)`.
pub(super) fn distance_semantic(sem: &str) -> Option<(bool, u32)> {
    let s = sem.to_ascii_lowercase();
    let (cull, rest) = if let Some(r) = s.strip_prefix("sv_clipdistance") {
        (false, r)
    } else {
        (true, s.strip_prefix("sv_culldistance")?)
    };
    let n = if rest.is_empty() {
        0
    } else {
        rest.parse().ok()?
    };
    Some((cull, n))
}

/// System values that a stage and direction treat as ordinary user
/// semantics, with a location (the "Arb" entries of the D3D signature
/// points DXC checks semantics against): `SV_Position` as a vertex
/// shader input, `SV_InstanceID` as a vertex shader output or a pixel
/// shader input. Hull, domain and geometry shaders pass every system
/// value they have no built-in for (see `passes_through` in io.rs).
pub(super) fn arbitrary_here(stage: Stage, dir: IoDir, sem: &str) -> bool {
    let s = sem.to_ascii_lowercase();
    let s = s.trim_end_matches(|c: char| c.is_ascii_digit());
    match (stage, dir) {
        (Stage::Vertex, IoDir::Input) => matches!(
            s,
            "sv_position"
                | "sv_rendertargetarrayindex"
                | "sv_viewportarrayindex"
                | "sv_clipdistance"
                | "sv_culldistance"
        ),
        (Stage::Vertex, IoDir::Output) | (Stage::Pixel, IoDir::Input) => s == "sv_instanceid",
        _ => false,
    }
}

pub(super) fn system_value(
    stage: Stage,
    dir: IoDir,
    sem: &str,
) -> Option<(spirv::BuiltIn, &'static str, TyKind)> {
    use spirv::BuiltIn as B;
    let s = sem.to_ascii_lowercase();
    Some(match (stage, dir, s.as_str()) {
        (
            Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Node,
            IoDir::Input,
            "sv_dispatchthreadid",
        ) => (
            B::GlobalInvocationId,
            "gl_GlobalInvocationID",
            TyKind::Uint3,
        ),
        (
            Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Node,
            IoDir::Input,
            "sv_groupid",
        ) => (B::WorkgroupId, "gl_WorkGroupID", TyKind::Uint3),
        (
            Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Node,
            IoDir::Input,
            "sv_groupthreadid",
        ) => (B::LocalInvocationId, "gl_LocalInvocationID", TyKind::Uint3),
        (
            Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Node,
            IoDir::Input,
            "sv_groupindex",
        ) => (
            B::LocalInvocationIndex,
            "gl_LocalInvocationIndex",
            TyKind::Uint,
        ),
        (Stage::Vertex, IoDir::Input, "sv_vertexid") => {
            (B::VertexIndex, "gl_VertexIndex", TyKind::Uint)
        }
        (Stage::Vertex, IoDir::Input, "sv_instanceid") => {
            (B::InstanceIndex, "gl_InstanceIndex", TyKind::Uint)
        }
        (
            Stage::Vertex | Stage::Domain | Stage::Geometry | Stage::Hull | Stage::Mesh,
            IoDir::Output,
            "sv_position",
        ) => (B::Position, "gl_Position", TyKind::Float4),
        // Per-primitive outputs of mesh shaders.
        (Stage::Mesh, IoDir::Output, "sv_primitiveid") => {
            (B::PrimitiveId, "gl_PrimitiveID", TyKind::Uint)
        }
        (Stage::Mesh, IoDir::Output, "sv_rendertargetarrayindex") => {
            (B::Layer, "gl_Layer", TyKind::Uint)
        }
        (Stage::Mesh, IoDir::Output, "sv_viewportarrayindex") => {
            (B::ViewportIndex, "gl_ViewportIndex", TyKind::Uint)
        }
        (Stage::Mesh, IoDir::Output, "sv_cullprimitive") => {
            (B::CullPrimitiveEXT, "gl_CullPrimitiveEXT", TyKind::Bool)
        }
        // Per-vertex inputs of the stages after the vertex shader.
        (Stage::Geometry | Stage::Hull | Stage::Domain, IoDir::Input, "sv_position") => {
            (B::Position, "gl_Position", TyKind::Float4)
        }
        (Stage::Geometry, IoDir::Input, "sv_gsinstanceid") => {
            (B::InvocationId, "gl_InvocationID", TyKind::Uint)
        }
        (Stage::Hull, IoDir::Input, "sv_outputcontrolpointid") => {
            (B::InvocationId, "gl_InvocationID", TyKind::Uint)
        }
        (Stage::Domain, IoDir::Input, "sv_domainlocation") => {
            (B::TessCoord, "gl_TessCoord", TyKind::Float3)
        }
        (Stage::Hull | Stage::Domain, IoDir::Input, "sv_primitiveid") => {
            (B::PrimitiveId, "gl_PrimitiveID", TyKind::Uint)
        }
        (Stage::Geometry, IoDir::Output, "sv_primitiveid") => {
            (B::PrimitiveId, "gl_PrimitiveID", TyKind::Uint)
        }
        (
            Stage::Vertex | Stage::Domain | Stage::Geometry,
            IoDir::Output,
            "sv_rendertargetarrayindex",
        ) => (B::Layer, "gl_Layer", TyKind::Uint),
        (
            Stage::Vertex | Stage::Domain | Stage::Geometry,
            IoDir::Output,
            "sv_viewportarrayindex",
        ) => (B::ViewportIndex, "gl_ViewportIndex", TyKind::Uint),
        (
            Stage::Vertex | Stage::Hull | Stage::Domain | Stage::Geometry,
            IoDir::Input,
            "sv_viewid",
        ) => (B::ViewIndex, "gl_ViewIndex", TyKind::Uint),
        (Stage::Pixel, IoDir::Input, "sv_position") => {
            (B::FragCoord, "gl_FragCoord", TyKind::Float4)
        }
        (Stage::Pixel, IoDir::Input, "sv_isfrontface") => {
            (B::FrontFacing, "gl_FrontFacing", TyKind::Bool)
        }
        (Stage::Pixel, IoDir::Input, "sv_sampleindex") => {
            (B::SampleId, "gl_SampleID", TyKind::Uint)
        }
        (Stage::Pixel | Stage::Geometry, IoDir::Input, "sv_primitiveid") => {
            (B::PrimitiveId, "gl_PrimitiveID", TyKind::Uint)
        }
        (
            Stage::Pixel,
            IoDir::Output,
            "sv_depth" | "sv_depthgreaterequal" | "sv_depthlessequal",
        ) => (B::FragDepth, "gl_FragDepth", TyKind::Float),
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug)]
pub(super) enum TyKind {
    Uint,
    Uint3,
    Float,
    Float3,
    Float4,
    Bool,
}

/// The stage a stage-only system value belongs to, and in which
/// direction: `SV_DomainLocation` is a domain shader input only. Other
/// system values a stage has no built-in for pass between stages as
/// ordinary user semantics in geometry, hull and domain shaders (DXC).
pub(super) fn stage_only(sem: &str) -> Option<(&'static [Stage], IoDir, &'static str)> {
    let s = sem.to_ascii_lowercase();
    Some(match s.as_str() {
        "sv_domainlocation" => (&[Stage::Domain], IoDir::Input, "an input of domain shaders"),
        "sv_outputcontrolpointid" => (&[Stage::Hull], IoDir::Input, "an input of hull shaders"),
        "sv_gsinstanceid" => (
            &[Stage::Geometry],
            IoDir::Input,
            "an input of geometry shaders",
        ),
        "sv_tessfactor" | "sv_insidetessfactor" => (
            &[Stage::Hull, Stage::Domain],
            IoDir::Output,
            "a patch-constant output of hull shaders and an input of domain shaders",
        ),
        "sv_dispatchthreadid" | "sv_groupid" | "sv_groupthreadid" | "sv_groupindex" => (
            &[
                Stage::Compute,
                Stage::Mesh,
                Stage::Amplification,
                Stage::Node,
            ],
            IoDir::Input,
            "an input of compute, mesh, amplification and node shaders",
        ),
        "sv_depth" | "sv_depthgreaterequal" | "sv_depthlessequal" | "sv_stencilref" => {
            (&[Stage::Pixel], IoDir::Output, "an output of pixel shaders")
        }
        _ if s.starts_with("sv_target") => {
            (&[Stage::Pixel], IoDir::Output, "an output of pixel shaders")
        }
        _ => return None,
    })
}

impl<'a> Sema<'a> {
    /// The shape of a clip or cull distance of type `ty`: a float or a
    /// vector of floats, else an error at `span`.
    pub(crate) fn distance_shape(&mut self, ty: TyId, span: Span) -> Option<types::Shape> {
        let shape = self.types.shape(ty).filter(|s| s.count() <= 4);
        if shape.is_none() {
            self.error(
                codes::BAD_SEMANTIC,
                "a clip or cull distance is a float or a vector of floats",
                span,
                "not a float scalar or vector",
            );
        }
        shape
    }

    /// A clip or cull distance of type `ty` as `(element type, elements)`:
    /// a float or float vector is one element; an array of them (`float4
    /// clips[2] : SV_ClipDistance`) fills consecutive elements of the
    /// stage's array. Anything else is an error at `span`.
    pub(crate) fn distance_layout(&mut self, ty: TyId, span: Span) -> Option<(TyId, u32)> {
        if let types::Ty::Array(elem, Some(len)) = *self.types.get(ty)
            && matches!(self.types.component(elem), Some(Sc::F32))
            && self.types.shape(elem).is_some_and(|s| s.count() <= 4)
        {
            return Some((elem, len));
        }
        self.distance_shape(ty, span)?;
        Some((ty, 1))
    }

    /// An Input built-in read by an intrinsic (one global per built-in).
    pub fn builtin_input(
        &mut self,
        b: spirv::BuiltIn,
        name: &str,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        self.builtin_global(b, name, ty, ir::AddressSpace::Input)
    }

    /// An Output built-in written by an intrinsic (one global per
    /// built-in).
    pub fn builtin_output(
        &mut self,
        b: spirv::BuiltIn,
        name: &str,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        self.builtin_global(b, name, ty, ir::AddressSpace::Output)
    }

    fn builtin_global(
        &mut self,
        b: spirv::BuiltIn,
        name: &str,
        ty: TyId,
        space: ir::AddressSpace,
    ) -> ir::Handle<ir::GlobalVariable> {
        if let Some((h, _)) = self
            .module
            .globals
            .iter()
            .find(|(_, g)| g.io == Some(ir::Binding::BuiltIn(b)) && g.space == space)
        {
            return h;
        }
        let it = self.ir_ty(ty);
        let g = ir::build::add_global(&mut self.module, name, space, it);
        self.module.globals[g].io = Some(ir::Binding::BuiltIn(b));
        g
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    pub(super) fn builtin_var(
        &mut self,
        io: &mut Io,
        b: spirv::BuiltIn,
        dir: IoDir,
        name: &str,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        if let Some(&(_, _, g)) = io.builtins.iter().find(|(x, d, _)| *x == b && *d == dir) {
            return g;
        }
        let it = self.s.ir_ty(ty);
        let space = if dir == IoDir::Input {
            ir::AddressSpace::Input
        } else {
            ir::AddressSpace::Output
        };
        let g = ir::build::add_global(&mut self.s.module, name, space, it);
        self.s.module.globals[g].io = Some(ir::Binding::BuiltIn(b));
        io.builtins.push((b, dir, g));
        g
    }

    /// Keeps the first HLSL semantic that names a built-in variable: with
    /// `-fspv-reflect` it becomes the variable's `UserSemantic` decoration.
    pub(super) fn name_builtin(&mut self, g: ir::Handle<ir::GlobalVariable>, semantic: &str) {
        self.s.module.globals[g]
            .semantic
            .get_or_insert_with(|| semantic.to_string());
    }

    pub(super) fn natural_type(&mut self, k: TyKind) -> TyId {
        match k {
            TyKind::Uint => types::UINT,
            TyKind::Uint3 => self.s.types.vector(Sc::U32, 3),
            TyKind::Float => types::FLOAT,
            TyKind::Float3 => self.s.types.vector(Sc::F32, 3),
            TyKind::Float4 => self.s.types.vector(Sc::F32, 4),
            TyKind::Bool => types::BOOL,
        }
    }

    /// The `SV_ClipDistanceN`/`SV_CullDistanceN` semantics among the
    /// outputs of type `ty` with semantic `sem` (struct members included):
    /// `(cull, N, components)`.
    pub(super) fn collect_distances(
        &self,
        ty: TyId,
        sem: Option<(Symbol, Span)>,
        out: &mut Vec<(bool, u32, u32)>,
    ) {
        match sem {
            Some((name, _)) => {
                if let Some((cull, n)) = distance_semantic(name.as_str()) {
                    let count = match *self.s.types.get(ty) {
                        types::Ty::Array(e, Some(len)) => {
                            len * self.s.types.shape(e).map_or(1, |s| s.count())
                        }
                        _ => self.s.types.shape(ty).map_or(1, |s| s.count()),
                    };
                    out.push((cull, n, count));
                }
            }
            None => {
                // A geometry shader's stream, a mesh shader's `out vertices`
                // array: their element's.
                if let crate::sema::types::Ty::Stream(_, e) | crate::sema::types::Ty::Array(e, _) =
                    *self.s.types.get(ty)
                {
                    self.collect_distances(e, None, out);
                }
                if let Some(sid) = self.s.types.as_struct(ty) {
                    let info = self.s.types.struct_info(sid);
                    if let Some(b) = info.base {
                        self.collect_distances(b, None, out);
                    }
                    for f in &info.fields {
                        self.collect_distances(f.ty, f.semantic, out);
                    }
                }
            }
        }
    }

    /// Writes an `SV_ClipDistanceN`/`SV_CullDistanceN` output value into its
    /// elements of the stage's one `ClipDistance`/`CullDistance` array.
    pub(super) fn store_distance(
        &mut self,
        io: &mut Io,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        (cull, n): (bool, u32),
        span: Span,
    ) {
        let Some(&(_, _, offset)) = io
            .distance_offsets
            .iter()
            .find(|&&(c, k, _)| c == cull && k == n)
        else {
            return;
        };
        let Some((elem_ty, len)) = self.s.distance_layout(ty, span) else {
            return;
        };
        let Some(shape) = self.s.types.shape(elem_ty) else {
            return;
        };
        let count = shape.count();
        let size = io.distance_sizes[usize::from(cull)];
        let arr = self.s.types.array(types::FLOAT, Some(size));
        let (b, name) = if cull {
            (spirv::BuiltIn::CullDistance, "gl_CullDistance")
        } else {
            (spirv::BuiltIn::ClipDistance, "gl_ClipDistance")
        };
        let g = self.builtin_var(io, b, IoDir::Output, name, arr);
        let float_ty = self.s.types.with_shape(Sc::F32, shape);
        // An array's elements are already floats; a single value may be
        // converted.
        let h = if len == 1 && elem_ty == ty {
            let c = self.cast(Val::expr(ty, v), float_ty, span);
            let Some(h) = self.value(&c) else { return };
            h
        } else {
            v
        };
        let at = self.s.ir_ty(arr);
        let ft = self.s.ir_ty(types::FLOAT);
        let et = self.s.ir_ty(float_ty);
        let apty = self.ptr_type(at, ir::AddressSpace::Output);
        let fpty = self.ptr_type(ft, ir::AddressSpace::Output);
        let base = self.add(ir::Expression::GlobalVariable(g), apty);
        for j in 0..len {
            let element = if elem_ty == ty {
                h
            } else {
                self.add(ir::Expression::AccessIndex { base: h, index: j }, et)
            };
            for i in 0..count {
                let component = if count == 1 {
                    element
                } else {
                    self.add(
                        ir::Expression::AccessIndex {
                            base: element,
                            index: i,
                        },
                        ft,
                    )
                };
                let p = self.add(
                    ir::Expression::AccessIndex {
                        base,
                        index: offset + j * count + i,
                    },
                    fpty,
                );
                self.stmt(ir::Statement::Store {
                    pointer: p,
                    value: component,
                });
            }
        }
    }
}
