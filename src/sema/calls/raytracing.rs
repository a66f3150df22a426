//! The DXR intrinsics of ray tracing shaders (SPIR-V.rst, "Raytracing
//! Mapping to SPIR-V"): the system values, which are loads of
//! SPV_KHR_ray_tracing built-ins, and `TraceRay`, `ReportHit`,
//! `CallShader`, `IgnoreHit` and `AcceptHitAndEndSearch`.
//!
//! `TraceRay` and `CallShader` copy their `inout` argument into a global of
//! RayPayloadKHR (CallableDataKHR) storage made for that call (as DXC
//! does), run the instruction on it, and copy it back; `ReportHit` stores
//! its attributes to the HitAttributeKHR global of their type.

use crate::diag::{Diagnostic, codes};
use crate::intern::Symbol;
use crate::ir::Stage;
use crate::ir::{self, RayOperation, RayStorage};
use crate::sema::Sema;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::context::StageUse;
use crate::sema::types::{self, Sc, TyId};
use crate::span::Span;
use spirv::BuiltIn;

use Stage::{AnyHit, Callable, ClosestHit, Intersection, Miss, RayGeneration};

const ALL: &[Stage] = &[
    RayGeneration,
    Intersection,
    AnyHit,
    ClosestHit,
    Miss,
    Callable,
];
const RAY: &[Stage] = &[Intersection, AnyHit, ClosestHit, Miss];
const HIT: &[Stage] = &[Intersection, AnyHit, ClosestHit];

/// What a system value intrinsic reads.
#[derive(Clone, Copy)]
enum Shape {
    Uint,
    Uint3,
    Float,
    Float3,
    /// `float4x3`, read as it is.
    Matrix4x3,
    /// `float3x4`: the 4x3 built-in, transposed (SPIR-V has one matrix
    /// built-in per transform).
    Matrix3x4,
}

/// The system value intrinsics: name, built-in, shape, stages (Vulkan's
/// rules for each built-in).
#[rustfmt::skip]
const SYSTEM_VALUES: &[(&str, BuiltIn, Shape, &[Stage])] = &[
    ("DispatchRaysIndex", BuiltIn::LaunchIdKHR, Shape::Uint3, ALL),
    ("DispatchRaysDimensions", BuiltIn::LaunchSizeKHR, Shape::Uint3, ALL),
    ("WorldRayOrigin", BuiltIn::WorldRayOriginKHR, Shape::Float3, RAY),
    ("WorldRayDirection", BuiltIn::WorldRayDirectionKHR, Shape::Float3, RAY),
    ("RayTMin", BuiltIn::RayTminKHR, Shape::Float, RAY),
    ("RayTCurrent", BuiltIn::RayTmaxKHR, Shape::Float, RAY),
    ("RayFlags", BuiltIn::IncomingRayFlagsKHR, Shape::Uint, RAY),
    ("InstanceIndex", BuiltIn::InstanceId, Shape::Uint, HIT),
    ("InstanceID", BuiltIn::InstanceCustomIndexKHR, Shape::Uint, HIT),
    ("GeometryIndex", BuiltIn::RayGeometryIndexKHR, Shape::Uint, HIT),
    ("PrimitiveIndex", BuiltIn::PrimitiveId, Shape::Uint, HIT),
    ("HitKind", BuiltIn::HitKindKHR, Shape::Uint, &[AnyHit, ClosestHit]),
    ("ObjectRayOrigin", BuiltIn::ObjectRayOriginKHR, Shape::Float3, HIT),
    ("ObjectRayDirection", BuiltIn::ObjectRayDirectionKHR, Shape::Float3, HIT),
    ("ObjectToWorld3x4", BuiltIn::ObjectToWorldKHR, Shape::Matrix3x4, HIT),
    ("ObjectToWorld4x3", BuiltIn::ObjectToWorldKHR, Shape::Matrix4x3, HIT),
    ("ObjectToWorld", BuiltIn::ObjectToWorldKHR, Shape::Matrix3x4, HIT),
    ("WorldToObject3x4", BuiltIn::WorldToObjectKHR, Shape::Matrix3x4, HIT),
    ("WorldToObject4x3", BuiltIn::WorldToObjectKHR, Shape::Matrix4x3, HIT),
    ("WorldToObject", BuiltIn::WorldToObjectKHR, Shape::Matrix3x4, HIT),
];

/// The stages `TraceRay` may be called in.
const TRACE_STAGES: &[Stage] = &[RayGeneration, ClosestHit, Miss];
/// The stages `CallShader` may be called in.
const CALL_STAGES: &[Stage] = &[RayGeneration, ClosestHit, Miss, Callable];

/// The names of the ray tracing intrinsics, for "did you mean".
pub fn intrinsic_names() -> impl Iterator<Item = &'static str> {
    SYSTEM_VALUES.iter().map(|s| s.0).chain([
        "TraceRay",
        "ReportHit",
        "CallShader",
        "IgnoreHit",
        "AcceptHitAndEndSearch",
    ])
}

/// "ray generation, closest-hit and miss shaders".
fn stage_list(stages: &[Stage]) -> String {
    let names: Vec<&str> = stages.iter().map(|s| s.name()).collect();
    match names.split_last() {
        Some((last, [])) => format!("{last} shaders"),
        Some((last, rest)) => format!("{} and {last} shaders", rest.join(", ")),
        None => String::new(),
    }
}

/// `name` is not available in `stage`.
fn stage_use_error(u: StageUse, stage: Stage) -> Diagnostic {
    Diagnostic::error(
        codes::STAGE_STATEMENT,
        format!("`{}` is not available in {} shaders", u.name, stage.name()),
    )
    .label(u.span, "not available in this stage")
    .note(format!(
        "`{}` is available in {}",
        u.name,
        stage_list(u.stages)
    ))
}

impl Sema<'_> {
    /// After a library entry of stage `stage` is lowered: the functions it
    /// reaches that an earlier entry of another stage had lowered (their
    /// uses were checked against that stage only), checked against this
    /// one. The error points at the use and names the entry.
    pub(in crate::sema) fn check_stage_uses(
        &mut self,
        entry: ir::Handle<ir::Function>,
        stage: Stage,
        entry_span: Span,
    ) {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![entry];
        let mut errors = Vec::new();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            let Some(fun) = self.module.functions.get(f) else {
                continue;
            };
            ir::visit::walk_statements(&fun.body, |st| {
                if let ir::Statement::Call { function, .. } = st {
                    stack.push(*function);
                }
            });
            let Some((lowered_for, uses)) = self.entry.stage_uses.get(&f) else {
                continue;
            };
            if *lowered_for == stage {
                continue;
            }
            for u in uses.iter().filter(|u| !u.stages.contains(&stage)) {
                errors.push(*u);
            }
        }
        for u in errors {
            let d = stage_use_error(u, stage).label(
                entry_span,
                format!("reached from this {} shader", stage.name()),
            );
            self.push(d);
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// A call of a ray tracing intrinsic named `name`; `None` when `name`
    /// is not one.
    pub(in crate::sema) fn ray_tracing_intrinsic(
        &mut self,
        name: Symbol,
        args: &[Arg],
        span: Span,
    ) -> Option<Val> {
        let n = name.as_str();
        if let Some(&(sv, b, shape, stages)) = SYSTEM_VALUES.iter().find(|s| s.0 == n) {
            if !self.arg_count(n, args, 0, span) || !self.stage_ok(sv, stages, span) {
                return Some(Val::error());
            }
            return Some(self.ray_system_value(n, b, shape));
        }
        let v = match n {
            "TraceRay" => self.trace_ray(args, span),
            "ReportHit" => self.report_hit(args, span),
            "CallShader" => self.call_shader(args, span),
            "IgnoreHit" | "AcceptHitAndEndSearch" => {
                let accept = n == "AcceptHitAndEndSearch";
                let name = if accept {
                    "AcceptHitAndEndSearch"
                } else {
                    "IgnoreHit"
                };
                if self.arg_count(n, args, 0, span) && self.stage_ok(name, &[AnyHit], span) {
                    self.ray_payload_before_end_hit();
                    self.stmt(ir::Statement::EndHit { accept });
                }
                Val::void()
            }
            _ => return None,
        };
        Some(v)
    }

    /// Checks the number of arguments of an intrinsic.
    fn arg_count(&mut self, name: &str, args: &[Arg], n: usize, span: Span) -> bool {
        if args.iter().any(|a| a.val.is_error()) {
            return false;
        }
        if args.len() == n {
            return true;
        }
        self.s.error(
            codes::WRONG_ARG_COUNT,
            format!(
                "`{name}` takes {n} argument{}, {} given",
                if n == 1 { "" } else { "s" },
                args.len()
            ),
            span,
            "wrong number of arguments",
        );
        false
    }

    /// Whether the current stage may call `name`; an error if not. A
    /// library being checked as a whole leaves that to its entries. The
    /// use is recorded for the other entries that reach this function
    /// ([`Sema::check_stage_uses`]).
    /// Whether a `*WithGroupSync` barrier may be used here. Waiting for
    /// the thread group needs one: Vulkan allows a workgroup
    /// `OpControlBarrier` in compute, mesh and task shaders only (a hull
    /// shader's is hlslc's own).
    pub(in crate::sema) fn group_sync_ok(&mut self, name: &str, span: Span) -> bool {
        let name = match name {
            "AllMemoryBarrierWithGroupSync" => "AllMemoryBarrierWithGroupSync",
            "DeviceMemoryBarrierWithGroupSync" => "DeviceMemoryBarrierWithGroupSync",
            _ => "GroupMemoryBarrierWithGroupSync",
        };
        const GROUPS: &[Stage] = &[Stage::Compute, Stage::Mesh, Stage::Amplification, Stage::Node];
        self.stage_ok(name, GROUPS, span)
    }

    /// Whether `name` may be used in the stage being lowered (an error if
    /// not); in a library, recorded for [`Sema::check_stage_uses`] to check
    /// against every entry that reaches it.
    pub(in crate::sema) fn stage_ok(
        &mut self,
        name: &'static str,
        stages: &'static [Stage],
        span: Span,
    ) -> bool {
        let stage = self.s.stage;
        let uses = self.s.entry.stage_uses.entry(self.fb.handle);
        let uses = &mut uses.or_insert_with(|| (stage, Vec::new())).1;
        uses.push(StageUse { name, stages, span });
        if stage == Stage::Library || stages.contains(&stage) {
            return true;
        }
        self.s
            .push(stage_use_error(StageUse { name, stages, span }, stage));
        false
    }

    /// The `Input` global of a built-in, made on first use and shared by
    /// every entry point of the module.
    fn ray_builtin(&mut self, b: BuiltIn, name: &str, ty: TyId) -> ir::Handle<ir::GlobalVariable> {
        let it = self.s.ir_ty(ty);
        let found = self.s.module.globals.iter().find(|(_, g)| {
            g.space == ir::AddressSpace::Input
                && g.io == Some(ir::Binding::BuiltIn(b))
                && g.ty == it
        });
        if let Some((h, _)) = found {
            return h;
        }
        let g = ir::build::add_global(&mut self.s.module, name, ir::AddressSpace::Input, it);
        self.s.module.globals[g].io = Some(ir::Binding::BuiltIn(b));
        g
    }

    fn ray_system_value(&mut self, name: &str, b: BuiltIn, shape: Shape) -> Val {
        let ty = match shape {
            Shape::Uint => types::UINT,
            Shape::Uint3 => self.s.types.vector(Sc::U32, 3),
            Shape::Float => types::FLOAT,
            Shape::Float3 => self.s.types.vector(Sc::F32, 3),
            Shape::Matrix4x3 | Shape::Matrix3x4 => self.s.types.matrix(Sc::F32, 4, 3),
        };
        let var_name = name.trim_end_matches("3x4").trim_end_matches("4x3");
        let g = self.ray_builtin(b, var_name, ty);
        let it = self.s.ir_ty(ty);
        let pty = self.ptr_type(it, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let v = self.add(ir::Expression::Load { pointer: p }, it);
        match shape {
            Shape::Matrix3x4 => self.transpose(v, ty),
            _ => Val::expr(ty, v),
        }
    }

    /// The acceleration structure argument, loaded.
    pub(in crate::sema) fn acceleration_structure_arg(
        &mut self,
        name: &str,
        a: &Arg,
    ) -> Option<ir::Handle<ir::Expression>> {
        let is_accel = matches!(
            self.s.types.get(a.val.ty),
            types::Ty::Resource(types::ResKind::RaytracingAccelerationStructure, _)
        );
        if !is_accel {
            self.s.error(
                codes::TYPE_MISMATCH,
                format!(
                    "`{name}` traces a `RaytracingAccelerationStructure`, not `{}`",
                    self.s.ty_name(a.val.ty)
                ),
                a.span,
                "not an acceleration structure",
            );
            return None;
        }
        self.value(&a.val)
    }

    /// The four fields of a `RayDesc` argument: origin, tmin, direction,
    /// tmax.
    pub(in crate::sema) fn ray_desc_arg(
        &mut self,
        name: &str,
        a: &Arg,
    ) -> Option<[ir::Handle<ir::Expression>; 4]> {
        let desc = self.s.builtin_struct("RayDesc").unwrap_or(types::ERROR);
        if a.val.ty != desc {
            self.s.error(
                codes::TYPE_MISMATCH,
                format!(
                    "`{name}` takes the ray as a `RayDesc`, not `{}`",
                    self.s.ty_name(a.val.ty)
                ),
                a.span,
                "expected `RayDesc`",
            );
            return None;
        }
        let v = self.value(&a.val)?;
        let f3 = self.s.types.vector(Sc::F32, 3);
        let f3 = self.s.ir_ty(f3);
        let f = self.s.ir_ty(types::FLOAT);
        let field = |cx: &mut Self, index: u32, t| {
            cx.add(ir::Expression::AccessIndex { base: v, index }, t)
        };
        Some([
            field(self, 0, f3),
            field(self, 1, f),
            field(self, 2, f3),
            field(self, 3, f),
        ])
    }

    /// The `inout` struct argument of `TraceRay` or `CallShader`: copied to
    /// a new global of `storage` before the call, back after it
    /// (`then` runs in between, given the global's pointer).
    fn through_ray_global(
        &mut self,
        name: &str,
        what: &str,
        a: &Arg,
        storage: RayStorage,
        then: &mut dyn FnMut(&mut Self, ir::Handle<ir::Expression>),
    ) {
        if !self.s.is_user_struct(a.val.ty) {
            self.s.push(
                Diagnostic::error(
                    codes::RAY_TRACING_TYPE,
                    format!(
                        "the {what} of `{name}` must be a struct, not `{}`",
                        self.s.ty_name(a.val.ty)
                    ),
                )
                .label(a.span, "not a struct")
                .note(format!(
                    "declare a struct for the {what} and pass a variable of it"
                )),
            );
            return;
        }
        let Some(place) = a
            .val
            .as_place()
            .cloned()
            .filter(|_| a.val.read_only.is_none())
        else {
            self.s.push(
                Diagnostic::error(
                    codes::OUT_ARG_NOT_LVALUE,
                    format!("the {what} of `{name}` is `inout`: it must be a variable"),
                )
                .label(a.span, "not a writable variable"),
            );
            return;
        };
        let ty = a.val.ty;
        let kind = match storage {
            RayStorage::Payload => "payload",
            _ => "callableData",
        };
        let g = self.s.ray_global(kind.to_string(), storage, ty);
        let it = self.s.ir_ty(ty);
        let pty = self.ptr_type(it, ir::AddressSpace::Ray(storage));
        let gp = self.add(ir::Expression::GlobalVariable(g), pty);
        if let Some(v) = self.read_place(&place, ty) {
            self.stmt(ir::Statement::Store {
                pointer: gp,
                value: v,
            });
        }
        then(self, gp);
        let back = self.add(ir::Expression::Load { pointer: gp }, it);
        self.write_place(&place, ty, back);
    }

    /// `TraceRay(accel, flags, mask, sbtOffset, sbtStride, missIndex, ray,
    /// payload)` → OpTraceRayKHR.
    fn trace_ray(&mut self, args: &[Arg], span: Span) -> Val {
        if !self.arg_count("TraceRay", args, 8, span)
            || !self.stage_ok("TraceRay", TRACE_STAGES, span)
        {
            return Val::error();
        }
        let Some(accel) = self.acceleration_structure_arg("TraceRay", &args[0]) else {
            return Val::error();
        };
        let mut ops = vec![accel];
        for a in &args[1..6] {
            match self.arg_as(a, types::UINT) {
                Some(h) => ops.push(h),
                None => return Val::error(),
            }
        }
        let Some(ray) = self.ray_desc_arg("TraceRay", &args[6]) else {
            return Val::error();
        };
        ops.extend(ray);
        self.through_ray_global(
            "TraceRay",
            "payload",
            &args[7],
            RayStorage::Payload,
            &mut |cx, gp| {
                let mut args = ops.clone();
                args.push(gp);
                cx.stmt(ir::Statement::Ray {
                    op: RayOperation::TraceRay,
                    args,
                    result: None,
                });
            },
        );
        Val::void()
    }

    /// `CallShader(index, data)` → OpExecuteCallableKHR.
    fn call_shader(&mut self, args: &[Arg], span: Span) -> Val {
        if !self.arg_count("CallShader", args, 2, span)
            || !self.stage_ok("CallShader", CALL_STAGES, span)
        {
            return Val::error();
        }
        let Some(index) = self.arg_as(&args[0], types::UINT) else {
            return Val::error();
        };
        self.through_ray_global(
            "CallShader",
            "callable data",
            &args[1],
            RayStorage::CallableData,
            &mut |cx, gp| {
                cx.stmt(ir::Statement::Ray {
                    op: RayOperation::ExecuteCallable,
                    args: vec![index, gp],
                    result: None,
                });
            },
        );
        Val::void()
    }

    /// `ReportHit(t, kind, attributes)` → the attributes stored to the
    /// HitAttributeKHR global of their type, then OpReportIntersectionKHR.
    fn report_hit(&mut self, args: &[Arg], span: Span) -> Val {
        if !self.arg_count("ReportHit", args, 3, span)
            || !self.stage_ok("ReportHit", &[Intersection], span)
        {
            return Val::error();
        }
        let (Some(t), Some(kind)) = (
            self.arg_as(&args[0], types::FLOAT),
            self.arg_as(&args[1], types::UINT),
        ) else {
            return Val::error();
        };
        let a = &args[2];
        if !self.s.is_user_struct(a.val.ty) {
            self.s.push(
                Diagnostic::error(
                    codes::RAY_TRACING_TYPE,
                    format!("the hit attributes of `ReportHit` must be a struct, not `{}`", self.s.ty_name(a.val.ty)),
                )
                .label(a.span, "not a struct")
                .note("declare a struct for the attributes, or use `BuiltInTriangleIntersectionAttributes`"),
            );
            return Val::error();
        }
        let Some(v) = self.value(&a.val) else {
            return Val::error();
        };
        let it = self.s.ir_ty(a.val.ty);
        let space = ir::AddressSpace::Ray(RayStorage::HitAttribute);
        let existing = self
            .s
            .module
            .globals
            .iter()
            .find(|(_, g)| g.space == space && g.ty == it)
            .map(|(h, _)| h);
        let g = match existing {
            Some(g) => g,
            None => self.s.ray_global(
                "hitAttributes".to_string(),
                RayStorage::HitAttribute,
                a.val.ty,
            ),
        };
        let pty = self.ptr_type(it, space);
        let gp = self.add(ir::Expression::GlobalVariable(g), pty);
        self.stmt(ir::Statement::Store {
            pointer: gp,
            value: v,
        });
        let bt = self.s.ir_ty(types::BOOL);
        let r = self.add(ir::Expression::RayResult, bt);
        self.stmt(ir::Statement::Ray {
            op: RayOperation::ReportHit,
            args: vec![t, kind],
            result: Some(r),
        });
        Val::expr(types::BOOL, r)
    }
}

/// The constants the DXR headers predefine (`RAY_FLAG_*`, `HIT_KIND_*`,
/// the ray query statuses), all `uint`; a declaration of the same name
/// hides them.
pub fn dxr_constant(name: &str) -> Option<u32> {
    Some(match name {
        "RAY_FLAG_NONE" => 0,
        "RAY_FLAG_FORCE_OPAQUE" => 0x1,
        "RAY_FLAG_FORCE_NON_OPAQUE" => 0x2,
        "RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH" => 0x4,
        "RAY_FLAG_SKIP_CLOSEST_HIT_SHADER" => 0x8,
        "RAY_FLAG_CULL_BACK_FACING_TRIANGLES" => 0x10,
        "RAY_FLAG_CULL_FRONT_FACING_TRIANGLES" => 0x20,
        "RAY_FLAG_CULL_OPAQUE" => 0x40,
        "RAY_FLAG_CULL_NON_OPAQUE" => 0x80,
        "RAY_FLAG_SKIP_TRIANGLES" => 0x100,
        "RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES" => 0x200,
        "RAY_FLAG_FORCE_OMM_2_STATE" => 0x400,
        "HIT_KIND_TRIANGLE_FRONT_FACE" => 0xFE,
        "HIT_KIND_TRIANGLE_BACK_FACE" => 0xFF,
        "COMMITTED_NOTHING" => 0,
        "COMMITTED_TRIANGLE_HIT" => 1,
        "COMMITTED_PROCEDURAL_PRIMITIVE_HIT" => 2,
        "CANDIDATE_NON_OPAQUE_TRIANGLE" => 0,
        "CANDIDATE_PROCEDURAL_PRIMITIVE" => 1,
        "RAYQUERY_FLAG_NONE" => 0,
        "RAYQUERY_FLAG_ALLOW_OPACITY_MICROMAPS" => 0x1,
        // SM 6.8 `Barrier` flags (the work graph headers define them too).
        "UAV_MEMORY" => 0x1,
        "GROUP_SHARED_MEMORY" => 0x2,
        "NODE_INPUT_MEMORY" => 0x4,
        "NODE_OUTPUT_MEMORY" => 0x8,
        "ALL_MEMORY" => 0xF,
        "GROUP_SYNC" => 0x1,
        "GROUP_SCOPE" => 0x2,
        "DEVICE_SCOPE" => 0x4,
        _ => return None,
    })
}
