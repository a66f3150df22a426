//! Globals and entry points: storage classes, block decorations, bindings,
//! stage inputs and outputs (built-ins, locations, interpolation), the
//! entry-point interface lists, execution modes, and the capabilities and
//! extensions that built-ins and execution modes need.

use super::types::storage_class;
use super::writer::Writer;
use super::{BackResult, internal};
use crate::back::spv::inst;
use crate::ir::Stage;
use crate::ir::{self, AddressSpace, Handle, ScalarKind, TypeInner};
use rspirv::dr::{Instruction, Operand};
use spirv::{
    BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, Op, StorageClass, Word,
};

impl Writer<'_> {
    /// Checks the entry points against the options before anything is
    /// written.
    pub fn check_entry_points(&self) -> BackResult<()> {
        for ep in &self.ir.entry_points {
            execution_model(ep)?;
        }
        self.check_ray_tracing_target()?;
        if self.options.entry_point_name.is_some() && self.ir.entry_points.len() != 1 {
            return Err(crate::diag::Diagnostic::error(
                crate::diag::codes::BAD_OPTION,
                format!(
                    "-fspv-entrypoint-name needs exactly one entry point, but the module has {}",
                    self.ir.entry_points.len()
                ),
            ));
        }
        Ok(())
    }

    /// Declares one IR global: its `OpVariable`, initialiser, and
    /// decorations. Returns the variable's id.
    pub fn write_global(
        &mut self,
        handle: Handle<ir::GlobalVariable>,
        g: &ir::GlobalVariable,
    ) -> BackResult<Word> {
        let class = storage_class(g.space, self.version);
        let ty = self.type_id(g.ty)?;
        match g.space {
            AddressSpace::Function => {
                return Err(internal(format!(
                    "global {handle:?} is in the Function address space"
                )));
            }
            AddressSpace::Uniform
            | AddressSpace::PushConstant
            | AddressSpace::Storage { .. }
            | AddressSpace::Ray(ir::RayStorage::ShaderRecord) => {
                self.decorate_block(g)?;
            }
            _ => {}
        }
        self.memory_interface_capabilities(g.ty, g.space)?;
        if let AddressSpace::Raw(class) = g.space {
            self.storage_class_capability(class);
        }
        let init = match (g.space, g.init) {
            (AddressSpace::Private, Some(c)) => Some(self.const_expression(c)?),
            // HLSL `static` globals without an initialiser are zero
            // (HLSL-SEMANTICS.md, "Storage classes").
            // Device pointers have no null constant: those start undefined.
            (AddressSpace::Private, None) if self.contains_device_pointer(g.ty)? => None,
            (AddressSpace::Private, None) => Some(self.const_null(ty)),
            (AddressSpace::Output, Some(c)) => Some(self.const_expression(c)?),
            (_, None) => None,
            (space, Some(_)) => {
                return Err(internal(format!(
                    "global {handle:?} in {space:?} has an initialiser"
                )));
            }
        };
        let pointer = self.pointer_type(ty, class);
        let id = self.id();
        let mut operands = vec![Operand::StorageClass(class)];
        if let Some(init) = init {
            operands.push(Operand::IdRef(init));
        }
        self.globals
            .push(inst(Op::Variable, Some(pointer), Some(id), operands));
        if let Some(name) = &g.name {
            self.name(id, name);
        }
        if matches!(g.space, AddressSpace::Private | AddressSpace::Workgroup) {
            self.decorate_pointer_variable(id, g.ty, false)?;
        }
        if let Some(b) = g.binding {
            if let Some(i) = b.input_attachment {
                self.decorate(id, Decoration::InputAttachmentIndex, &[i]);
            }
            self.decorate(id, Decoration::DescriptorSet, &[b.set]);
            self.decorate(id, Decoration::Binding, &[b.binding]);
        }
        match g.io {
            Some(ir::Binding::BuiltIn(b)) => {
                self.decorate_builtin(id, b);
                // The tessellation levels are per-patch variables (as DXC
                // and glslang declare them).
                if matches!(b, BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner) {
                    self.decorate(id, Decoration::Patch, &[]);
                }
            }
            Some(ir::Binding::Location {
                location,
                index,
                interpolation,
                sampling,
                patch,
            }) => {
                self.decorate(id, Decoration::Location, &[location]);
                if let Some(index) = index {
                    self.decorate(id, Decoration::Index, &[index]);
                }
                match interpolation {
                    Some(ir::Interpolation::Flat) => self.decorate(id, Decoration::Flat, &[]),
                    Some(ir::Interpolation::NoPerspective) => {
                        self.decorate(id, Decoration::NoPerspective, &[])
                    }
                    Some(ir::Interpolation::Perspective) | None => {}
                }
                match sampling {
                    Some(ir::Sampling::Centroid) => self.decorate(id, Decoration::Centroid, &[]),
                    Some(ir::Sampling::Sample) => {
                        self.decorate(id, Decoration::Sample, &[]);
                        self.capability(Capability::SampleRateShading);
                    }
                    None => {}
                }
                if patch {
                    self.decorate(id, Decoration::Patch, &[]);
                }
            }
            Some(ir::Binding::PerTask { offset }) => {
                self.decorate(id, Decoration::PerTaskNV, &[]);
                self.decorate(id, Decoration::Offset, &[offset]);
            }
            None => {}
        }
        if g.invariant {
            self.decorate(id, Decoration::Invariant, &[]);
        }
        self.decorate_ray_global(id, handle);
        for &(_, d) in self.ir.io_decorations.iter().filter(|(h, _)| *h == handle) {
            self.decorate(id, d, &[]);
            match d {
                Decoration::Sample => self.capability(Capability::SampleRateShading),
                Decoration::PerVertexKHR => {
                    self.capability(Capability::FragmentBarycentricKHR);
                }
                _ => {}
            }
        }
        if self.options.spv_reflect {
            self.decorate_for_reflection(id, g);
        }
        Ok(id)
    }

    /// `-fspv-reflect` (SPIR-V.rst, "Reflection"): a stage variable's HLSL
    /// semantic (`HlslSemanticGOOGLE`, SPV_GOOGLE_hlsl_functionality1) and a
    /// resource's HLSL type (`UserTypeGOOGLE`, SPV_GOOGLE_user_type). The
    /// counter-buffer links come once every global has its id
    /// ([`Self::decorate_counter_buffers`]).
    fn decorate_for_reflection(&mut self, id: Word, g: &ir::GlobalVariable) {
        if g.io.is_some()
            && let Some(semantic) = &g.semantic
        {
            self.decorate_string(id, Decoration::UserSemantic, semantic);
        }
        if let Some(user_type) = &g.user_type {
            self.decorate_string(id, Decoration::UserTypeGOOGLE, user_type);
            self.extension("SPV_GOOGLE_user_type");
        }
    }

    /// `OpDecorateString`, spelt `OpDecorateStringGOOGLE` before SPIR-V 1.4:
    /// SPV_GOOGLE_hlsl_functionality1 allows it (and `OpDecorateId`) from
    /// SPIR-V 1.0 on, and DXC declares the extension at every version.
    fn decorate_string(&mut self, target: Word, decoration: Decoration, value: &str) {
        self.extensions
            .insert("SPV_GOOGLE_hlsl_functionality1".to_string());
        self.annotations.push(inst(
            Op::DecorateString,
            None,
            None,
            vec![
                Operand::IdRef(target),
                Operand::Decoration(decoration),
                Operand::LiteralString(value.to_string()),
            ],
        ));
    }

    /// `-fspv-reflect`: `OpDecorateId BUFFER HlslCounterBufferGOOGLE
    /// COUNTER` for each RW/Append/Consume structured buffer with a counter
    /// (SPIR-V.rst, "Counter buffers for RW/Append/Consume
    /// StructuredBuffer").
    pub fn decorate_counter_buffers(&mut self) {
        if !self.options.spv_reflect {
            return;
        }
        for (handle, g) in self.ir.globals.iter() {
            // A counter the entry points never use is left out, and so is
            // its decoration (as DXC leaves both out).
            let Some(counter) = g.counter else { continue };
            let (Some(buffer), Some(counter)) = (
                self.global_ids[handle.index()],
                self.global_ids[counter.index()],
            ) else {
                continue;
            };
            self.extensions
                .insert("SPV_GOOGLE_hlsl_functionality1".to_string());
            self.annotations.push(inst(
                Op::DecorateId,
                None,
                None,
                vec![
                    Operand::IdRef(buffer),
                    Operand::Decoration(Decoration::CounterBuffer),
                    Operand::IdRef(counter),
                ],
            ));
        }
    }

    /// `Block` (or `BufferBlock`) on the struct of a buffer global, and
    /// `NonWritable` on the members of a read-only storage buffer
    /// (SPIR-V.rst, "Constant/Texture/Structured/Byte Buffers").
    fn decorate_block(&mut self, g: &ir::GlobalVariable) -> BackResult<()> {
        // Arrays of buffers (`ConstantBuffer<T> cb[4]`) decorate the element.
        let mut inner = g.ty;
        while let TypeInner::Array { base, .. } = self.ir_type(inner)?.inner {
            inner = base;
        }
        let TypeInner::Struct { ref members, .. } = self.ir_type(inner)?.inner else {
            return Err(internal(format!(
                "buffer `{}` in {:?} is not a struct",
                g.name.as_deref().unwrap_or("?"),
                g.space
            )));
        };
        let member_count = members.len() as u32;
        let id = self.type_id(inner)?;
        let decoration = match g.space {
            AddressSpace::Storage { .. } if !self.version_at_least(1, 3) => Decoration::BufferBlock,
            _ => Decoration::Block,
        };
        let writable = !matches!(g.space, AddressSpace::Storage { writable: false });
        match self.block_structs.get(&id) {
            Some(&(d, w)) if d == decoration && w == writable => return Ok(()),
            Some(_) => {
                return Err(internal(format!(
                    "struct type {inner:?} is used by buffers of different kinds; sema gives each kind its own struct"
                )));
            }
            None => {}
        }
        self.block_structs.insert(id, (decoration, writable));
        self.decorate(id, decoration, &[]);
        if !writable {
            for m in 0..member_count {
                self.decorate_member(id, m, Decoration::NonWritable, &[]);
            }
        }
        Ok(())
    }

    /// 16-bit values in buffers, push constants and stage interfaces need
    /// the storage capabilities of SPV_KHR_16bit_storage.
    fn memory_interface_capabilities(
        &mut self,
        ty: Handle<ir::Type>,
        space: AddressSpace,
    ) -> BackResult<()> {
        let cap = match space {
            AddressSpace::Storage { .. } => Capability::StorageBuffer16BitAccess,
            AddressSpace::Uniform => Capability::UniformAndStorageBuffer16BitAccess,
            AddressSpace::PushConstant => Capability::StoragePushConstant16,
            AddressSpace::Input | AddressSpace::Output => Capability::StorageInputOutput16,
            _ => return Ok(()),
        };
        if self.contains_scalar(ty, &|s| s.width == 2)? {
            self.capability(cap);
        }
        Ok(())
    }

    /// True when `pred` holds for some scalar inside `ty`.
    pub fn contains_scalar(
        &self,
        ty: Handle<ir::Type>,
        pred: &dyn Fn(ir::Scalar) -> bool,
    ) -> BackResult<bool> {
        Ok(match &self.ir_type(ty)?.inner {
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } => pred(*s),
            TypeInner::Array { base, .. } => self.contains_scalar(*base, pred)?,
            TypeInner::Struct { members, .. } => {
                for m in members {
                    if self.contains_scalar(m.ty, pred)? {
                        return Ok(true);
                    }
                }
                false
            }
            _ => false,
        })
    }

    /// An `Input` variable for a built-in the backend itself needs
    /// (`SubgroupSize`, `SubgroupLocalInvocationId`), made once and added
    /// to the interface of every entry point whose functions use it.
    pub fn builtin_input(&mut self, builtin: BuiltIn, scalar: ir::Scalar) -> Word {
        if let Some(&id) = self.builtin_inputs.get(&builtin) {
            return id;
        }
        let ty = self.scalar_type(scalar);
        let pointer = self.pointer_type(ty, StorageClass::Input);
        let id = self.id();
        self.globals.push(inst(
            Op::Variable,
            Some(pointer),
            Some(id),
            vec![Operand::StorageClass(StorageClass::Input)],
        ));
        self.decorate_builtin(id, builtin);
        self.name(id, &format!("{builtin:?}"));
        self.builtin_inputs.insert(builtin, id);
        id
    }

    /// `OpEntryPoint` and the `OpExecutionMode`s of one entry point.
    pub fn write_entry_point(
        &mut self,
        ep: &ir::EntryPoint,
    ) -> BackResult<(Instruction, Vec<Instruction>)> {
        let entry_span = self.ir.functions.get(ep.function).map(|f| f.span);
        self.cur_span = entry_span.unwrap_or_default();
        let mut model = execution_model(ep)?;
        if matches!(ep.stage, Stage::Mesh | Stage::Amplification) {
            model = self.mesh_execution_model(ep.stage);
            self.mesh_capabilities();
        }
        match model {
            ExecutionModel::Geometry => self.capability(Capability::Geometry),
            ExecutionModel::TessellationControl | ExecutionModel::TessellationEvaluation => {
                self.capability(Capability::Tessellation)
            }
            _ if ep.stage.is_ray_tracing() => self.ray_tracing_capabilities(),
            _ => {}
        }
        let Some(function) = self
            .function_ids
            .get(ep.function.index())
            .copied()
            .flatten()
        else {
            return Err(internal(format!(
                "entry point `{}` names a function that was not written",
                ep.name
            )));
        };
        let (mut globals, builtins) = self.entry_point_uses(ep.function);
        // `-fspv-preserve-interface`: the stage variables no code uses are
        // still the entry point's (a library's several entry points cannot
        // tell whose they are, so only a lone entry point gets them).
        if self.options.keep_unused.interface && self.ir.entry_points.len() == 1 {
            let unused = self.ir.globals.iter().filter(|&(h, g)| {
                matches!(g.space, AddressSpace::Input | AddressSpace::Output)
                    && self.global_ids[h.index()].is_some()
                    && !globals.contains(&h)
            });
            let unused: Vec<_> = unused.map(|(h, _)| h).collect();
            globals.extend(unused);
            globals.sort();
        }
        // Below SPIR-V 1.4 the interface lists only Input and Output
        // variables; from 1.4 it lists every global the entry point uses
        // (SPIR-V 2.16.1, OpEntryPoint).
        let all_globals = self.version_at_least(1, 4);
        // A built-in's decoration needs its capability even when the entry
        // point never reads the variable (`-fspv-preserve-interface` keeps
        // an unused `SV_SampleIndex` parameter as a `BuiltIn SampleId`
        // variable).
        let ir = self.ir;
        for (h, global) in ir.globals.iter() {
            if self.global_ids[h.index()].is_none() {
                continue;
            }
            if let Some(ir::Binding::BuiltIn(b)) = global.io {
                let span = ir.decl_spans.globals.get(&h).copied();
                self.cur_span = span.or(entry_span).unwrap_or_default();
                self.builtin_capabilities(b, ep.stage, global.space);
            }
        }
        let mut interface = Vec::new();
        for &g in &globals {
            let global = &self.ir.globals[g];
            let io = matches!(global.space, AddressSpace::Input | AddressSpace::Output);
            let id = self.global_id(g)?;
            if io || all_globals {
                interface.push(id);
            }
            if ep.stage == Stage::Pixel {
                // Per-vertex inputs are not interpolated at all: no `Flat`
                // (as GLSL's `pervertexEXT` takes no interpolation qualifier).
                let per_vertex = self
                    .ir
                    .io_decorations
                    .contains(&(g, Decoration::PerVertexKHR));
                let needs_flat = match global.io {
                    Some(ir::Binding::Location { interpolation, .. }) => {
                        interpolation != Some(ir::Interpolation::Flat) && !per_vertex
                    }
                    Some(ir::Binding::BuiltIn(_)) => true,
                    Some(ir::Binding::PerTask { .. }) | None => false,
                };
                if global.space == AddressSpace::Input && needs_flat {
                    self.require_flat_fragment_input(id, global.ty)?;
                }
            }
        }
        if ep.stage == Stage::Pixel {
            // The backend's own built-ins are 32-bit integers.
            for &id in &builtins {
                if self.flat_added.insert(id) {
                    self.decorate(id, Decoration::Flat, &[]);
                }
            }
        }
        interface.extend(builtins);

        let name = self
            .options
            .entry_point_name
            .clone()
            .unwrap_or_else(|| ep.name.clone());
        let mut operands = vec![
            Operand::ExecutionModel(model),
            Operand::IdRef(function),
            Operand::LiteralString(name),
        ];
        operands.extend(interface.iter().map(|&id| Operand::IdRef(id)));
        let entry = inst(Op::EntryPoint, None, None, operands);

        let mut modes = Vec::new();
        let ir = self.ir;
        let has_mode = |m: ExecutionMode| {
            ep.execution_modes.iter().any(|(x, _)| *x == m)
                || ir.spirv_execution_modes.iter().any(|x| x.mode == m)
        };
        let mut add_mode = |mode: ExecutionMode, literals: &[u32]| {
            let mut ops = vec![Operand::IdRef(function), Operand::ExecutionMode(mode)];
            ops.extend(literals.iter().map(|&l| Operand::LiteralBit32(l)));
            modes.push(inst(Op::ExecutionMode, None, None, ops));
        };
        match ep.stage {
            Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Node
                if !has_mode(ExecutionMode::LocalSize) && !has_mode(ExecutionMode::LocalSizeId) =>
            {
                if ep.workgroup_size.contains(&0) {
                    return Err(internal(format!(
                        "{} entry point `{}` has workgroup size {:?}",
                        ep.stage.name(),
                        ep.name,
                        ep.workgroup_size
                    )));
                }
                add_mode(ExecutionMode::LocalSize, &ep.workgroup_size);
            }
            Stage::Pixel => {
                // Vulkan requires OriginUpperLeft on fragment entry points
                // (VUID-StandaloneSpirv-OriginLowerLeft-04653).
                if !has_mode(ExecutionMode::OriginUpperLeft) {
                    add_mode(ExecutionMode::OriginUpperLeft, &[]);
                }
                // Writing FragDepth requires DepthReplacing
                // (VUID-FragDepth-FragDepth-04216 via spirv-val).
                let writes_depth = globals.iter().any(|&g| {
                    let global = &self.ir.globals[g];
                    global.space == AddressSpace::Output
                        && global.io == Some(ir::Binding::BuiltIn(BuiltIn::FragDepth))
                });
                if writes_depth && !has_mode(ExecutionMode::DepthReplacing) {
                    add_mode(ExecutionMode::DepthReplacing, &[]);
                }
                // Likewise FragStencilRefEXT and StencilRefReplacingEXT
                // (SPV_EXT_shader_stencil_export).
                let writes_stencil = globals.iter().any(|&g| {
                    let global = &self.ir.globals[g];
                    global.space == AddressSpace::Output
                        && global.io == Some(ir::Binding::BuiltIn(BuiltIn::FragStencilRefEXT))
                });
                if writes_stencil && !has_mode(ExecutionMode::StencilRefReplacingEXT) {
                    add_mode(ExecutionMode::StencilRefReplacingEXT, &[]);
                    self.execution_mode_capabilities(ExecutionMode::StencilRefReplacingEXT);
                }
            }
            _ => {}
        }
        for (mode, literals) in &ep.execution_modes {
            add_mode(*mode, literals);
        }
        modes.extend(self.spirv_execution_modes(function));
        if let Some(node) = &ep.node {
            self.node_entry_modes(node, function, &mut modes)?;
        }
        // Several geometry streams: each output variable says its stream.
        if ep.streams.len() > 1 {
            self.capability(Capability::GeometryStreams);
            for (n, outs) in ep.streams.iter().enumerate() {
                for &g in outs {
                    if let Some(id) = self.global_ids[g.index()] {
                        self.decorate(id, Decoration::Stream, &[n as u32]);
                    }
                }
            }
        }
        for (mode, _) in &ep.execution_modes {
            self.execution_mode_capabilities(*mode);
        }
        Ok((entry, modes))
    }

    /// Vulkan: integer and double inputs of the fragment stage, built-ins
    /// included, must be Flat (VUID-StandaloneSpirv-Flat-04744).
    fn require_flat_fragment_input(&mut self, id: Word, ty: Handle<ir::Type>) -> BackResult<()> {
        if self.flat_added.contains(&id) {
            return Ok(());
        }
        let needs_flat = self.contains_scalar(ty, &|s| {
            matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint)
                || (s.kind == ScalarKind::Float && s.width == 8)
        })?;
        if needs_flat {
            self.flat_added.insert(id);
            self.decorate(id, Decoration::Flat, &[]);
        }
        Ok(())
    }

    /// Capabilities and extensions a built-in needs in a stage.
    fn builtin_capabilities(&mut self, b: BuiltIn, stage: Stage, space: AddressSpace) {
        let input = space == AddressSpace::Input;
        match b {
            BuiltIn::ClipDistance => self.capability(Capability::ClipDistance),
            BuiltIn::PointSize if stage == Stage::Geometry => {
                self.capability(Capability::GeometryPointSize)
            }
            BuiltIn::PointSize if matches!(stage, Stage::Hull | Stage::Domain) => {
                self.capability(Capability::TessellationPointSize)
            }
            BuiltIn::CullDistance => self.capability(Capability::CullDistance),
            BuiltIn::ViewportMaskNV => {
                self.capability(Capability::ShaderViewportMaskNV);
            }
            BuiltIn::SampleId | BuiltIn::SamplePosition => {
                self.capability(Capability::SampleRateShading)
            }
            BuiltIn::PrimitiveId if stage == Stage::Pixel => self.capability(Capability::Geometry),
            BuiltIn::Layer | BuiltIn::ViewportIndex => {
                let viewport = b == BuiltIn::ViewportIndex;
                if stage == Stage::Geometry || (stage == Stage::Pixel && input) {
                    self.capability(if viewport {
                        Capability::MultiViewport
                    } else {
                        Capability::Geometry
                    });
                } else if self.version_at_least(1, 5) {
                    self.capability(if viewport {
                        Capability::ShaderViewportIndex
                    } else {
                        Capability::ShaderLayer
                    });
                } else {
                    self.capability(Capability::ShaderViewportIndexLayerEXT);
                }
            }
            BuiltIn::BaseVertex | BuiltIn::BaseInstance | BuiltIn::DrawIndex => {
                self.capability(Capability::DrawParameters);
            }
            BuiltIn::ViewIndex => {
                self.capability(Capability::MultiView);
            }
            BuiltIn::FragStencilRefEXT => {
                self.capability(Capability::StencilExportEXT);
            }
            BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR => {
                self.capability(Capability::FragmentBarycentricKHR);
            }
            BuiltIn::FullyCoveredEXT => {
                self.capability(Capability::FragmentFullyCoveredEXT);
            }
            BuiltIn::PrimitiveShadingRateKHR | BuiltIn::ShadingRateKHR => {
                self.capability(Capability::FragmentShadingRateKHR);
            }
            BuiltIn::SubgroupSize
            | BuiltIn::SubgroupLocalInvocationId
            | BuiltIn::NumSubgroups
            | BuiltIn::SubgroupId
            | BuiltIn::SubgroupEqMask
            | BuiltIn::SubgroupGeMask
            | BuiltIn::SubgroupGtMask
            | BuiltIn::SubgroupLeMask
            | BuiltIn::SubgroupLtMask => {
                self.capability(Capability::GroupNonUniform);
                if matches!(
                    b,
                    BuiltIn::SubgroupEqMask
                        | BuiltIn::SubgroupGeMask
                        | BuiltIn::SubgroupGtMask
                        | BuiltIn::SubgroupLeMask
                        | BuiltIn::SubgroupLtMask
                ) {
                    self.capability(Capability::GroupNonUniformBallot);
                }
            }
            // Others (a `vk::ext_decorate(BuiltIn, b)` may name any): the
            // grammar's one capability, or its extension where none is.
            _ => {
                let op = rspirv::dr::Operand::BuiltIn(b);
                match op.required_capabilities().as_slice() {
                    [] => {
                        for ext in op.required_extensions() {
                            self.extension(ext);
                        }
                    }
                    &[cap] => self.capability(cap),
                    _ => {}
                }
            }
        }
    }

    /// The capability an execution mode needs, or the extension where no
    /// capability stands for it (`requirements.rs` adds the capability's).
    pub fn execution_mode_capabilities(&mut self, mode: ExecutionMode) {
        use Capability as C;
        use ExecutionMode as M;
        let cap = match mode {
            M::DenormPreserve => C::DenormPreserve,
            M::DenormFlushToZero => C::DenormFlushToZero,
            M::SignedZeroInfNanPreserve => C::SignedZeroInfNanPreserve,
            M::RoundingModeRTE => C::RoundingModeRTE,
            M::RoundingModeRTZ => C::RoundingModeRTZ,
            M::PostDepthCoverage => C::SampleMaskPostDepthCoverage,
            M::StencilRefReplacingEXT => C::StencilExportEXT,
            M::PixelInterlockOrderedEXT | M::PixelInterlockUnorderedEXT => {
                C::FragmentShaderPixelInterlockEXT
            }
            M::SampleInterlockOrderedEXT | M::SampleInterlockUnorderedEXT => {
                C::FragmentShaderSampleInterlockEXT
            }
            M::ShadingRateInterlockOrderedEXT | M::ShadingRateInterlockUnorderedEXT => {
                C::FragmentShaderShadingRateInterlockEXT
            }
            M::DerivativeGroupQuadsKHR => C::ComputeDerivativeGroupQuadsKHR,
            M::DerivativeGroupLinearKHR => C::ComputeDerivativeGroupLinearKHR,
            M::RequireFullQuadsKHR | M::QuadDerivativesKHR => C::QuadControlKHR,
            // SPV_AMD_shader_early_and_late_fragment_tests' stencil
            // promises also export the stencil reference.
            M::StencilRefUnchangedFrontAMD
            | M::StencilRefGreaterFrontAMD
            | M::StencilRefLessFrontAMD
            | M::StencilRefUnchangedBackAMD
            | M::StencilRefGreaterBackAMD
            | M::StencilRefLessBackAMD => {
                self.extension("SPV_AMD_shader_early_and_late_fragment_tests");
                C::StencilExportEXT
            }
            M::EarlyAndLateFragmentTestsAMD => {
                return self.extension("SPV_AMD_shader_early_and_late_fragment_tests");
            }
            M::MaximallyReconvergesKHR => {
                return self.extension("SPV_KHR_maximal_reconvergence");
            }
            M::SubgroupUniformControlFlowKHR => {
                return self.extension("SPV_KHR_subgroup_uniform_control_flow");
            }
            _ => return,
        };
        self.capability(cap);
    }
}

/// The SPIR-V execution model of an entry point's stage.
fn execution_model(ep: &ir::EntryPoint) -> BackResult<ExecutionModel> {
    Ok(match ep.stage {
        Stage::Vertex => ExecutionModel::Vertex,
        Stage::Pixel => ExecutionModel::Fragment,
        Stage::Geometry => ExecutionModel::Geometry,
        Stage::Hull => ExecutionModel::TessellationControl,
        Stage::Domain => ExecutionModel::TessellationEvaluation,
        // Work graph nodes are compute shaders (SPV_AMDX_shader_enqueue).
        Stage::Compute | Stage::Node => ExecutionModel::GLCompute,
        // The EXT or NV model: `Writer::mesh_execution_model`.
        Stage::Mesh => ExecutionModel::MeshEXT,
        Stage::Amplification => ExecutionModel::TaskEXT,
        Stage::Library => {
            return Err(internal(format!(
                "entry point `{}` has the library stage; sema gives each entry its own stage",
                ep.name
            )));
        }
        Stage::RayGeneration
        | Stage::Intersection
        | Stage::AnyHit
        | Stage::ClosestHit
        | Stage::Miss
        | Stage::Callable => match super::raytracing::execution_model(ep.stage) {
            Some(m) => m,
            None => return Err(internal("a ray tracing stage without execution model")),
        },
    })
}
