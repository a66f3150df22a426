//! Profile-guided optimisation (README, "Speed"): the rustc wrapper that
//! `.cargo/config.toml` names compiles the hlslc crate, and nothing else,
//! with the profile `tools/pgo.py` records in `pgo/hlslc.profdata`.

use crate::common;
use std::process::Command;

/// The arguments the wrapper passes on when cargo compiles a crate of
/// package `package` with `args` (`echo` standing in for rustc), with
/// `HLSLC_PGO` and `HLSLC_ORDER` as `env` sets them.
fn wrapped_with(package: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let root = common::root();
    let mut cmd = Command::new("sh");
    cmd.arg(root.join("tools/rustc-pgo.sh"))
        .arg("echo")
        .args(args)
        .env("CARGO_PKG_NAME", package)
        .env("CARGO_MANIFEST_DIR", &root)
        .env_remove("HLSLC_PGO")
        .env_remove("HLSLC_ORDER")
        .envs(env.iter().copied());
    let out = cmd.output().expect("sh runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap().trim_end().to_string()
}

/// [`wrapped_with`] for the crate `crate_name`.
fn wrapped(package: &str, crate_name: &str, pgo: Option<&str>) -> String {
    let env: Vec<(&str, &str)> = pgo.map(|v| ("HLSLC_PGO", v)).into_iter().collect();
    wrapped_with(package, &["--crate-name", crate_name, "--edition=2024"], &env)
}

#[test]
fn the_wrapper_gives_the_profile_to_the_hlslc_crate_only() {
    let profile = common::root().join("pgo/hlslc.profdata");
    let plain = |name: &str| format!("--crate-name {name} --edition=2024");
    // The library and the binary.
    for name in ["hlslc", "hlslc_bin"] {
        assert_eq!(
            wrapped("hlslc", name, None),
            format!(
                "{} -Cprofile-use={} -Cllvm-args=-no-pgo-warn-mismatch \
                 -Cllvm-args=-pgso-cold-code-only -Cllvm-args=-enable-split-machine-functions \
                 -Cllvm-args=-mfs-psi-cutoff=0 -Cllvm-args=-mfs-count-threshold=1",
                plain(name),
                profile.display()
            )
        );
    }
    // Not the build script (compiled before the crate, from other
    // code), nor a dependency, nor when turned off.
    assert_eq!(wrapped("hlslc", "build_script_build", None), plain("build_script_build"));
    assert_eq!(wrapped("clap", "clap", None), plain("clap"));
    assert_eq!(wrapped("hlslc", "hlslc", Some("off")), plain("hlslc"));
    // Recording: the crate instrumented instead, its dependencies not.
    assert_eq!(
        wrapped("hlslc", "hlslc", Some("generate=/tmp/raw")),
        format!("{} -Cprofile-generate=/tmp/raw", plain("hlslc"))
    );
    assert_eq!(wrapped("clap", "clap", Some("generate=/tmp/raw")), plain("clap"));
}

#[test]
fn the_build_uses_the_wrapper_and_the_profile_is_llvm_indexed() {
    let root = common::root();
    let config = std::fs::read_to_string(root.join(".cargo/config.toml")).unwrap();
    assert!(config.contains("\nrustc-wrapper = \"tools/rustc-pgo.sh\"\n"), "{config}");
    let profile = std::fs::read(root.join("pgo/hlslc.profdata")).unwrap();
    // The magic number of LLVM's indexed profile format, little-endian.
    assert_eq!(profile[..8], 0x8169_666f_7270_6cff_u64.to_le_bytes());
}

/// The library and the binary are compiled with a `-C metadata` of their
/// own, whatever cargo's (which changes with the dependencies' versions):
/// the symbols that the profile and the function order name stay the
/// same. Other crates, the tests and the build script keep cargo's.
#[test]
fn the_wrapper_gives_the_crate_a_metadata_that_the_dependencies_do_not_change() {
    let cargo = ["-C", "metadata=0123abcd", "-C", "extra-filename=-4567ef", "--cfg", "a b"];
    let off = [("HLSLC_PGO", "off"), ("HLSLC_ORDER", "off")];
    let wrapped = |package: &str, head: &[&str]| {
        let args: Vec<&str> = head.iter().chain(&cargo).copied().collect();
        wrapped_with(package, &args, &off)
    };
    let tail = "-C extra-filename=-4567ef --cfg a b";
    for crate_type in ["lib", "bin"] {
        assert_eq!(
            wrapped("hlslc", &["--crate-name", "hlslc", "--crate-type", crate_type]),
            format!(
                "--crate-name hlslc --crate-type {crate_type} -C metadata=hlslc-{crate_type} {tail}"
            )
        );
    }
    let cargos = format!("-C metadata=0123abcd {tail}");
    assert_eq!(
        wrapped("hlslc", &["--crate-name", "hlslc", "--test"]),
        format!("--crate-name hlslc --test {cargos}")
    );
    assert_eq!(
        wrapped("hlslc", &["--crate-name", "root", "--test"]),
        format!("--crate-name root --test {cargos}")
    );
    assert_eq!(
        wrapped("clap", &["--crate-name", "clap", "--crate-type", "lib"]),
        format!("--crate-name clap --crate-type lib {cargos}")
    );
    assert_eq!(
        wrapped("hlslc", &["--crate-name", "build_script_build", "--crate-type", "bin"]),
        format!("--crate-name build_script_build --crate-type bin {cargos}")
    );
}

/// The wrapper links the `hlslc` binary, and nothing else, through
/// `tools/link-order.sh` with the function order of `pgo/hlslc.order`,
/// unless turned off or cargo names a linker.
#[test]
fn the_wrapper_links_the_binary_through_the_function_order() {
    let root = common::root();
    let wrapped = |crate_name: &str, crate_type: &str, extra: &[&str], order: Option<&str>| {
        let mut args = vec!["--crate-name", crate_name, "--crate-type", crate_type];
        args.extend(extra);
        let mut env = vec![("HLSLC_PGO", "off")];
        env.extend(order.map(|v| ("HLSLC_ORDER", v)));
        wrapped_with("hlslc", &args, &env)
    };
    let linker = format!("-Clinker={}", root.join("tools/link-order.sh").display());
    assert_eq!(
        wrapped("hlslc", "bin", &[], None),
        format!("--crate-name hlslc --crate-type bin {linker}")
    );
    assert_eq!(wrapped("hlslc", "lib", &[], None), "--crate-name hlslc --crate-type lib");
    assert_eq!(wrapped("hlslc", "bin", &[], Some("off")), "--crate-name hlslc --crate-type bin");
    assert_eq!(
        wrapped("hlslc", "bin", &["-C", "linker=mold"], None),
        "--crate-name hlslc --crate-type bin -C linker=mold"
    );
}

/// `tools/link-order.sh` gives the linker the objects' functions in the
/// list's order: a name without Rust's hash and a size pick that instance
/// of a generic function; a name that only one symbol has picks it
/// whatever its size; what the list does not name is left out, and a C
/// function that no object defines is passed by name. Without
/// `-fuse-ld=lld` the link is left alone.
#[test]
fn the_link_order_follows_the_list_by_name_without_hash_and_size() {
    let tmp = common::scratch_dir("hlslc-link-order");
    let dir = tmp.path();
    // Functions named as Rust mangles them: two instances of `grow` (one
    // a single `ret`, one longer), `unique` and `unlisted`, and the
    // `.cold` parts (symbols of their own, local to the object) of the
    // longer `grow`, of `unique` and of `unlisted`.
    let cold = |f: &str| {
        format!(
            ".section .text.{f}.cold,\\\"ax\\\",@progbits\\n{f}.cold:\\n ret\\n.size {f}.cold, 1\\n"
        )
    };
    let c = format!(
        "void _ZN4demo4grow17h0000000000000001E(void) {{}}\n\
         int _ZN4demo4grow17h0000000000000002E(int *p) {{ p[1] = p[0] * 3; return p[2]; }}\n\
         int _ZN4demo6unique17h00000000000000abE(int x) {{ return x * 7 + 1; }}\n\
         void _ZN4demo8unlisted17h0000000000000003E(void) {{}}\n\
         __asm__(\"{}{}{}.text\");\n",
        cold("_ZN4demo4grow17h0000000000000002E"),
        cold("_ZN4demo6unique17h00000000000000abE"),
        cold("_ZN4demo8unlisted17h0000000000000003E"),
    );
    std::fs::write(dir.join("f.c"), c).unwrap();
    let cc = Command::new("cc")
        .args(["-O2", "-ffunction-sections", "-c", "f.c", "-o", "f.o"])
        .current_dir(dir)
        .output()
        .expect("cc runs");
    assert!(cc.status.success(), "{cc:?}");
    let nm = Command::new("nm").args(["-S", "f.o"]).current_dir(dir).output().expect("nm runs");
    let size_of = |name: &str| {
        let text = String::from_utf8_lossy(&nm.stdout).into_owned();
        let line = text.lines().find(|l| l.ends_with(name)).unwrap_or_else(|| panic!("{text}"));
        u64::from_str_radix(line.split_whitespace().nth(1).unwrap(), 16).unwrap()
    };
    let long_grow = size_of("_ZN4demo4grow17h0000000000000002E");
    // The longer `grow` first, then `unique` (listed with another size),
    // after its `.cold` part (listed: a compile ran it). C functions the
    // objects lack (the C library's) are passed by name at their places;
    // a missing Rust function is not. The `.cold` part the list lacks of
    // a placed function (`grow`'s) follows all listed ones; that of an
    // unplaced one (`unlisted`) is left out.
    std::fs::write(
        dir.join("order"),
        format!(
            "_ZN4demo4grow17hE_never 1\n_ZN4demo4growE {long_grow}\nmemcpy 10\n\
             _ZN4demo6uniqueE.cold 1\n_ZN4demo7missingE 5\n_ZN4demo6uniqueE 999\n\
             __libc_start_main_impl 99\n"
        ),
    )
    .unwrap();
    let link = |lld: bool| {
        let mut cmd = Command::new("sh");
        cmd.arg(common::root().join("tools/link-order.sh"))
            .args(["f.o", "-o", "out"])
            .current_dir(dir)
            .env("HLSLC_LINKER", "true")
            .env("HLSLC_LINK_ORDER", dir.join("order"));
        if lld {
            cmd.arg("-fuse-ld=lld");
        }
        let out = cmd.output().expect("sh runs");
        assert!(out.status.success(), "{out:?}");
        std::fs::read_to_string(dir.join("out.link-order")).ok()
    };
    assert_eq!(link(false), None, "without LLD the link is left alone");
    assert_eq!(
        link(true).as_deref(),
        Some(
            "_ZN4demo4grow17h0000000000000002E\nmemcpy\n_ZN4demo6unique17h00000000000000abE.cold\n\
             _ZN4demo6unique17h00000000000000abE\n__libc_start_main_impl\n\
             _ZN4demo4grow17h0000000000000002E.cold\n"
        )
    );
}

/// The binary the tests run was linked in the list's order: the first
/// Rust functions the list names that it has (by name alone where the
/// name is its only symbol's) lie at rising addresses.
#[test]
fn the_binary_lays_out_its_functions_in_the_listed_order() {
    let order = std::fs::read_to_string(common::root().join("pgo/hlslc.order")).unwrap();
    let nm = Command::new("nm")
        .args(["--defined-only", env!("CARGO_BIN_EXE_hlslc")])
        .output()
        .expect("nm runs");
    let text = String::from_utf8_lossy(&nm.stdout).into_owned();
    let mut by_key: std::collections::HashMap<String, Vec<u64>> = Default::default();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        // Rust's functions: the C library's come from archives, which
        // the order leaves alone.
        if w.len() == 3 && matches!(w[1], "t" | "T" | "w" | "W") && w[2].starts_with("_ZN") {
            // Without the hash, also before a `.cold` part's suffix.
            let (name, cold) = match w[2].strip_suffix(".cold") {
                Some(base) => (base, ".cold"),
                None => (w[2], ""),
            };
            let n = name.len();
            let key = if n > 20 && name.ends_with('E') && &name[n - 20..n - 17] == "17h" {
                format!("{}E{cold}", &name[..n - 20])
            } else {
                w[2].to_string()
            };
            by_key.entry(key).or_default().push(u64::from_str_radix(w[0], 16).unwrap());
        }
    }
    let mut listed = std::collections::HashSet::new();
    let addresses: Vec<u64> = order
        .lines()
        .map(|l| l.split(' ').next().unwrap_or(""))
        .filter(|key| listed.insert(*key))
        .filter_map(|key| by_key.get(key))
        .filter(|a| a.len() == 1)
        .map(|a| a[0])
        .take(200)
        .collect();
    assert!(addresses.len() >= 100, "{} listed functions found", addresses.len());
    let rising = addresses.windows(2).filter(|w| w[0] < w[1]).count();
    assert_eq!(rising, addresses.len() - 1, "{addresses:x?}");
}
