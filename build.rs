//! Generates the parser from `grammar/hlsl.lalrpop`.
fn main() {
    println!("cargo:rerun-if-changed=grammar/hlsl.lalrpop");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .process()
        .expect("grammar/hlsl.lalrpop must build");
}
