//! `-Oconfig=`: the spirv-opt passes DXC runs instead of its `-O` recipe.
//!
//! hlslc does not run spirv-opt: it has one optimisation pipeline of its
//! own, chosen by the `-O` level. `-Oconfig=` is accepted so that build
//! scripts written for DXC keep working, but the passes it names are
//! checked, not run: each comma-separated item must be a pass spirv-opt
//! knows (what DXC would refuse, hlslc refuses too), and the module is
//! then optimised as at the default level, `-O3` (warning W0001 says so).

/// The pass flags spirv-opt (SPIRV-Tools 2025.5) takes in a pass list,
/// without their leading `--`, from `spirv-opt --help` and the passes it
/// accepts without listing them; `O` and `Os` are its two recipes, spelt
/// `-O` and `-Os`. spirv-opt's own options (`--target-env`,
/// `--skip-validation`, `--print-all`, …) are not passes and are refused.
pub(crate) const SPIRV_OPT_PASSES: &[&str] = &[
    "amd-ext-to-khr",
    "canonicalize-ids",
    "ccp",
    "cfg-cleanup",
    "code-sink",
    "combine-access-chains",
    "compact-ids",
    "convert-local-access-chains",
    "convert-relaxed-to-half",
    "convert-to-sampled-image",
    "copy-propagate-arrays",
    "descriptor-array-scalar-replacement",
    "descriptor-composite-scalar-replacement",
    "descriptor-scalar-replacement",
    "eliminate-dead-branches",
    "eliminate-dead-code-aggressive",
    "eliminate-dead-const",
    "eliminate-dead-functions",
    "eliminate-dead-input-components",
    "eliminate-dead-inserts",
    "eliminate-dead-members",
    "eliminate-dead-variables",
    "eliminate-insert-extract",
    "eliminate-local-multi-store",
    "eliminate-local-single-block",
    "eliminate-local-single-store",
    "fix-func-call-param",
    "fix-storage-class",
    "flatten-decorations",
    "fold-spec-const-op-composite",
    "freeze-spec-const",
    "graphics-robust-access",
    "if-conversion",
    "inline-entry-points-exhaustive",
    "inline-entry-points-opaque",
    "interpolate-fixup",
    "legalize-hlsl",
    "local-redundancy-elimination",
    "loop-fission",
    "loop-fusion",
    "loop-invariant-code-motion",
    "loop-peeling",
    "loop-peeling-threshold",
    "loop-unroll",
    "loop-unroll-partial",
    "loop-unswitch",
    "merge-blocks",
    "merge-return",
    "modify-maximal-reconvergence",
    "private-to-local",
    "reduce-load-size",
    "redundancy-elimination",
    "relax-float-ops",
    "remove-dont-inline",
    "remove-duplicates",
    "remove-unused-interface-variables",
    "replace-desc-array-access-using-var-index",
    "replace-invalid-opcode",
    "resolve-binding-conflicts",
    "scalar-replacement",
    "set-spec-const-default-value",
    "simplify-instructions",
    "split-combined-image-sampler",
    "spread-volatile-semantics",
    "ssa-rewrite",
    "strength-reduction",
    "strip-debug",
    "strip-nonsemantic",
    "strip-reflect",
    "struct-packing",
    "switch-descriptorset",
    "trim-capabilities",
    "unify-const",
    "upgrade-memory-model",
    "vector-dce",
    "workaround-1209",
    "wrap-opkill",
];

/// Checks a `-Oconfig=` pass list: comma-separated `--pass[=args]`
/// items, or `-O` / `-Os`. The error names the first item spirv-opt
/// would not take.
pub(crate) fn check(list: &str) -> Result<(), String> {
    if list.is_empty() {
        return Err("the pass list is empty (expected e.g. --loop-unroll,--ssa-rewrite)".into());
    }
    for item in list.split(',') {
        if matches!(item, "-O" | "-Os") {
            continue;
        }
        let Some(flag) = item.strip_prefix("--").filter(|f| !f.is_empty()) else {
            return Err(format!(
                "'{item}' is not a spirv-opt pass flag (expected --pass[=args], -O or -Os)"
            ));
        };
        let name = flag.split_once('=').map_or(flag, |(name, _)| name);
        if !SPIRV_OPT_PASSES.contains(&name) {
            let hint = match crate::diag::suggest::closest(name, SPIRV_OPT_PASSES.iter().copied()) {
                Some(s) => format!(" (did you mean '--{s}'?)"),
                None => String::new(),
            };
            return Err(format!("unknown spirv-opt pass '--{name}'{hint}"));
        }
    }
    Ok(())
}
