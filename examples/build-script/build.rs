//! Compiles the shaders into `OUT_DIR`: `shaders.rs` offers each module as
//! a `&'static [u32]`.

use hlslc::build::{Build, Shader};

fn main() {
    Build::new()
        .include("shaders/include")
        .define("BLUR_RADIUS", Some("4"))
        // Any of DXC's flags, read by the parser the `hlslc` binary uses.
        .args(["-fspv-target-env=vulkan1.1"])
        .shader(Shader::new("shaders/blur.hlsl").profile("cs_6_0"))
        .shader(
            Shader::new("shaders/tint.hlsl")
                .profile("ps_6_0")
                .entry("PSMain"),
        )
        .compile("shaders");
}
