//! A Vulkan runner for runtime tests: dispatches a SPIR-V compute
//! shader on a real driver and copies its buffers and storage images back,
//! so that a test can check the numbers a compiled shader computes.
//!
//! ```ignore
//! let runner = vk::shared();            // fails the test if Vulkan is missing
//! let mut res = [Resource::storage(0, 0, vk::f32_bytes(&input)),
//!                Resource::storage(0, 1, vec![0; 4 * n])];
//! runner.run_compute(&words, "main", &mut res, &[], [n / 64, 1, 1])?;
//! let out = vk::to_f32s(&res[1].data);
//! ```
//!
//! Draws work the same way: [`Runner::draw`] (`graphics.rs`) runs a vertex
//! and a pixel shader into float render targets and returns their texels.
//!
//! # Which device
//! By default Mesa's lavapipe (the CPU driver named `llvmpipe`, package
//! `mesa-vulkan-drivers`), else the first device. `HLSLC_VK_DEVICE=<text>`
//! picks the first device whose name contains `<text>`, ignoring case, and
//! fails when none does:
//!
//! ```sh
//! HLSLC_VK_DEVICE=llvmpipe cargo test vk::     # lavapipe, the default
//! HLSLC_VK_DEVICE=NVIDIA   cargo test vk::     # the GPU, where there is one
//! ```
//!
//! # On the NVIDIA machine
//! Build the test binary here (`cargo test --release --lib --no-run` prints its path
//! under `target/release/deps/hlslc-*`, the library's unit tests) and carry it, with the Debian packages
//! `libvulkan1` and `spirv-tools` (the tests assemble and validate with
//! spirv-as/spirv-val; both packages are self-contained) unpacked with
//! `dpkg -x`, plus glvnd's EGL/GLX libraries that the NVIDIA ICD loads (see
//! the shared VULKAN-NOTES.md). Then, from the repository root:
//!
//! ```sh
//! export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
//! HLSLC_VK_DEVICE=NVIDIA ./hlslc-<hash> tests::vk:: --nocapture
//! ```
//!
//! `vk::selftest::device_report` prints the device, its driver and the
//! features and properties the tests branch on. `cargo run --example
//! vk_probe` does the same and runs one dispatch from SPIR-V words built into
//! the program, needing no spirv-tools at all.
//!
//! # Robustness
//! - The instance and device are created once per process and shared
//!   ([`shared`]); each dispatch creates and destroys its own objects
//!   ([`Runner::live_objects`] counts them, so leaks show).
//! - A failed run is an `Err(String)`: bad SPIR-V header, a missing entry
//!   point, resources that do not match what the shader declares, Vulkan
//!   errors, device loss, and a fence that does not signal in time (10 s by
//!   default). A device that was lost or timed out is replaced by a fresh one
//!   on the next call of [`shared`].
//! - Without a Vulkan loader or device every test that asks for the runner
//!   fails, saying what to install: Vulkan tests are never skipped silently.
#![allow(dead_code)]

mod accel;
mod address;
mod check;
mod dispatch;
mod graphics;
mod interface;
pub mod mesh;
pub mod probe;
mod raytracing;
mod resource;
mod scope;
#[cfg(test)]
mod selftest;
pub mod sparse;
pub mod subpass;

#[allow(unused_imports)]
pub use accel::{Instance, Scene};
#[allow(unused_imports)] // a toolbox for tests: not every helper is used yet
pub use dispatch::ComputeOptions;
#[allow(unused_imports)]
pub use graphics::{Draw, TARGET_FORMAT, VertexBuffer};
#[allow(unused_imports)]
pub use mesh::MeshStages;
#[allow(unused_imports)]
pub use raytracing::{HitGroup, RayTracing, RayTracingFeatures};
#[allow(unused_imports)]
pub use resource::{
    ImageDesc, Resource, ResourceKind, SamplerDesc, f32_bytes, i32_bytes, to_f32s, to_i32s,
    to_u32s, u32_bytes,
};
#[allow(unused_imports)]
pub use sparse::{SparseImage, SparseLayout, Tile};

use ash::vk;
use std::ffi::{CStr, CString, c_char};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The environment variable that selects a device by name.
pub const DEVICE_VAR: &str = "HLSLC_VK_DEVICE";

/// What to tell someone whose machine has no Vulkan.
pub const INSTALL_HINT: &str = "install the Vulkan loader and Mesa's CPU driver (lavapipe): \
     `apt-get install mesa-vulkan-drivers libvulkan1` (Debian/Ubuntu)";

/// Device extensions enabled when the device has them. None is needed for
/// the basics; each opens a kind of test (`InterlockedAdd` on floats, 64-bit
/// image atomics, derivatives in compute shaders, DXC's reflection
/// decorations, robust descriptors, wave reconvergence rules).
const OPTIONAL_EXTENSIONS: &[&CStr] = &[
    c"VK_EXT_shader_atomic_float",
    c"VK_EXT_shader_atomic_float2",
    c"VK_EXT_shader_image_atomic_int64",
    c"VK_NV_compute_shader_derivatives",
    c"VK_KHR_shader_subgroup_uniform_control_flow",
    c"VK_KHR_shader_maximal_reconvergence",
    c"VK_KHR_shader_quad_control",
    // `WaveMatch`, `WaveMultiPrefix*` (SPV_NV_shader_subgroup_partitioned).
    c"VK_NV_shader_subgroup_partitioned",
    c"VK_EXT_robustness2",
    c"VK_KHR_fragment_shader_barycentric",
    c"VK_EXT_shader_demote_to_helper_invocation",
    c"VK_EXT_shader_stencil_export",
    c"VK_EXT_shader_viewport_index_layer",
    // Geometry shaders with several output streams (geometryStreams).
    c"VK_EXT_transform_feedback",
    c"VK_GOOGLE_hlsl_functionality1",
    c"VK_GOOGLE_user_type",
    c"VK_GOOGLE_decorate_string",
    // Ray tracing pipelines and ray queries over acceleration structures
    // (tests/unit/vk/accel.rs, raytracing.rs).
    c"VK_KHR_deferred_host_operations",
    c"VK_KHR_acceleration_structure",
    c"VK_KHR_ray_tracing_pipeline",
    c"VK_KHR_ray_query",
];

/// Extensions of the mesh, ray tracing and ray query stages, which the
/// report lists as offered or not (issue 13's probe).
const MODERN_STAGE_EXTENSIONS: &[&str] = &[
    "VK_EXT_mesh_shader",
    "VK_NV_mesh_shader",
    "VK_KHR_acceleration_structure",
    "VK_KHR_ray_tracing_pipeline",
    "VK_KHR_ray_query",
    "VK_KHR_ray_tracing_position_fetch",
    "VK_KHR_ray_tracing_maintenance1",
    "VK_NV_ray_tracing_motion_blur",
    "VK_EXT_opacity_micromap",
    "VK_KHR_deferred_host_operations",
    "VK_AMDX_shader_enqueue",
];

/// What the chosen device is and what was enabled on it. Feature and
/// property structures are Vulkan's own (their `p_next` is null): a feature
/// is enabled exactly when its field is `vk::TRUE`, since the runner enables
/// every feature of these structures that the device supports.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// `VkPhysicalDeviceProperties::deviceName`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// Driver name and version text from `VkPhysicalDeviceVulkan12Properties`.
    pub driver_name: String,
    pub driver_info: String,
    /// `vk::DriverId::MESA_LLVMPIPE`, `vk::DriverId::NVIDIA_PROPRIETARY`, …
    pub driver_id: vk::DriverId,
    /// The Vulkan version in use: the lower of the instance's and the device's.
    pub api_version: u32,
    /// The newest SPIR-V version the device accepts (1.5 at Vulkan 1.2, 1.6 at 1.3),
    /// as (major, minor).
    pub max_spirv_version: (u32, u32),
    /// Names of all devices seen, for messages.
    pub all_devices: Vec<String>,
    /// What the runner's one queue can do (`SPARSE_BINDING` for the
    /// tiled-resources tests).
    pub queue_flags: vk::QueueFlags,
    /// Device extensions enabled (optional ones the device has).
    pub extensions: Vec<String>,
    /// Every extension the device offers, enabled or not (for the report).
    pub available_extensions: Vec<String>,
    pub properties: vk::PhysicalDeviceProperties,
    /// Subgroup size, stages and operations.
    pub properties11: vk::PhysicalDeviceVulkan11Properties<'static>,
    /// Float controls (denorm, rounding, signed zero/inf/nan), driver id.
    pub properties12: vk::PhysicalDeviceVulkan12Properties<'static>,
    /// Subgroup size control range (min/max subgroup size); zero below Vulkan 1.3.
    pub properties13: vk::PhysicalDeviceVulkan13Properties<'static>,
    pub features: vk::PhysicalDeviceFeatures,
    pub features11: vk::PhysicalDeviceVulkan11Features<'static>,
    pub features12: vk::PhysicalDeviceVulkan12Features<'static>,
    /// All false below Vulkan 1.3.
    pub features13: vk::PhysicalDeviceVulkan13Features<'static>,
    /// `VK_EXT_shader_atomic_float`; all false without the extension.
    pub atomic_float: vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT<'static>,
    pub atomic_float2: vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT<'static>,
    pub image_atomic_int64: vk::PhysicalDeviceShaderImageAtomicInt64FeaturesEXT<'static>,
    pub compute_derivatives: vk::PhysicalDeviceComputeShaderDerivativesFeaturesNV<'static>,
    pub robustness2: vk::PhysicalDeviceRobustness2FeaturesEXT<'static>,
    /// `VK_KHR_fragment_shader_barycentric` (`SV_Barycentrics`); all false
    /// without the extension.
    pub barycentric: vk::PhysicalDeviceFragmentShaderBarycentricFeaturesKHR<'static>,
    /// `VK_EXT_transform_feedback` (its `geometryStreams` lets a geometry
    /// shader write several streams); all false without the extension.
    pub transform_feedback: vk::PhysicalDeviceTransformFeedbackFeaturesEXT<'static>,
    /// Its limits (`transformFeedbackStreamsLinesTriangles`: several
    /// streams of lines or triangles); zero without the extension.
    pub transform_feedback_properties: vk::PhysicalDeviceTransformFeedbackPropertiesEXT<'static>,
    /// Acceleration structures, ray tracing pipelines and ray queries:
    /// features and limits, all false or zero without the extensions.
    pub ray_tracing: RayTracingFeatures,
    /// `VK_EXT_mesh_shader`: the task and mesh shader features enabled;
    /// all false without the extension.
    pub mesh_shader: vk::PhysicalDeviceMeshShaderFeaturesEXT<'static>,
    /// `VK_NV_mesh_shader`: the same, for SPV_NV_mesh_shader modules.
    pub mesh_shader_nv: vk::PhysicalDeviceMeshShaderFeaturesNV<'static>,
}

/// `vk::Bool32` as `bool`.
pub fn on(b: vk::Bool32) -> bool {
    b == vk::TRUE
}

impl DeviceInfo {
    /// The task and mesh shader features enabled for the EXT or (`nv`)
    /// the NV extension.
    pub fn mesh_enabled(&self, nv: bool) -> mesh::Enabled {
        let on = |b: vk::Bool32| b == vk::TRUE;
        if nv {
            let f = &self.mesh_shader_nv;
            mesh::Enabled {
                task: on(f.task_shader),
                mesh: on(f.mesh_shader),
            }
        } else {
            let f = &self.mesh_shader;
            mesh::Enabled {
                task: on(f.task_shader),
                mesh: on(f.mesh_shader),
            }
        }
    }

    /// True when the device runs on Mesa's lavapipe.
    pub fn is_lavapipe(&self) -> bool {
        self.driver_id == vk::DriverId::MESA_LLVMPIPE
    }
    /// True for NVIDIA's proprietary driver.
    pub fn is_nvidia(&self) -> bool {
        self.driver_id == vk::DriverId::NVIDIA_PROPRIETARY
    }
    /// Whether a device extension was enabled.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }
    /// The subgroup (wave) size: 8 on lavapipe, 32 on NVIDIA. Tests must
    /// not assume one.
    pub fn subgroup_size(&self) -> u32 {
        self.properties11.subgroup_size
    }
    /// `Version 1.3` style text of `api_version`.
    pub fn api_version_text(&self) -> String {
        let v = self.api_version;
        format!(
            "{}.{}.{}",
            vk::api_version_major(v),
            vk::api_version_minor(v),
            vk::api_version_patch(v)
        )
    }
    /// A multi-line description for test logs.
    pub fn report(&self) -> String {
        let p12 = &self.properties12;
        let f = &self.features;
        let (f11, f12, f13) = (&self.features11, &self.features12, &self.features13);
        let yn = |b: vk::Bool32| if on(b) { "yes" } else { "no" };
        let mut s = String::new();
        s += &format!(
            "device: {} ({:?})\n",
            self.name, self.properties.device_type
        );
        s += &format!(
            "driver: {:?} {} {}\n",
            self.driver_id, self.driver_name, self.driver_info
        );
        s += &format!(
            "vulkan {}, SPIR-V up to {}.{}\n",
            self.api_version_text(),
            self.max_spirv_version.0,
            self.max_spirv_version.1
        );
        s += &format!("all devices: {}\n", self.all_devices.join(" | "));
        let offered = |n: &str| {
            if self.available_extensions.iter().any(|e| e == n) {
                "yes"
            } else {
                "no"
            }
        };
        s += "modern stages offered:";
        for n in MODERN_STAGE_EXTENSIONS {
            s += &format!(" {n} {}", offered(n));
        }
        s += "\n";
        s += &format!(
            "pixel shaders: barycentrics {}, demote/helper {}, stencil export {}; vertex output layer {} viewport {}\n",
            yn(self.barycentric.fragment_shader_barycentric),
            yn(f13.shader_demote_to_helper_invocation).replace(
                "no",
                if self.has_extension("VK_EXT_shader_demote_to_helper_invocation") {
                    "yes"
                } else {
                    "no"
                }
            ),
            if self.has_extension("VK_EXT_shader_stencil_export") {
                "yes"
            } else {
                "no"
            },
            yn(f12.shader_output_layer),
            yn(f12.shader_output_viewport_index),
        );
        s += &format!(
            "subgroup: size {} (min {}, max {}), stages {:?}, ops {:?}\n",
            self.subgroup_size(),
            self.properties13.min_subgroup_size,
            self.properties13.max_subgroup_size,
            self.properties11.subgroup_supported_stages,
            self.properties11.subgroup_supported_operations
        );
        s += &format!(
            "float controls: signed-zero/inf/nan preserve f16 {} f32 {} f64 {}; denorm preserve f16 {} f32 {} f64 {}; flush-to-zero f16 {} f32 {} f64 {}\n",
            yn(p12.shader_signed_zero_inf_nan_preserve_float16),
            yn(p12.shader_signed_zero_inf_nan_preserve_float32),
            yn(p12.shader_signed_zero_inf_nan_preserve_float64),
            yn(p12.shader_denorm_preserve_float16),
            yn(p12.shader_denorm_preserve_float32),
            yn(p12.shader_denorm_preserve_float64),
            yn(p12.shader_denorm_flush_to_zero_float16),
            yn(p12.shader_denorm_flush_to_zero_float32),
            yn(p12.shader_denorm_flush_to_zero_float64),
        );
        s += &format!(
            "types: int64 {} float64 {} int16 {} float16 {} int8 {}; 16-bit storage {} (uniform {}), 8-bit storage {}\n",
            yn(f.shader_int64),
            yn(f.shader_float64),
            yn(f.shader_int16),
            yn(f12.shader_float16),
            yn(f12.shader_int8),
            yn(f11.storage_buffer16_bit_access),
            yn(f11.uniform_and_storage_buffer16_bit_access),
            yn(f12.storage_buffer8_bit_access),
        );
        s += &format!(
            "layout/memory: scalar block layout {}, vulkan memory model {}, maintenance4 {}, robust buffer access {}, 64-bit atomics (buffer) {}\n",
            yn(f12.scalar_block_layout),
            yn(f12.vulkan_memory_model),
            yn(f13.maintenance4),
            yn(f.robust_buffer_access),
            yn(f12.shader_buffer_int64_atomics),
        );
        let l = &self.properties.limits;
        s += &format!(
            "compute limits: workgroup count {:?}, size {:?}, invocations {}, shared memory {} bytes, push constants {} bytes\n",
            l.max_compute_work_group_count,
            l.max_compute_work_group_size,
            l.max_compute_work_group_invocations,
            l.max_compute_shared_memory_size,
            l.max_push_constants_size
        );
        let sp = &self.properties.sparse_properties;
        s += &format!(
            "sparse: binding {}, residency image2D {}, shader residency {}, min lod {}, non-resident strict {}, standard 2D block {}, queue with sparse binding {}\n",
            yn(f.sparse_binding),
            yn(f.sparse_residency_image2_d),
            yn(f.shader_resource_residency),
            yn(f.shader_resource_min_lod),
            yn(sp.residency_non_resident_strict),
            yn(sp.residency_standard2_d_block_shape),
            if self.queue_flags.contains(vk::QueueFlags::SPARSE_BINDING) {
                "yes"
            } else {
                "no"
            },
        );
        s += &self.ray_tracing.report(on(f12.buffer_device_address));
        s += &format!("extensions enabled: {}\n", self.extensions.join(", "));
        s
    }
}

/// One Vulkan instance and device with a compute queue. `Runner` is `Sync`:
/// each run creates its own objects (command pool included), and the queue,
/// which Vulkan requires to be externally synchronized
/// (vkQueueSubmit: "Host access to queue must be externally synchronized"),
/// sits behind a mutex. Runs from several test threads may overlap.
pub struct Runner {
    // Keeps the loader library open for as long as the instance lives.
    _entry: ash::Entry,
    instance: ash::Instance,
    physical_device: vk::PhysicalDevice,
    device: ash::Device,
    queue: Mutex<vk::Queue>,
    queue_family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    info: DeviceInfo,
    /// Set when the device was lost or a run did not finish in time: later
    /// runs fail fast, and [`shared`] replaces the runner.
    broken: Mutex<Option<String>>,
    /// Set when a run timed out: its objects may still be in use by the
    /// device, so they and the device are leaked rather than destroyed.
    abandoned: AtomicBool,
    /// Vulkan objects created by runs and not destroyed yet.
    live: AtomicIsize,
    /// VK_KHR_acceleration_structure and VK_KHR_ray_tracing_pipeline's
    /// functions, when enabled.
    accel: Option<ash::khr::acceleration_structure::Device>,
    ray_tracing_pipeline: Option<ash::khr::ray_tracing_pipeline::Device>,
}

impl Runner {
    /// Loads the Vulkan loader and creates an instance and a device with one
    /// compute queue; see the module docs for which device.
    pub fn new() -> Result<Runner, String> {
        // SAFETY: loading the system's Vulkan loader runs its initialisers;
        // that is what every Vulkan program does.
        let entry = unsafe { ash::Entry::load() }
            .map_err(|e| format!("cannot load the Vulkan loader (libvulkan.so.1): {e}"))?;
        // SAFETY: plain Vulkan calls with valid arguments; every object made
        // here is destroyed on failure below or by `Drop`.
        unsafe {
            let loader_version = entry
                .try_enumerate_instance_version()
                .map_err(|e| format!("vkEnumerateInstanceVersion: {e}"))?
                .unwrap_or(vk::API_VERSION_1_0);
            // Ask for 1.3 (the newest ash 0.38 knows); a 1.1/1.2 loader
            // gets its own version.
            let api = loader_version.min(vk::API_VERSION_1_3);
            if api < vk::API_VERSION_1_2 {
                return Err(format!(
                    "the Vulkan loader supports only {}.{}; the runner needs 1.2+",
                    vk::api_version_major(api),
                    vk::api_version_minor(api)
                ));
            }
            let app = vk::ApplicationInfo::default()
                .application_name(c"hlslc tests")
                .engine_name(c"hlslc")
                .api_version(api);
            let instance = entry
                .create_instance(
                    &vk::InstanceCreateInfo::default().application_info(&app),
                    None,
                )
                .map_err(|e| format!("vkCreateInstance: {e}"))?;
            match create_device(&instance, api) {
                Ok(d) => Ok(Runner {
                    accel: d
                        .info
                        .has_extension("VK_KHR_acceleration_structure")
                        .then(|| {
                            ash::khr::acceleration_structure::Device::new(&instance, &d.device)
                        }),
                    ray_tracing_pipeline: d
                        .info
                        .has_extension("VK_KHR_ray_tracing_pipeline")
                        .then(|| ash::khr::ray_tracing_pipeline::Device::new(&instance, &d.device)),
                    _entry: entry,
                    instance,
                    physical_device: d.physical_device,
                    device: d.device,
                    queue: Mutex::new(d.queue),
                    queue_family: d.queue_family,
                    memory: d.memory,
                    info: d.info,
                    broken: Mutex::new(None),
                    abandoned: AtomicBool::new(false),
                    live: AtomicIsize::new(0),
                }),
                Err(e) => {
                    instance.destroy_instance(None);
                    Err(e)
                }
            }
        }
    }
}

/// A device made on an instance, before it becomes a [`Runner`].
struct DeviceParts {
    physical_device: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    info: DeviceInfo,
}

/// Picks a device on `instance` (see the module docs) and creates it with
/// one compute queue and every supported feature.
unsafe fn create_device(
    instance: &ash::Instance,
    instance_api: u32,
) -> Result<DeviceParts, String> {
    unsafe {
        let devices = instance
            .enumerate_physical_devices()
            .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?;
        let names: Vec<String> = devices
            .iter()
            .map(|&d| c_text(&instance.get_physical_device_properties(d).device_name))
            .collect();
        if devices.is_empty() {
            return Err("the Vulkan loader found no device (no ICD installed?)".into());
        }
        let wanted = std::env::var(DEVICE_VAR).ok().filter(|s| !s.is_empty());
        let index = match &wanted {
            Some(w) => {
                let w = w.to_lowercase();
                names
                    .iter()
                    .position(|n| n.to_lowercase().contains(&w))
                    .ok_or_else(|| {
                        format!(
                            "{DEVICE_VAR}={w}: no such Vulkan device; devices: {}",
                            names.join(" | ")
                        )
                    })?
            }
            None => names
                .iter()
                .position(|n| n.contains("llvmpipe"))
                .unwrap_or(0),
        };
        let physical_device = devices[index];
        let props = instance.get_physical_device_properties(physical_device);
        let api = instance_api.min(props.api_version);
        if api < vk::API_VERSION_1_2 {
            return Err(format!(
                "{} supports Vulkan {}.{} only; the runner needs 1.2+",
                names[index],
                vk::api_version_major(props.api_version),
                vk::api_version_minor(props.api_version)
            ));
        }
        let has_13 = api >= vk::API_VERSION_1_3;
        // One queue runs everything. When the device binds sparse memory,
        // take a compute family that can (vkQueueBindSparse needs
        // SPARSE_BINDING: VUID-vkQueueBindSparse-queuetype), so that the
        // tiled-resources tests bind and dispatch on the same queue.
        let families = instance.get_physical_device_queue_family_properties(physical_device);
        let compute =
            |q: &vk::QueueFamilyProperties| q.queue_flags.contains(vk::QueueFlags::COMPUTE);
        let sparse_binding = on(instance
            .get_physical_device_features(physical_device)
            .sparse_binding);
        let queue_family = families
            .iter()
            .position(|q| {
                sparse_binding
                    && compute(q)
                    && q.queue_flags.contains(vk::QueueFlags::SPARSE_BINDING)
            })
            .or_else(|| families.iter().position(compute))
            .ok_or_else(|| format!("{} has no compute queue", names[index]))?;
        let queue_flags = families[queue_family].queue_flags;
        let queue_family = queue_family as u32;

        // Optional extensions the device has (quad control needs the
        // maximal-reconvergence extension, atomic float2 the first one).
        let available: Vec<String> = instance
            .enumerate_device_extension_properties(physical_device)
            .map_err(|e| format!("vkEnumerateDeviceExtensionProperties: {e}"))?
            .iter()
            .map(|e| c_text(&e.extension_name))
            .collect();
        let mut enabled: Vec<&CStr> = OPTIONAL_EXTENSIONS
            .iter()
            .copied()
            .filter(|e| available.iter().any(|a| a.as_bytes() == e.to_bytes()))
            .collect();
        drop_unmet_dependencies(&mut enabled);
        let has = |list: &[&CStr], n: &CStr| list.contains(&n);
        // Mesh shaders take SPIR-V 1.4, core from Vulkan 1.2.
        let mut mesh_features = if api >= vk::API_VERSION_1_2
            && available
                .iter()
                .any(|a| a.as_bytes() == mesh::EXTENSION.to_bytes())
        {
            enabled.push(mesh::EXTENSION);
            mesh::features_to_enable(instance, physical_device)
        } else {
            vk::PhysicalDeviceMeshShaderFeaturesEXT::default()
        };
        let mut mesh_nv_features = if available
            .iter()
            .any(|a| a.as_bytes() == mesh::NV_EXTENSION.to_bytes())
        {
            enabled.push(mesh::NV_EXTENSION);
            mesh::nv_features_to_enable(instance, physical_device)
        } else {
            vk::PhysicalDeviceMeshShaderFeaturesNV::default()
        };

        // Query every feature structure, then hand the same chain to
        // vkCreateDevice: that enables exactly what is supported.
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut atomic_float = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
        let mut atomic_float2 = vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT::default();
        let mut image_atomic_int64 = vk::PhysicalDeviceShaderImageAtomicInt64FeaturesEXT::default();
        let mut derivatives = vk::PhysicalDeviceComputeShaderDerivativesFeaturesNV::default();
        let mut uniform_cf =
            vk::PhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR::default();
        let mut reconvergence = vk::PhysicalDeviceShaderMaximalReconvergenceFeaturesKHR::default();
        let mut quad_control = vk::PhysicalDeviceShaderQuadControlFeaturesKHR::default();
        let mut robustness2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
        let mut barycentric = vk::PhysicalDeviceFragmentShaderBarycentricFeaturesKHR::default();
        let mut transform_feedback = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
        let mut features2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12);
        if has_13 {
            features2 = features2.push_next(&mut f13);
        }
        if has(&enabled, c"VK_EXT_shader_atomic_float") {
            features2 = features2.push_next(&mut atomic_float);
        }
        if has(&enabled, c"VK_EXT_shader_atomic_float2") {
            features2 = features2.push_next(&mut atomic_float2);
        }
        if has(&enabled, c"VK_EXT_shader_image_atomic_int64") {
            features2 = features2.push_next(&mut image_atomic_int64);
        }
        if has(&enabled, c"VK_NV_compute_shader_derivatives") {
            features2 = features2.push_next(&mut derivatives);
        }
        if has(&enabled, c"VK_KHR_shader_subgroup_uniform_control_flow") {
            features2 = features2.push_next(&mut uniform_cf);
        }
        if has(&enabled, c"VK_KHR_shader_maximal_reconvergence") {
            features2 = features2.push_next(&mut reconvergence);
        }
        if has(&enabled, c"VK_KHR_shader_quad_control") {
            features2 = features2.push_next(&mut quad_control);
        }
        if has(&enabled, c"VK_EXT_robustness2") {
            features2 = features2.push_next(&mut robustness2);
        }
        if has(&enabled, c"VK_KHR_fragment_shader_barycentric") {
            features2 = features2.push_next(&mut barycentric);
        }
        if has(&enabled, c"VK_EXT_transform_feedback") {
            features2 = features2.push_next(&mut transform_feedback);
        }
        let mut ray_tracing = raytracing::FeatureChain::default();
        features2 = ray_tracing.features(features2, &enabled);
        instance.get_physical_device_features2(physical_device, &mut features2);

        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let extension_ptrs: Vec<*const c_char> = enabled.iter().map(|e| e.as_ptr()).collect();
        let core_features = features2.features;
        let mut create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&extension_ptrs)
            .push_next(&mut features2);
        if has(&enabled, mesh::EXTENSION) {
            create = create.push_next(&mut mesh_features);
        }
        if has(&enabled, mesh::NV_EXTENSION) {
            create = create.push_next(&mut mesh_nv_features);
        }
        let device = instance
            .create_device(physical_device, &create, None)
            .map_err(|e| format!("vkCreateDevice on {}: {e}", names[index]))?;
        let queue = device.get_device_queue(queue_family, 0);

        // Properties, read through the same kind of chain.
        let mut p11 = vk::PhysicalDeviceVulkan11Properties::default();
        let mut p12 = vk::PhysicalDeviceVulkan12Properties::default();
        let mut p13 = vk::PhysicalDeviceVulkan13Properties::default();
        let mut ptf = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut p11)
            .push_next(&mut p12);
        if has_13 {
            props2 = props2.push_next(&mut p13);
        }
        if has(&enabled, c"VK_EXT_transform_feedback") {
            props2 = props2.push_next(&mut ptf);
        }
        props2 = ray_tracing.properties(props2, &enabled);
        instance.get_physical_device_properties2(physical_device, &mut props2);
        let properties = props2.properties;

        let minor = vk::api_version_minor(api);
        let info = DeviceInfo {
            name: names[index].clone(),
            driver_name: c_text(&p12.driver_name),
            driver_info: c_text(&p12.driver_info),
            driver_id: p12.driver_id,
            api_version: api,
            // Vulkan 1.1 → SPIR-V 1.3, 1.2 → 1.5, 1.3 → 1.6 (Vulkan spec,
            // "Versions and Formats").
            max_spirv_version: match minor {
                2 => (1, 5),
                _ => (1, 6),
            },
            all_devices: names.clone(),
            available_extensions: available.clone(),
            queue_flags,
            extensions: enabled
                .iter()
                .map(|e| e.to_string_lossy().into_owned())
                .collect(),
            properties,
            properties11: unchain(p11),
            properties12: unchain(p12),
            properties13: unchain(p13),
            features: core_features,
            features11: unchain(f11),
            features12: unchain(f12),
            features13: unchain(f13),
            atomic_float: unchain(atomic_float),
            atomic_float2: unchain(atomic_float2),
            image_atomic_int64: unchain(image_atomic_int64),
            compute_derivatives: unchain(derivatives),
            robustness2: unchain(robustness2),
            barycentric: unchain(barycentric),
            transform_feedback: unchain(transform_feedback),
            transform_feedback_properties: unchain(ptf),
            ray_tracing: ray_tracing.unchained(),
            mesh_shader: unchain(mesh_features),
            mesh_shader_nv: unchain(mesh_nv_features),
        };
        Ok(DeviceParts {
            physical_device,
            memory: instance.get_physical_device_memory_properties(physical_device),
            device,
            queue,
            queue_family,
            info,
        })
    }
}

/// Leaves out the optional extensions whose required extensions are not
/// enabled (Vulkan: VUID-vkCreateDevice-ppEnabledExtensionNames-01387).
fn drop_unmet_dependencies(enabled: &mut Vec<&CStr>) {
    // (extension, what it needs), in an order where a dropped extension
    // drops the ones that need it.
    const NEEDS: &[(&CStr, &CStr)] = &[
        (
            c"VK_KHR_shader_quad_control",
            c"VK_KHR_shader_maximal_reconvergence",
        ),
        (
            c"VK_EXT_shader_atomic_float2",
            c"VK_EXT_shader_atomic_float",
        ),
        (
            c"VK_KHR_acceleration_structure",
            c"VK_KHR_deferred_host_operations",
        ),
        (
            c"VK_KHR_ray_tracing_pipeline",
            c"VK_KHR_acceleration_structure",
        ),
        (c"VK_KHR_ray_query", c"VK_KHR_acceleration_structure"),
    ];
    for (ext, needs) in NEEDS {
        if !enabled.contains(needs) {
            enabled.retain(|e| e != ext);
        }
    }
}

impl Runner {
    /// The device, its driver, and what was enabled.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Why this runner can no longer run anything (device lost, timeout).
    pub fn broken(&self) -> Option<String> {
        lock(&self.broken).clone()
    }

    /// Vulkan objects that runs created and did not destroy yet: zero when
    /// no run is in flight, unless one was abandoned after a timeout.
    pub fn live_objects(&self) -> isize {
        self.live.load(Ordering::SeqCst)
    }

    fn mark_broken(&self, why: String) {
        lock(&self.broken).get_or_insert(why);
    }

    /// The queue, held for the length of a submit.
    fn queue(&self) -> MutexGuard<'_, vk::Queue> {
        lock(&self.queue)
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        if self.abandoned.load(Ordering::SeqCst) {
            // A run timed out: the device may still execute it, and its
            // objects were never destroyed. Destroying the device now would
            // be invalid (vkDestroyDevice: all child objects must be
            // destroyed first), so the device stays until the process ends.
            return;
        }
        // SAFETY: no run is in flight (each run borrows the runner), every
        // run destroyed its objects, and the device is idle after the wait.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// Locks a mutex, also after a panic in another test thread: the data
/// guarded here (the queue handle, a message) stays consistent.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A fixed-size C string from Vulkan as Rust text.
fn c_text(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Copies a queried structure out of its `p_next` chain, so that it can be
/// kept (the chain's pointers point into a finished stack frame).
fn unchain<T: vk::TaggedStructure + Copy>(mut s: T) -> T {
    // SAFETY: every TaggedStructure starts with s_type then p_next
    // (the layout of VkBaseOutStructure).
    unsafe {
        let base = &mut s as *mut T as *mut vk::BaseOutStructure<'_>;
        (*base).p_next = std::ptr::null_mut();
    }
    s
}

/// The process-wide runner, created on first use and replaced when it broke.
static SHARED: Mutex<Option<Result<Arc<Runner>, String>>> = Mutex::new(None);

/// The shared runner, or why there is none (no loader, no device, device
/// creation failed). The error is remembered: later calls fail fast.
pub fn try_shared() -> Result<Arc<Runner>, String> {
    let mut slot = lock(&SHARED);
    if let Some(Ok(r)) = slot.as_ref() {
        if r.broken().is_none() {
            return Ok(r.clone());
        }
        // Replace a lost device with a fresh instance and device; runs still
        // holding the old Arc finish with errors, and the last one drops it.
    } else if let Some(Err(e)) = slot.as_ref() {
        return Err(e.clone());
    }
    let fresh = Runner::new().map(Arc::new);
    *slot = Some(fresh.clone());
    fresh
}

/// The shared runner; panics (failing the test) with install instructions
/// when the machine has no working Vulkan.
pub fn shared() -> Arc<Runner> {
    match try_shared() {
        Ok(r) => r,
        // A device name that matches nothing needs no installing.
        Err(e) if e.starts_with(DEVICE_VAR) => panic!("Vulkan device selection failed: {e}"),
        Err(e) => panic!("Vulkan is not available: {e}\nTo run the Vulkan tests, {INSTALL_HINT}."),
    }
}

/// Shorthand for a `CString` of an entry point name; `None` if it has a NUL.
fn entry_name(entry: &str) -> Option<CString> {
    CString::new(entry).ok()
}
