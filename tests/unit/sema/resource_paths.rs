//! Resource locals across control flow: what each path assigns, where the
//! paths meet, and `[unroll]` loops that rebind them.

use super::*;

/// The resources the module's functions refer to, by name.
fn globals_used(m: &Module) -> Vec<String> {
    let mut names: Vec<String> = m
        .functions
        .iter()
        .flat_map(|(_, f)| f.expressions.iter())
        .filter_map(|(_, e)| match e {
            Expression::GlobalVariable(g) if m.globals[*g].binding.is_some() => {
                m.globals[*g].name.clone()
            }
            _ => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

const BUFS: &str =
    "StructuredBuffer<uint> ga; StructuredBuffer<uint> gb; RWStructuredBuffer<uint> o;\n";

#[test]
fn a_branch_that_is_never_taken_rebinds_nothing() {
    let m = lower(&format!(
        "{BUFS}[numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {{\n\
           StructuredBuffer<uint> l = ga;\n\
           if (1 > 2) l = gb;\n\
           switch (3) {{ case 0: l = gb; break; default: break; }}\n\
           o[i] = l[i];\n\
         }}"
    ));
    assert_eq!(globals_used(&m), vec!["ga", "o"]);
}

#[test]
fn paths_that_agree_or_use_their_own_resource_compile() {
    let src = format!(
        "{BUFS}[numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {{\n\
           StructuredBuffer<uint> l;\n\
           if (i > 3) {{ l = ga; o[i] = l[i]; }} else {{ l = gb; o[i] = l[i + 1]; }}\n\
           StructuredBuffer<uint> k;\n\
           if (i > 5) k = gb; else k = gb;\n\
           o[0] = k[0];\n\
           StructuredBuffer<uint> r = ga;\n\
           if (i == 7) {{ r = gb; o[1] = r[1]; return; }}\n\
           o[2] = r[2];\n\
         }}"
    );
    compile_valid(&src, &[TargetEnv::Vulkan1_1]);
}

#[test]
fn unrolled_loops_with_known_counters_pick_a_resource_per_copy() {
    let src = format!(
        "{BUFS}[numthreads(1,1,1)] void main() {{\n\
           StructuredBuffer<uint> l;\n\
           [unroll] for (int j = 0; j < 3; j++) {{\n\
             if (j == 1) l = ga; else l = gb;\n\
             o[j] = l[j];\n\
           }}\n\
         }}"
    );
    let m = lower(&src);
    assert_eq!(globals_used(&m), vec!["ga", "gb", "o"]);
    compile_valid(&src, &[TargetEnv::Vulkan1_1]);
}

#[test]
fn resources_chosen_at_run_time_are_errors_where_used() {
    for body in [
        "StructuredBuffer<uint> l; if (i > 2) l = ga; else l = gb; o[i] = l[i];",
        "StructuredBuffer<uint> l = ga; if (i > 2) l = gb; o[i] = l[i];",
        "StructuredBuffer<uint> l; switch (i) { case 0: l = ga; break; default: l = gb; break; } o[i] = l[i];",
        "StructuredBuffer<uint> l = ga; switch (i) { case 0: l = gb; default: o[i] = l[i]; break; }",
        "StructuredBuffer<uint> l = ga; for (uint j = 0; j < i; j++) { o[j] = l[j]; l = gb; }",
        "StructuredBuffer<uint> l = ga; [unroll] for (uint j = i; j < 4; j++) { l = gb; } o[0] = l[0];",
        "StructuredBuffer<uint> l = ga; while (i > 0) { l = gb; break; } o[0] = l[0];",
    ] {
        let t = fails_with(
            &format!("{BUFS}[numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {{ {body} }}"),
            "E0609",
        );
        assert!(t.contains("not known at compile time"), "{body}: {t}");
    }
}
