//! Building a [`Reflection`] from the IR module and the SPIR-V words.

use super::names::*;
use super::words::{Summary, summarize};
use super::*;
use crate::ir::Stage;
use crate::ir::{
    self, AddressSpace, ArraySize, Handle, ImageClass, ImageDim, Scalar, ScalarKind, TypeInner,
};

/// Nesting deeper than this (arrays of structs of arrays…) is not described
/// further; real shaders stay far below it, and it keeps reflection of a
/// hostile module from exhausting the stack.
const MAX_DEPTH: u32 = 64;

/// Reflects `module`, which the backend wrote as `spirv` with `options`.
pub fn reflect(module: &ir::Module, options: &ReflectOptions, spirv: &[u32]) -> Reflection {
    let words = summarize(spirv);
    // The buffer each counter belongs to.
    let mut counter_owner = vec![None; module.globals.len()];
    for (h, g) in module.globals.iter() {
        if let Some(slot) = g.counter.and_then(|c| counter_owner.get_mut(c.index())) {
            *slot = Some(h);
        }
    }
    // Exactly the globals the SPIR-V declares.
    let declared = module.declared_globals(options.keep_unused);
    let used = module.globals_named_by(&module.functions_reached());
    let r = Reflector {
        module,
        counter_owner,
        declared,
    };
    let mut resources: Vec<Resource> = module
        .globals
        .iter()
        .filter(|(h, _)| r.declared[h.index()])
        .filter_map(|(h, g)| r.resource(h, g, used[h.index()]))
        .collect();
    resources.sort_by(|a, b| {
        let key = |r: &Resource| {
            (
                r.kind == ResourceKind::PushConstant,
                r.set,
                r.binding,
                r.name.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    let entry_points = module
        .entry_points
        .iter()
        .enumerate()
        .map(|(i, ep)| r.entry_point(i, ep, &words, options))
        .collect();
    let (major, minor) = if words.version == (0, 0) {
        options.target_env.spirv_version()
    } else {
        words.version
    };
    Reflection {
        schema: SCHEMA_VERSION,
        target_env: options.target_env.flag().to_string(),
        spirv_version: format!("{major}.{minor}"),
        profile: options.profile.clone(),
        layout_rule: options.layout_rule.to_string(),
        capabilities: words.capabilities,
        extensions: words.extensions,
        entry_points,
        resources,
    }
}

struct Reflector<'a> {
    module: &'a ir::Module,
    /// For each global that is a counter, the buffer it counts for.
    counter_owner: Vec<Option<Handle<ir::GlobalVariable>>>,
    /// The globals the SPIR-V declares (by index).
    declared: Vec<bool>,
}

impl<'a> Reflector<'a> {
    /// The type behind `h`; `None` for a dangling handle (the backend
    /// rejects such modules, so this only keeps reflection panic-free).
    fn ty(&self, h: Handle<ir::Type>) -> Option<&'a ir::Type> {
        (h.index() < self.module.types.len()).then(|| &self.module.types[h])
    }

    fn global(&self, h: Handle<ir::GlobalVariable>) -> Option<&'a ir::GlobalVariable> {
        self.module.globals.get(h)
    }

    fn entry_point(
        &self,
        index: usize,
        ep: &ir::EntryPoint,
        words: &Summary,
        options: &ReflectOptions,
    ) -> EntryPoint {
        // The backend writes the entry points in IR order.
        let spv = words.entry_points.get(index);
        let name = spv.map_or_else(
            || options.entry_point_name.clone().unwrap_or(ep.name.clone()),
            |(_, n)| n.clone(),
        );
        let execution_modes = spv.map_or_else(Vec::new, |(id, _)| words.modes_of(*id));
        // With one entry point every stage variable the module declares is
        // its own (an unused one kept by `-fspv-preserve-interface`
        // included); with several, those its functions use.
        let mine = if self.module.entry_points.len() == 1 {
            self.declared.clone()
        } else {
            let reached = self.module.functions_reached_from([ep.function]);
            self.module.globals_named_by(&reached)
        };
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        for (h, g) in self.module.globals.iter() {
            if !mine[h.index()] {
                continue;
            }
            match g.space {
                AddressSpace::Input => inputs.push(self.stage_variable(g)),
                AddressSpace::Output => outputs.push(self.stage_variable(g)),
                _ => {}
            }
        }
        for list in [&mut inputs, &mut outputs] {
            // Locations first, in order; then built-ins in declaration order.
            list.sort_by_key(|v: &StageVariable| (v.location.is_none(), v.location));
        }
        EntryPoint {
            name,
            stage: ep.stage.name().to_string(),
            workgroup_size: matches!(
                ep.stage,
                Stage::Compute | Stage::Mesh | Stage::Amplification
            )
            .then_some(ep.workgroup_size),
            execution_modes,
            patch_constant_function: ep
                .patch_constant_function
                .and_then(|f| self.module.functions.get(f))
                .map(|f| f.name.clone()),
            streams: ep
                .streams
                .iter()
                .map(|outs| {
                    outs.iter()
                        .filter_map(|&g| self.module.globals.get(g))
                        .map(|g| g.name.clone().unwrap_or_default())
                        .collect()
                })
                .collect(),
            inputs,
            outputs,
        }
    }

    fn stage_variable(&self, g: &ir::GlobalVariable) -> StageVariable {
        // Peel per-vertex / per-control-point arrays.
        let mut elements = 1u32;
        let mut inner = g.ty;
        let mut depth = 0;
        while let Some(TypeInner::Array { base, size, .. }) = self.ty(inner).map(|t| &t.inner) {
            if let ArraySize::Constant(n) = size {
                elements = elements.saturating_mul(*n);
            }
            inner = *base;
            depth += 1;
            if depth > MAX_DEPTH {
                break;
            }
        }
        let (scalar, count, vectors) = match self.ty(inner).map(|t| &t.inner) {
            Some(TypeInner::Scalar(s)) => (Some(*s), 1, 1),
            Some(TypeInner::Vector { size, scalar }) => (Some(*scalar), u32::from(*size), 1),
            // One HLSL row per location (an HLSL row is a SPIR-V column).
            Some(TypeInner::Matrix {
                rows,
                columns,
                scalar,
            }) => (Some(*scalar), u32::from(*columns), u32::from(*rows)),
            _ => (None, 0, 1),
        };
        let integer_or_double = scalar.is_some_and(|s| {
            matches!(
                s.kind,
                ScalarKind::Sint | ScalarKind::Uint | ScalarKind::Bool
            ) || (s.kind == ScalarKind::Float && s.width == 8)
        });
        let mut v = StageVariable {
            name: g.name.clone(),
            semantic: g.semantic.clone(),
            location: None,
            builtin: None,
            index: None,
            locations: None,
            type_name: self.type_name(g.ty, 0),
            component_type: scalar.map_or("", scalar_name).to_string(),
            component_count: count,
            interpolation: None,
            sampling: None,
            patch: false,
        };
        match g.io {
            Some(ir::Binding::BuiltIn(b)) => {
                v.builtin = Some(format!("{b:?}"));
                // The tessellation levels are per patch.
                v.patch = matches!(
                    b,
                    spirv::BuiltIn::TessLevelOuter | spirv::BuiltIn::TessLevelInner
                );
            }
            Some(ir::Binding::Location {
                location,
                index,
                interpolation,
                sampling,
                patch,
            }) => {
                v.location = Some(location);
                v.index = index;
                // 64-bit three- and four-component vectors take two
                // locations each (Vulkan 15.1.4, "Location Assignment").
                let wide = scalar.is_some_and(|s| s.width == 8) && count > 2;
                let per_vector = if wide { 2 } else { 1 };
                let n = elements.saturating_mul(vectors).saturating_mul(per_vector);
                v.locations = (n > 1).then_some(n);
                v.interpolation = Some(
                    match interpolation {
                        Some(ir::Interpolation::Flat) => "flat",
                        Some(ir::Interpolation::NoPerspective) => "noperspective",
                        // Integers and doubles are never interpolated; as
                        // fragment inputs they must be Flat
                        // (VUID-StandaloneSpirv-Flat-04744), which the
                        // backend adds.
                        _ if integer_or_double => "flat",
                        _ => "perspective",
                    }
                    .to_string(),
                );
                v.sampling = match sampling {
                    Some(ir::Sampling::Centroid) => Some("centroid".to_string()),
                    Some(ir::Sampling::Sample) => Some("sample".to_string()),
                    None => None,
                };
                v.patch = patch;
            }
            // A payload member of the NV mesh pipeline: no location.
            Some(ir::Binding::PerTask { .. }) | None => {}
        }
        v
    }

    /// The resource entry of global `h`, or `None` for globals that are not
    /// resources (private, groupshared, stage variables).
    fn resource(
        &self,
        h: Handle<ir::GlobalVariable>,
        g: &ir::GlobalVariable,
        used: bool,
    ) -> Option<Resource> {
        if !matches!(
            g.space,
            AddressSpace::Uniform
                | AddressSpace::Storage { .. }
                | AddressSpace::PushConstant
                | AddressSpace::Handle
        ) {
            return None;
        }
        // Arrays of resources: one descriptor per element.
        let mut count = 1u32;
        let mut runtime_array = false;
        let mut inner = g.ty;
        let mut depth = 0;
        while let Some(TypeInner::Array { base, size, .. }) = self.ty(inner).map(|t| &t.inner) {
            match size {
                ArraySize::Constant(n) => count = count.saturating_mul(*n),
                ArraySize::Runtime => runtime_array = true,
            }
            inner = *base;
            depth += 1;
            if depth > MAX_DEPTH {
                break;
            }
        }
        if runtime_array {
            count = 0;
        }
        let element = self.ty(inner)?;
        let mut r = Resource {
            name: g.name.clone(),
            set: g.binding.map(|b| b.set),
            binding: g.binding.map(|b| b.binding),
            kind: ResourceKind::UniformBuffer,
            hlsl_type: None,
            access: None,
            count,
            runtime_array,
            image: None,
            comparison: None,
            block: None,
            counter: None,
            counter_for: None,
            used,
        };
        match (g.space, &element.inner) {
            (AddressSpace::Uniform, _) => {
                r.kind = ResourceKind::UniformBuffer;
                r.block = Some(self.block(inner));
            }
            (AddressSpace::Storage { writable }, _) => {
                r.kind = ResourceKind::StorageBuffer;
                r.access = Some(access(writable));
                r.block = Some(self.block(inner));
            }
            (AddressSpace::PushConstant, _) => {
                r.kind = ResourceKind::PushConstant;
                r.block = Some(self.block(inner));
            }
            (_, TypeInner::Image { .. }) => {
                let (kind, image, access, hlsl) = self.image(inner)?;
                r.kind = kind;
                r.image = Some(image);
                r.access = access;
                r.hlsl_type = Some(hlsl);
            }
            (_, TypeInner::SampledImage { image }) => {
                let (_, image, _, hlsl) = self.image(*image)?;
                r.kind = ResourceKind::CombinedImageSampler;
                r.image = Some(image);
                r.hlsl_type = Some(format!("vk::Sampled{hlsl}"));
            }
            (_, TypeInner::Sampler { comparison }) => {
                r.kind = ResourceKind::Sampler;
                r.comparison = Some(*comparison);
                r.hlsl_type = Some(
                    if *comparison {
                        "SamplerComparisonState"
                    } else {
                        "SamplerState"
                    }
                    .to_string(),
                );
            }
            (_, TypeInner::AccelerationStructure) => {
                r.kind = ResourceKind::AccelerationStructure;
                r.hlsl_type = Some("RaytracingAccelerationStructure".to_string());
            }
            _ => return None,
        }
        if r.block.is_some() {
            r.hlsl_type = buffer_hlsl_type(element.name.as_deref(), g.space);
        }
        let declared_counter = g
            .counter
            .filter(|c| self.declared.get(c.index()) == Some(&true));
        if let Some(c) = declared_counter.and_then(|c| self.global(c)) {
            r.counter = Some(Counter {
                name: c.name.clone(),
                set: c.binding.map(|b| b.set),
                binding: c.binding.map(|b| b.binding),
            });
        }
        if let Some(owner) = self.counter_owner[h.index()].and_then(|o| self.global(o)) {
            r.counter_for = owner.name.clone();
            r.hlsl_type = None;
        }
        Some(r)
    }

    /// Kind, description, access and HLSL type of an image type.
    fn image(&self, h: Handle<ir::Type>) -> Option<(ResourceKind, Image, Option<String>, String)> {
        let TypeInner::Image {
            dim,
            arrayed,
            multisampled,
            sampled,
            class,
        } = self.ty(h)?.inner
        else {
            return None;
        };
        let storage = matches!(class, ImageClass::Storage { .. });
        let kind = match (dim, storage) {
            (ImageDim::Buffer, false) => ResourceKind::UniformTexelBuffer,
            (ImageDim::Buffer, true) => ResourceKind::StorageTexelBuffer,
            (ImageDim::SubpassData, _) => ResourceKind::InputAttachment,
            (_, false) => ResourceKind::SampledImage,
            (_, true) => ResourceKind::StorageImage,
        };
        let image = Image {
            dim: dim_name(dim).to_string(),
            arrayed,
            multisampled,
            sampled_type: scalar_name(sampled).to_string(),
            format: match class {
                ImageClass::Storage { format } => Some(format_name(format).to_string()),
                ImageClass::Sampled => None,
            },
        };
        // HLSL's RW textures and buffers are readable and writable; SPIR-V
        // has no NonReadable/NonWritable on them here.
        let access = storage.then(|| access(true));
        let hlsl = if dim == ImageDim::SubpassData {
            format!(
                "SubpassInput{}<{}>",
                if multisampled { "MS" } else { "" },
                scalar_name(sampled)
            )
        } else {
            image_hlsl_type(dim, arrayed, multisampled, sampled, storage)
        };
        Some((kind, image, access, hlsl))
    }

    /// The layout of a buffer's block struct.
    fn block(&self, h: Handle<ir::Type>) -> Block {
        let Some(t) = self.ty(h) else {
            return Block {
                type_name: None,
                size: 0,
                members: Vec::new(),
            };
        };
        match &t.inner {
            TypeInner::Struct { members, size } => {
                let members: Vec<Member> = members.iter().map(|m| self.member(m, 0)).collect();
                // A block without a recorded size (e.g. one ending in a
                // runtime array) spans to the end of its last member.
                let size = if *size > 0 {
                    *size
                } else {
                    members.iter().map(|m| m.offset + m.size).max().unwrap_or(0)
                };
                Block {
                    type_name: t.name.clone(),
                    size,
                    members,
                }
            }
            _ => Block {
                type_name: t.name.clone(),
                size: self.data_size(h, None, 0),
                members: Vec::new(),
            },
        }
    }

    fn member(&self, m: &ir::StructMember, depth: u32) -> Member {
        let mut array = Vec::new();
        let mut inner = m.ty;
        while let Some(TypeInner::Array { base, size, stride }) = self.ty(inner).map(|t| &t.inner) {
            array.push(ArrayDim {
                count: match size {
                    ArraySize::Constant(n) => *n,
                    ArraySize::Runtime => 0,
                },
                stride: stride.unwrap_or(0),
            });
            inner = *base;
            if array.len() as u32 > MAX_DEPTH {
                break;
            }
        }
        let inner_ty = self.ty(inner);
        let matrix = match (inner_ty.map(|t| &t.inner), m.matrix_layout) {
            (Some(TypeInner::Matrix { rows, columns, .. }), layout) => Some(MatrixInfo {
                rows: u32::from(*rows),
                columns: u32::from(*columns),
                stride: layout.map_or(0, |l| l.stride),
                major: if layout.is_some_and(|l| l.row_major) {
                    "row_major"
                } else {
                    "column_major"
                }
                .to_string(),
            }),
            _ => None,
        };
        let members = match inner_ty.map(|t| &t.inner) {
            Some(TypeInner::Struct { members, .. }) if depth < MAX_DEPTH => {
                Some(members.iter().map(|n| self.member(n, depth + 1)).collect())
            }
            _ => None,
        };
        Member {
            name: m.name.clone(),
            type_name: self.type_name(m.ty, 0),
            offset: m.offset.unwrap_or(0),
            size: self.data_size(m.ty, m.matrix_layout, 0),
            array: (!array.is_empty()).then_some(array),
            matrix,
            members,
        }
    }

    /// The bytes a value of type `h` spans in laid-out memory, without
    /// trailing padding (see the module docs); `layout` is the matrix
    /// layout of the member it belongs to.
    fn data_size(&self, h: Handle<ir::Type>, layout: Option<ir::MatrixLayout>, depth: u32) -> u32 {
        let Some(t) = self.ty(h) else { return 0 };
        // bool is stored as a 32-bit uint in buffers.
        let width = |s: &Scalar| {
            if s.kind == ScalarKind::Bool {
                4
            } else {
                u32::from(s.width)
            }
        };
        match &t.inner {
            TypeInner::Scalar(s) => width(s),
            TypeInner::Vector { size, scalar } => u32::from(*size) * width(scalar),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => {
                let (rows, columns) = (u32::from(*rows), u32::from(*columns));
                let (vectors, length) = match layout {
                    Some(l) if l.row_major => (rows, columns),
                    _ => (columns, rows),
                };
                let stride = layout.map_or(length * width(scalar), |l| l.stride);
                (vectors - 1) * stride + length * width(scalar)
            }
            TypeInner::Array { base, size, stride } => match size {
                ArraySize::Runtime => 0,
                ArraySize::Constant(0) => 0,
                ArraySize::Constant(n) if depth < MAX_DEPTH => {
                    let element = self.data_size(*base, layout, depth + 1);
                    let stride = stride.unwrap_or(element);
                    (n - 1).saturating_mul(stride).saturating_add(element)
                }
                ArraySize::Constant(_) => 0,
            },
            TypeInner::Struct { members, size } => {
                if *size > 0 || depth >= MAX_DEPTH {
                    *size
                } else {
                    members
                        .iter()
                        .map(|m| {
                            m.offset.unwrap_or(0) + self.data_size(m.ty, m.matrix_layout, depth + 1)
                        })
                        .max()
                        .unwrap_or(0)
                }
            }
            _ => 0,
        }
    }

    /// The HLSL spelling of a type: `float4`, `float3x4`, `S[2][3]`, `uint[]`.
    fn type_name(&self, h: Handle<ir::Type>, depth: u32) -> String {
        let Some(t) = self.ty(h) else {
            return "?".to_string();
        };
        match &t.inner {
            TypeInner::Scalar(s) => scalar_name(*s).to_string(),
            TypeInner::Vector { size, scalar } => format!("{}{size}", scalar_name(*scalar)),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => format!("{}{rows}x{columns}", scalar_name(*scalar)),
            TypeInner::Array { .. } => {
                // Dimensions outermost first, after the element type.
                let mut dims = String::new();
                let mut inner = h;
                let mut n = 0;
                while let Some(TypeInner::Array { base, size, .. }) =
                    self.ty(inner).map(|t| &t.inner)
                {
                    match size {
                        ArraySize::Constant(c) => dims.push_str(&format!("[{c}]")),
                        ArraySize::Runtime => dims.push_str("[]"),
                    }
                    inner = *base;
                    n += 1;
                    if n > MAX_DEPTH {
                        break;
                    }
                }
                if depth >= MAX_DEPTH {
                    return format!("?{dims}");
                }
                format!("{}{dims}", self.type_name(inner, depth + 1))
            }
            TypeInner::Struct { .. } => t.name.clone().unwrap_or_else(|| "struct".to_string()),
            TypeInner::Image {
                dim,
                arrayed,
                multisampled,
                sampled,
                class,
            } => image_hlsl_type(
                *dim,
                *arrayed,
                *multisampled,
                *sampled,
                matches!(class, ImageClass::Storage { .. }),
            ),
            TypeInner::SampledImage { image } if depth < MAX_DEPTH => {
                format!("vk::Sampled{}", self.type_name(*image, depth + 1))
            }
            TypeInner::SampledImage { .. } => "?".to_string(),
            TypeInner::Sampler { comparison: false } => "SamplerState".to_string(),
            TypeInner::Sampler { comparison: true } => "SamplerComparisonState".to_string(),
            TypeInner::AccelerationStructure => "RaytracingAccelerationStructure".to_string(),
            TypeInner::RayQuery => "RayQuery".to_string(),
            TypeInner::Spirv(t) => format!("vk::SpirvOpaqueType<{}>", t.opcode),
            TypeInner::NodePayloadArray { payload, .. } => {
                format!("NodePayloadArray<{}>", self.type_name(*payload, depth + 1))
            }
            TypeInner::Pointer { base, .. } if depth < MAX_DEPTH => {
                self.type_name(*base, depth + 1)
            }
            TypeInner::Pointer { .. } => "?".to_string(),
        }
    }
}

fn access(writable: bool) -> String {
    if writable { "read_write" } else { "read_only" }.to_string()
}
