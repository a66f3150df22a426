//! Profile-guided optimisation (README, "Speed"): the rustc wrapper that
//! `.cargo/config.toml` names compiles the hlslc crate, and nothing else,
//! with the profile `tools/pgo.py` records in `pgo/hlslc.profdata`.

use crate::common;
use std::process::Command;

/// The arguments the wrapper passes on when cargo compiles `crate_name`
/// of package `package` (`echo` standing in for rustc).
fn wrapped(package: &str, crate_name: &str, pgo: Option<&str>) -> String {
    let root = common::root();
    let mut cmd = Command::new("sh");
    cmd.arg(root.join("tools/rustc-pgo.sh"))
        .args(["echo", "--crate-name", crate_name, "--edition=2024"])
        .env("CARGO_PKG_NAME", package)
        .env("CARGO_MANIFEST_DIR", &root)
        .env_remove("HLSLC_PGO");
    if let Some(v) = pgo {
        cmd.env("HLSLC_PGO", v);
    }
    let out = cmd.output().expect("sh runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap().trim_end().to_string()
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
                 -Cllvm-args=-pgso-cold-code-only",
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
