//! Libraries, ray tracing stages and ray queries: HLSL compiled with
//! `lib_6_x` (or a stage profile for ray queries), validated with spirv-val,
//! and the SPIR-V checked instruction by instruction — entry points and
//! their execution models, storage classes of payloads and attributes,
//! built-ins, the ray tracing and ray query instructions and their
//! operands.

mod entries;
mod linkage;
mod queries;
mod records;

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::tests::common;
use rspirv::dr::Operand;
use spirv::{Op, StorageClass};

pub use common::Spv;

/// The rendered diagnostics and whether the compile succeeded.
pub fn compile_result(src: &str, args: &[&str]) -> (bool, String, Vec<u32>) {
    let o = common::options_from_args(args).expect("options parse");
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short);
    match c.artifact.filter(|_| !c.diagnostics.has_errors()) {
        Some(a) => (true, text, a.spirv),
        None => (false, text, Vec::new()),
    }
}

/// Compiles `src` with the DXC-style `args` (a profile among them; the
/// target environment is vulkan1.2 unless `args` name one) and validates
/// it; panics with the diagnostics or spirv-val's message.
pub fn compile(src: &str, args: &[&str]) -> Spv {
    let mut all: Vec<&str> = args.to_vec();
    if !args.iter().any(|a| a.starts_with("-fspv-target-env=")) {
        all.push("-fspv-target-env=vulkan1.2");
    }
    let env = all
        .iter()
        .find_map(|a| a.strip_prefix("-fspv-target-env="))
        .unwrap_or("vulkan1.2");
    let (ok, text, words) = compile_result(src, &all);
    assert!(
        ok,
        "compile failed ({all:?}):\n{text}\n--- source ---\n{src}"
    );
    let val_env = crate::options::TargetEnv::parse(env).map_or(env, |e| e.name());
    if let Err(e) = common::spirv_val(&words, val_env) {
        panic!(
            "invalid SPIR-V ({all:?}): {e}\n{}\n--- source ---\n{src}",
            common::spirv_dis(&words)
        );
    }
    let module = rspirv::dr::load_words(&words).expect("rspirv reads the module");
    Spv { module }
}

/// The diagnostics of a compile that must fail.
pub fn compile_error(src: &str, args: &[&str]) -> String {
    let (ok, text, _) = compile_result(src, args);
    assert!(!ok, "compile succeeded ({args:?}) but should fail:\n{src}");
    text
}

impl Spv {
    pub fn has_extension(&self, name: &str) -> bool {
        self.module
            .extensions
            .iter()
            .any(|i| i.operands[0] == Operand::LiteralString(name.to_string()))
    }
    /// The storage class of a variable.
    pub fn storage_of(&self, id: u32) -> StorageClass {
        match self.def(id).operands[0] {
            Operand::StorageClass(c) => c,
            ref o => panic!("%{id} is not a variable: {o:?}"),
        }
    }
    /// The variables of a storage class.
    pub fn variables_in(&self, class: StorageClass) -> Vec<u32> {
        self.all(Op::Variable)
            .into_iter()
            .filter(|i| i.operands[0] == Operand::StorageClass(class))
            .filter_map(|i| i.result_id)
            .collect()
    }
    /// The variable decorated `BuiltIn b`.
    pub fn builtin(&self, b: spirv::BuiltIn) -> Option<u32> {
        self.all(Op::Decorate)
            .into_iter()
            .find(|i| {
                i.operands[1..].starts_with(&[
                    Operand::Decoration(spirv::Decoration::BuiltIn),
                    Operand::BuiltIn(b),
                ])
            })
            .map(|i| i.operands[0].unwrap_id_ref())
    }
    /// `(execution model, name, interface ids)` of each entry point.
    pub fn entry_points(&self) -> Vec<(spirv::ExecutionModel, String, Vec<u32>)> {
        self.module
            .entry_points
            .iter()
            .map(|e| {
                let model = match e.operands[0] {
                    Operand::ExecutionModel(m) => m,
                    ref o => panic!("bad entry point {o:?}"),
                };
                let name = match &e.operands[2] {
                    Operand::LiteralString(s) => s.clone(),
                    o => panic!("bad entry point name {o:?}"),
                };
                let iface = e.operands[3..].iter().map(|o| o.unwrap_id_ref()).collect();
                (model, name, iface)
            })
            .collect()
    }
    /// The value of a 32-bit integer constant.
    pub fn u32_const(&self, id: u32) -> u32 {
        match self.def(id).operands[..] {
            [Operand::LiteralBit32(v)] => v,
            ref o => panic!("%{id} is not a 32-bit constant: {o:?}"),
        }
    }
}
