//! Generates the parser from `grammar/hlsl.lalrpop`, and links the
//! `hlslc` binary as a position-dependent executable on Linux.
fn main() {
    println!("cargo:rerun-if-changed=grammar/hlsl.lalrpop");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .process()
        .expect("grammar/hlsl.lalrpop must build");
    // A position-independent executable makes the dynamic loader apply
    // tens of thousands of relative relocations at every start (most of
    // what `hlslc --version` runs); linked at a fixed address, it applies
    // none. Only for the binary (the test executables load Vulkan as they
    // are), and only where the toolchain's linker is GNU's (`-no-pie` is a
    // gcc/clang driver flag). Set by the package, so `cargo install --path
    // .` gets it too.
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
