//! What `remove_write_only_stores` says `liveness` will find, against
//! `liveness` itself.

use super::{live_locals, liveness, pinned, pure_functions, remove_write_only_stores};
use crate::ir::visit::walk_statements;
use crate::ir::build::{FunctionBuilder, add_global};
use crate::ir::*;
use std::path::Path;

/// Drops the write-only stores of a copy of `f`: whether the search told
/// what `liveness` finds in what is left, the locals it refers to and
/// whether debug variables stand in it (then it must agree).
fn agrees(f: &Function, pure: &[bool]) -> bool {
    let mut g = f.clone();
    let (_, known) = remove_write_only_stores(&mut g, pure);
    let Some(known) = known else { return false };
    let live = liveness(&g);
    assert_eq!(known.local_live, live_locals(&g, &live), "{:?}", g.name);
    assert_eq!(known.live, live, "{:?}", g.name);
    let mut debug_variables = false;
    walk_statements(&g.body, |s| {
        debug_variables |= matches!(s, Statement::Debug(DebugInfo::Variable { .. }));
    });
    // (Dropped constructs may take all of them: the search then says
    // there are some, which only costs a walk.)
    assert!(known.debug_variables || !debug_variables, "{:?}", g.name);
    true
}

/// The module of `src` as the pipeline leaves it after `pass` at -O3,
/// for the first of a few profiles that compiles it (`-Zi` when `debug`).
fn module_after(src: &str, pass: &str, debug: bool) -> Option<Module> {
    let mut files = crate::MemoryLoader::new();
    files.add("t.hlsl", src);
    for profile in ["cs_6_0", "ps_6_0", "vs_6_0", "lib_6_6"] {
        let mut args = vec!["-T", profile, "-E", "main", "-O3", "--ir-after", pass];
        if debug {
            args.push("-Zi");
        }
        let Ok(options) = crate::Options::from_args(args) else {
            continue;
        };
        let (mut c, m) = crate::compile_to_ir(Path::new("t.hlsl"), &files, &options);
        let Some(mut m) = m else { continue };
        crate::passes::run(&mut m, &options.pipeline_options(), &mut c.diagnostics);
        if !c.diagnostics.has_errors() {
            return Some(m);
        }
    }
    None
}

/// Every function of the samples and the pass tests, after every pass,
/// with and without debug information: where the search says what
/// `liveness` finds, it finds that.
#[test]
fn the_search_tells_what_liveness_finds() {
    let (mut told, mut walked) = (0, 0);
    each_module_after(&["samples", "tests/in/passes"], |m| {
        let pure = pure_functions(m);
        for (_, f) in m.functions.iter() {
            if agrees(f, &pure) {
                told += 1;
            } else {
                walked += 1;
            }
        }
    });
    assert!(told > 1000, "{told} told, {walked} walked");
}

/// Calls `f` with the module of every `.hlsl` file in `dirs` (relative to
/// the crate) as each pass leaves it, with and without debug information,
/// where it compiles.
pub(in crate::passes) fn each_module_after(dirs: &[&str], mut f: impl FnMut(&Module)) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(root.join(dir)).expect("a test directory");
        for e in entries {
            let path = e.expect("an entry").path();
            if path.extension().is_some_and(|x| x == "hlsl") {
                sources.push(std::fs::read_to_string(&path).expect("a source"));
            }
        }
    }
    for src in &sources {
        for pass in crate::passes::ir_after_names() {
            for debug in [false, true] {
                if let Some(m) = module_after(src, pass, debug) {
                    f(&m);
                }
            }
        }
    }
}

/// A pinned local keeps its stores, whose values `liveness` counts as
/// used and the search does not: it says nothing then. A subgroup
/// statement's result is used for `liveness` though nothing reads it.
#[test]
fn pinned_locals_and_statement_results() {
    for case in 0..2 {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let l = fb.local("l", f32t, false);
        let o = fb.global(out);
        let x = fb.load(o);
        let y = fb.binary(BinaryOperator::Add, x, x);
        fb.store(l, y);
        if case == 1 {
            let result = fb.body.add_outside(Expression::SubgroupResult, f32t);
            fb.push(Statement::Subgroup {
                op: SubgroupOperation::ReadLaneFirst,
                args: vec![x],
                result,
            });
        }
        fb.ret(None, None);
        let f = fb.finish();
        let func = &mut m.functions[f];
        if case == 0 {
            let local = func.local_variables.handles().next().expect("l");
            func.local_variables[local].spirv_decorations.push(SpirvDecoration {
                decoration: 0,
                operands: SpirvDecorationOperands::Literals(Vec::new()),
            });
            assert!(pinned(&func.local_variables[local]));
        }
        let pure = pure_functions(&m);
        assert_eq!(agrees(&m.functions[f], &pure), case == 1, "case {case}");
    }
}
