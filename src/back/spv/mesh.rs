//! Mesh and amplification shaders (SPIR-V.rst, "Mesh and Amplification
//! Shaders"): their execution models, `SetMeshOutputCounts` and
//! `DispatchMesh` as SPV_EXT_mesh_shader instructions, and what the
//! mesh built-ins need. Sema picks the extension (EXT, or NV when
//! `-fspv-extension=SPV_NV_mesh_shader` asks for it or the target is below
//! SPIR-V 1.4) and says so in the module's required capabilities.

use super::function::FunctionWriter;
use super::writer::Writer;
use super::{BackResult, internal};
use crate::ir::Stage;
use crate::ir::{Expression, Handle};
use rspirv::dr::Operand;
use spirv::{Capability, ExecutionModel, Op};

impl Writer<'_> {
    /// Whether the module uses SPV_NV_mesh_shader rather than the EXT one.
    fn nv_mesh(&self) -> bool {
        self.ir.vendor.mesh_nv
    }

    /// The execution model of a mesh (`MeshEXT`/`MeshNV`) or amplification
    /// (`TaskEXT`/`TaskNV`) entry point.
    pub(super) fn mesh_execution_model(&self, stage: Stage) -> ExecutionModel {
        match (stage, self.nv_mesh()) {
            (Stage::Mesh, false) => ExecutionModel::MeshEXT,
            (Stage::Mesh, true) => ExecutionModel::MeshNV,
            (_, false) => ExecutionModel::TaskEXT,
            (_, true) => ExecutionModel::TaskNV,
        }
    }

    /// The capability and extension of the mesh pipeline.
    pub(super) fn mesh_capabilities(&mut self) {
        if self.nv_mesh() {
            self.capability(Capability::MeshShadingNV);
        } else {
            self.capability(Capability::MeshShadingEXT);
        }
    }
}

impl FunctionWriter<'_, '_> {
    /// `SetMeshOutputCounts(v, p)` → `OpSetMeshOutputsEXT v p`.
    pub(super) fn write_set_mesh_outputs(
        &mut self,
        vertices: Handle<Expression>,
        primitives: Handle<Expression>,
    ) -> BackResult<()> {
        let v = self.value(vertices)?;
        let p = self.value(primitives)?;
        self.emit_void(
            Op::SetMeshOutputsEXT,
            [Operand::IdRef(v), Operand::IdRef(p)],
        )
    }

    /// `DispatchMesh(x, y, z, payload)` → `OpEmitMeshTasksEXT x y z
    /// payload`, which ends the invocation (a block terminator).
    pub(super) fn write_emit_mesh_tasks(
        &mut self,
        [x, y, z]: [Handle<Expression>; 3],
        payload: Option<Handle<Expression>>,
    ) -> BackResult<()> {
        let mut operands = Vec::new();
        for h in [x, y, z] {
            operands.push(Operand::IdRef(self.value(h)?));
        }
        if let Some(p) = payload {
            let pv = self.pointer(p)?;
            if pv.class != spirv::StorageClass::TaskPayloadWorkgroupEXT {
                return Err(internal(format!(
                    "the payload of DispatchMesh is in {:?}, not TaskPayloadWorkgroupEXT",
                    pv.class
                )));
            }
            let id = self.pointer_id(&pv)?;
            operands.push(Operand::IdRef(id));
        }
        self.terminate(Op::EmitMeshTasksEXT, operands)
    }
}
