#!/usr/bin/env python3
"""SPIR-V module sizes: hlslc -O3 against spirv-opt -O (issue 25's measure).

For every job (the samples' own command lines and, with --corpus DIR, the
cs/vs/ps files of DXC's exported test corpus), three sizes in bytes:

  ours      hlslc ... -O3
  opt(O0)   spirv-opt -O on hlslc's -O0 output (what a user gets by adding
            spirv-opt to the build instead of hlslc's optimiser)
  opt(ours) spirv-opt -O on hlslc's -O3 output (what spirv-opt still finds)

and the totals: `ratio` = ours / opt(O0) (goal: at most 1) and `shrink` =
1 - opt(ours) / ours (goal: under 3 %). Corpus files compiled with debug
information (-Zi, -fspv-debug=...) are also totalled apart. A job that
hlslc or spirv-opt refuses is left out. --worst N lists the N jobs that
spirv-opt shrinks most.

    python3 tools/spirv_sizes.py target/release/hlslc [--corpus /tmp/dxc-corpus] [--worst 20]
"""

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_builds as cb  # noqa: E402

LEVELS = ('-O0', '-O1', '-O2', '-O3')


def sizes(hlslc, tmp, n, job):
    """(name, [ours, opt(O0), opt(ours)], debug) or None."""
    cwd, args = job
    args = [a for a in args if a not in LEVELS]
    out = [os.path.join(tmp, f'{n}_{k}.spv') for k in range(4)]

    def run(cmd):
        try:
            return subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    try:
        if not (run([hlslc, *args, '-O3', '-Fo', out[0]]) and run([hlslc, *args, '-O0', '-Fo', out[1]])):
            return None
        env = [a.split('=', 1)[1] for a in args if a.startswith('-fspv-target-env=')]
        target = env[0] if env else 'vulkan1.0'
        for src, dst in ((out[1], out[2]), (out[0], out[3])):
            if not run(['spirv-opt', '-O', f'--target-env={target}', src, '-o', dst]):
                return None
        debug = any(a == '-Zi' or a.startswith('-fspv-debug') for a in args)
        return (args[-1] if args else '?', [os.path.getsize(out[k]) for k in (0, 2, 3)], debug)
    finally:
        for f in out:
            if os.path.exists(f):
                os.remove(f)


def report(title, results):
    if not results:
        return
    t = [sum(r[1][k] for r in results) for k in range(3)]
    print(f'{title}: {len(results)} modules; ours {t[0]} B, opt(O0) {t[1]} B, opt(ours) {t[2]} B; '
          f'ratio {t[0] / max(t[1], 1):.4f}, shrink {100 * (1 - t[2] / max(t[0], 1)):.2f} %')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('hlslc')
    p.add_argument('--corpus', help="DXC's exported test corpus (../shared/tools/dxc-corpus)")
    p.add_argument('--worst', type=int, default=0)
    a = p.parse_args()
    hlslc = os.path.abspath(a.hlslc)
    samples = [j for j in cb.local_jobs() if j[0] == cb.ROOT]
    corpus = []
    if a.corpus:
        corpus = [j for j in cb.corpus_jobs(a.corpus) if any(s in j[1][2] for s in ('cs_', 'vs_', 'ps_'))]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        jobs = samples + corpus
        results = list(ex.map(lambda nj: sizes(hlslc, tmp, *nj), enumerate(jobs)))
    s, c = [r for r in results[:len(samples)] if r], [r for r in results[len(samples):] if r]
    report('samples', s)
    report('corpus', c)
    report('corpus without debug information', [r for r in c if not r[2]])
    report('corpus with debug information', [r for r in c if r[2]])
    for r in sorted(s + c, key=lambda r: r[1][2] - r[1][0])[:a.worst]:
        print(f'  {r[0]}: ours {r[1][0]}, opt(O0) {r[1][1]}, opt(ours) {r[1][2]}')


if __name__ == '__main__':
    main()
