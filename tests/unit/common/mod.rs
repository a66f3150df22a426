//! Helpers shared by the test modules.
#![allow(dead_code)]

mod files;
mod spirv_tools;
pub use files::*;
pub use spirv_tools::*;

use crate::MemoryLoader;
use crate::Options;
use std::path::{Path, PathBuf};

/// An in-memory loader holding one file, `main.hlsl`.
pub fn single_file(text: &str) -> (MemoryLoader, PathBuf) {
    let mut l = MemoryLoader::new();
    l.add("main.hlsl", text);
    (l, PathBuf::from("main.hlsl"))
}

/// The options every test compiles with: the defaults, with the IR
/// validator on after lowering and after every pass whatever the build
/// profile (`cargo test --release` has no debug assertions), so that a pass
/// leaving invalid IR fails the test that reaches it.
pub fn verified_options() -> Options {
    Options {
        verify_ir: true,
        ..Options::default()
    }
}

/// [`verified_options`] for a profile such as `cs_6_0`.
pub fn options_for(profile: &str) -> Options {
    Options {
        profile: crate::options::Profile::parse(profile),
        ..verified_options()
    }
}

/// [`verified_options`] as a DXC-style command line sets them, read by the
/// library's parser (`Options::from_args`); `Err` renders its errors.
pub fn options_from_args<S: AsRef<str>>(args: &[S]) -> Result<Options, String> {
    let args = std::iter::once("--verify-ir").chain(args.iter().map(AsRef::as_ref));
    Options::from_args(args).map_err(|errors| {
        errors
            .iter()
            .map(|e| e.message.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// Reads paths relative to the repository root, so that diagnostics name
/// files as `tests/in/...` wherever the tests run.
pub struct RootedLoader;

impl crate::FileLoader for RootedLoader {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(root().join(path))
    }
    fn exists(&self, path: &Path) -> bool {
        root().join(path).is_file()
    }
}

/// A compiled module, parsed back by rspirv, for tests that look at its
/// instructions (each test module adds the queries it needs in its own
/// `impl Spv`).
pub struct Spv {
    pub module: rspirv::dr::Module,
}

impl Spv {
    /// Every instruction with opcode `op`.
    pub fn all(&self, op: spirv::Op) -> Vec<&rspirv::dr::Instruction> {
        self.module
            .all_inst_iter()
            .filter(|i| i.class.opcode == op)
            .collect()
    }
    /// The instruction that defines `id`.
    pub fn def(&self, id: u32) -> &rspirv::dr::Instruction {
        self.module
            .all_inst_iter()
            .find(|i| i.result_id == Some(id))
            .unwrap_or_else(|| panic!("no definition of %{id}"))
    }
    /// Whether the module declares `cap`.
    pub fn has_capability(&self, cap: spirv::Capability) -> bool {
        self.module
            .capabilities
            .iter()
            .any(|i| i.operands[0] == rspirv::dr::Operand::Capability(cap))
    }
}
