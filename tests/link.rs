//! How the `hlslc` binary is linked on Linux with glibc (`build.rs`,
//! `link_binary`): at a fixed address, and statically where the C
//! toolchain has glibc's and libgcc's static archives, so that a process
//! starts without the dynamic loader. And the binary to ship
//! (`cargo build-static`): for musl, static, at a fixed address.

/// The ELF facts the start-up cost depends on.
#[cfg(target_os = "linux")]
struct Elf {
    /// `ET_EXEC` (2): linked at a fixed address; `ET_DYN` (3): a
    /// position-independent executable.
    kind: u16,
    /// Program header types: 3 is `PT_INTERP` (the dynamic loader to run),
    /// 2 is `PT_DYNAMIC`.
    segments: Vec<u32>,
}

#[cfg(target_os = "linux")]
fn read_elf(file: &std::path::Path) -> Elf {
    let bytes = std::fs::read(file).unwrap();
    let path = file.display();
    assert_eq!(&bytes[..4], b"\x7fELF", "{path} is not ELF");
    assert_eq!(bytes[4], 2, "a 64-bit ELF file");
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54) as usize, u16_at(56) as usize);
    Elf {
        kind: u16_at(16),
        segments: (0..phnum).map(|i| u32_at(phoff + i * phentsize)).collect(),
    }
}

/// Whether `build.rs` links statically here: the same question it asks
/// the C compiler (each archive's full path, or just its name where the
/// toolchain has none), unless `HLSLC_LINK=dynamic` turned it off.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn static_archives_found() -> bool {
    let cc = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_string());
    std::env::var("HLSLC_LINK").as_deref() != Ok("dynamic")
        && ["libc.a", "libm.a", "libgcc.a", "libgcc_eh.a"].iter().all(|name| {
            std::process::Command::new(&cc)
                .arg(format!("-print-file-name={name}"))
                .output()
                .map(|o| std::path::Path::new(String::from_utf8_lossy(&o.stdout).trim()).is_absolute())
                .unwrap_or(false)
        })
}

/// The binary is linked at a fixed address and, with the static archives
/// at hand, without any dynamic loader or dynamic section; and it runs.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_is_position_dependent_and_static_where_the_archives_are() {
    let bin = env!("CARGO_BIN_EXE_hlslc");
    let elf = read_elf(bin.as_ref());
    assert_eq!(elf.kind, 2, "hlslc should be linked at a fixed address (ET_EXEC)");
    if static_archives_found() {
        assert!(
            !elf.segments.contains(&3) && !elf.segments.contains(&2),
            "hlslc should be linked statically: program headers {:?}",
            elf.segments
        );
    } else {
        assert!(elf.segments.contains(&3), "a dynamic hlslc names its loader");
    }
    let out = std::process::Command::new(bin).arg("--version").output().unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).starts_with("hlslc "));
}

/// `cargo build-static` (an alias of `.cargo/config.toml`) builds the
/// `release` profile for musl into its own target directory (kept between
/// runs): an executable linked at a fixed address with no dynamic loader
/// or section, which compiles every sample command to the same bytes as
/// the release build the tests run (its `main` reads the arguments from
/// `argv`, which musl does not hand to std before `main`).
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn the_static_musl_build_compiles_the_samples_as_the_release_build() {
    let root = crate::common::root();
    let target = root.join("target/static-build");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = std::process::Command::new(cargo)
        .current_dir(&root)
        .arg("build-static")
        .arg("--target-dir")
        .arg(&target)
        .output()
        .expect("cargo runs");
    assert!(
        built.status.success(),
        "cargo build-static (needs `rustup target add x86_64-unknown-linux-musl`):\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let shipped = target.join("x86_64-unknown-linux-musl/release/hlslc");
    let elf = read_elf(&shipped);
    assert_eq!(elf.kind, 2, "the static build should be linked at a fixed address");
    assert!(
        !elf.segments.contains(&3) && !elf.segments.contains(&2),
        "the static build should have no loader or dynamic section: {:?}",
        elf.segments
    );
    let tmp = crate::common::scratch_dir("hlslc-static-build");
    let commands = crate::samples::all_compile_commands();
    assert!(commands.len() > 10, "the samples' commands: {commands:?}");
    for (n, command) in commands.iter().enumerate() {
        let args: Vec<&String> = command.iter().take_while(|a| *a != "-Fo").collect();
        let mut outputs = Vec::new();
        for (name, bin) in [("release", env!("CARGO_BIN_EXE_hlslc").as_ref()), ("static", shipped.as_path())] {
            let spv = tmp.path().join(format!("{n}-{name}.spv"));
            let run = std::process::Command::new(bin)
                .current_dir(&root)
                .args(&args)
                .arg("-Fo")
                .arg(&spv)
                .output()
                .expect("hlslc runs");
            assert!(
                run.status.success(),
                "{name}: hlslc {}: {}",
                command.join(" "),
                String::from_utf8_lossy(&run.stderr)
            );
            outputs.push(std::fs::read(&spv).unwrap());
        }
        assert!(outputs[0] == outputs[1], "hlslc {}: the static build wrote other bytes", command.join(" "));
    }
}
