//! Generates the parser from `grammar/hlsl.lalrpop` and the interner's
//! table of built-in names, and links the `hlslc` binary as a
//! position-dependent executable on Linux.

#[path = "src/intern/names.rs"]
#[allow(dead_code)]
mod names;

fn main() {
    println!("cargo:rerun-if-changed=grammar/hlsl.lalrpop");
    println!("cargo:rerun-if-changed=src/intern/names.rs");
    preinterned_table();
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

/// Writes `OUT_DIR/preinterned.rs`: the built-in names in symbol order, and
/// the open-addressing hash table (`names::hash`, linear probing) that the
/// interner starts from, so that no process hashes them at start-up. Each
/// slot holds a name's hash in its top 32 bits and its symbol index plus one
/// in the low 32 bits (0: empty), as the interner's own slots do.
fn preinterned_table() {
    use std::fmt::Write as _;
    let mut list = Vec::new();
    names::for_each_preinterned(|s| list.push(s.to_string()));
    // At most half full with the built-ins alone.
    let bits = (2 * list.len()).next_power_of_two().trailing_zeros();
    let size = 1usize << bits;
    let mut slots = vec![0u64; size];
    for (i, s) in list.iter().enumerate() {
        let hash = names::hash(s.as_bytes());
        let mut at = (hash >> (64 - bits)) as usize;
        while slots[at] != 0 {
            at = (at + 1) & (size - 1);
        }
        slots[at] = (hash >> 32 << 32) | (i as u64 + 1);
    }
    let mut out = String::new();
    let _ = writeln!(out, "pub(crate) const PREINTERNED_BITS: u32 = {bits};");
    let _ = writeln!(
        out,
        "pub(crate) static PREINTERNED: [&str; {}] = [",
        list.len()
    );
    for s in &list {
        let _ = writeln!(out, "    {s:?},");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "pub(crate) const PREINTERNED_SLOTS: [u64; {size}] = ["
    );
    for row in slots.chunks(8) {
        let row: Vec<String> = row.iter().map(|e| format!("{e:#x}")).collect();
        let _ = writeln!(out, "    {},", row.join(", "));
    }
    let _ = writeln!(out, "];");
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("preinterned.rs"), out)
        .expect("OUT_DIR is writable");
}
