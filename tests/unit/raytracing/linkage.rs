//! `export` functions: kept in a library whether or not an entry calls
//! them, and decorated `LinkageAttributes "name" Export` (capability
//! Linkage) for a linker, in a library or beside a stage's entry point.

use super::{Spv, compile, compile_error};
use rspirv::dr::Operand;
use spirv::{Capability, Decoration, LinkageType, Op};

impl Spv {
    /// The function named `name` (by OpName), if the module defines it.
    fn function_named(&self, name: &str) -> Option<u32> {
        let named: Vec<u32> = self
            .module
            .debug_names
            .iter()
            .filter(|i| i.class.opcode == Op::Name)
            .filter(|i| i.operands[1] == Operand::LiteralString(name.to_string()))
            .map(|i| i.operands[0].unwrap_id_ref())
            .collect();
        self.module
            .functions
            .iter()
            .filter_map(|f| f.def.as_ref()?.result_id)
            .find(|id| named.contains(id))
    }
    /// The linkage name and type decorating `id`, if any.
    fn linkage(&self, id: u32) -> Option<(String, LinkageType)> {
        self.all(Op::Decorate)
            .into_iter()
            .find_map(|i| match &i.operands[..] {
                [
                    Operand::IdRef(t),
                    Operand::Decoration(Decoration::LinkageAttributes),
                    Operand::LiteralString(n),
                    Operand::LinkageType(l),
                ] if *t == id => Some((n.clone(), *l)),
                _ => None,
            })
    }
}

const TOOLS: &str = "
RWStructuredBuffer<float> sums : register(u0);
float twice(float x) { return 2 * x; }
float never_called(float x) { return x - 1; }
export float scaled(float x, inout uint count) { count += 1; return twice(x) + sums[0]; }
export void store(uint i, float v);
void store(uint i, float v) { sums[i] = v; }
";

/// A library of nothing but `export` functions: each one is in the module
/// with its linkage name, what they call is there undecorated, and an
/// unused plain function is dropped (at -O0, which inlines nothing). No entry points, so the universal
/// (non-Vulkan) environment validates it.
#[test]
fn a_library_of_exports_links_each_by_name() {
    let spv = compile(
        TOOLS,
        &["-T", "lib_6_3", "-O0", "-fspv-target-env=universal1.5"],
    );
    assert!(spv.entry_points().is_empty());
    assert!(spv.has_capability(Capability::Linkage));
    for name in ["scaled", "store"] {
        let f = spv
            .function_named(name)
            .unwrap_or_else(|| panic!("no `{name}`"));
        assert_eq!(
            spv.linkage(f),
            Some((name.to_string(), LinkageType::Export)),
            "`{name}`"
        );
    }
    let helper = spv.function_named("twice").expect("the callee is kept");
    assert_eq!(spv.linkage(helper), None);
    assert_eq!(spv.function_named("never_called"), None);
}

/// Beside a stage's entry point, an exported function the entry calls is
/// decorated too; a module without exports has no Linkage capability.
#[test]
fn an_export_called_by_an_entry_point_keeps_its_linkage() {
    let src = format!(
        "{TOOLS}[numthreads(1, 1, 1)] void main() {{ uint n = 0; store(0, scaled(1, n)); }}"
    );
    let spv = compile(&src, &["-T", "cs_6_0", "-fspv-target-env=universal1.5"]);
    let f = spv.function_named("store").expect("store");
    assert_eq!(
        spv.linkage(f),
        Some(("store".to_string(), LinkageType::Export))
    );
    let plain = compile(
        "RWStructuredBuffer<float> b; [numthreads(1, 1, 1)] void main() { b[0] = 1; }",
        &["-T", "cs_6_0"],
    );
    assert!(!plain.has_capability(Capability::Linkage));
}

/// A library with neither `[shader]` entries nor exports is still an
/// error.
#[test]
fn a_library_without_entries_or_exports_is_an_error() {
    let text = compile_error("float f(float x) { return x; }", &["-T", "lib_6_3"]);
    assert!(text.contains("the library has no entry points"), "{text}");
}

/// groupshared memory over 32 KB in a library of exports is no error: no
/// thread group of the library shares it (the linker's compute shader
/// will); with a compute entry in the library it is.
#[test]
fn a_library_counts_groupshared_memory_only_for_its_thread_groups() {
    let src = "groupshared uint big[16384];\n\
               export void clear(uint i) { big[i] = 0; }\n";
    let spv = compile(src, &["-T", "lib_6_3", "-fspv-target-env=universal1.5"]);
    assert!(spv.has_capability(Capability::Linkage));
    let with_entry =
        format!("{src}[shader(\"compute\")] [numthreads(1, 1, 1)] void cs() {{ clear(0); }}");
    let text = compile_error(&with_entry, &["-T", "lib_6_3"]);
    assert!(
        text.contains("more than the limit of 32768 bytes"),
        "{text}"
    );
}
