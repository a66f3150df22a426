//! A whole compile, as `hlslc -spirv -T <profile> -E main -O<n>` runs it.
//! The first byte picks the options, the rest is the source:
//!
//! - bits 0–3: the profile, from [`PROFILES`]: every stage, mesh,
//!   amplification, ray tracing and work-graph libraries included;
//! - bits 4–5: the optimisation level `-O0` … `-O3`;
//! - bit 6: `-fspv-target-env=vulkan1.3` instead of the default 1.0;
//! - bit 7: `-Fre` (reflection of the SPIR-V).
//!
//! The IR validator runs after lowering and every pass (`--verify-ir`); a
//! successful compile's SPIR-V must parse and pass `spirv-val` for the
//! target environment (where spirv-val is installed).
//!
//! `fuzz/seed.py` prefixes each seed with the byte its `-T` header names.
#![no_main]

mod common;

use hlslc::Options;
use hlslc::options::{Profile, TargetEnv};
use libfuzzer_sys::fuzz_target;

const PROFILES: [&str; 16] = [
    "cs_6_0", "vs_6_0", "ps_6_0", "gs_6_0", "hs_6_0", "ds_6_0", "cs_6_6", "ps_6_6", "ms_6_5",
    "as_6_5", "lib_6_3", "lib_6_8", "cs_6_5", "vs_6_1", "ps_6_5", "cs_6_8",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, source)) = data.split_first() else {
        return;
    };
    let options = Options {
        profile: Profile::parse(PROFILES[usize::from(selector & 15)]),
        opt_level: (selector >> 4) & 3,
        reflect: selector & 0x80 != 0,
        target_env: if selector & 0x40 != 0 {
            TargetEnv::Vulkan1_3
        } else {
            TargetEnv::default()
        },
        // Invalid IR after lowering or a pass is an internal error below,
        // in the release builds cargo-fuzz makes too.
        verify_ir: true,
        ..Options::default()
    };
    let (loader, path) = common::loader(String::from_utf8_lossy(source).into_owned());
    let c = hlslc::compile(&path, &loader, &options);
    common::render(&c);
    // "internal error" diagnostics are hlslc bugs (invalid IR, a backend
    // invariant): as much a finding as a panic.
    for d in c.diagnostics.iter() {
        assert!(
            d.code != hlslc::diag::codes::INTERNAL,
            "internal error: {}",
            d.message
        );
    }
    if !c.has_errors() {
        let artifact = c
            .artifact
            .as_ref()
            .expect("a successful compile has an artifact");
        assert!(
            !artifact.spirv.is_empty(),
            "a successful compile made no SPIR-V"
        );
        common::validate_spirv(&artifact.spirv, options.target_env);
    }
});
