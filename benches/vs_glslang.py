#!/usr/bin/env python3
"""Per-file compile time of hlslc against glslangValidator, side by side.

For each file of a DXC corpus manifest (DXC's SPIR-V tests: `manifest.tsv`
with relative_path, profile, entry, expects_error) that both compilers
compile, runs hlslc and glslangValidator alternately, RUNS times each, and
keeps each one's fastest wall time; prints the median over files of
glslang's time / hlslc's time (and the load average before and after).

    DXC_CORPUS=/tmp/dxc-corpus python3 benches/vs_glslang.py target/release/hlslc [RUNS] [LIMIT] [--fresh]

Each run writes its module over the one the run before wrote (as a rebuild
does). With `--fresh`, the outputs are deleted before each run (outside the
time), so every run creates its file: hlslc leaves a file that already
holds its bytes in place, which this takes out of the measure.

Several hlslc builds separated by commas (`A,B`) are measured in the same
pass, each file's runs alternating between all of them and glslang, so that
their ratios are comparable at one load.
"""
import csv, os, statistics, subprocess, sys, tempfile, time

STAGES = {'vs': 'vert', 'ps': 'frag', 'cs': 'comp', 'gs': 'geom', 'hs': 'tesc', 'ds': 'tese'}


def timed(cmd, cwd, fresh, output):
    if fresh and os.path.exists(output):
        os.remove(output)
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, r.returncode == 0


def main():
    fresh = '--fresh' in sys.argv
    args = [a for a in sys.argv[1:] if a != '--fresh']
    hlslcs = [os.path.abspath(h) for h in args[0].split(',')]
    runs = int(args[1]) if len(args) > 1 else 3
    limit = int(args[2]) if len(args) > 2 else 10**9
    root = os.environ.get('DXC_CORPUS', '/tmp/dxc-corpus')
    # Removed when the script exits.
    scratch = tempfile.TemporaryDirectory()
    tmp = scratch.name
    print('outputs:', 'deleted before each run' if fresh else 'written over')
    print('load average before:', os.getloadavg())
    ratios = [[] for _ in hlslcs]
    with open(os.path.join(root, 'manifest.tsv')) as f:
        rows = [r for r in csv.DictReader(f, delimiter='\t')
                if r['expects_error'] == '0' and r['profile'][:2] in STAGES]
    for r in rows[:limit]:
        d, name = os.path.split(os.path.join(root, r['relative_path']))
        hs = [[h, '-spirv', '-T', r['profile'], '-E', r['entry'], name, '-Fo', tmp + '/h.spv']
              for h in hlslcs]
        g = ['glslangValidator', '-V', '-D', '-e', r['entry'], '-S', STAGES[r['profile'][:2]],
             name, '-o', tmp + '/g.spv']
        th, tg, ok = [[] for _ in hs], [], True
        for _ in range(runs):
            for i, h in enumerate(hs):
                t, a = timed(h, d, fresh, tmp + '/h.spv')
                ok &= a
                th[i].append(t)
            u, b = timed(g, d, fresh, tmp + '/g.spv')
            ok &= b
            tg.append(u)
        if ok:
            for i in range(len(hs)):
                ratios[i].append(min(tg) / min(th[i]))
    print('load average after:', os.getloadavg())
    for h, rs in zip(hlslcs, ratios):
        if len(rs) < 2:
            # A small LIMIT can leave fewer files than quartiles need.
            print(f'{h}: {len(rs)} files both compile; too few for a median')
            continue
        print(f'{h}: {len(rs)} files both compile; glslang / hlslc per file: '
              f'median {statistics.median(rs):.1f}x, '
              f'quartiles {statistics.quantiles(rs, n=4)}')


if __name__ == '__main__':
    main()
