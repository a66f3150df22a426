//! Ray tracing runs: a pipeline of raygen, miss and hit-group shaders from
//! one module (what a `lib_6_x` profile makes), its shader binding table,
//! `vkCmdTraceRaysKHR`, and the buffers read back — plus the features and
//! limits of VK_KHR_acceleration_structure, VK_KHR_ray_tracing_pipeline and
//! VK_KHR_ray_query that the device reports. Ray queries need no pipeline of
//! their own: any run (a compute dispatch, a draw) binds an
//! [`acceleration structure`](super::Resource::acceleration_structure).
//!
//! ```ignore
//! let mut res = [Resource::acceleration_structure(0, 0, scene),
//!                Resource::storage(0, 1, vec![0; 48 * n])];
//! let mut rt = RayTracing::new(&words, "RayGen", [w, h, 1]);
//! rt.miss = vec!["Miss"];
//! rt.hit_groups = vec![HitGroup::closest("ClosestHit")];
//! runner.trace_rays(&rt, &mut res)?;
//! ```

use super::interface::{self, EntryPoint};
use super::resource::Resource;
use super::scope::{Object, Scope};
use super::{Runner, entry_name, on};
use ash::vk;
use std::ffi::{CStr, CString};
use std::time::Duration;

/// `ExecutionModel`s of the ray tracing stages (SPIR-V spec 3.3, SPV_KHR_ray_tracing).
const MODEL_RAYGEN: u32 = 5313;
const MODEL_ANY_HIT: u32 = 5315;
const MODEL_CLOSEST_HIT: u32 = 5316;
const MODEL_MISS: u32 = 5317;

/// Every stage a ray tracing pipeline's descriptors are visible to.
const RAY_TRACING_STAGES: vk::ShaderStageFlags = vk::ShaderStageFlags::from_raw(
    vk::ShaderStageFlags::RAYGEN_KHR.as_raw()
        | vk::ShaderStageFlags::ANY_HIT_KHR.as_raw()
        | vk::ShaderStageFlags::CLOSEST_HIT_KHR.as_raw()
        | vk::ShaderStageFlags::MISS_KHR.as_raw()
        | vk::ShaderStageFlags::INTERSECTION_KHR.as_raw()
        | vk::ShaderStageFlags::CALLABLE_KHR.as_raw(),
);

/// What the device offers for ray tracing; every field false or zero
/// without the extensions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RayTracingFeatures {
    pub acceleration_structure: vk::PhysicalDeviceAccelerationStructureFeaturesKHR<'static>,
    pub pipeline: vk::PhysicalDeviceRayTracingPipelineFeaturesKHR<'static>,
    pub ray_query: vk::PhysicalDeviceRayQueryFeaturesKHR<'static>,
    /// Scratch alignment, instance and primitive limits.
    pub acceleration_structure_properties:
        vk::PhysicalDeviceAccelerationStructurePropertiesKHR<'static>,
    /// Shader group handle size and alignments, recursion depth.
    pub pipeline_properties: vk::PhysicalDeviceRayTracingPipelinePropertiesKHR<'static>,
}

impl RayTracingFeatures {
    /// Whether ray tracing pipelines can run (with buffer device addresses).
    pub fn pipelines(&self, buffer_device_address: bool) -> bool {
        buffer_device_address
            && on(self.acceleration_structure.acceleration_structure)
            && on(self.pipeline.ray_tracing_pipeline)
    }

    /// Whether shaders can use ray queries (with buffer device addresses).
    pub fn ray_queries(&self, buffer_device_address: bool) -> bool {
        buffer_device_address
            && on(self.acceleration_structure.acceleration_structure)
            && on(self.ray_query.ray_query)
    }

    /// The report's line.
    pub fn report(&self, buffer_device_address: bool) -> String {
        let yn = |b: vk::Bool32| if on(b) { "yes" } else { "no" };
        let p = &self.pipeline_properties;
        let a = &self.acceleration_structure_properties;
        format!(
            "ray tracing: acceleration structures {}, pipelines {}, ray queries {}, buffer device address {}; \
             shader group handle {} bytes (alignment {}, base alignment {}), max recursion {}, \
             scratch alignment {}, max instances {}\n",
            yn(self.acceleration_structure.acceleration_structure),
            yn(self.pipeline.ray_tracing_pipeline),
            yn(self.ray_query.ray_query),
            if buffer_device_address { "yes" } else { "no" },
            p.shader_group_handle_size,
            p.shader_group_handle_alignment,
            p.shader_group_base_alignment,
            p.max_ray_recursion_depth,
            a.min_acceleration_structure_scratch_offset_alignment,
            a.max_instance_count,
        )
    }
}

/// The structures `create_device` chains to query and enable the ray
/// tracing features and to read the limits.
#[derive(Default)]
pub(super) struct FeatureChain(RayTracingFeatures);

impl FeatureChain {
    /// Adds the feature structures of the `enabled` extensions to `chain`.
    pub(super) fn features<'a>(
        &'a mut self,
        mut chain: vk::PhysicalDeviceFeatures2<'a>,
        enabled: &[&CStr],
    ) -> vk::PhysicalDeviceFeatures2<'a> {
        let f = &mut self.0;
        if enabled.contains(&c"VK_KHR_acceleration_structure") {
            chain = chain.push_next(&mut f.acceleration_structure);
        }
        if enabled.contains(&c"VK_KHR_ray_tracing_pipeline") {
            chain = chain.push_next(&mut f.pipeline);
        }
        if enabled.contains(&c"VK_KHR_ray_query") {
            chain = chain.push_next(&mut f.ray_query);
        }
        chain
    }

    /// Adds the property structures of the `enabled` extensions to `chain`.
    pub(super) fn properties<'a>(
        &'a mut self,
        mut chain: vk::PhysicalDeviceProperties2<'a>,
        enabled: &[&CStr],
    ) -> vk::PhysicalDeviceProperties2<'a> {
        let f = &mut self.0;
        if enabled.contains(&c"VK_KHR_acceleration_structure") {
            chain = chain.push_next(&mut f.acceleration_structure_properties);
        }
        if enabled.contains(&c"VK_KHR_ray_tracing_pipeline") {
            chain = chain.push_next(&mut f.pipeline_properties);
        }
        chain
    }

    /// What was queried, out of the chains.
    pub(super) fn unchained(self) -> RayTracingFeatures {
        let f = self.0;
        RayTracingFeatures {
            acceleration_structure: super::unchain(f.acceleration_structure),
            pipeline: super::unchain(f.pipeline),
            ray_query: super::unchain(f.ray_query),
            acceleration_structure_properties: super::unchain(f.acceleration_structure_properties),
            pipeline_properties: super::unchain(f.pipeline_properties),
        }
    }
}

/// A triangle hit group: its closest-hit and any-hit entry points.
#[derive(Clone, Copy, Debug, Default)]
pub struct HitGroup<'a> {
    pub closest_hit: Option<&'a str>,
    pub any_hit: Option<&'a str>,
}

impl<'a> HitGroup<'a> {
    /// A hit group of one closest-hit shader.
    pub fn closest(entry: &'a str) -> HitGroup<'a> {
        HitGroup {
            closest_hit: Some(entry),
            any_hit: None,
        }
    }
}

/// One `vkCmdTraceRaysKHR` over a pipeline made from one module.
#[derive(Clone, Debug)]
pub struct RayTracing<'a> {
    pub spirv: &'a [u32],
    pub raygen: &'a str,
    /// Miss shaders: `MissShaderIndex` of `TraceRay` picks one.
    pub miss: Vec<&'a str>,
    /// Hit groups, in shader binding table order.
    pub hit_groups: Vec<HitGroup<'a>>,
    /// Rays launched: `DispatchRaysDimensions()`.
    pub size: [u32; 3],
    /// `maxPipelineRayRecursionDepth`: 1 lets raygen trace rays.
    pub max_recursion: u32,
    pub timeout: Duration,
}

impl<'a> RayTracing<'a> {
    /// A launch of `size` rays from `raygen`, with no miss shader and no hit
    /// group yet.
    pub fn new(spirv: &'a [u32], raygen: &'a str, size: [u32; 3]) -> RayTracing<'a> {
        RayTracing {
            spirv,
            raygen,
            miss: Vec::new(),
            hit_groups: Vec::new(),
            size,
            max_recursion: 1,
            timeout: Duration::from_secs(10),
        }
    }

    /// The shader stages: (entry, model, Vulkan stage), raygen first, then
    /// the misses, then each hit group's shaders.
    fn stages(&self) -> Vec<(&'a str, u32, vk::ShaderStageFlags)> {
        let mut out = vec![(self.raygen, MODEL_RAYGEN, vk::ShaderStageFlags::RAYGEN_KHR)];
        for m in &self.miss {
            out.push((m, MODEL_MISS, vk::ShaderStageFlags::MISS_KHR));
        }
        for g in &self.hit_groups {
            if let Some(c) = g.closest_hit {
                out.push((c, MODEL_CLOSEST_HIT, vk::ShaderStageFlags::CLOSEST_HIT_KHR));
            }
            if let Some(a) = g.any_hit {
                out.push((a, MODEL_ANY_HIT, vk::ShaderStageFlags::ANY_HIT_KHR));
            }
        }
        out
    }
}

/// Where the regions of a shader binding table lie in its buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SbtLayout {
    /// Bytes between two handles of the miss and hit regions.
    pub handle_stride: u64,
    /// (offset, stride, size) of the raygen, miss and hit regions.
    pub raygen: (u64, u64, u64),
    pub miss: (u64, u64, u64),
    pub hit: (u64, u64, u64),
    pub total: u64,
}

/// Lays out one raygen record, `misses` and `hits` records. Each region
/// starts at a multiple of `base_alignment`
/// (VUID-vkCmdTraceRaysKHR-pRayGenShaderBindingTable-03682); strides are
/// multiples of `handle_alignment` (-stride-03686); the raygen region's
/// size equals its stride (VUID-vkCmdTraceRaysKHR-size-04023).
pub(super) fn sbt_layout(
    handle_size: u32,
    handle_alignment: u32,
    base_alignment: u32,
    misses: u64,
    hits: u64,
) -> SbtLayout {
    let base = u64::from(base_alignment.max(1));
    let stride = u64::from(handle_size).next_multiple_of(u64::from(handle_alignment.max(1)));
    let raygen_stride = stride.next_multiple_of(base);
    let raygen = (0, raygen_stride, raygen_stride);
    let miss_at = raygen_stride;
    let miss = (miss_at, stride, stride * misses);
    let hit_at = (miss_at + miss.2).next_multiple_of(base);
    let hit = (hit_at, stride, stride * hits);
    SbtLayout {
        handle_stride: stride,
        raygen,
        miss,
        hit,
        total: hit_at + hit.2,
    }
}

impl Runner {
    /// Creates a ray tracing pipeline from `rt`, binds `resources` (an
    /// acceleration structure among them), traces `rt.size` rays, and
    /// copies every buffer back into its resource's `data`.
    pub fn trace_rays(&self, rt: &RayTracing, resources: &mut [Resource]) -> Result<(), String> {
        if let Some(why) = self.broken() {
            return Err(format!("the Vulkan device is unusable: {why}"));
        }
        let layout = self.check_ray_tracing(rt, resources)?;
        let mut scope = Scope {
            runner: self,
            objects: Vec::new(),
            leak: false,
        };
        // SAFETY: `check_ray_tracing` established what Vulkan requires of
        // the module, the resources and the launch; `scope` destroys every
        // object after the fence signalled (or leaks them if it never did).
        unsafe { scope.trace_rays(rt, resources, &layout) }
    }

    /// Checks a launch against the device and the module; returns the
    /// descriptor set layouts.
    fn check_ray_tracing(
        &self,
        rt: &RayTracing,
        resources: &[Resource],
    ) -> Result<super::check::Layout, String> {
        let info = &self.info;
        let features = &info.ray_tracing;
        if !features.pipelines(on(info.features12.buffer_device_address))
            || self.ray_tracing_pipeline.is_none()
        {
            return Err(format!(
                "{} offers no ray tracing pipelines (VK_KHR_ray_tracing_pipeline, \
                 VK_KHR_acceleration_structure, bufferDeviceAddress)",
                info.name
            ));
        }
        let p = &features.pipeline_properties;
        if rt.max_recursion > p.max_ray_recursion_depth {
            return Err(format!(
                "recursion depth {}: the device allows {}",
                rt.max_recursion, p.max_ray_recursion_depth
            ));
        }
        let rays = rt.size.iter().map(|&d| u64::from(d)).product::<u64>();
        let limits = &info.properties.limits;
        // VUID-vkCmdTraceRaysKHR-width-03638 .. -depth-03642, -width-03641.
        let too_wide = (0..3).any(|i| {
            u64::from(rt.size[i])
                > u64::from(limits.max_compute_work_group_count[i])
                    * u64::from(limits.max_compute_work_group_size[i])
        });
        if rays == 0 || too_wide || rays > u64::from(p.max_ray_dispatch_invocation_count) {
            return Err(format!(
                "a launch of {:?} rays: the device allows up to {} in all",
                rt.size, p.max_ray_dispatch_invocation_count
            ));
        }
        let module = interface::scan(rt.spirv)?;
        if module.version > info.max_spirv_version || module.version < (1, 4) {
            return Err(format!(
                "the module is SPIR-V {}.{}; ray tracing needs 1.4 to {}.{}",
                module.version.0,
                module.version.1,
                info.max_spirv_version.0,
                info.max_spirv_version.1
            ));
        }
        let mut entries: Vec<&EntryPoint> = Vec::new();
        for (name, model, stage) in rt.stages() {
            let ep = module
                .entry_point(name, model)
                .ok_or_else(|| format!("no {stage:?} entry point named `{name}` in the module"))?;
            if module.uses_push_constants(ep) {
                return Err(format!(
                    "`{name}` declares push constants; ray tracing runs give none"
                ));
            }
            entries.push(ep);
        }
        self.resource_layout(&module, &entries, resources)
    }
}

impl Scope<'_> {
    unsafe fn trace_rays(
        &mut self,
        rt: &RayTracing,
        resources: &mut [Resource],
        layout: &super::check::Layout,
    ) -> Result<(), String> {
        let r = self.runner;
        let d = &r.device;
        let rtp = r
            .ray_tracing_pipeline
            .as_ref()
            .ok_or("VK_KHR_ray_tracing_pipeline is not enabled")?;
        unsafe {
            let set_layouts = self.set_layouts(layout, RAY_TRACING_STAGES)?;
            let layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
            let pipeline_layout = self.track(
                d.create_pipeline_layout(&layout_info, None),
                Object::PipelineLayout,
                "vkCreatePipelineLayout",
            )?;
            let (pipeline, groups) = self.ray_tracing_pipeline(rt, pipeline_layout)?;
            let table = self.shader_binding_table(rt, pipeline, groups)?;
            let (sets, backings) =
                self.descriptor_sets(layout, &set_layouts, resources, rt.timeout)?;

            let cmd = self.begin_commands()?;
            let stage = vk::PipelineStageFlags::RAY_TRACING_SHADER_KHR;
            self.record_uploads(cmd, resources, &backings, stage);
            let bind = vk::PipelineBindPoint::RAY_TRACING_KHR;
            d.cmd_bind_pipeline(cmd, bind, pipeline);
            if !sets.is_empty() {
                d.cmd_bind_descriptor_sets(cmd, bind, pipeline_layout, 0, &sets, &[]);
            }
            let [w, h, depth] = rt.size;
            rtp.cmd_trace_rays(cmd, &table[0], &table[1], &table[2], &table[3], w, h, depth);
            self.record_read_back(cmd, resources, &backings, stage);
            d.end_command_buffer(cmd)
                .map_err(|e| format!("vkEndCommandBuffer: {e}"))?;
            self.submit_and_wait(cmd, rt.timeout, &format!("a launch of `{}`", rt.raygen))?;
            super::dispatch::read_back(resources, &backings);
            Ok(())
        }
    }

    /// The pipeline of `rt`'s stages, and how many shader groups it has
    /// (raygen, misses, hit groups, in that order).
    unsafe fn ray_tracing_pipeline(
        &mut self,
        rt: &RayTracing,
        layout: vk::PipelineLayout,
    ) -> Result<(vk::Pipeline, u32), String> {
        let r = self.runner;
        let rtp = r
            .ray_tracing_pipeline
            .as_ref()
            .ok_or("VK_KHR_ray_tracing_pipeline is not enabled")?;
        unsafe {
            let module = self.track(
                r.device.create_shader_module(
                    &vk::ShaderModuleCreateInfo::default().code(rt.spirv),
                    None,
                ),
                Object::ShaderModule,
                "vkCreateShaderModule",
            )?;
            let stages = rt.stages();
            let names: Vec<CString> = stages
                .iter()
                .map(|(n, ..)| entry_name(n).ok_or("an entry point name contains a NUL byte"))
                .collect::<Result<_, _>>()?;
            let stage_infos: Vec<vk::PipelineShaderStageCreateInfo> = stages
                .iter()
                .zip(&names)
                .map(|(&(_, _, stage), name)| {
                    vk::PipelineShaderStageCreateInfo::default()
                        .stage(stage)
                        .module(module)
                        .name(name)
                })
                .collect();
            // Stage indices follow `stages()`: raygen, misses, then each
            // group's closest hit before its any hit.
            let general = |i: usize| {
                vk::RayTracingShaderGroupCreateInfoKHR::default()
                    .ty(vk::RayTracingShaderGroupTypeKHR::GENERAL)
                    .general_shader(i as u32)
                    .closest_hit_shader(vk::SHADER_UNUSED_KHR)
                    .any_hit_shader(vk::SHADER_UNUSED_KHR)
                    .intersection_shader(vk::SHADER_UNUSED_KHR)
            };
            let mut groups: Vec<_> = (0..=rt.miss.len()).map(general).collect();
            let mut next = rt.miss.len() as u32 + 1;
            let mut take = |used: bool| {
                if used {
                    next += 1;
                    next - 1
                } else {
                    vk::SHADER_UNUSED_KHR
                }
            };
            for g in &rt.hit_groups {
                let closest = take(g.closest_hit.is_some());
                let any = take(g.any_hit.is_some());
                groups.push(
                    vk::RayTracingShaderGroupCreateInfoKHR::default()
                        .ty(vk::RayTracingShaderGroupTypeKHR::TRIANGLES_HIT_GROUP)
                        .general_shader(vk::SHADER_UNUSED_KHR)
                        .closest_hit_shader(closest)
                        .any_hit_shader(any)
                        .intersection_shader(vk::SHADER_UNUSED_KHR),
                );
            }
            let info = [vk::RayTracingPipelineCreateInfoKHR::default()
                .stages(&stage_infos)
                .groups(&groups)
                .max_pipeline_ray_recursion_depth(rt.max_recursion)
                .layout(layout)];
            let pipeline = match rtp.create_ray_tracing_pipelines(
                vk::DeferredOperationKHR::null(),
                vk::PipelineCache::null(),
                &info,
                None,
            ) {
                Ok(p) => self.track(Ok(p[0]), Object::Pipeline, "")?,
                Err((_, e)) => return Err(format!("vkCreateRayTracingPipelinesKHR: {e}")),
            };
            Ok((pipeline, groups.len() as u32))
        }
    }

    /// The shader binding table of `pipeline`'s `groups` handles in a
    /// host-visible buffer; returns the raygen, miss, hit and (empty)
    /// callable regions.
    unsafe fn shader_binding_table(
        &mut self,
        rt: &RayTracing,
        pipeline: vk::Pipeline,
        groups: u32,
    ) -> Result<[vk::StridedDeviceAddressRegionKHR; 4], String> {
        let r = self.runner;
        let rtp = r
            .ray_tracing_pipeline
            .as_ref()
            .ok_or("VK_KHR_ray_tracing_pipeline is not enabled")?;
        let p = &r.info.ray_tracing.pipeline_properties;
        let size = p.shader_group_handle_size as usize;
        let sbt = sbt_layout(
            p.shader_group_handle_size,
            p.shader_group_handle_alignment,
            p.shader_group_base_alignment,
            rt.miss.len() as u64,
            rt.hit_groups.len() as u64,
        );
        unsafe {
            let handles = rtp
                .get_ray_tracing_shader_group_handles(pipeline, 0, groups, size * groups as usize)
                .map_err(|e| format!("vkGetRayTracingShaderGroupHandlesKHR: {e}"))?;
            // Records in group order: raygen, misses, hit groups.
            let mut offsets = vec![sbt.raygen.0];
            offsets.extend((0..rt.miss.len() as u64).map(|i| sbt.miss.0 + i * sbt.handle_stride));
            offsets
                .extend((0..rt.hit_groups.len() as u64).map(|i| sbt.hit.0 + i * sbt.handle_stride));
            // Room to move the table's start up to the base alignment.
            let base = u64::from(p.shader_group_base_alignment.max(1));
            let mut bytes = vec![0u8; (sbt.total + base) as usize];
            let (_, ptr, address) = self.address_buffer(
                bytes.len() as u64,
                vk::BufferUsageFlags::SHADER_BINDING_TABLE_KHR,
                true,
                &[],
            )?;
            let start = address.next_multiple_of(base);
            let shift = (start - address) as usize;
            for (g, &at) in offsets.iter().enumerate() {
                let at = shift + at as usize;
                bytes[at..at + size].copy_from_slice(&handles[g * size..(g + 1) * size]);
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
            let region =
                |(offset, stride, size): (u64, u64, u64)| vk::StridedDeviceAddressRegionKHR {
                    device_address: if size == 0 { 0 } else { start + offset },
                    stride: if size == 0 { 0 } else { stride },
                    size,
                };
            Ok([
                region(sbt.raygen),
                region(sbt.miss),
                region(sbt.hit),
                vk::StridedDeviceAddressRegionKHR::default(),
            ])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NVIDIA's figures (32-byte handles, alignment 32, base 64) and a
    /// handle smaller than its alignment.
    #[test]
    fn shader_binding_table_regions_are_aligned() {
        let t = sbt_layout(32, 32, 64, 2, 3);
        assert_eq!(t.raygen, (0, 64, 64));
        assert_eq!(t.miss, (64, 32, 64));
        assert_eq!(t.hit, (128, 32, 96));
        assert_eq!(t.total, 224);
        let t = sbt_layout(16, 32, 128, 1, 1);
        assert_eq!(t.handle_stride, 32);
        assert_eq!(t.raygen, (0, 128, 128));
        assert_eq!(t.miss, (128, 32, 32));
        assert_eq!(t.hit, (256, 32, 32));
        // No hit groups: an empty region after the misses.
        let t = sbt_layout(32, 32, 64, 1, 0);
        assert_eq!(t.hit, (128, 32, 0));
    }
}
