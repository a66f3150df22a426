//! Checks that Vulkan compute works on this machine, without spirv-tools:
//! prints the device the tests would use and runs one dispatch of SPIR-V
//! built into the program.
//!
//! ```sh
//! cargo run --example vk_probe                       # lavapipe by default
//! HLSLC_VK_DEVICE=NVIDIA cargo run --example vk_probe
//! ```
//!
//! Exit code 0 when the dispatch gave the right numbers, 1 otherwise.

#[path = "../tests/unit/vk/mod.rs"]
mod vk;

fn main() {
    let runner = match vk::Runner::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "Vulkan is not available: {e}\nTo fix it, {}.",
                vk::INSTALL_HINT
            );
            std::process::exit(1);
        }
    };
    print!("{}", runner.info().report());
    match vk::probe::run_double(&runner, 64 * 1024) {
        Ok(n) => println!("probe: out[i] = in[i] * 2 correct for {n} floats"),
        Err(e) => {
            eprintln!("probe failed: {e}");
            std::process::exit(1);
        }
    }
}
