//! Inline ray tracing (DXR 1.1): the methods of `RayQuery<FLAGS>` →
//! SPV_KHR_ray_query (SPIR-V.rst, "RayQuery Mapping to SPIR-V"). Any stage
//! may use them.
//!
//! The query lives in a function-local variable of OpTypeRayQueryKHR; a
//! method works on that variable (a query passed to a function is passed
//! by reference, as DXC's inlining makes it). The template's flags are
//! OR'ed into the flags `TraceRayInline` is given.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::ir::{self, RayOperation, RayQueryValue as V};
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::{self, Sc, TyId};
use crate::span::Span;

/// The result a getter gives.
#[derive(Clone, Copy)]
enum Out {
    Uint,
    Float,
    Bool,
    Float2,
    Float3,
    /// `float4x3` as the instruction gives it.
    Matrix4x3,
    /// `float3x4`: the 4x3 value transposed.
    Matrix3x4,
}

/// The getters: method name, what it reads, committed (else candidate),
/// result.
#[rustfmt::skip]
const GETTERS: &[(&str, V, bool, Out)] = &[
    ("CommittedStatus", V::IntersectionType, true, Out::Uint),
    ("CandidateType", V::IntersectionType, false, Out::Uint),
    ("RayFlags", V::RayFlags, false, Out::Uint),
    ("RayTMin", V::RayTMin, false, Out::Float),
    ("WorldRayOrigin", V::WorldRayOrigin, false, Out::Float3),
    ("WorldRayDirection", V::WorldRayDirection, false, Out::Float3),
    ("CommittedRayT", V::T, true, Out::Float),
    ("CandidateTriangleRayT", V::T, false, Out::Float),
    ("CommittedInstanceIndex", V::InstanceId, true, Out::Uint),
    ("CandidateInstanceIndex", V::InstanceId, false, Out::Uint),
    ("CommittedInstanceID", V::InstanceCustomIndex, true, Out::Uint),
    ("CandidateInstanceID", V::InstanceCustomIndex, false, Out::Uint),
    ("CommittedInstanceContributionToHitGroupIndex", V::InstanceSbtOffset, true, Out::Uint),
    ("CandidateInstanceContributionToHitGroupIndex", V::InstanceSbtOffset, false, Out::Uint),
    ("CommittedGeometryIndex", V::GeometryIndex, true, Out::Uint),
    ("CandidateGeometryIndex", V::GeometryIndex, false, Out::Uint),
    ("CommittedPrimitiveIndex", V::PrimitiveIndex, true, Out::Uint),
    ("CandidatePrimitiveIndex", V::PrimitiveIndex, false, Out::Uint),
    ("CommittedObjectRayOrigin", V::ObjectRayOrigin, true, Out::Float3),
    ("CandidateObjectRayOrigin", V::ObjectRayOrigin, false, Out::Float3),
    ("CommittedObjectRayDirection", V::ObjectRayDirection, true, Out::Float3),
    ("CandidateObjectRayDirection", V::ObjectRayDirection, false, Out::Float3),
    ("CommittedObjectToWorld3x4", V::ObjectToWorld, true, Out::Matrix3x4),
    ("CandidateObjectToWorld3x4", V::ObjectToWorld, false, Out::Matrix3x4),
    ("CommittedObjectToWorld4x3", V::ObjectToWorld, true, Out::Matrix4x3),
    ("CandidateObjectToWorld4x3", V::ObjectToWorld, false, Out::Matrix4x3),
    ("CommittedWorldToObject3x4", V::WorldToObject, true, Out::Matrix3x4),
    ("CandidateWorldToObject3x4", V::WorldToObject, false, Out::Matrix3x4),
    ("CommittedWorldToObject4x3", V::WorldToObject, true, Out::Matrix4x3),
    ("CandidateWorldToObject4x3", V::WorldToObject, false, Out::Matrix4x3),
    ("CommittedTriangleBarycentrics", V::Barycentrics, true, Out::Float2),
    ("CandidateTriangleBarycentrics", V::Barycentrics, false, Out::Float2),
    ("CommittedTriangleFrontFace", V::FrontFace, true, Out::Bool),
    ("CandidateTriangleFrontFace", V::FrontFace, false, Out::Bool),
];

/// The methods that are not getters, with their argument counts.
const ACTIONS: &[(&str, usize)] = &[
    ("TraceRayInline", 4),
    ("Proceed", 0),
    ("Abort", 0),
    ("CommitNonOpaqueTriangleHit", 0),
    ("CommitProceduralPrimitiveHit", 1),
    ("CandidateProceduralPrimitiveNonOpaque", 0),
];

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `q.method(args)` on a `RayQuery<flags>`.
    pub(in crate::sema) fn ray_query_method(
        &mut self,
        obj: Val,
        flags: u32,
        method: ast::Ident,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let m = method.name.as_str();
        let getter = GETTERS.iter().find(|g| g.0 == m);
        let count = match (getter, ACTIONS.iter().find(|a| a.0 == m)) {
            (Some(_), _) => 0,
            (None, Some(&(_, n))) => n,
            (None, None) => {
                let names = GETTERS
                    .iter()
                    .map(|g| g.0)
                    .chain(ACTIONS.iter().map(|a| a.0));
                let mut d = Diagnostic::error(
                    codes::NO_METHOD,
                    format!("`{}` has no method `{m}`", self.s.ty_name(obj.ty)),
                )
                .label(method.span, "unknown method");
                if let Some(c) = crate::diag::suggest::closest(m, names) {
                    d = d.note(format!("did you mean `{c}`?"));
                }
                self.s.push(d);
                return Val::error();
            }
        };
        if args.len() != count {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!(
                    "`{m}` takes {count} argument{}, {} given",
                    if count == 1 { "" } else { "s" },
                    args.len()
                ),
                span,
                "wrong number of arguments",
            );
        }
        let ValKind::Place(Place::Ptr { ptr: query, .. }) = obj.kind else {
            return self.error(
                codes::TYPE_MISMATCH,
                "a ray query's methods work on a `RayQuery` variable",
                span,
                "not a variable",
            );
        };
        if let Some(&(_, what, committed, out)) = getter {
            return self.ray_query_get(query, what, committed, out);
        }
        match m {
            "TraceRayInline" => self.trace_ray_inline(query, flags, &args),
            "Proceed" => {
                let bt = self.s.ir_ty(types::BOOL);
                let r = self.add(ir::Expression::RayResult, bt);
                self.ray_query_op(RayOperation::QueryProceed, vec![query], Some(r));
                Val::expr(types::BOOL, r)
            }
            "Abort" => {
                self.ray_query_op(RayOperation::QueryTerminate, vec![query], None);
                Val::void()
            }
            "CommitNonOpaqueTriangleHit" => {
                self.ray_query_op(RayOperation::QueryConfirmIntersection, vec![query], None);
                Val::void()
            }
            "CommitProceduralPrimitiveHit" => {
                let Some(t) = self.arg_as(&args[0], types::FLOAT) else {
                    return Val::error();
                };
                self.ray_query_op(
                    RayOperation::QueryGenerateIntersection,
                    vec![query, t],
                    None,
                );
                Val::void()
            }
            // SPIR-V asks the opposite question: whether the candidate
            // box is opaque.
            _ => {
                let opaque = self.ray_query_get(query, V::CandidateAabbOpaque, false, Out::Bool);
                let Some(h) = self.value(&opaque) else {
                    return Val::error();
                };
                let bt = self.s.ir_ty(types::BOOL);
                let not = self.add(
                    ir::Expression::Unary {
                        op: ir::UnaryOperator::LogicalNot,
                        expr: h,
                        precise: false,
                    },
                    bt,
                );
                Val::expr(types::BOOL, not)
            }
        }
    }

    fn ray_query_op(
        &mut self,
        op: RayOperation,
        args: Vec<ir::Handle<ir::Expression>>,
        result: Option<ir::Handle<ir::Expression>>,
    ) {
        self.stmt(ir::Statement::Ray { op, args, result });
    }

    fn ray_query_get(
        &mut self,
        query: ir::Handle<ir::Expression>,
        what: V,
        committed: bool,
        out: Out,
    ) -> Val {
        let ty: TyId = match out {
            Out::Uint => types::UINT,
            Out::Float => types::FLOAT,
            Out::Bool => types::BOOL,
            Out::Float2 => self.s.types.vector(Sc::F32, 2),
            Out::Float3 => self.s.types.vector(Sc::F32, 3),
            Out::Matrix4x3 | Out::Matrix3x4 => self.s.types.matrix(Sc::F32, 4, 3),
        };
        let it = self.s.ir_ty(ty);
        let r = self.add(ir::Expression::RayResult, it);
        self.ray_query_op(
            RayOperation::QueryGet { what, committed },
            vec![query],
            Some(r),
        );
        match out {
            Out::Matrix3x4 => self.transpose(r, ty),
            _ => Val::expr(ty, r),
        }
    }

    /// `q.TraceRayInline(accel, flags, mask, ray)` → OpRayQueryInitializeKHR
    /// with the template's flags OR'ed in.
    fn trace_ray_inline(
        &mut self,
        query: ir::Handle<ir::Expression>,
        template_flags: u32,
        args: &[Arg],
    ) -> Val {
        let Some(accel) = self.acceleration_structure_arg("TraceRayInline", &args[0]) else {
            return Val::error();
        };
        let (Some(flags), Some(mask)) = (
            self.arg_as(&args[1], types::UINT),
            self.arg_as(&args[2], types::UINT),
        ) else {
            return Val::error();
        };
        let Some(ray) = self.ray_desc_arg("TraceRayInline", &args[3]) else {
            return Val::error();
        };
        let flags = if template_flags == 0 {
            flags
        } else {
            let k = self.u32_lit(template_flags);
            let u = self.s.ir_ty(types::UINT);
            self.add(
                ir::Expression::Binary {
                    op: ir::BinaryOperator::InclusiveOr,
                    left: flags,
                    right: k,
                    precise: false,
                },
                u,
            )
        };
        let mut ops = vec![query, accel, flags, mask];
        ops.extend(ray);
        self.ray_query_op(RayOperation::QueryInitialize, ops, None);
        Val::void()
    }
}
