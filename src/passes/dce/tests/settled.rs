//! What `cse` says of what it leaves (see `dce::run_after_cse`), against
//! `dce`'s first search itself.

use super::liveness_tests::each_module_after;
use super::debug::drop_idle;
use super::switch::fold_constant_switches;
use super::{
    all_roots, analyse, prune_empty, pure_functions, reached_functions, run, run_after_cse,
    untidy,
};
use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::cse;

/// Runs `cse` on a copy of `m`, then `dce` with and without its word:
/// the same module either way, and where `cse` says a function is
/// settled, `analyse` finds nothing there and changes nothing. Returns
/// how many functions were settled and how many not.
fn agrees(m: &Module) -> (usize, usize) {
    let mut after_cse = m.clone();
    let left = cse::run(&mut after_cse);
    let settled = left.settled.clone();
    // Where every function is settled, the table of pure functions found
    // before the rebuilds still holds.
    if let Some(pure) = &left.pure {
        assert_eq!(*pure, pure_functions(&after_cse));
    }
    // The dead stores and constructs that its rebuild leaves out as it
    // walks are those `analyse` drops from the body first.
    let mut pruned = m.clone();
    let pure = pure_functions(&pruned);
    for (_, f) in pruned.functions.iter_mut() {
        analyse(f, &pure);
    }
    cse::run(&mut pruned);
    assert_eq!(module_to_string(&pruned), module_to_string(&after_cse));
    assert_eq!(settled.len(), after_cse.functions.len());
    let pure = pure_functions(&after_cse);
    let mut counts = (0, 0);
    for (h, f) in after_cse.functions.iter() {
        if !settled[h.index()] {
            counts.1 += 1;
            continue;
        }
        counts.0 += 1;
        let mut g = f.clone();
        let (removed, dead) = analyse(&mut g, &pure);
        assert!(!removed && dead.is_none(), "{:?}", f.name);
        assert!(g == *f, "{:?}", f.name);
    }
    let mut searched = after_cse.clone();
    run(&mut searched);
    let mut told = after_cse;
    run_after_cse(&mut told, left);
    assert_eq!(module_to_string(&searched), module_to_string(&told));
    counts
}

/// Every module of the samples and the pass and debug tests, as every
/// pass leaves it, with and without debug information, through `cse`:
/// where it says there is nothing for `dce`'s first search, there is
/// nothing.
#[test]
fn what_cse_settles_dce_finds_settled() {
    let (mut settled, mut searched) = (0, 0);
    each_module_after(&["samples", "tests/in/passes", "tests/in/debug"], |m| {
        let (s, n) = agrees(m);
        settled += s;
        searched += n;
    });
    assert!(
        settled > 500 && searched > 100,
        "{settled} settled, {searched} searched"
    );
}

/// The same modules: where `untidy` finds nothing, the clean-up it
/// spares changes nothing, and where every function is a root, the walk
/// it spares reaches every one.
#[test]
fn what_the_clean_up_skips_it_would_not_change() {
    let (mut tidy, mut untidy_ones, mut roots) = (0, 0, 0);
    each_module_after(&["samples", "tests/in/passes", "tests/in/debug"], |m| {
        for (_, f) in m.functions.iter() {
            let mut g = f.clone();
            let mut removed = fold_constant_switches(&mut g.body, &g.expressions);
            drop_idle(&mut g.body);
            removed |= prune_empty(&mut g.body);
            if untidy(&f.body) {
                untidy_ones += 1;
            } else {
                tidy += 1;
                assert!(!removed && g == *f, "{:?}", f.name);
            }
        }
        if all_roots(m) {
            roots += 1;
            let reached = reached_functions(m).map(|r| r.reached);
            assert!(reached.is_none_or(|r| r.iter().all(|r| *r)));
        }
    });
    assert!(
        tidy > 500 && untidy_ones > 100 && roots > 500,
        "{tidy} tidy, {untidy_ones} untidy, {roots} all roots"
    );
}

/// What only a statement out of reach used, and the lanes that a
/// compose of one vector's lanes looked through, are left dead by `cse`:
/// it says so, and `dce` finds them.
#[test]
fn unreachable_uses_and_composite_shortcuts_unsettle() {
    for case in 0..3 {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let v2 = m.vector_type(2, Scalar::F32);
        let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
        let vout = add_global(&mut m, "vout", AddressSpace::Private, v2);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let o = fb.global(out);
        let vo = fb.global(vout);
        let x = fb.load(o);
        match case {
            0 => {
                let y = fb.binary(BinaryOperator::Multiply, x, x);
                fb.store(o, x);
                fb.ret(None, None);
                fb.store(o, y);
            }
            1 => {
                let v = fb.load(vo);
                let a = fb.access_index(v, 0);
                let b = fb.access_index(v, 1);
                let c = fb.compose(v2, &[a, b]);
                fb.store(vo, c);
            }
            _ => {
                let y = fb.binary(BinaryOperator::Multiply, x, x);
                fb.store(o, y);
            }
        }
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        crate::passes::test_util::check_valid(&m);
        let mut after_cse = m.clone();
        let settled = cse::run(&mut after_cse).settled;
        assert_eq!(settled[f.index()], case == 2, "case {case}");
        let pure = pure_functions(&after_cse);
        let mut g = after_cse.functions[f].clone();
        let (removed, dead) = analyse(&mut g, &pure);
        assert_eq!(removed || dead.is_some(), case != 2, "case {case}");
        agrees(&m);
    }
}

/// Control statements after a `return` (left out by the rebuild, which
/// must still count them), then a dead one and a live one: `cse` leaves
/// out what the search drops first, and only that.
#[test]
fn constructs_out_of_reach_keep_the_count() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let l = fb.local("l", f32t, false);
    let o = fb.global(out);
    let x = fb.load(o);
    let c = fb.bool(true);
    fb.if_(
        c,
        |fb| {
            fb.store(o, x);
            fb.ret(None, None);
            fb.if_(c, |fb| fb.store(o, x), |fb| fb.store(l, x));
            fb.if_(c, |fb| fb.store(l, x), |_| {});
        },
        |_| {},
    );
    for target in [l, o, l] {
        fb.if_(c, |fb| fb.store(target, x), |_| {});
    }
    let f = fb.finish();
    add_compute_entry(&mut m, "main", f);
    crate::passes::test_util::check_valid(&m);
    agrees(&m);
    let mut after_cse = m.clone();
    cse::run(&mut after_cse);
    let text = module_to_string(&after_cse);
    // The outer `if` with the `return` and the one storing into `out`.
    assert_eq!(text.matches("if true").count(), 2, "{text}");
}
