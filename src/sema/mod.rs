//! Semantic analysis: names, types, overloads, intrinsics and storage-class
//! rules; lowers the AST to the IR.
//!
//! [`lower`] runs in phases:
//! 1. `decl`: every item of the translation unit is declared, in order:
//!    types (structs, enums, typedefs, templates), function signatures,
//!    global variables with their storage classes, cbuffers.
//! 2. `$Globals` is laid out and built.
//! 3. `interface`: the entry point named by `-E` gets a wrapper function
//!    that loads stage inputs, runs static initialisers, calls the user's
//!    function and stores the outputs.
//! 4. Function bodies are lowered on demand, starting from the entry point
//!    (a worklist): only what the entry point reaches becomes IR, as DXC
//!    translates only reachable functions.
//! 5. Recursion is rejected; descriptor bindings are assigned (`bindings`);
//!    the groupshared budget is checked.
//!
//! [`check`] runs the same phases without an entry point, over every
//! function, as DXC's `lib` profile does (`entry::library`): what
//! `-fsyntax-only` and the language server report when no entry is known.

pub mod body;
pub mod calls;
pub mod context;
pub mod decl;
pub mod entry;
// Its readers are the language server's: a build without `lsp` records
// nothing (`Options::index` stays off) and reads none of it.
#[cfg_attr(not(feature = "lsp"), allow(dead_code))]
pub mod index;
pub mod options;
pub mod resources;
pub mod table;
pub mod types;

pub use context::*;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::ast;
use crate::ir;
use crate::ir::Stage;
use crate::sema::options::SemaOptions;

/// Checks a parsed translation unit as a library, reporting every semantic
/// error and keeping no IR: see [`entry::library::check`]. Gives the side
/// table of what names resolved to when `options.index` asks for it.
pub fn check(
    unit: &ast::TranslationUnit,
    options: &SemaOptions,
    diags: &mut Diagnostics,
) -> Option<index::Index> {
    entry::library::check(unit, options, diags)
}

impl<'a> Sema<'a> {
    /// Sema for `unit` at `stage` with every item declared: the first
    /// phases, shared by compiling and library checking.
    fn declared(
        unit: &'a ast::TranslationUnit,
        options: &'a SemaOptions,
        diags: &'a mut Diagnostics,
        stage: Stage,
    ) -> Self {
        let mut s = Sema::new(options, diags, stage);
        // Room for a small shader's types up front: grown from empty, the
        // type arena's map was rehashed (every type hashed again) five
        // times on the way to a few dozen types.
        s.module.types.reserve(TYPICAL_TYPES);
        // And for the names the file declares (about one per item), which
        // the global scope's map otherwise grew into by rehashing.
        let global = s.scopes.get_mut(types::scope::GLOBAL_SCOPE);
        global.names.reserve(unit.items.len());
        s.entry.vertex.enabled = stage == Stage::Pixel && unit.reads_vertex_attributes;
        if stage == Stage::Amplification {
            s.entry.mesh.payload_names = entry::mesh::dispatch_payloads(&unit.items);
        }
        s.decls.ext_types = decl::ext_type::ExtTypes::collect(&unit.items);
        s.declare_items(&unit.items, types::scope::GLOBAL_SCOPE);
        s.pair_combined_samplers();
        s.decls.summarize_out_params();
        s.build_globals_block();
        s
    }

    /// The entry point, everything it reaches, and the checks that need
    /// the whole call graph.
    fn lower_entry_and_reachable(&mut self) {
        self.lower_entry_point();
        self.drain_worklist();
        self.finish_entry_point();
        self.check_recursion();
    }
}

/// How many IR types a small shader's module has, about (blur: 30 odd).
const TYPICAL_TYPES: usize = 48;

/// [`lower`], and the side table of what names resolved to when
/// `options.index` asks for it ([`index`]): that comes also when errors
/// stop the module.
pub fn lower_indexed(
    unit: &ast::TranslationUnit,
    options: &SemaOptions,
    diags: &mut Diagnostics,
) -> (Option<ir::Module>, Option<index::Index>) {
    let errors_before = diags.error_count();
    let diags_before = diags.list.len();
    let Some(profile) = options.profile else {
        diags.push(Diagnostic::error(
            codes::BAD_OPTION,
            "missing target profile: pass -T (e.g. -T cs_6_0)",
        ));
        return (None, None);
    };
    decl::attrs::check_items(&unit.items, diags);
    let mut s = Sema::declared(unit, options, diags, profile.stage);
    s.lower_entry_and_reachable();
    s.assign_bindings();
    s.check_groupshared_budget();
    s.report_misaligned_offsets();
    s.check_unused_functions();
    let index = index::finish(&mut s);
    let module = s.module;
    // Trial lowerings (constant conditions, `auto`, constant initializers)
    // may report a problem that the real lowering reports again.
    dedup_diagnostics(diags, diags_before);
    let module = (diags.error_count() <= errors_before).then_some(module);
    (module, index)
}
