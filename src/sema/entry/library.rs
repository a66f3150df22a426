//! Library checking: the whole translation unit checked as DXC's `lib`
//! profile checks it, for `-fsyntax-only` and the language server when no
//! entry point is known.
//!
//! Every non-template function with a body and every global goes through
//! sema once, as a library (stage [`Stage::Library`], which leaves stage
//! rules to entry points); templates are lowered where they are
//! instantiated. Then each function whose attributes or semantics name a
//! stage sema knows ([`stage_named_by`]) is lowered again as that stage's
//! entry point, wrapper included, so that its stage rules are checked; so
//! is the entry `-T`/`-E` name. No IR is kept.

use super::super::{Sema, dedup_diagnostics};
use crate::diag::{Diagnostics, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir::Stage;
use crate::sema::decl::find_attr;
use crate::sema::options::{Profile, SemaOptions};
use crate::sema::types::{Ty, TyId};

/// The shader model entry points found by their attributes are checked
/// for when no profile names one: the newest, so that no feature is
/// refused for a model nobody asked for.
const NEWEST_MINOR: u32 = 8;

/// Checks `unit` as a library (module doc). With a profile of a stage,
/// the entry function `options.entry` gets that stage's rules when it is
/// defined; a missing one is an error (E0601) only when `-E` named it
/// ([`SemaOptions::entry_named`]).
pub fn check(
    unit: &ast::TranslationUnit,
    options: &SemaOptions,
    diags: &mut Diagnostics,
) -> Option<crate::sema::index::Index> {
    let diags_before = diags.list.len();
    let named = options.profile.filter(|p| p.stage != Stage::Library);
    let (mut entries, entry_defined, index) = library_pass(unit, options, diags);
    if let Some(p) = named {
        match entries.iter_mut().find(|(n, _)| *n == options.entry) {
            Some(e) => e.1 = p.stage,
            // A missing entry gets its E0601 from the entry pass.
            None if entry_defined || options.entry_named => {
                entries.push((options.entry.clone(), p.stage))
            }
            None => {}
        }
    }
    for (name, stage) in entries {
        let (major, minor) = options
            .profile
            .map_or((6, NEWEST_MINOR), |p| (p.major, p.minor));
        let entry_options = SemaOptions {
            profile: Some(Profile {
                stage,
                major,
                minor,
            }),
            entry: name,
            ..options.clone()
        };
        entry_pass(
            unit,
            &SemaOptions {
                index: false,
                ..entry_options
            },
            diags,
        );
    }
    // The passes share declarations: what they all report once.
    dedup_diagnostics(diags, diags_before);
    index
}

/// Lowers every function and global as a library; returns the functions
/// that name a stage, with it, in declaration order, and whether a global
/// function `options.entry` is defined. Problems of code generation (what
/// hlslc does not support yet, calls to functions declared without a body,
/// which a library may leave to others) and of the stage (a stream's
/// `Append` outside a geometry shader) are not reported for bodies: they
/// concern the entry points that reach them, which their own passes check.
/// With `options.index`, the side table of this pass (which lowers every
/// function) comes too.
fn library_pass(
    unit: &ast::TranslationUnit,
    options: &SemaOptions,
    diags: &mut Diagnostics,
) -> (
    Vec<(String, Stage)>,
    bool,
    Option<crate::sema::index::Index>,
) {
    let lib_options = SemaOptions {
        profile: None,
        ..options.clone()
    };
    super::super::decl::attrs::check_items(&unit.items, diags);
    let mut s = Sema::declared(unit, &lib_options, diags, Stage::Library);
    let entries = s.library_entries();
    let entry_defined = s.defines_function(&options.entry);
    let from = s.diagnostic_mark();
    let defined: Vec<_> = s
        .decls
        .funcs
        .iter()
        .filter(|(_, f)| f.def.is_some() && !f.is_template && f.sig.is_some())
        .map(|(id, _)| id)
        .collect();
    for id in defined {
        s.func_ir(id);
        s.drain_worklist();
    }
    s.drop_diagnostics_since(from, |d| {
        [
            codes::UNSUPPORTED,
            codes::UNDEFINED_FUNCTION,
            codes::STAGE_STATEMENT,
        ]
        .contains(&d.code)
    });
    s.check_recursion();
    s.assign_bindings();
    s.check_groupshared_budget();
    s.report_misaligned_offsets();
    let index = crate::sema::index::finish(&mut s);
    (entries, entry_defined, index)
}

/// Lowers the entry point `options` name with its stage's rules, and what
/// it reaches; the library pass checked the rest.
fn entry_pass(unit: &ast::TranslationUnit, options: &SemaOptions, diags: &mut Diagnostics) {
    let Some(profile) = options.profile else {
        return;
    };
    let mut s = Sema::declared(unit, options, diags, profile.stage);
    s.lower_entry_and_reachable();
    s.check_groupshared_budget();
}

impl<'a> Sema<'a> {
    /// Whether a global, non-template function `name` has a body.
    fn defines_function(&self, name: &str) -> bool {
        self.decls.funcs.values().any(|d| {
            d.def.is_some()
                && !d.is_template
                && d.this_ty.is_none()
                && self.scopes.get(d.scope).parent.is_none()
                && d.name.as_str() == name
        })
    }

    /// The global functions with a body whose attributes or semantics name
    /// a stage, once per name, in declaration order.
    fn library_entries(&self) -> Vec<(String, Stage)> {
        let mut out: Vec<(String, Stage)> = Vec::new();
        for d in self.decls.funcs.values() {
            let (Some(f), Some(sig)) = (d.def, d.sig.as_ref()) else {
                continue;
            };
            if d.is_template
                || d.this_ty.is_some()
                || self.scopes.get(d.scope).parent.is_some()
                || out.iter().any(|(n, _)| n == d.name.as_str())
            {
                continue;
            }
            let mut inputs = Vec::new();
            let mut outputs = Vec::new();
            self.semantics_of(sig.ret, sig.ret_semantic, &mut outputs);
            for p in &sig.params {
                let list = match p.dir {
                    super::super::Dir::In => &mut inputs,
                    super::super::Dir::Out => &mut outputs,
                    super::super::Dir::InOut => {
                        self.semantics_of(p.ty, p.semantic, &mut inputs);
                        &mut outputs
                    }
                };
                self.semantics_of(p.ty, p.semantic, list);
            }
            if let Some(stage) = stage_named_by(f, &inputs, &outputs) {
                out.push((d.name.to_string(), stage));
            }
        }
        out
    }

    /// The semantics (upper case) a value of `ty` carries: its own, or its
    /// struct fields', depth first.
    fn semantics_of(
        &self,
        ty: TyId,
        semantic: Option<(crate::intern::Symbol, crate::span::Span)>,
        out: &mut Vec<String>,
    ) {
        if let Some((s, _)) = semantic {
            out.push(s.as_str().to_ascii_uppercase());
            return;
        }
        let mut t = ty;
        while let Ty::Array(e, _) = *self.types.get(t) {
            t = e;
        }
        if let Ty::Struct(sid) = *self.types.get(t) {
            if out.len() > 256 {
                return;
            }
            let fields: Vec<_> = self
                .types
                .struct_info(sid)
                .fields
                .iter()
                .map(|f| (f.ty, f.semantic))
                .collect();
            for (fty, fsem) in fields {
                self.semantics_of(fty, fsem, out);
            }
        }
    }
}

/// The stage a library function's attributes or semantics name, among the
/// stages sema has rules for (mesh, amplification and ray-tracing
/// functions are checked as plain functions):
/// - `[shader("…")]`;
/// - `[numthreads]` → compute (with `[outputtopology]`: mesh);
/// - `[maxvertexcount]` → geometry;
/// - `[domain]` with `[outputcontrolpoints]` or `[patchconstantfunc]` →
///   hull, `[domain]` alone → domain;
/// - `[earlydepthstencil]`, or an `SV_Target`/`SV_Depth` output → pixel;
/// - an `SV_Position` output without an `SV_Position` input → vertex.
pub fn stage_named_by(f: &ast::Function, inputs: &[String], outputs: &[String]) -> Option<Stage> {
    let known =
        |s: Stage| (!matches!(s, Stage::Mesh | Stage::Amplification | Stage::Library)).then_some(s);
    let has = |kind: Attr| find_attr(&f.attrs, kind).is_some();
    if let Some(a) = find_attr(&f.attrs, Attr::Shader) {
        return a
            .string_arg(0)
            .and_then(Stage::from_attribute_name)
            .and_then(known);
    }
    if has(Attr::NumThreads) {
        return (!has(Attr::OutputTopology)).then_some(Stage::Compute);
    }
    if has(Attr::MaxVertexCount) {
        return Some(Stage::Geometry);
    }
    if has(Attr::Domain) {
        let hull = has(Attr::OutputControlPoints) || has(Attr::PatchConstantFunc);
        return Some(if hull { Stage::Hull } else { Stage::Domain });
    }
    let named = |list: &[String], prefix: &str| list.iter().any(|s| s.starts_with(prefix));
    if has(Attr::EarlyDepthStencil) || named(outputs, "SV_TARGET") || named(outputs, "SV_DEPTH") {
        return Some(Stage::Pixel);
    }
    if named(outputs, "SV_POSITION") && !named(inputs, "SV_POSITION") {
        return Some(Stage::Vertex);
    }
    None
}
