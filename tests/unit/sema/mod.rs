//! Sema tests: HLSL snippets lowered to IR, with assertions on the IR facts
//! sema decides — address spaces, bindings, layouts, precise flags,
//! overload choices, conversions, the entry point wrapper — and on the
//! storage-class rules.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::ir::{self, AddressSpace, Expression, Module, Statement, TypeInner};
use crate::options::{LayoutRule, Options, TargetEnv};
use crate::tests::common;
use crate::tests::vk::{self, Resource};

mod buffer_pointer;
mod combined;
mod device_address;
mod dxc_rest;
mod end_to_end;
mod gaps;
mod builtin_headers;
mod inline_spirv;
mod inline_spirv_places;
mod inline_spirv_type_def;
mod inline_spirv_types;
mod language;
mod mesh;
mod mesh_nv;
mod options;
mod resource_structs;
mod real_code;
mod resource_paths;
mod resources;
mod size;
mod stages;
mod storage;
mod sysvals;
mod templates;
mod unused;

pub fn options() -> Options {
    common::options_for("cs_6_0")
}

/// Lowers `src`; panics with the rendered diagnostics if it fails.
pub fn lower_with(src: &str, o: &Options) -> Module {
    let (loader, path) = common::single_file(src);
    let (c, m) = crate::compile_to_ir(&path, &loader, o);
    match m {
        Some(m) => m,
        None => panic!(
            "lowering failed:\n{}",
            render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human)
        ),
    }
}

pub fn lower(src: &str) -> Module {
    lower_with(src, &options())
}

/// The rendered diagnostics of `src`, and whether it failed.
pub fn diagnose_with(src: &str, o: &Options) -> (String, bool) {
    let (loader, path) = common::single_file(src);
    let (c, m) = crate::compile_to_ir(&path, &loader, o);
    (
        render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human),
        m.is_none(),
    )
}

pub fn diagnose(src: &str) -> (String, bool) {
    diagnose_with(src, &options())
}

/// Asserts that `src` fails with diagnostic `code`.
pub fn fails_with(src: &str, code: &str) -> String {
    let (text, failed) = diagnose(src);
    assert!(failed, "expected an error {code}, got success:\n{text}");
    assert!(text.contains(code), "expected {code} in:\n{text}");
    text
}

pub fn global<'m>(m: &'m Module, name: &str) -> &'m ir::GlobalVariable {
    m.globals
        .iter()
        .map(|(_, g)| g)
        .find(|g| g.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no global `{name}`"))
}

pub fn has_global(m: &Module, name: &str) -> bool {
    m.globals
        .iter()
        .any(|(_, g)| g.name.as_deref() == Some(name))
}

pub fn binding(m: &Module, name: &str) -> (u32, u32) {
    let b = global(m, name)
        .binding
        .unwrap_or_else(|| panic!("`{name}` has no binding"));
    (b.set, b.binding)
}

/// Offsets of a struct type's members.
pub fn offsets(m: &Module, ty: ir::Handle<ir::Type>) -> Vec<u32> {
    match &m.types[ty].inner {
        TypeInner::Struct { members, .. } => members
            .iter()
            .map(|m| m.offset.unwrap_or(u32::MAX))
            .collect(),
        other => panic!("not a struct: {other:?}"),
    }
}

pub fn function<'m>(m: &'m Module, name: &str) -> &'m ir::Function {
    m.functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == name)
        .unwrap_or_else(|| {
            let names: Vec<_> = m.functions.iter().map(|(_, f)| f.name.clone()).collect();
            panic!("no function `{name}` in {names:?}")
        })
}

pub fn count_stmts(b: &[Statement], pred: &dyn Fn(&Statement) -> bool) -> usize {
    let mut n = 0;
    for s in b {
        if pred(s) {
            n += 1;
        }
        n += match s {
            Statement::Block(b) => count_stmts(b, pred),
            Statement::If { accept, reject, .. } => {
                count_stmts(accept, pred) + count_stmts(reject, pred)
            }
            Statement::Loop {
                body, continuing, ..
            } => count_stmts(body, pred) + count_stmts(continuing, pred),
            Statement::Switch { cases, .. } => {
                cases.iter().map(|c| count_stmts(&c.body, pred)).sum()
            }
            _ => 0,
        };
    }
    n
}

pub fn count_exprs(f: &ir::Function, pred: &dyn Fn(&Expression) -> bool) -> usize {
    f.expressions.iter().filter(|(_, e)| pred(e)).count()
}

const MAIN: &str = "[numthreads(1,1,1)] void main() {}";

/// DXC's default layouts are vector-relaxed: Vulkan 1.0 needs
/// VK_KHR_relaxed_block_layout for them (core from 1.1).
pub fn val_flags(env: TargetEnv) -> &'static [&'static str] {
    if env == TargetEnv::Vulkan1_0 {
        &["--relax-block-layout"]
    } else {
        &[]
    }
}

/// Compiles to SPIR-V and validates it for each environment.
pub fn compile_valid(src: &str, envs: &[TargetEnv]) {
    for &env in envs {
        compile_valid_words(src, env);
    }
}

/// Compiles to SPIR-V for `env`, validates it, and returns the words.
pub fn compile_valid_words(src: &str, env: TargetEnv) -> Vec<u32> {
    let mut o = options();
    o.target_env = env;
    compile_valid_words_with(src, &o)
}

/// [`compile_valid_words`] with options `o` (their target environment).
pub fn compile_valid_words_with(src: &str, o: &Options) -> Vec<u32> {
    let env = o.target_env;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed for {env:?}:\n{text}");
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, env.name(), val_flags(env)) {
        panic!(
            "invalid SPIR-V for {env:?}: {e}\n{}",
            common::spirv_dis(&a.spirv)
        );
    }
    a.spirv
}

/// Compiles the compute shader `src` for `env` (validated, as
/// [`compile_valid`]), runs one workgroup of it on Vulkan (`tests/unit/vk`,
/// lavapipe by default) with `resources`, and returns them as the shader
/// left them: what the feature under test computed on a real driver.
pub fn run_on_vulkan(src: &str, env: TargetEnv, mut resources: Vec<Resource>) -> Vec<Resource> {
    let words = compile_valid_words(src, env);
    if let Err(e) = vk::shared().run_compute(&words, "main", &mut resources, &[], [1, 1, 1]) {
        panic!(
            "dispatch failed ({env:?}): {e}\n{}",
            common::spirv_dis(&words)
        );
    }
    resources
}

/// [`run_on_vulkan`] for a shader whose one resource is a zeroed
/// `RWStructuredBuffer` of `n` 32-bit elements (set 0, binding 0), in
/// Vulkan 1.0 and 1.2: the buffer's words after the dispatch (the same in
/// both, or the test fails).
pub fn run_outputs(src: &str, n: usize) -> Vec<u32> {
    let mut words = Vec::new();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let r = run_on_vulkan(src, env, vec![Resource::storage(0, 0, vec![0u8; 4 * n])]);
        let got = vk::to_u32s(&r[0].data);
        if env != TargetEnv::Vulkan1_0 {
            assert_eq!(got, words, "Vulkan 1.0 and {env:?} disagree");
        }
        words = got;
    }
    words
}

/// [`run_outputs`] read as `float`s.
pub fn run_float_outputs(src: &str, n: usize) -> Vec<f32> {
    run_outputs(src, n)
        .into_iter()
        .map(f32::from_bits)
        .collect()
}
