//! hlslc's built-in headers (`vk/spirv.h`, `vk/opcode_selector.h`,
//! `vk/khr/cooperative_matrix.h`): an `#include` finds them without `-I`,
//! after the user's include path; what their API compiles to (validated)
//! and, where a driver can run it, computes.

use super::inline_spirv::{asm, assert_has};
use super::run_outputs;
use crate::MemoryLoader;
use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::Options;
use crate::tests::common;
use std::path::PathBuf;

/// Compiles `src` with `o` and renders its diagnostics; `Err` when it
/// failed.
fn compile_text(loader: &MemoryLoader, o: &Options) -> Result<Vec<u32>, String> {
    let c = crate::compile(&PathBuf::from("main.hlsl"), loader, o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    match c.artifact.filter(|_| !c.diagnostics.has_errors()) {
        Some(a) => Ok(a.spirv),
        None => Err(text),
    }
}

const GROUP_SHARED: &str = r#"
#include <vk/spirv.h>
RWStructuredBuffer<int> o : register(u0);
groupshared int shared_data[4];
[[vk::ext_instruction(/* OpLoad */ 61)]] int load(vk::WorkgroupSpirvPointer<int> p);
[numthreads(1, 1, 1)]
void main() {
    shared_data[0] = 5;
    shared_data[2] = 7;
    vk::WorkgroupSpirvPointer<int> p = vk::GetGroupSharedAddress(shared_data[2]);
    o[0] = load(p) * 10 + load(vk::GetGroupSharedAddress(shared_data[0]));
    o[1] = vk::ScopeSubgroup + vk::StorageClassWorkgroup * 10;
}
"#;

#[test]
fn group_shared_addresses_are_workgroup_pointers() {
    let a = asm(GROUP_SHARED);
    assert_has(
        &a,
        &[
            "= OpCopyObject %_ptr_Workgroup_int %",
            "= OpLoad %int %",
        ],
    );
    assert!(!a.contains("VariablePointers"), "{a}");
}

#[test]
fn group_shared_addresses_read_the_memory_on_vulkan() {
    assert_eq!(run_outputs(GROUP_SHARED, 2), vec![75, 43]);
}

#[test]
fn a_users_header_of_the_same_name_wins() {
    let mut l = MemoryLoader::new();
    l.add(
        "main.hlsl",
        "#include <vk/spirv.h>\nRWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = MINE; }",
    );
    l.add("inc/vk/spirv.h", "#define MINE 3u\n");
    let mut o = super::options();
    o.include_dirs = vec![PathBuf::from("inc")];
    let words = compile_text(&l, &o).unwrap_or_else(|e| panic!("{e}"));
    assert!(common::spirv_dis(&words).contains("%uint_3"));
    // Without it, the built-in header has no `MINE`.
    o.include_dirs.clear();
    let e = compile_text(&l, &o).expect_err("MINE is the user's");
    assert!(e.contains("MINE"), "{e}");
}
