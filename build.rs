//! Generates the parser from `grammar/hlsl.lalrpop` and the interner's
//! table of built-in names, and links the `hlslc` binary on Linux as a
//! position-dependent executable, statically where the C toolchain has
//! glibc's static libraries.

#[path = "src/intern/names.rs"]
#[allow(dead_code)]
mod names;

fn main() {
    println!("cargo:rerun-if-changed=grammar/hlsl.lalrpop");
    println!("cargo:rerun-if-changed=src/intern/names.rs");
    // The profile `tools/rustc-pgo.sh` compiles the crate with, and the
    // flags it passes (cargo does not track a wrapper): a change
    // recompiles the crate.
    println!("cargo:rerun-if-changed=pgo/hlslc.profdata");
    println!("cargo:rerun-if-changed=tools/rustc-pgo.sh");
    // The binary's function order and the linker that applies it.
    println!("cargo:rerun-if-changed=pgo/hlslc.order");
    println!("cargo:rerun-if-changed=tools/link-order.sh");
    preinterned_table();
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .process()
        .expect("grammar/hlsl.lalrpop must build");
    link_binary();
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

/// Link arguments for the `hlslc` binary on Linux with glibc (only for the
/// binary: the test executables load Vulkan at run time, which a static
/// executable cannot; set by the package, so `cargo install --path .`
/// gets them too).
///
/// A position-independent executable makes the dynamic loader apply tens
/// of thousands of relative relocations at every start; linked at a fixed
/// address (`-no-pie`, a gcc/clang driver flag), it applies none.
///
/// Linked statically, the process starts without the dynamic loader at
/// all (loading `libc` and `libgcc_s` and binding their symbols was about
/// a tenth of a small compile). rustc puts `-Bdynamic -lgcc_s -lutil -lrt
/// -lpthread -lm -ldl -lc` on the link line of a binary it builds
/// dynamically, and `-static` alone would then pull `libc.so` into a
/// static executable. So the binary's library path starts with a folder
/// in `OUT_DIR` where each of those names, as a shared library, is a
/// linker script naming the static archive: the linker takes glibc's and
/// libgcc's archives wherever rustc asked for the shared libraries.
/// Only when the target is the host and the C compiler (the linker rustc
/// runs) finds every archive; otherwise, or with `HLSLC_LINK=dynamic` in
/// the environment, the binary stays dynamic.
fn link_binary() {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    println!("cargo:rerun-if-env-changed=HLSLC_LINK");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    if var("HLSLC_LINK") == "dynamic" || var("TARGET") != var("HOST") {
        return;
    }
    let cc = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_string());
    // `cc -print-file-name=X` prints X's full path where the toolchain
    // has it, and just X where it has not.
    let archive = |name: &str| -> Option<String> {
        let out = std::process::Command::new(&cc)
            .arg(format!("-print-file-name={name}"))
            .output()
            .ok()?;
        let path = String::from_utf8(out.stdout).ok()?.trim().to_string();
        let found = out.status.success() && std::path::Path::new(&path).is_absolute();
        (found && std::path::Path::new(&path).is_file()).then_some(path)
    };
    let archives: Option<Vec<String>> = ["libc.a", "libm.a", "libgcc.a", "libgcc_eh.a"]
        .iter()
        .map(|name| archive(name))
        .collect();
    let Some(archives) = archives else { return };
    let [c, m, gcc, gcc_eh] = &archives[..] else { return };
    let dir = std::path::Path::new(&var("OUT_DIR")).join("static-libs");
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    // glibc keeps libpthread, libdl, librt and libutil inside libc since
    // 2.34 (their archives are empty); older ones have them separate,
    // beside libc's.
    let beside_c = |name: &str| {
        let path = std::path::Path::new(c).with_file_name(format!("lib{name}.a"));
        if path.is_file() { path.display().to_string() } else { c.clone() }
    };
    // File names quoted: a path may hold spaces.
    let scripts = [
        ("c", format!("GROUP ( \"{c}\" \"{gcc}\" \"{gcc_eh}\" )")),
        ("m", format!("INPUT ( \"{m}\" )")),
        ("gcc_s", format!("GROUP ( \"{gcc_eh}\" \"{gcc}\" )")),
        ("pthread", format!("INPUT ( \"{}\" )", beside_c("pthread"))),
        ("dl", format!("INPUT ( \"{}\" )", beside_c("dl"))),
        ("rt", format!("INPUT ( \"{}\" )", beside_c("rt"))),
        ("util", format!("INPUT ( \"{}\" )", beside_c("util"))),
    ];
    for (name, script) in scripts {
        if std::fs::write(dir.join(format!("lib{name}.so")), format!("{script}\n")).is_err() {
            return;
        }
    }
    println!("cargo:rustc-link-arg-bins=-static");
    println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
}
