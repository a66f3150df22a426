//! Dispatches whose shader reaches memory through a device address
//! (`vk::RawBufferLoad`, `vk::BufferPointer`): one host-visible buffer
//! made with `SHADER_DEVICE_ADDRESS`, whose address the push constants are
//! built from, and whose bytes come back after the dispatch.

use super::dispatch::ComputeOptions;
use super::resource::Resource;
use super::scope::Scope;
use super::{Runner, on};
use ash::vk;

impl Runner {
    /// Why device addresses cannot run here (no `bufferDeviceAddress`),
    /// or `None` when they can.
    pub fn lacks_device_addresses(&self) -> Option<String> {
        (!on(self.info().features12.buffer_device_address))
            .then(|| format!("{} does not offer bufferDeviceAddress", self.info().name))
    }

    /// Runs `entry` like [`Runner::run_compute`], with a buffer of `size`
    /// bytes that the shader reaches by its device address: `build` gets
    /// that address and gives the buffer's bytes (pointers in them may
    /// point into the buffer itself) and the push constants. Returns the
    /// buffer's bytes as the shader left them.
    pub fn run_compute_at_address(
        &self,
        spirv: &[u32],
        entry: &str,
        resources: &mut [Resource],
        size: usize,
        build: impl FnOnce(u64) -> (Vec<u8>, Vec<u8>),
        groups: [u32; 3],
    ) -> Result<Vec<u8>, String> {
        if let Some(why) = self.broken() {
            return Err(format!("the Vulkan device is unusable: {why}"));
        }
        if let Some(why) = self.lacks_device_addresses() {
            return Err(why);
        }
        let mut scope = Scope {
            runner: self,
            objects: Vec::new(),
            leak: false,
        };
        // SAFETY: the buffer is host-visible, coherent and mapped for at
        // least `size` bytes until `scope` is dropped; the host writes it
        // before the dispatch is submitted and reads it after the fence
        // signalled and a barrier made the shader's writes visible to the
        // host; `check` established the dispatch's preconditions.
        unsafe {
            let (_, ptr, address) = scope.address_buffer(
                size as u64,
                vk::BufferUsageFlags::STORAGE_BUFFER,
                true,
                &[],
            )?;
            let (memory, push_constants) = build(address);
            if memory.len() > size {
                return Err(format!(
                    "{} bytes do not fit the {size}-byte buffer",
                    memory.len()
                ));
            }
            std::ptr::copy_nonoverlapping(memory.as_ptr(), ptr, memory.len());
            let layout = self.check(spirv, entry, resources, &push_constants, groups)?;
            scope.run(
                spirv,
                entry,
                resources,
                &push_constants,
                groups,
                &ComputeOptions::default(),
                &layout,
            )?;
            let mut out = vec![0u8; size];
            std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr(), size);
            Ok(out)
        }
    }
}
