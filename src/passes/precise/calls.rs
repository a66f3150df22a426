//! The precise pass across calls: walking from a callee's arguments to
//! its call sites, and redirecting calls whose result or out argument
//! reaches a precise value to precise specialisations of the callee.

use super::{Key, Path, Precise, Step, Stored};
use crate::ir::*;

/// `paths` with `extra` added, normalised: the whole result covers every
/// part.
pub(super) fn with_path(paths: &[Path], extra: Option<&Path>) -> Vec<Path> {
    let mut v = paths.to_vec();
    if let Some(p) = extra
        && !v.contains(p)
    {
        v.push(p.clone());
    }
    if v.iter().any(|p| p.is_empty()) {
        return vec![Vec::new()];
    }
    v.sort();
    v
}

impl Precise<'_> {
    /// The slice of function `h` reached its argument `i`: walk the
    /// argument at every call site.
    pub(super) fn reach_argument(&mut self, h: Handle<Function>, i: u32) {
        let Some(r) = self.arg_reached[h.index()].get_mut(i as usize) else {
            return;
        };
        if *r {
            return;
        }
        *r = true;
        let sites = self.callers.get(&h).cloned().unwrap_or_default();
        for (c, k) in sites {
            if self.target(c, k) == h {
                self.call_argument(c, k, i as usize);
            }
        }
        // An inout pointer passed on from a caller: its callers' variables.
    }

    pub(super) fn call_argument(&mut self, c: Handle<Function>, k: usize, i: usize) {
        let Some(&a) = self.infos[c.index()].calls[k].arguments.get(i) else {
            return;
        };
        let f = &self.module.functions[c];
        if matches!(
            self.module.types[f.expr_type(a)].inner,
            TypeInner::Pointer { .. }
        ) {
            self.reach_memory(c, a, &[]);
        } else {
            self.work.push((c, a));
        }
    }

    pub(super) fn target(&self, c: Handle<Function>, k: usize) -> Handle<Function> {
        self.redirects
            .get(&(c, k))
            .copied()
            .unwrap_or(self.infos[c.index()].calls[k].function)
    }

    /// Call `k` of `c` must compute its result (or what it writes through
    /// argument `arg`) precisely: redirect it to a specialisation.
    pub(super) fn request(
        &mut self,
        c: Handle<Function>,
        k: usize,
        result: Option<Path>,
        arg: Option<usize>,
    ) {
        let target = self.target(c, k);
        let (orig, r, mask) = self.key_of[target.index()].clone();
        let bit = arg.filter(|&i| i < 64).map_or(0, |i| 1u64 << i);
        let key = (orig, with_path(&r, result.as_ref()), mask | bit);
        if key == (orig, r, mask) {
            return;
        }
        let v = match self.variants.get(&key) {
            Some(&v) => v,
            None => self.specialise(key.clone()),
        };
        self.redirects.insert((c, k), v);
        self.callers.entry(v).or_default().push((c, k));
        let reached: Vec<usize> = self.arg_reached[v.index()]
            .iter()
            .enumerate()
            .filter(|(_, r)| **r)
            .map(|(i, _)| i)
            .collect();
        for i in reached {
            self.call_argument(c, k, i);
        }
    }

    pub(super) fn specialise(&mut self, key: Key) -> Handle<Function> {
        let (orig, ref result, mask) = key;
        let mut f = self.module.functions[orig].clone();
        // `f.precise` (result), `f.precise.out1` (argument 1), or both:
        // `f.precise.ret.out1`; `f.precise.ret0_1` when only member 1 of
        // member 0 of the result is.
        let mut suffix = String::from(".precise");
        if let Some(r) = f.result.as_mut() {
            if result.iter().any(|p| p.is_empty()) {
                r.precise = true;
                if mask != 0 {
                    suffix.push_str(".ret");
                }
            } else {
                for p in result {
                    let parts: Vec<String> = p
                        .iter()
                        .map(|s| match s {
                            Step::Index(i) => i.to_string(),
                            Step::Any => "n".to_string(),
                        })
                        .collect();
                    suffix.push_str(&format!(".ret{}", parts.join("_")));
                }
            }
        }
        for (i, a) in f.arguments.iter_mut().enumerate() {
            if i < 64 && mask & (1 << i) != 0 {
                a.precise = true;
                suffix.push_str(&format!(".out{i}"));
            }
        }
        f.name.push_str(&suffix);
        let h = self.module.functions.append(f);
        self.add_function_state(h);
        self.key_of[h.index()] = key.clone();
        self.variants.insert(key, h);
        // Stores into globals whose stores were already walked.
        let mut done: Vec<(Handle<GlobalVariable>, Path)> =
            self.globals_done.iter().cloned().collect();
        done.sort_by(|(g, p), (h, q)| (g.index(), p).cmp(&(h.index(), q)));
        for (g, read) in done {
            let stores: Vec<Stored> = self
                .global_stores
                .get(&g)
                .map(|v| {
                    v.iter()
                        .filter(|(f, _)| *f == h)
                        .map(|(_, st)| st.clone())
                        .collect()
                })
                .unwrap_or_default();
            for st in stores {
                self.reach_stored(h, &st, &read);
            }
        }
        self.seed(h);
        h
    }

    /// Rewrites the redirected calls and their `CallResult`s.
    pub(super) fn apply_redirects(&mut self) {
        if self.redirects.is_empty() {
            return;
        }
        let n = self.module.functions.len();
        for fi in 0..n {
            let h = Handle::<Function>::from_index(fi);
            let mut k = 0usize;
            let mut results = Vec::new();
            let redirects = &self.redirects;
            crate::ir::visit::walk_statements_mut(&mut self.module.functions[h].body, |s| {
                if let Statement::Call {
                    function, result, ..
                } = s
                {
                    if let Some(&v) = redirects.get(&(h, k)) {
                        *function = v;
                        if let Some(r) = *result {
                            results.push((r, v));
                        }
                    }
                    k += 1;
                }
            });
            let f = &mut self.module.functions[h];
            for (r, v) in results {
                f.expressions[r] = Expression::CallResult(v);
            }
        }
    }
}
