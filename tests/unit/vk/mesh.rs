//! Mesh pipelines (VK_EXT_mesh_shader): an optional task (amplification)
//! shader and a mesh shader take the place of the vertex stages of a
//! [`Draw`](super::Draw), which then records `vkCmdDrawMeshTasksEXT`.
//!
//! ```ignore
//! let mut draw = Draw::new(&[], "", &ps_words, "main");
//! draw.mesh = Some(MeshStages { task: Some((&as_words, "main")), mesh: (&ms_words, "main"), groups: [4, 4, 1] });
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
}

/// SPIR-V execution models `TaskEXT` and `MeshEXT`.
pub const MODEL_TASK_EXT: u32 = 5364;
pub const MODEL_MESH_EXT: u32 = 5365;

/// The device extension.
pub const EXTENSION: &std::ffi::CStr = c"VK_EXT_mesh_shader";

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

/// Why `stages` cannot run on a device with `features` enabled.
pub fn check(
    stages: &MeshStages,
    features: &vk::PhysicalDeviceMeshShaderFeaturesEXT,
) -> Result<(), String> {
    if features.mesh_shader != vk::TRUE {
        return Err("the device has no mesh shaders (VK_EXT_mesh_shader meshShader)".into());
    }
    if stages.task.is_some() && features.task_shader != vk::TRUE {
        return Err("the device has no task shaders (VK_EXT_mesh_shader taskShader)".into());
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
    let ext = ash::ext::mesh_shader::Device::new(instance, device);
    let [x, y, z] = stages.groups;
    unsafe { ext.cmd_draw_mesh_tasks(cmd, x, y, z) };
}
