//! Ray tracing (SPV_KHR_ray_tracing, or SPV_NV_ray_tracing when
//! `-fspv-extension` asks for it) and ray queries (SPV_KHR_ray_query):
//! their storage classes, capabilities, execution models and instructions
//! (SPIR-V.rst, "Raytracing in Vulkan and SPIRV" and "RayQuery").

use super::function::FunctionWriter;
use super::writer::Writer;
use super::{BackResult, internal};
use crate::ir::Stage;
use crate::ir::{self, AddressSpace, Expression, Handle, RayOperation, RayQueryValue, RayStorage};
use rspirv::dr::Operand;
use spirv::{Capability, ExecutionModel, Op, StorageClass, Word};

/// The storage class of a ray tracing interface variable (the NV and KHR
/// extensions share the numbers).
pub(super) fn storage_class(r: RayStorage) -> StorageClass {
    match r {
        RayStorage::Payload => StorageClass::RayPayloadKHR,
        RayStorage::IncomingPayload => StorageClass::IncomingRayPayloadKHR,
        RayStorage::HitAttribute => StorageClass::HitAttributeKHR,
        RayStorage::CallableData => StorageClass::CallableDataKHR,
        RayStorage::IncomingCallableData => StorageClass::IncomingCallableDataKHR,
        RayStorage::ShaderRecord => StorageClass::ShaderRecordBufferKHR,
    }
}

/// The execution model of a ray tracing stage (shared by NV and KHR).
pub(super) fn execution_model(stage: Stage) -> Option<ExecutionModel> {
    Some(match stage {
        Stage::RayGeneration => ExecutionModel::RayGenerationKHR,
        Stage::Intersection => ExecutionModel::IntersectionKHR,
        Stage::AnyHit => ExecutionModel::AnyHitKHR,
        Stage::ClosestHit => ExecutionModel::ClosestHitKHR,
        Stage::Miss => ExecutionModel::MissKHR,
        Stage::Callable => ExecutionModel::CallableKHR,
        _ => return None,
    })
}

impl Writer<'_> {
    /// The ray tracing capability and extension: NV's when
    /// `-fspv-extension=SPV_NV_ray_tracing` asks for it, else KHR's.
    pub fn ray_tracing_capabilities(&mut self) {
        if self.ir.vendor.ray_tracing_nv {
            self.capability(Capability::RayTracingNV);
        } else {
            self.capability(Capability::RayTracingKHR);
        }
    }

    pub fn ray_query_capabilities(&mut self) {
        self.capability(Capability::RayQueryKHR);
    }

    /// `OpTypeAccelerationStructureKHR` needs ray tracing or ray queries:
    /// ray tracing in a module with ray tracing entry points, else ray
    /// queries (as DXC declares them).
    pub fn acceleration_structure_capabilities(&mut self) {
        if self
            .ir
            .entry_points
            .iter()
            .any(|ep| ep.stage.is_ray_tracing())
        {
            self.ray_tracing_capabilities();
        } else {
            self.ray_query_capabilities();
        }
    }

    /// Ray tracing shaders with SPV_KHR_ray_tracing need SPIR-V 1.4
    /// (the extension requires it); SPV_NV_ray_tracing works from 1.0.
    pub fn check_ray_tracing_target(&self) -> BackResult<()> {
        let rt = self
            .ir
            .entry_points
            .iter()
            .find(|ep| ep.stage.is_ray_tracing());
        let Some(ep) = rt else { return Ok(()) };
        if self.ir.vendor.ray_tracing_nv || self.version_at_least(1, 4) {
            return Ok(());
        }
        let env = self.options.target_env;
        let (major, minor) = env.spirv_version();
        // The wrapper carries the span of the entry function's name.
        let span = self
            .ir
            .functions
            .get(ep.function)
            .map(|f| f.span)
            .unwrap_or_default();
        let label = format!("{} shader", ep.stage.name());
        Err(crate::diag::Diagnostic::error(
            crate::diag::codes::TARGET_TOO_OLD,
            format!(
                "ray tracing shaders (SPV_KHR_ray_tracing) need SPIR-V 1.4, but the target is {} (SPIR-V {major}.{minor})",
                env.name()
            ),
        )
        .label(span, label)
        .note("choose -fspv-target-env=vulkan1.2 (or vulkan1.1spirv1.4), or -fspv-extension=SPV_NV_ray_tracing for NVIDIA's extension"))
    }

    /// The `Location` of an outgoing payload or callable-data variable
    /// under SPV_NV_ray_tracing, whose instructions name it by number: its
    /// place among the module's globals of its storage class.
    pub fn ray_location(&self, g: Handle<ir::GlobalVariable>) -> u32 {
        let space = self.ir.globals[g].space;
        self.ir
            .globals
            .iter()
            .take_while(|(h, _)| *h != g)
            .filter(|(_, x)| x.space == space)
            .count() as u32
    }

    /// Decorations of a ray tracing interface variable: under NV, outgoing
    /// payloads and callable data get their `Location`.
    pub fn decorate_ray_global(&mut self, id: Word, g: Handle<ir::GlobalVariable>) {
        let AddressSpace::Ray(r) = self.ir.globals[g].space else {
            return;
        };
        if self.ir.vendor.ray_tracing_nv
            && matches!(r, RayStorage::Payload | RayStorage::CallableData)
        {
            let loc = self.ray_location(g);
            self.decorate(id, spirv::Decoration::Location, &[loc]);
        }
    }
}

impl FunctionWriter<'_, '_> {
    fn ray_arg(
        &mut self,
        op: RayOperation,
        args: &[Handle<Expression>],
        i: usize,
    ) -> BackResult<Word> {
        match args.get(i) {
            Some(&a) => self.value(a),
            None => Err(internal(format!("{op:?} lacks operand {i}"))),
        }
    }

    /// The payload or callable data operand: the variable (KHR) or its
    /// location (NV).
    fn ray_data_operand(
        &mut self,
        op: RayOperation,
        h: Option<&Handle<Expression>>,
    ) -> BackResult<Word> {
        let Some(&h) = h else {
            return Err(internal(format!("{op:?} lacks its data operand")));
        };
        if !self.w.ir.vendor.ray_tracing_nv {
            return self.value(h);
        }
        match self.fun.expressions[h] {
            Expression::GlobalVariable(g) => {
                let loc = self.w.ray_location(g);
                Ok(self.w.const_u32(loc))
            }
            _ => Err(internal(format!("{op:?} data is not a global variable"))),
        }
    }

    /// A ray tracing or ray query operation.
    pub fn write_ray(
        &mut self,
        op: RayOperation,
        args: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
    ) -> BackResult<()> {
        let nv = self.w.ir.vendor.ray_tracing_nv;
        let result_type = match result {
            Some(r) => {
                let t = self.expr_type(r)?;
                Some(self.w.type_id(t)?)
            }
            None => None,
        };
        // A pass may drop a result nothing uses: the instructions with
        // effects still run (and give a bool); a getter is then not needed.
        let bool_type = self.w.bool_type();
        let needs_result =
            |t: Option<Word>| Ok::<Word, crate::diag::Diagnostic>(t.unwrap_or(bool_type));
        if result.is_none() && matches!(op, RayOperation::QueryGet { .. }) {
            return Ok(());
        }
        let id = match op {
            RayOperation::TraceRay => {
                self.w.ray_tracing_capabilities();
                self.primitive_culling(args.get(1));
                let (accel, _) = self.handle_value(args[0])?;
                let mut ops = vec![Operand::IdRef(accel)];
                for i in 1..10 {
                    ops.push(Operand::IdRef(self.ray_arg(op, args, i)?));
                }
                ops.push(Operand::IdRef(self.ray_data_operand(op, args.get(10))?));
                self.emit_void(if nv { Op::TraceNV } else { Op::TraceRayKHR }, ops)?;
                None
            }
            RayOperation::ReportHit => {
                self.w.ray_tracing_capabilities();
                let t = needs_result(result_type)?;
                let hit = self.ray_arg(op, args, 0)?;
                let kind = self.ray_arg(op, args, 1)?;
                Some(self.emit_value(
                    Op::ReportIntersectionKHR,
                    t,
                    [Operand::IdRef(hit), Operand::IdRef(kind)],
                )?)
            }
            RayOperation::ExecuteCallable => {
                self.w.ray_tracing_capabilities();
                let index = self.ray_arg(op, args, 0)?;
                let data = self.ray_data_operand(op, args.get(1))?;
                let code = if nv {
                    Op::ExecuteCallableNV
                } else {
                    Op::ExecuteCallableKHR
                };
                self.emit_void(code, [Operand::IdRef(index), Operand::IdRef(data)])?;
                None
            }
            RayOperation::QueryInitialize => {
                self.w.ray_query_capabilities();
                self.primitive_culling(args.get(2));
                let query = self.ray_arg(op, args, 0)?;
                let (accel, _) = self.handle_value(args[1])?;
                let mut ops = vec![Operand::IdRef(query), Operand::IdRef(accel)];
                for i in 2..8 {
                    ops.push(Operand::IdRef(self.ray_arg(op, args, i)?));
                }
                self.emit_void(Op::RayQueryInitializeKHR, ops)?;
                None
            }
            RayOperation::QueryProceed => {
                self.w.ray_query_capabilities();
                let t = needs_result(result_type)?;
                let query = self.ray_arg(op, args, 0)?;
                Some(self.emit_value(Op::RayQueryProceedKHR, t, [Operand::IdRef(query)])?)
            }
            RayOperation::QueryTerminate | RayOperation::QueryConfirmIntersection => {
                self.w.ray_query_capabilities();
                let query = self.ray_arg(op, args, 0)?;
                let code = if op == RayOperation::QueryTerminate {
                    Op::RayQueryTerminateKHR
                } else {
                    Op::RayQueryConfirmIntersectionKHR
                };
                self.emit_void(code, [Operand::IdRef(query)])?;
                None
            }
            RayOperation::QueryGenerateIntersection => {
                self.w.ray_query_capabilities();
                let query = self.ray_arg(op, args, 0)?;
                let t = self.ray_arg(op, args, 1)?;
                self.emit_void(
                    Op::RayQueryGenerateIntersectionKHR,
                    [Operand::IdRef(query), Operand::IdRef(t)],
                )?;
                None
            }
            RayOperation::QueryGet { what, committed } => {
                self.w.ray_query_capabilities();
                let t = needs_result(result_type)?;
                let query = self.ray_arg(op, args, 0)?;
                let (code, per_intersection) = query_get_op(what);
                let mut ops = vec![Operand::IdRef(query)];
                if per_intersection {
                    ops.push(Operand::IdRef(self.w.const_u32(u32::from(committed))));
                }
                Some(self.emit_value(code, t, ops)?)
            }
        };
        match (result, id) {
            (Some(r), Some(id)) => self.set_result(r, id),
            (None, _) => Ok(()),
            (Some(_), None) => Err(internal(format!("{op:?} gives no value"))),
        }
    }

    /// Constant ray flags that skip triangles or procedural primitives
    /// need RayTraversalPrimitiveCullingKHR (SPV_KHR_ray_tracing,
    /// "RayFlags").
    fn primitive_culling(&mut self, flags: Option<&Handle<Expression>>) {
        const SKIP_TRIANGLES_OR_AABBS: u32 = 0x100 | 0x200;
        if let Some(&h) = flags
            && let Expression::Literal(ir::Literal::U32(v)) = self.fun.expressions[h]
            && v & SKIP_TRIANGLES_OR_AABBS != 0
        {
            self.w
                .capability(Capability::RayTraversalPrimitiveCullingKHR);
        }
    }

    /// `IgnoreHit`/`AcceptHitAndEndSearch`: the KHR terminators; under NV
    /// plain instructions, followed by `OpUnreachable` (the invocation
    /// does not come back).
    pub fn write_end_hit(&mut self, accept: bool) -> BackResult<()> {
        self.w.ray_tracing_capabilities();
        if self.w.ir.vendor.ray_tracing_nv {
            let op = if accept {
                Op::TerminateRayNV
            } else {
                Op::IgnoreIntersectionNV
            };
            self.emit_void(op, [])?;
            return self.terminate(Op::Unreachable, []);
        }
        let op = if accept {
            Op::TerminateRayKHR
        } else {
            Op::IgnoreIntersectionKHR
        };
        self.terminate(op, [])
    }
}

/// The instruction of a ray query getter, and whether it takes the
/// intersection operand (candidate 0, committed 1).
fn query_get_op(what: RayQueryValue) -> (Op, bool) {
    use RayQueryValue as V;
    match what {
        V::IntersectionType => (Op::RayQueryGetIntersectionTypeKHR, true),
        V::RayTMin => (Op::RayQueryGetRayTMinKHR, false),
        V::RayFlags => (Op::RayQueryGetRayFlagsKHR, false),
        V::WorldRayOrigin => (Op::RayQueryGetWorldRayOriginKHR, false),
        V::WorldRayDirection => (Op::RayQueryGetWorldRayDirectionKHR, false),
        V::T => (Op::RayQueryGetIntersectionTKHR, true),
        V::InstanceCustomIndex => (Op::RayQueryGetIntersectionInstanceCustomIndexKHR, true),
        V::InstanceId => (Op::RayQueryGetIntersectionInstanceIdKHR, true),
        V::InstanceSbtOffset => (
            Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
            true,
        ),
        V::GeometryIndex => (Op::RayQueryGetIntersectionGeometryIndexKHR, true),
        V::PrimitiveIndex => (Op::RayQueryGetIntersectionPrimitiveIndexKHR, true),
        V::Barycentrics => (Op::RayQueryGetIntersectionBarycentricsKHR, true),
        V::FrontFace => (Op::RayQueryGetIntersectionFrontFaceKHR, true),
        V::CandidateAabbOpaque => (Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR, false),
        V::ObjectRayDirection => (Op::RayQueryGetIntersectionObjectRayDirectionKHR, true),
        V::ObjectRayOrigin => (Op::RayQueryGetIntersectionObjectRayOriginKHR, true),
        V::ObjectToWorld => (Op::RayQueryGetIntersectionObjectToWorldKHR, true),
        V::WorldToObject => (Op::RayQueryGetIntersectionWorldToObjectKHR, true),
    }
}
