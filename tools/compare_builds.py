#!/usr/bin/env python3
"""Compare what two hlslc binaries write for the same inputs, byte for byte.

usage: compare_builds.py OLD_HLSLC NEW_HLSLC [--corpus DIR]

For a change that must not change behaviour (a refactor): each input is
compiled by both binaries at -O0 and at -O3, and the SPIR-V, the exit code
and the diagnostics must be identical. The inputs:
- every sample's `// Compile:` commands (samples/*.hlsl);
- every shader under tests/in with its `// args:` header; one without a
  header is checked with -fsyntax-only, and compiled as a compute shader
  (whatever that gives, errors included, must be the same);
- with --corpus (DXC's SPIR-V tests exported by shared/tools/dxc-corpus),
  every file of its manifest with its profile, entry and flags, the files
  DXC rejects included.
With --debug, every compile is also made with -Zi (debug information),
whose passes differ (they keep what debuggers name).
Prints the number of compiles compared and each difference; exits 1 on any.
"""
import argparse, csv, os, shlex, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def header_commands(path):
    """The hlslc argument lists a test or sample file asks for in its header."""
    cmds, in_block = [], False
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if not line.startswith('//'):
                break
            c = line[2:].strip()
            if c.startswith('args:'):
                cmds.append(shlex.split(c[5:]))
            elif c.startswith('Compile:'):
                in_block = True
                cmds.append(shlex.split(c[8:])[1:])
            elif in_block and c.startswith('hlslc '):
                cmds.append(shlex.split(c)[1:])
            else:
                in_block = False
    return cmds


def strip_output(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ('-Fo', '-Fh', '-Fre', '-Fc', '-MF'):
            skip = True
        else:
            out.append(a)
    return out


def local_jobs():
    jobs = []
    for d, _, files in os.walk(os.path.join(ROOT, 'tests', 'in')):
        for f in sorted(files):
            if not f.endswith('.hlsl'):
                continue
            p = os.path.join(d, f)
            cmds = header_commands(p)
            if not cmds:
                cmds = [['-fsyntax-only'], ['-T', 'cs_6_0', '-E', 'main']]
            jobs += [(d, strip_output(c) + [f]) for c in cmds]
    samples = os.path.join(ROOT, 'samples')
    for f in sorted(os.listdir(samples)):
        if f.endswith('.hlsl'):
            jobs += [(ROOT, strip_output(c)) for c in header_commands(os.path.join(samples, f))]
    return jobs


def corpus_jobs(corpus):
    sys.path.insert(0, os.path.join(ROOT, '..', 'shared', 'tools', 'dxc-corpus'))
    os.environ['DXC_CORPUS'] = corpus
    import run as dxc  # the shared runner's flag forwarding
    jobs = []
    with open(os.path.join(corpus, 'manifest.tsv')) as f:
        for r in csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE):
            path = os.path.join(corpus, r['relative_path'])
            flags, _ = dxc.flags_of(r['extra_flags'], every=r.get('expects_error') == '1')
            jobs.append((os.path.dirname(path),
                         ['-spirv', '-T', r['profile'], '-E', r['entry']] + flags + [os.path.basename(path)]))
    return jobs


def run(binary, cwd, args, out):
    if os.path.exists(out):
        os.remove(out)
    try:
        p = subprocess.run([binary] + args + ['-Fo', out], cwd=cwd, capture_output=True, timeout=60)
        res = (p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired:
        res = ('timeout', b'', b'')
    data = open(out, 'rb').read() if os.path.exists(out) else None
    return res + (data,)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('old'); ap.add_argument('new')
    ap.add_argument('--corpus')
    ap.add_argument('--debug', action='store_true', help='also compile each input with -Zi')
    a = ap.parse_args()
    jobs = local_jobs() + (corpus_jobs(a.corpus) if a.corpus else [])
    # Removed when the script exits.
    scratch = tempfile.TemporaryDirectory()
    tmp = scratch.name
    levels = [['-O0'], ['-O3']] + ([['-O0', '-Zi'], ['-O3', '-Zi']] if a.debug else [])
    work = [(cwd, args + o, i) for i, (cwd, args) in enumerate(jobs) for o in levels]

    def one(w):
        cwd, args, i = w
        # one output path for both: debug info records the command line
        out = os.path.join(tmp, f'{i}{"".join(args[-2:])}.spv')
        old = run(os.path.abspath(a.old), cwd, args, out)
        new = run(os.path.abspath(a.new), cwd, args, out)
        return cwd, args, old, new

    with ThreadPoolExecutor(2) as ex:
        res = list(ex.map(one, work))
    diffs = [(cwd, args) for cwd, args, old, new in res if old != new]
    for cwd, args in diffs[:50]:
        print('DIFFERS:', os.path.relpath(cwd, ROOT), ' '.join(args))
    ok = sum(1 for _, _, old, _ in res if old[0] == 0)
    print(f'{len(res)} compiles compared ({ok} succeeded), {len(diffs)} differ')
    sys.exit(1 if diffs else 0)


if __name__ == '__main__':
    main()
