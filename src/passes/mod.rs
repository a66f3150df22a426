//! IR-to-IR passes; `pipeline` runs them in order for an optimisation level.
//!
//! Each pass is a free function over the module in its own file, with a
//! doc comment saying what it does, what it never does to `precise`
//! expressions, and what it invalidates. With
//! [`PipelineOptions::verify`] ([`Options::verify_ir`], `--verify-ir`; on
//! in debug builds, tests and fuzz targets) the validator runs after every
//! pass; a failure becomes an internal-error diagnostic (E0003) naming the
//! pass, and the pipeline stops.
//!
//! [`PIPELINE`] is the one list of passes: their order, the lowest `-O`
//! level that runs each (DXC's default is -O3), and their names, which
//! `--ir-after` accepts (with [`LOWERING`], the IR as sema made it) and
//! `--help` prints. In short:
//! - every level: `float_controls` (execution modes, no IR change),
//!   `unroll` of `[unroll]` loops with constant bounds, `inline` of the
//!   functions whose texture offsets come from their arguments, `precise`
//!   (correctness) and `const_fold`;
//! - -O1: + `forward`, `fuse_mad`, `dce`;
//! - -O2 and -O3: + `inline` of small functions and of functions called
//!   once (before `precise`), `algebra` (in `forward`'s walk), `cse`.

pub mod algebra;
pub mod const_fold;
pub mod cse;
pub mod dce;
pub mod flatten;
pub mod float_controls;
pub mod forward;
pub mod fuse_mad;
pub mod inline;
pub mod precise;
pub mod rewrite;
pub mod unroll;
#[cfg(test)]
pub(crate) mod test_util;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Module;
use crate::ir::TargetEnv;

/// `-denorm`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenormMode {
    /// `any`: as the driver does (no execution mode).
    Any,
    /// `preserve`: `DenormPreserve 32`.
    Preserve,
    /// `ftz`: `DenormFlushToZero 32`.
    Ftz,
}

/// What the pipeline needs to know from the command line.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    /// `-O0`…`-O3`.
    pub opt_level: u8,
    /// `-denorm`: folding flushes denormals under `ftz`.
    pub denorm: Option<DenormMode>,
    /// `-Gis`
    pub ieee_strict: bool,
    /// `-fspv-target-env=`: which float controls may be declared.
    pub target_env: TargetEnv,
    /// `-fspv-extension=` (empty: all allowed).
    pub allowed_extensions: Vec<String>,
    /// Stop after the pass of this name, or before the first one for
    /// [`LOWERING`] (`--ir-after`, for pass file tests and `--emit ir`).
    pub stop_after: Option<String>,
    /// Validate the IR before the first pass and after each one
    /// (`--verify-ir`).
    pub verify: bool,
    /// `-fspv-flatten-resource-arrays`: run [`flatten`].
    pub flatten_resource_arrays: bool,
}

impl PipelineOptions {
    /// The command line's defaults at `opt_level`: verification only in
    /// debug builds. (Tests build modules by hand and run them through.)
    #[cfg(test)]
    pub fn new(opt_level: u8) -> Self {
        PipelineOptions {
            opt_level,
            denorm: None,
            ieee_strict: false,
            target_env: TargetEnv::default(),
            allowed_extensions: Vec::new(),
            stop_after: None,
            verify: cfg!(debug_assertions),
            flatten_resource_arrays: false,
        }
    }
}

/// Runs everything after lowering: the passes of [`PIPELINE`] that
/// `options.opt_level` enables, float controls first; none when
/// `options.stop_after` is [`LOWERING`].
pub fn run(module: &mut Module, options: &PipelineOptions, diags: &mut Diagnostics) {
    if options.stop_after.as_deref() == Some(LOWERING) {
        return;
    }
    pipeline_with(module, options, diags);
}

/// The optimisation pipeline at `opt_level` with default float controls
/// (for tests of modules built by hand).
#[cfg(test)]
pub fn pipeline(module: &mut Module, opt_level: u8, diags: &mut Diagnostics) {
    pipeline_with(module, &PipelineOptions::new(opt_level), diags);
}

/// One step after lowering: its name (what `--ir-after` takes and `--help`
/// lists), the lowest `-O` level that runs it, and the pass.
pub struct Pass {
    pub name: &'static str,
    pub min_level: u8,
    run: fn(&mut Module, &mut PassContext),
}

impl Pass {
    /// Whether `-O{opt_level}` runs this pass.
    pub fn runs_at(&self, opt_level: u8) -> bool {
        opt_level >= self.min_level
    }
}

/// What a pass may need besides the module.
struct PassContext<'a> {
    options: &'a PipelineOptions,
    fold: const_fold::FoldOptions,
    /// Diagnostics reported as they happen (float controls, verification).
    diags: &'a mut Diagnostics,
    /// Folding diagnostics, reported after the pipeline.
    fold_diags: Diagnostics,
    /// Per function, whether `const_fold` left its folding to `forward`.
    left_to_forward: Vec<bool>,
    /// The functions whose loops `unroll` left to `inline`.
    unroll_deferred: inline::DeferredUnrolls,
    /// What `cse` left known for `dce`.
    cse_left: cse::Left,
}

/// The name `--ir-after` gives the IR as sema made it, before any pass.
pub const LOWERING: &str = "lowering";

/// The pipeline, in order: the one list that the pass manager runs, that
/// `--ir-after` checks its argument against and that `--help` prints.
pub const PIPELINE: &[Pass] = &[
    // Execution modes only; never changes expressions.
    Pass {
        name: "float_controls",
        min_level: 0,
        run: |m, cx| float_controls::run(m, cx.options, cx.diags),
    },
    // Every level, as DXC's legalisation: texture offsets in `[unroll]`
    // loops become constants. Before `inline`, whose small policy skips
    // functions with loops, and before `precise`, which marks the copies.
    // From -O2, a function that `inline` copies into its one caller and
    // drops is unrolled in that copy instead (one rebuild, not two), unless
    // the IR after this pass is asked for.
    Pass {
        name: "unroll",
        min_level: 0,
        run: |m, cx| {
            if cx.options.opt_level >= 2 && cx.options.stop_after.as_deref() != Some("unroll") {
                cx.unroll_deferred = inline::unroll_deferring(m, inline::Policy::Small);
            } else {
                unroll::run(m)
            }
        },
    },
    // Before `precise`, so that precise copies are made of inlined bodies.
    // Below -O2 only what Vulkan needs inlined (texture offsets from
    // arguments), as DXC's legalisation does at every level.
    Pass {
        name: "inline",
        min_level: 0,
        run: |m, cx| {
            let policy = if cx.options.opt_level >= 2 {
                inline::Policy::Small
            } else {
                inline::Policy::Legalize
            };
            inline::run(m, policy, std::mem::take(&mut cx.unroll_deferred))
        },
    },
    Pass {
        name: "precise",
        min_level: 0,
        run: |m, _| precise::run(m),
    },
    // Every level: DXC's front end folds constants even at -Od, and its
    // division-by-zero errors must not depend on the level. From -O1,
    // `forward` folds as it rebuilds: the functions it can fold as well
    // are left to it (not when resources are flattened, which needs their
    // indices folded first).
    Pass {
        name: "const_fold",
        min_level: 0,
        run: |m, cx| {
            if cx.options.opt_level >= 1 && !cx.options.flatten_resource_arrays {
                cx.left_to_forward = const_fold::run_before_forward(m, &cx.fold, &mut cx.fold_diags);
            } else {
                const_fold::run(m, &cx.fold, &mut cx.fold_diags)
            }
        },
    },
    // After folding, which makes the elements' indices constants.
    Pass {
        name: "flatten_resources",
        min_level: 0,
        run: |m, cx| {
            if cx.options.flatten_resource_arrays {
                flatten::run(m, cx.diags)
            }
        },
    },
    // After `precise`, which must see every store into a precise variable.
    Pass {
        name: "forward",
        min_level: 1,
        run: |m, cx| forward::run(m, &cx.fold, cx.options.opt_level >= 2, &cx.left_to_forward),
    },
    Pass {
        name: "fuse_mad",
        min_level: 1,
        run: |m, _| fuse_mad::run(m),
    },
    Pass {
        name: "cse",
        min_level: 2,
        run: |m, cx| cx.cse_left = cse::run(m),
    },
    Pass {
        name: "dce",
        min_level: 1,
        run: |m, cx| dce::run_after_cse(m, std::mem::take(&mut cx.cse_left)),
    },
];

/// The pipeline, in order. A pass runs when the level enables it;
/// `stop_after` stops at the named pass's place in this order whether it
/// ran or not, so `--ir-after cse -O1` shows the IR before the later
/// passes of -O1 (`dce`), not the end result.
pub fn pipeline_with(module: &mut Module, options: &PipelineOptions, diags: &mut Diagnostics) {
    let verify_ir = options.verify;
    if verify_ir && !verify(module, LOWERING, diags) {
        return;
    }
    let mut cx = PassContext {
        options,
        fold: const_fold::FoldOptions::from_pipeline(options),
        diags,
        fold_diags: Diagnostics::new(),
        left_to_forward: Vec::new(),
        unroll_deferred: inline::DeferredUnrolls::default(),
        cse_left: cse::Left::default(),
    };
    for pass in PIPELINE {
        if pass.runs_at(options.opt_level) {
            (pass.run)(module, &mut cx);
            if verify_ir && !verify(module, pass.name, cx.diags) {
                break;
            }
        }
        if options.stop_after.as_deref() == Some(pass.name) {
            break;
        }
    }
    let fold_diags = std::mem::take(&mut cx.fold_diags.list);
    cx.diags.extend(fold_diags);
}

/// The names `stop_after` (`--ir-after`) accepts, in pipeline order:
/// [`LOWERING`], then the passes of [`PIPELINE`].
pub fn ir_after_names() -> impl Iterator<Item = &'static str> {
    std::iter::once(LOWERING).chain(PIPELINE.iter().map(|p| p.name))
}

/// The passes `-O{opt_level}` runs, in order (for `--help`).
pub fn passes_at(opt_level: u8) -> impl Iterator<Item = &'static str> {
    PIPELINE
        .iter()
        .filter(move |p| p.runs_at(opt_level))
        .map(|p| p.name)
}

/// Validates after `pass`; reports a failure as an internal error.
fn verify(module: &Module, pass: &str, diags: &mut Diagnostics) -> bool {
    match crate::ir::valid::validate(module) {
        Ok(()) => true,
        Err(errors) => {
            diags.push(
                Diagnostic::error(
                    codes::INTERNAL,
                    format!("internal compiler error: invalid IR after `{pass}`"),
                )
                .note(crate::ir::valid::errors_to_string(&errors)),
            );
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};
    use crate::ir::display::module_to_string;
    use crate::ir::*;

    /// out = a * b + c twice: once into a precise local, once plain.
    fn module() -> Module {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let inp = add_global(&mut m, "inp", AddressSpace::Input, f32t);
        let out = add_global(&mut m, "out", AddressSpace::Output, f32t);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let p = fb.local("p", f32t, true);
        let o = fb.global(out);
        let i = fb.global(inp);
        let x = fb.load(i);
        for target in [p, o] {
            let m = fb.binary(BinaryOperator::Multiply, x, x);
            let a = fb.binary(BinaryOperator::Add, m, x);
            fb.store(target, a);
        }
        let pv = fb.load(p);
        fb.store(o, pv);
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        m
    }

    /// The pipeline at `level`, validating after every pass whatever the
    /// build profile.
    fn verified(level: u8) -> PipelineOptions {
        PipelineOptions {
            verify: true,
            ..PipelineOptions::new(level)
        }
    }

    #[test]
    fn levels_fuse_only_non_precise_and_stop_after_works() {
        for level in 0..=3u8 {
            let mut m = module();
            let mut d = Diagnostics::new();
            pipeline_with(&mut m, &verified(level), &mut d);
            assert!(d.is_empty(), "{:?}", d.list);
            let text = module_to_string(&m);
            assert!(text.contains("= precise mul"), "-O{level}: {text}");
            assert!(text.contains("= precise add"), "-O{level}: {text}");
            assert_eq!(text.contains("= fma"), level >= 1, "-O{level}: {text}");
            // Only the plain twin is fused.
            assert_eq!(
                text.matches("= precise mul").count(),
                1,
                "-O{level}: {text}"
            );
        }
        let mut m = module();
        let mut d = Diagnostics::new();
        let o = PipelineOptions {
            stop_after: Some("precise".into()),
            ..verified(3)
        };
        pipeline_with(&mut m, &o, &mut d);
        let text = module_to_string(&m);
        assert!(
            text.contains("= precise mul") && !text.contains("fma"),
            "{text}"
        );
    }

    #[test]
    fn invalid_input_is_an_internal_error_not_a_panic() {
        let mut m = module();
        let main = m.entry_points[0].function;
        m.functions[main].body.reverse();
        let mut d = Diagnostics::new();
        pipeline_with(&mut m, &verified(3), &mut d);
        assert_eq!(d.list.len(), 1, "{:?}", d.list);
        assert_eq!(d.list[0].code, codes::INTERNAL);
        assert!(d.list[0].message.contains("after `lowering`"));
        // Without verification the pipeline trusts its input: no
        // diagnostic, whatever the build profile.
        let mut m = module();
        m.functions[main].body.reverse();
        let mut d = Diagnostics::new();
        let trusting = PipelineOptions {
            verify: false,
            ..PipelineOptions::new(0)
        };
        pipeline_with(&mut m, &trusting, &mut d);
        assert!(d.is_empty(), "{:?}", d.list);
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;
    use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};
    use crate::ir::*;

    /// Nested `if`s `depth` deep, each adding to a precise output: no pass
    /// may overflow the stack or take quadratic time.
    fn nested(depth: usize) -> Module {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let out = add_global(&mut m, "out", AddressSpace::Output, f32t);
        m.globals[out].precise = true;
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let o = fb.global(out);
        fn level(fb: &mut FunctionBuilder, o: Handle<Expression>, left: usize) {
            let x = fb.load(o);
            let one = fb.f32(1.0);
            let y = fb.binary(BinaryOperator::Add, x, one);
            let y2 = fb.binary(BinaryOperator::Multiply, y, y);
            fb.store(o, y2);
            if left > 0 {
                let c = fb.binary(BinaryOperator::Less, y, one);
                fb.if_(c, |fb| level(fb, o, left - 1), |_| {});
            }
        }
        level(&mut fb, o, depth);
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        m
    }

    /// The pipeline on `depth` nested ifs, on a thread with a modest
    /// stack (like a compiler thread): the nodes the passes visited.
    fn pipeline_work(depth: usize) -> u64 {
        let t = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || {
                let mut m = nested(depth);
                let mut d = Diagnostics::new();
                let verified = PipelineOptions {
                    verify: true,
                    ..PipelineOptions::new(3)
                };
                crate::ir::visit::work::take();
                pipeline_with(&mut m, &verified, &mut d);
                let work = crate::ir::visit::work::take();
                assert!(d.is_empty(), "{:?}", d.list);
                let f = &m.functions[m.entry_points[0].function];
                let marked = f
                    .expressions
                    .iter()
                    .filter(|(_, e)| {
                        matches!(
                            e,
                            Expression::Binary {
                                op: BinaryOperator::Multiply,
                                precise: true,
                                ..
                            }
                        )
                    })
                    .count();
                assert_eq!(marked, depth + 1);
                work
            })
            .expect("spawn");
        t.join().expect("no stack overflow")
    }

    /// Every pass (and the validator after each) visits a number of nodes
    /// linear in the input: four times the nesting, about four times the
    /// work (a quadratic pass would make it sixteen).
    #[test]
    fn deep_nesting_costs_linear_work() {
        let small = pipeline_work(1000);
        let large = pipeline_work(4000);
        let ratio = large as f64 / small as f64;
        assert!(
            (3.5..5.0).contains(&ratio),
            "1,000 nested ifs: {small} nodes visited; 4,000: {large} ({ratio:.2}x)"
        );
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;

    #[test]
    fn the_table_gives_each_level_its_passes() {
        let at = |level| passes_at(level).collect::<Vec<_>>().join(" ");
        assert_eq!(
            at(0),
            "float_controls unroll inline precise const_fold flatten_resources"
        );
        assert_eq!(
            at(1),
            "float_controls unroll inline precise const_fold flatten_resources forward fuse_mad dce"
        );
        let full = "float_controls unroll inline precise const_fold flatten_resources forward fuse_mad cse dce";
        assert_eq!(at(2), full);
        assert_eq!(at(3), full);
        let names: Vec<_> = ir_after_names().collect();
        assert_eq!(names[0], LOWERING);
        assert_eq!(names[1..].join(" "), full);
    }
}
