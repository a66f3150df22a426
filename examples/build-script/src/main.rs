//! Uses the SPIR-V that `build.rs` compiled: here it only checks the
//! modules and prints their sizes; a renderer hands the words to
//! `vkCreateShaderModule` (`VkShaderModuleCreateInfo::pCode`).

mod shaders {
    include!(concat!(env!("OUT_DIR"), "/shaders.rs"));
}

fn main() {
    for (name, words) in [("blur", shaders::BLUR), ("tint", shaders::TINT_PSMAIN)] {
        assert_eq!(words[0], 0x0723_0203, "{name}: the SPIR-V magic number");
        assert_eq!(words.as_ptr() as usize % 4, 0, "{name}: 4-byte aligned");
        let (major, minor) = ((words[1] >> 16) & 0xff, (words[1] >> 8) & 0xff);
        println!("{name}: {} words of SPIR-V {major}.{minor}", words.len());
    }
}
