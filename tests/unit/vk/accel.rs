//! Acceleration structures for ray tracing and ray query tests: one
//! bottom-level structure of triangles and a top-level structure of its
//! instances, built on the device before a run (VK_KHR_acceleration_structure)
//! and bound as a `RaytracingAccelerationStructure`
//! ([`Resource::acceleration_structure`](super::Resource::acceleration_structure)).

use super::scope::{Backing, Object, Scope};
use super::{Runner, on};
use ash::vk;
use std::time::Duration;

/// Triangles in object space and the instances of them that rays meet.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Vertex positions (x, y, z) of the bottom-level structure.
    pub vertices: Vec<[f32; 3]>,
    /// Three vertex indices per triangle; triangle `i` is `PrimitiveIndex() == i`.
    pub indices: Vec<u32>,
    /// Whether the geometry is opaque (`VK_GEOMETRY_OPAQUE_BIT_KHR`): no
    /// any-hit shader runs, and ray queries commit triangles themselves.
    pub opaque: bool,
    pub instances: Vec<Instance>,
}

/// One instance of the bottom-level structure in the top-level structure
/// (`VkAccelerationStructureInstanceKHR`).
#[derive(Clone, Copy, Debug)]
pub struct Instance {
    /// Object to world, three rows of four (`VkTransformMatrixKHR`).
    pub transform: [[f32; 4]; 3],
    /// `InstanceID()`: 24 bits.
    pub custom_index: u32,
    /// Compared with `InstanceInclusionMask` of `TraceRay`.
    pub mask: u8,
    /// Added to the hit group index (24 bits).
    pub sbt_offset: u32,
    pub flags: vk::GeometryInstanceFlagsKHR,
}

impl Instance {
    /// The identity transform.
    pub const IDENTITY: [[f32; 4]; 3] = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];

    /// An instance with `transform`, custom index and mask, hit group 0,
    /// no flags.
    pub fn new(transform: [[f32; 4]; 3], custom_index: u32, mask: u8) -> Instance {
        Instance {
            transform,
            custom_index,
            mask,
            sbt_offset: 0,
            flags: vk::GeometryInstanceFlagsKHR::empty(),
        }
    }

    /// `p` in world space.
    pub fn to_world(self, p: [f32; 3]) -> [f32; 3] {
        self.transform
            .map(|row| row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3])
    }
}

impl Scene {
    /// The triangles of instance `i`, in world space.
    pub fn world_triangles(&self, i: usize) -> Vec<[[f32; 3]; 3]> {
        let inst = &self.instances[i];
        self.indices
            .chunks_exact(3)
            .map(|t| [0, 1, 2].map(|k| inst.to_world(self.vertices[t[k] as usize])))
            .collect()
    }
}

impl Runner {
    /// Checks a scene against Vulkan's rules and the device's limits.
    pub(super) fn check_scene(&self, scene: &Scene) -> Result<(), String> {
        let rt = &self.info.ray_tracing;
        if self.accel.is_none()
            || !on(rt.acceleration_structure.acceleration_structure)
            || !on(self.info.features12.buffer_device_address)
        {
            return Err(format!(
                "acceleration structures need VK_KHR_acceleration_structure (accelerationStructure) \
                 and bufferDeviceAddress, which {} does not offer",
                self.info.name
            ));
        }
        let triangles = scene.indices.len() / 3;
        if triangles == 0 || !scene.indices.len().is_multiple_of(3) {
            return Err(format!(
                "{} indices do not make whole triangles",
                scene.indices.len()
            ));
        }
        if let Some(i) = scene
            .indices
            .iter()
            .find(|&&i| i as usize >= scene.vertices.len())
        {
            return Err(format!(
                "index {i} is past the {} vertices",
                scene.vertices.len()
            ));
        }
        if scene.instances.is_empty() {
            return Err("a top-level structure of no instances".into());
        }
        if let Some(inst) = scene
            .instances
            .iter()
            .find(|i| i.custom_index >= 1 << 24 || i.sbt_offset >= 1 << 24)
        {
            return Err(format!(
                "{inst:?}: the custom index and the hit group offset have 24 bits"
            ));
        }
        let p = &rt.acceleration_structure_properties;
        if triangles as u64 > p.max_primitive_count
            || scene.instances.len() as u64 > p.max_instance_count
        {
            return Err(format!(
                "{triangles} triangles, {} instances: the device allows {} and {}",
                scene.instances.len(),
                p.max_primitive_count,
                p.max_instance_count
            ));
        }
        Ok(())
    }
}

/// The usage of the buffers a build reads (vertices, indices, instances).
const BUILD_INPUT: vk::BufferUsageFlags =
    vk::BufferUsageFlags::ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_KHR;

impl Scope<'_> {
    /// Builds the bottom-level structure of `scene` and the top-level one
    /// of its instances on the device, waits for the builds, and returns
    /// the top-level structure.
    pub(super) unsafe fn acceleration_structure(
        &mut self,
        scene: &Scene,
        timeout: Duration,
    ) -> Result<Backing, String> {
        let r = self.runner;
        let accel = r
            .accel
            .as_ref()
            .ok_or("VK_KHR_acceleration_structure is not enabled")?;
        unsafe {
            let cmd = self.begin_commands()?;

            // Bottom level: the triangles, read through device addresses.
            let vertex_bytes: Vec<u8> = scene
                .vertices
                .iter()
                .flatten()
                .flat_map(|f| f.to_le_bytes())
                .collect();
            let index_bytes: Vec<u8> = scene.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
            let (_, _, vertices) =
                self.address_buffer(vertex_bytes.len() as u64, BUILD_INPUT, true, &vertex_bytes)?;
            let (_, _, indices) =
                self.address_buffer(index_bytes.len() as u64, BUILD_INPUT, true, &index_bytes)?;
            let triangles = vk::AccelerationStructureGeometryTrianglesDataKHR::default()
                .vertex_format(vk::Format::R32G32B32_SFLOAT)
                .vertex_data(vk::DeviceOrHostAddressConstKHR {
                    device_address: vertices,
                })
                .vertex_stride(12)
                .max_vertex(scene.vertices.len() as u32 - 1)
                .index_type(vk::IndexType::UINT32)
                .index_data(vk::DeviceOrHostAddressConstKHR {
                    device_address: indices,
                });
            let geometry = vk::AccelerationStructureGeometryKHR::default()
                .geometry_type(vk::GeometryTypeKHR::TRIANGLES)
                .geometry(vk::AccelerationStructureGeometryDataKHR { triangles })
                .flags(if scene.opaque {
                    vk::GeometryFlagsKHR::OPAQUE
                } else {
                    vk::GeometryFlagsKHR::empty()
                });
            let bottom = self.build(
                cmd,
                geometry,
                vk::AccelerationStructureTypeKHR::BOTTOM_LEVEL,
                (scene.indices.len() / 3) as u32,
            )?;
            let bottom_address = accel.get_acceleration_structure_device_address(
                &vk::AccelerationStructureDeviceAddressInfoKHR::default()
                    .acceleration_structure(bottom),
            );

            // The top-level build reads the bottom-level structure.
            let built = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::ACCELERATION_STRUCTURE_WRITE_KHR)
                .dst_access_mask(vk::AccessFlags::ACCELERATION_STRUCTURE_READ_KHR);
            let build_stage = vk::PipelineStageFlags::ACCELERATION_STRUCTURE_BUILD_KHR;
            r.device.cmd_pipeline_barrier(
                cmd,
                build_stage,
                build_stage,
                vk::DependencyFlags::empty(),
                &[built],
                &[],
                &[],
            );

            // Top level: the instances.
            let instance_bytes: Vec<u8> = scene
                .instances
                .iter()
                .flat_map(|i| instance_record(i, bottom_address))
                .collect();
            let (_, _, instances) = self.address_buffer(
                instance_bytes.len() as u64,
                BUILD_INPUT,
                true,
                &instance_bytes,
            )?;
            let data = vk::AccelerationStructureGeometryInstancesDataKHR::default()
                .array_of_pointers(false)
                .data(vk::DeviceOrHostAddressConstKHR {
                    device_address: instances,
                });
            let geometry = vk::AccelerationStructureGeometryKHR::default()
                .geometry_type(vk::GeometryTypeKHR::INSTANCES)
                .geometry(vk::AccelerationStructureGeometryDataKHR { instances: data });
            let top = self.build(
                cmd,
                geometry,
                vk::AccelerationStructureTypeKHR::TOP_LEVEL,
                scene.instances.len() as u32,
            )?;

            // Every later command on the queue (the run's own submission
            // comes after this one) sees the finished structures.
            let ready = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::ACCELERATION_STRUCTURE_WRITE_KHR)
                .dst_access_mask(
                    vk::AccessFlags::ACCELERATION_STRUCTURE_READ_KHR | vk::AccessFlags::SHADER_READ,
                );
            r.device.cmd_pipeline_barrier(
                cmd,
                build_stage,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::DependencyFlags::empty(),
                &[ready],
                &[],
                &[],
            );
            r.device
                .end_command_buffer(cmd)
                .map_err(|e| format!("vkEndCommandBuffer: {e}"))?;
            self.submit_and_wait(cmd, timeout, "the acceleration structure builds")?;
            Ok(Backing::AccelerationStructure(top))
        }
    }

    /// Creates an acceleration structure of `ty` over one geometry of
    /// `count` primitives, with its storage and scratch memory, and records
    /// its build into `cmd`.
    unsafe fn build(
        &mut self,
        cmd: vk::CommandBuffer,
        geometry: vk::AccelerationStructureGeometryKHR,
        ty: vk::AccelerationStructureTypeKHR,
        count: u32,
    ) -> Result<vk::AccelerationStructureKHR, String> {
        let r = self.runner;
        let accel = r
            .accel
            .as_ref()
            .ok_or("VK_KHR_acceleration_structure is not enabled")?;
        let geometries = [geometry];
        let mut info = vk::AccelerationStructureBuildGeometryInfoKHR::default()
            .ty(ty)
            .flags(vk::BuildAccelerationStructureFlagsKHR::PREFER_FAST_TRACE)
            .mode(vk::BuildAccelerationStructureModeKHR::BUILD)
            .geometries(&geometries);
        unsafe {
            let mut sizes = vk::AccelerationStructureBuildSizesInfoKHR::default();
            accel.get_acceleration_structure_build_sizes(
                vk::AccelerationStructureBuildTypeKHR::DEVICE,
                &info,
                &[count],
                &mut sizes,
            );
            let (storage, _, _) = self.address_buffer(
                sizes.acceleration_structure_size,
                vk::BufferUsageFlags::ACCELERATION_STRUCTURE_STORAGE_KHR,
                false,
                &[],
            )?;
            let create = vk::AccelerationStructureCreateInfoKHR::default()
                .buffer(storage)
                .offset(0)
                .size(sizes.acceleration_structure_size)
                .ty(ty);
            let structure = self.track(
                accel.create_acceleration_structure(&create, None),
                Object::AccelerationStructure,
                "vkCreateAccelerationStructureKHR",
            )?;
            // The scratch address must be a multiple of
            // minAccelerationStructureScratchOffsetAlignment
            // (VUID-vkCmdBuildAccelerationStructuresKHR-pInfos-03710).
            let align = u64::from(
                r.info
                    .ray_tracing
                    .acceleration_structure_properties
                    .min_acceleration_structure_scratch_offset_alignment,
            )
            .max(1);
            let (_, _, scratch) = self.address_buffer(
                sizes.build_scratch_size + align,
                vk::BufferUsageFlags::STORAGE_BUFFER,
                false,
                &[],
            )?;
            info = info.dst_acceleration_structure(structure).scratch_data(
                vk::DeviceOrHostAddressKHR {
                    device_address: scratch.next_multiple_of(align),
                },
            );
            let range =
                vk::AccelerationStructureBuildRangeInfoKHR::default().primitive_count(count);
            accel.cmd_build_acceleration_structures(cmd, &[info], &[&[range]]);
            Ok(structure)
        }
    }
}

/// The 64 bytes of `VkAccelerationStructureInstanceKHR` for `inst` over
/// the bottom-level structure at `bottom`.
fn instance_record(inst: &Instance, bottom: vk::DeviceAddress) -> Vec<u8> {
    let mut out: Vec<u8> = inst
        .transform
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    // Two 24:8 bit fields, low bits first (the C bitfields of the spec).
    let packed = |low: u32, high: u8| (low & 0x00ff_ffff) | (u32::from(high) << 24);
    out.extend(packed(inst.custom_index, inst.mask).to_le_bytes());
    out.extend(packed(inst.sbt_offset, inst.flags.as_raw() as u8).to_le_bytes());
    out.extend(bottom.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record has the size and field places of the C structure.
    #[test]
    fn instance_record_matches_the_vulkan_structure() {
        let inst = Instance {
            sbt_offset: 3,
            flags: vk::GeometryInstanceFlagsKHR::TRIANGLE_FACING_CULL_DISABLE,
            ..Instance::new(Instance::IDENTITY, 0x12_3456, 0xA5)
        };
        let bytes = instance_record(&inst, 0x1122_3344_5566_7788);
        assert_eq!(
            bytes.len(),
            std::mem::size_of::<vk::AccelerationStructureInstanceKHR>()
        );
        let word = |i: usize| u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(f32::from_bits(word(0)), 1.0);
        assert_eq!(f32::from_bits(word(5)), 1.0);
        assert_eq!(word(12), 0xA512_3456);
        assert_eq!(word(13), 0x0100_0003);
        assert_eq!(&bytes[56..], &0x1122_3344_5566_7788u64.to_le_bytes());
    }
}
