//! HLSL forbids recursion: the call graph that lowering records is checked
//! for cycles once every reachable body is lowered.

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::sema::Sema;
use crate::span::Span;

impl<'a> Sema<'a> {
    /// HLSL forbids recursion (DXC: "recursive functions are not
    /// allowed"): find a cycle in the call graph and show it.
    pub(in crate::sema) fn check_recursion(&mut self) {
        let n = self.module.functions.len();
        let mut adj: Vec<Vec<(usize, Span)>> = vec![Vec::new(); n];
        for e in self.work.calls() {
            // Calls from scratch contexts (constant initialisers) are not
            // part of any function.
            if e.caller.index() < n && e.callee.index() < n {
                adj[e.caller.index()].push((e.callee.index(), e.span));
            }
        }
        // Iterative DFS with colours: 0 white, 1 on stack, 2 done. Every
        // back edge closes a cycle; each function is reported in one cycle
        // at most.
        let mut colour = vec![0u8; n];
        let mut reported = vec![false; n];
        for start in 0..n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            colour[start] = 1;
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                if *i < adj[v].len() {
                    let (w, _) = adj[v][*i];
                    *i += 1;
                    if colour[w] == 1 {
                        // The cycle is the stack from w to v, then back to w.
                        let pos = stack.iter().position(|&(x, _)| x == w).unwrap_or(0);
                        let cycle: Vec<usize> = stack[pos..].iter().map(|&(x, _)| x).collect();
                        if cycle.iter().all(|&f| !reported[f]) {
                            for &f in &cycle {
                                reported[f] = true;
                            }
                            self.report_cycle(&cycle, &adj);
                        }
                    } else if colour[w] == 0 {
                        colour[w] = 1;
                        stack.push((w, 0));
                    }
                } else {
                    colour[v] = 2;
                    stack.pop();
                }
            }
        }
    }

    fn report_cycle(&mut self, cycle: &[usize], adj: &[Vec<(usize, Span)>]) {
        let name = |s: &Self, i: usize| {
            s.work
                .name(ir::Handle::from_index(i))
                .unwrap_or("?")
                .to_string()
        };
        let mut path: Vec<String> = cycle.iter().map(|&i| name(self, i)).collect();
        path.push(name(self, cycle[0]));
        let first = name(self, cycle[0]);
        let msg = if cycle.len() == 1 {
            format!("recursive call: `{first}` calls itself")
        } else {
            format!(
                "recursive call: `{first}` calls itself through {}",
                path[1..cycle.len()]
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let mut d = Diagnostic::error(codes::RECURSION, msg);
        // One label per call of the cycle, the first primary.
        for k in 0..cycle.len() {
            let (from, to) = (cycle[k], cycle[(k + 1) % cycle.len()]);
            if let Some((_, s)) = adj[from].iter().find(|(x, _)| *x == to) {
                d = d.label(
                    *s,
                    format!("`{}` calls `{}` here", name(self, from), name(self, to)),
                );
            }
        }
        d = d.note(format!("call cycle: {}", path.join(" -> ")));
        d = d.note("HLSL does not allow recursion: every call is inlined by the target");
        self.push(d);
    }
}
