//! Mesh pipelines (VK_EXT_mesh_shader, or VK_NV_mesh_shader for modules
//! compiled to SPV_NV_mesh_shader): an optional task (amplification)
//! shader and a mesh shader take the place of the vertex stages of a
//! [`Draw`](super::Draw), which then records `vkCmdDrawMeshTasksEXT` (or
//! `vkCmdDrawMeshTasksNV`).
//!
//! ```ignore
//! let mut draw = Draw::new(&[], "", &ps_words, "main");
//! draw.mesh = Some(MeshStages { task: Some((&as_words, "main")), mesh: (&ms_words, "main"), groups: [4, 4, 1], nv: false });
//! let targets = runner.draw(&draw, &mut [])?;
//! ```
//!
//! The device enables the extension with its `taskShader` and
//! `meshShader` features when it offers them (and Vulkan 1.2, whose
//! SPIR-V 1.4 the extension needs); [`super::DeviceInfo::mesh_shader`]
//! says what was enabled.

use ash::vk;

/// The task and mesh stages of a mesh draw, and how many groups to launch
/// (of the task shader when there is one, else of the mesh shader).
#[derive(Clone, Copy, Debug)]
pub struct MeshStages<'a> {
    pub task: Option<(&'a [u32], &'a str)>,
    pub mesh: (&'a [u32], &'a str),
    pub groups: [u32; 3],
    /// The modules are SPV_NV_mesh_shader's (`TaskNV`/`MeshNV`), drawn
    /// through VK_NV_mesh_shader, whose launch is one-dimensional.
    pub nv: bool,
}

/// SPIR-V execution models `TaskEXT` and `MeshEXT`.
pub const MODEL_TASK_EXT: u32 = 5364;
pub const MODEL_MESH_EXT: u32 = 5365;

/// SPIR-V execution models `TaskNV` and `MeshNV`.
pub const MODEL_TASK_NV: u32 = 5267;
pub const MODEL_MESH_NV: u32 = 5268;

/// The device extension.
pub const EXTENSION: &std::ffi::CStr = c"VK_EXT_mesh_shader";
/// The NV device extension.
pub const NV_EXTENSION: &std::ffi::CStr = c"VK_NV_mesh_shader";

/// The mesh features to enable: task and mesh shaders as the device has
/// them, nothing that needs other extensions (multiview, fragment shading
/// rate, queries).
///
/// # Safety
/// `physical_device` belongs to `instance`, whose version is 1.1 or later.
pub unsafe fn features_to_enable(
    instance: &ash::Instance,
    physical_device: vk::PhysicalDevice,
) -> vk::PhysicalDeviceMeshShaderFeaturesEXT<'static> {
    let mut mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut mesh);
    unsafe { instance.get_physical_device_features2(physical_device, &mut f2) };
    let (task, mesh_on) = (mesh.task_shader, mesh.mesh_shader);
    vk::PhysicalDeviceMeshShaderFeaturesEXT::default()
        .task_shader(task == vk::TRUE)
        .mesh_shader(mesh_on == vk::TRUE)
}

/// The NV mesh features to enable, as the device has them.
///
/// # Safety
/// As [`features_to_enable`].
pub unsafe fn nv_features_to_enable(
    instance: &ash::Instance,
    physical_device: vk::PhysicalDevice,
) -> vk::PhysicalDeviceMeshShaderFeaturesNV<'static> {
    let mut mesh = vk::PhysicalDeviceMeshShaderFeaturesNV::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut mesh);
    unsafe { instance.get_physical_device_features2(physical_device, &mut f2) };
    let (task, mesh_on) = (mesh.task_shader, mesh.mesh_shader);
    vk::PhysicalDeviceMeshShaderFeaturesNV::default()
        .task_shader(task == vk::TRUE)
        .mesh_shader(mesh_on == vk::TRUE)
}

/// The task and mesh features a device enabled, of either extension.
#[derive(Clone, Copy, Debug, Default)]
pub struct Enabled {
    pub task: bool,
    pub mesh: bool,
}

/// Why `stages` cannot run on a device with `features` enabled (those of
/// the extension `stages` needs).
pub fn check(stages: &MeshStages, features: Enabled) -> Result<(), String> {
    let ext = if stages.nv {
        "VK_NV_mesh_shader"
    } else {
        "VK_EXT_mesh_shader"
    };
    if !features.mesh {
        return Err(format!("the device has no mesh shaders ({ext} meshShader)"));
    }
    if stages.task.is_some() && !features.task {
        return Err(format!("the device has no task shaders ({ext} taskShader)"));
    }
    if stages.nv && stages.groups[1..] != [1, 1] {
        return Err(format!(
            "{:?} groups: VK_NV_mesh_shader launches a row of groups ([n, 1, 1])",
            stages.groups
        ));
    }
    if stages.groups.contains(&0) {
        return Err(format!(
            "{:?} groups: each count is at least 1",
            stages.groups
        ));
    }
    Ok(())
}

/// Records the draw of `stages`.
///
/// # Safety
/// `cmd` is recording inside a render pass with a mesh pipeline bound, on
/// `device` created from `instance` with the extension enabled.
pub unsafe fn record_draw(
    instance: &ash::Instance,
    device: &ash::Device,
    cmd: vk::CommandBuffer,
    stages: &MeshStages,
) {
    let [x, y, z] = stages.groups;
    if stages.nv {
        let nv = ash::nv::mesh_shader::Device::new(instance, device);
        unsafe { nv.cmd_draw_mesh_tasks(cmd, x, 0) };
        return;
    }
    let ext = ash::ext::mesh_shader::Device::new(instance, device);
    unsafe { ext.cmd_draw_mesh_tasks(cmd, x, y, z) };
}
