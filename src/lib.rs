//! hlslc: a compiler from HLSL to Vulkan SPIR-V, in pure Rust.
//!
//! It accepts HLSL as shader models 5.x and 6.x and HLSL 2021 write it
//! (structs, cbuffers, templates, namespaces, attributes, semantics,
//! registers), through a real C preprocessor, and emits SPIR-V 1.0–1.6 for
//! Vulkan 1.0–1.3 following DXC's HLSL→SPIR-V mapping.
//!
//! ```
//! use hlslc::diag::DiagnosticFormat;
//! use hlslc::{MemoryLoader, Options};
//! use std::path::Path;
//!
//! let mut files = MemoryLoader::new();
//! files.add(
//!     "double.hlsl",
//!     "RWStructuredBuffer<float> data : register(u0);
//!      [numthreads(64, 1, 1)]
//!      void main(uint3 id : SV_DispatchThreadID) { data[id.x] *= 2.0; }",
//! );
//! // DXC's flags, read by the parser the `hlslc` binary uses.
//! let options = Options::from_args(["-T", "cs_6_0", "-E", "main"]).unwrap();
//! let c = hlslc::compile(Path::new("double.hlsl"), &files, &options);
//! assert!(!c.has_errors(), "{}", c.render(DiagnosticFormat::Human));
//! let spirv = c.artifact.unwrap().spirv;
//! assert_eq!(spirv[0], 0x0723_0203); // the SPIR-V magic number
//!
//! // A mistake: the diagnostics say where, with a caret.
//! files.add("bad.hlsl", "[numthreads(1, 1, 1)] void main() { x = 1; }");
//! let c = hlslc::compile(Path::new("bad.hlsl"), &files, &options);
//! assert!(c.has_errors() && c.artifact.is_none());
//! assert!(c.render(DiagnosticFormat::Short).starts_with("bad.hlsl:1:37: error[E0301]"));
//! ```
//!
//! # The API
//!
//! - [`compile`], [`check`] (`-fsyntax-only`: every semantic error, no
//!   SPIR-V), [`check_syntax`] (preprocess and parse) and
//!   [`preprocess_to_string`] (`-P`) take a path, a [`FileLoader`]
//!   ([`DiskLoader`], [`MemoryLoader`] or your own) and [`Options`], and
//!   return a [`Compilation`]: diagnostics, the source map that renders
//!   them, the files read, and the [`Artifact`] (SPIR-V words, IR text,
//!   reflection). An `Options` the compiler cannot honour yet is refused
//!   with E0004 ([`Options::unsupported`]), never silently ignored.
//! - [`options`]: [`Options`] and the one DXC-compatible argument parser
//!   ([`Options::from_args`], [`options::CommandLine::parse`]) that the
//!   `hlslc` binary, its language server and [`build`] use.
//! - [`diag`]: [`diag::Diagnostic`], the codes, rendering (human with
//!   carets, short one-line, JSON).
//! - [`batch`]: DXC command lines as the `hlslc` binary runs them, one or
//!   many at once (`hlslc --jobs-file`), on every core.
//! - [`build`]: compiling shaders from a Cargo build script, in the spirit
//!   of `cc::Build`.
//! - [`reflect`]: the bindings, block layouts and stage I/O of a module.
//! - [`source`]: file loaders, source map and spans.
//! - `lsp` (Cargo feature `lsp`): the language server, [`lsp::run_stdio`].
//! - [`disassemble`]: SPIR-V words as `spirv-dis` text.
//!
//! Cargo features: `cli` (the `hlslc` binary) and `lsp` (the language
//! server: `lsp-server`, `lsp-types`) are on by default; a build script
//! wants `default-features = false`, the bare compiler.
//!
//! Inside, the pipeline runs preprocess, lex, parse (`front`) → names,
//! types, lowering (`sema`) → IR (`ir`) → passes (`passes`) → SPIR-V
//! (`back::spv`); those modules are private.

#![warn(missing_docs)]

pub(crate) mod back;
pub mod batch;
pub mod build;
pub mod diag;
pub(crate) mod front;
pub(crate) mod intern;
pub(crate) mod ir;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod options;
pub(crate) mod passes;
pub mod reflect;
pub(crate) mod sema;
pub mod source;
pub(crate) mod span;

pub use front::format::{BraceStyle, FormatOptions, format};
pub use front::loader::{CachingLoader, DiskLoader, FileLoader, MemoryLoader, SnapshotLoader};
pub use options::Options;

use diag::Diagnostics;
use source::SourceMap;
use std::path::{Path, PathBuf};

/// What a compilation produced. Diagnostics and the source map are always
/// there; the outputs only when the stages that make them ran without errors.
pub struct Compilation {
    /// Errors, warnings and notes, in the order they were reported.
    pub diagnostics: Diagnostics,
    /// Resolves the spans in `diagnostics`.
    pub source_map: SourceMap,
    /// Every file read, the main file first (for `-MF` depfiles).
    pub dependencies: Vec<PathBuf>,
    /// The outputs, when the compilation succeeded.
    pub artifact: Option<Artifact>,
    /// What each name resolved to and each expression's type, when
    /// [`Options::index`] asked for it and sema ran (also after errors).
    #[cfg_attr(not(feature = "lsp"), allow(dead_code))]
    pub(crate) index: Option<sema::index::Index>,
    /// What the compilation built on the way and its results do not need
    /// (the syntax tree), for the caller to free when it suits it.
    pub leftovers: Leftovers,
}

/// Intermediate data of a compilation (its syntax tree), kept so that the
/// caller chooses when to free it: freeing a large file's tree is a few
/// per cent of checking it, which a language server does after publishing
/// the diagnostics rather than before. Dropped with the compilation
/// unless taken out of it (`std::mem::take`).
#[derive(Default)]
pub struct Leftovers(Vec<Box<dyn std::any::Any + Send + Sync>>);

impl Leftovers {
    fn keep(&mut self, value: impl std::any::Any + Send + Sync) {
        self.0.push(Box::new(value));
    }
}

impl std::fmt::Debug for Leftovers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Leftovers({} items)", self.0.len())
    }
}

impl Compilation {
    /// A compilation that stopped before (or made no) outputs.
    fn without_artifact(
        diagnostics: Diagnostics,
        source_map: SourceMap,
        dependencies: Vec<PathBuf>,
        index: Option<sema::index::Index>,
    ) -> Compilation {
        Compilation {
            diagnostics,
            source_map,
            dependencies,
            artifact: None,
            index,
            leftovers: Leftovers::default(),
        }
    }

    /// Whether a diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }

    /// The diagnostics as text, without colour: `file:line:col` and the
    /// source with carets ([`DiagnosticFormat::Human`]), one line each
    /// ([`DiagnosticFormat::Short`]), or JSON lines.
    ///
    /// [`DiagnosticFormat::Human`]: diag::DiagnosticFormat::Human
    /// [`DiagnosticFormat::Short`]: diag::DiagnosticFormat::Short
    pub fn render(&self, format: diag::DiagnosticFormat) -> String {
        diag::render_to_string(&self.diagnostics.list, &self.source_map, format)
    }
}

/// The outputs of a successful compilation.
#[derive(Clone, Debug, Default)]
pub struct Artifact {
    /// The SPIR-V module.
    pub spirv: Vec<u32>,
    /// The IR after the pass pipeline (`--emit ir`), when asked for.
    pub ir_text: Option<String>,
    /// Bindings, block layouts and stage I/O (`-Fre`), when
    /// [`Options::reflect`] asks for them: see [`reflect`] for the JSON.
    pub reflection: Option<reflect::Reflection>,
}

impl Artifact {
    /// Fills [`Artifact::reflection`] from the final module when
    /// `options.reflect` asks for it (the `spirv` words must be set).
    pub(crate) fn add_reflection(&mut self, module: &ir::Module, options: &Options) {
        if options.reflect {
            let view = options.reflect_options();
            self.reflection = Some(reflect::reflect(module, &view, &self.spirv));
        }
    }
}

/// A compilation that did not start: `options` ask for something hlslc
/// cannot do ([`Options::unsupported`]), and every entry point refuses
/// rather than silently ignore it.
fn refusal(options: &Options) -> Option<Compilation> {
    let refused = options.unsupported();
    if refused.is_empty() {
        return None;
    }
    let mut diagnostics = Diagnostics::new();
    diagnostics.extend(refused);
    Some(Compilation {
        diagnostics,
        source_map: SourceMap::new(),
        dependencies: Vec::new(),
        artifact: None,
        index: None,
        leftovers: Leftovers::default(),
    })
}

/// Preprocesses and parses `path`, with a source map and diagnostics of
/// its own.
fn parse(
    path: &Path,
    loader: &dyn FileLoader,
    options: &Options,
) -> (front::Parsed, SourceMap, Diagnostics) {
    let mut sm = SourceMap::new();
    let mut diags = Diagnostics::new();
    let parsed = front::parse_program(
        path,
        loader,
        &options.preprocess_options(),
        &mut sm,
        &mut diags,
    );
    (parsed, sm, diags)
}

/// Preprocesses and parses `path`: reports syntax errors only (the
/// fuzzers' and the front-end benchmark's entry; [`check`] is what
/// `-fsyntax-only` runs).
pub fn check_syntax(path: &Path, loader: &dyn FileLoader, options: &Options) -> Compilation {
    if let Some(c) = refusal(options) {
        return c;
    }
    let (parsed, sm, diags) = parse(path, loader, options);
    Compilation::without_artifact(diags, sm, parsed.dependencies, None)
}

/// Checks `path` without compiling it (`-fsyntax-only`): preprocesses,
/// parses and runs semantic analysis over the whole file as DXC's `lib`
/// profile does — every function and global, with a stage's rules for
/// each function whose attributes or semantics name a stage, and for the
/// entry point that `options` names with a profile (see
/// [`Options::entry_named`]). No profile is needed; no SPIR-V is made.
///
/// ```
/// use hlslc::{MemoryLoader, Options};
/// use std::path::Path;
///
/// let mut files = MemoryLoader::new();
/// files.add("lib.hlsl", "float twice(float x) { return x * y; }");
/// let c = hlslc::check(Path::new("lib.hlsl"), &files, &Options::default());
/// assert!(c.has_errors()); // `y` is not declared, though nothing calls `twice`
/// ```
pub fn check(path: &Path, loader: &dyn FileLoader, options: &Options) -> Compilation {
    if let Some(c) = refusal(options) {
        return c;
    }
    let (parsed, sm, mut diags) = parse(path, loader, options);
    let index = if !diags.has_errors() {
        sema::check(&parsed.unit, &options.sema_options(), &mut diags)
    } else if options.index {
        // Being edited: the recovered text is still indexed (see `compile`).
        sema::check(
            &parsed.unit,
            &options.sema_options(),
            &mut Diagnostics::new(),
        )
    } else {
        None
    };
    let mut c = Compilation::without_artifact(diags, sm, parsed.dependencies, index);
    c.leftovers.keep(parsed.unit);
    c
}

/// Preprocesses `path` and returns the text (`-P`).
pub fn preprocess_to_string(
    path: &Path,
    loader: &dyn FileLoader,
    options: &Options,
) -> (String, Compilation) {
    if let Some(c) = refusal(options) {
        return (String::new(), c);
    }
    let mut sm = SourceMap::new();
    let mut diags = Diagnostics::new();
    let pp = front::preprocess::preprocess(
        path,
        loader,
        &options.preprocess_options(),
        &mut sm,
        &mut diags,
    );
    let text = front::preprocess::tokens_to_text(&pp.tokens, &sm);
    (
        text,
        Compilation {
            diagnostics: diags,
            source_map: sm,
            dependencies: pp.dependencies,
            artifact: None,
            index: None,
            leftovers: Leftovers::default(),
        },
    )
}

/// Preprocesses, parses and lowers `path` to IR (no passes, no backend).
/// Returns the compilation (diagnostics, source map) and the module when
/// every stage succeeded.
pub(crate) fn compile_to_ir(
    path: &Path,
    loader: &dyn FileLoader,
    options: &Options,
) -> (Compilation, Option<ir::Module>) {
    if let Some(c) = refusal(options) {
        return (c, None);
    }
    let (parsed, sm, mut diags) = parse(path, loader, options);
    let (module, index) = if !diags.has_errors() {
        sema::lower_indexed(&parsed.unit, &options.sema_options(), &mut diags)
    } else if options.index {
        // The text is being edited: what the parser recovered is still
        // indexed, for completion and hover, without sema's complaints
        // about a half-written program.
        let view = options.sema_options();
        let (_, index) = sema::lower_indexed(&parsed.unit, &view, &mut Diagnostics::new());
        (None, index)
    } else {
        (None, None)
    };
    // With `verify_ir` (`--verify-ir`, debug builds, tests) the IR
    // invariants are checked after lowering: a violation is a bug in hlslc,
    // reported, never a panic.
    let module = match module {
        Some(m) if options.verify_ir => match ir::valid::validate(&m) {
            Ok(()) => Some(m),
            Err(errors) => {
                diags.push(
                    diag::Diagnostic::error(
                        diag::codes::INTERNAL,
                        "internal error: lowering produced invalid IR",
                    )
                    .note(ir::valid::errors_to_string(&errors)),
                );
                None
            }
        },
        m => m,
    };
    let mut c = Compilation::without_artifact(diags, sm, parsed.dependencies, index);
    c.leftovers.keep(parsed.unit);
    (c, module)
}

/// The SPIR-V assembly text of a module (`-Fc`, `--emit asm`), as
/// `spirv-dis` writes it.
pub fn disassemble(spirv: &[u32]) -> String {
    back::spv::disassemble(spirv)
}

/// Source size (bytes, all files) from which [`compile`] frees the syntax
/// tree as soon as sema is done with it.
const LARGE_SOURCE: usize = 256 * 1024;

/// Compiles `path` with `options` (which must name a profile).
pub fn compile(path: &Path, loader: &dyn FileLoader, options: &Options) -> Compilation {
    let (mut c, module) = compile_to_ir(path, loader, options);
    let Some(mut module) = module else {
        return c;
    };
    // The syntax tree of a large file is freed before the passes, whose
    // working memory then reuses it (the peak of a large compile); a
    // small file's is left to the caller (the binary never frees it).
    let source_len: usize = c.source_map.files().map(|(_, f)| f.text.len()).sum();
    if source_len > LARGE_SOURCE {
        drop(std::mem::take(&mut c.leftovers));
    }
    passes::run(&mut module, &options.pipeline_options(), &mut c.diagnostics);
    if c.diagnostics.has_errors() {
        return c;
    }
    if options.emit == options::EmitKind::Ir {
        c.artifact = Some(Artifact {
            spirv: Vec::new(),
            ir_text: Some(ir::display::module_to_string(&module)),
            reflection: None,
        });
        return c;
    }
    let back_options = options.writer_options();
    // `-Zi`: NonSemantic.Shader.DebugInfo.100, resolved through the
    // source map.
    let debug = options.debug_info.nonsemantic().map(|with_source| {
        back::spv::DebugInput::new(
            &c.source_map,
            with_source,
            options.debug_info.command_line.clone(),
        )
    });
    match back::spv::write_with_debug(&module, &back_options, debug.as_ref()) {
        Ok(spirv) => {
            let mut artifact = Artifact {
                spirv,
                ..Artifact::default()
            };
            // `-Fre`: what the SPIR-V contains, after the passes.
            artifact.add_reflection(&module, options);
            c.artifact = Some(artifact);
        }
        Err(d) => c.diagnostics.push(d),
    }
    // Freed with the compilation, when its caller chooses (never, in a
    // process about to exit).
    c.leftovers.keep(module);
    c
}

// The unit tests sit under tests/unit/ beside the integration tests, not
// in src/: they are the crate's tests of its internals.
#[cfg(test)]
#[path = "../tests/unit/mod.rs"]
mod tests;
