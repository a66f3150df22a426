#!/usr/bin/env python3
"""Per-file compile time of hlslc against glslangValidator, side by side.

For each file of a DXC corpus manifest (DXC's SPIR-V tests: `manifest.tsv`
with relative_path, profile, entry, expects_error) that both compilers
compile, runs hlslc and glslangValidator alternately, RUNS times each, and
keeps each one's fastest wall time; prints the median over files of
glslang's time / hlslc's time (and the load average before and after).

    DXC_CORPUS=/tmp/dxc-corpus python3 benches/vs_glslang.py target/release/hlslc [RUNS] [LIMIT]
"""
import csv, os, statistics, subprocess, sys, tempfile, time

STAGES = {'vs': 'vert', 'ps': 'frag', 'cs': 'comp', 'gs': 'geom', 'hs': 'tesc', 'ds': 'tese'}


def timed(cmd, cwd):
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, r.returncode == 0


def main():
    hlslc = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 10**9
    root = os.environ.get('DXC_CORPUS', '/tmp/dxc-corpus')
    tmp = tempfile.mkdtemp()
    print('load average before:', os.getloadavg())
    ratios = []
    with open(os.path.join(root, 'manifest.tsv')) as f:
        rows = [r for r in csv.DictReader(f, delimiter='\t')
                if r['expects_error'] == '0' and r['profile'][:2] in STAGES]
    for r in rows[:limit]:
        d, name = os.path.split(os.path.join(root, r['relative_path']))
        h = [hlslc, '-spirv', '-T', r['profile'], '-E', r['entry'], name, '-Fo', tmp + '/h.spv']
        g = ['glslangValidator', '-V', '-D', '-e', r['entry'], '-S', STAGES[r['profile'][:2]],
             name, '-o', tmp + '/g.spv']
        th, tg, ok = [], [], True
        for _ in range(runs):
            t, a = timed(h, d)
            u, b = timed(g, d)
            ok &= a and b
            th.append(t)
            tg.append(u)
        if ok:
            ratios.append(min(tg) / min(th))
    print('load average after:', os.getloadavg())
    print(f'{len(ratios)} files both compile; glslang / hlslc per file: '
          f'median {statistics.median(ratios):.1f}x, '
          f'quartiles {statistics.quantiles(ratios, n=4)}')


if __name__ == '__main__':
    main()
