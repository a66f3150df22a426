//! Disassembly snapshots of sample shaders: `tests/in/snapshots/NAME.spvasm`
//! holds what hlslc emits for `samples/NAME.hlsl`, so a change in the code
//! generated for real shaders shows up in review. Rewrite with
//! `HLSLC_BLESS=1 cargo test snapshots`.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;

/// (sample, profile, entry, target environment)
const CASES: &[(&str, &str, &str, TargetEnv)] = &[
    ("blur", "cs_6_0", "main", TargetEnv::Vulkan1_0),
    ("reduce_sum", "cs_6_0", "main", TargetEnv::Vulkan1_0),
    ("prefix_sum", "cs_6_0", "main", TargetEnv::Vulkan1_2),
    ("histogram", "cs_6_0", "main", TargetEnv::Vulkan1_2),
];

#[test]
fn sample_disassembly_matches_snapshots() {
    let mut failures = Vec::new();
    for &(name, profile, entry, env) in CASES {
        let rel = std::path::PathBuf::from(format!("samples/{name}.hlsl"));
        let mut o = common::options_for(profile);
        o.entry = entry.to_string();
        o.target_env = env;
        let c = crate::compile(&rel, &common::RootedLoader, &o);
        let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
        let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
            panic!("{name} failed to compile:\n{text}");
        };
        let dis = crate::back::spv::disassemble(&a.spirv);
        let path = common::root().join(format!("tests/in/snapshots/{name}.spvasm"));
        if let Err(e) = common::check_or_bless(&path, &dis) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
