#!/usr/bin/env python3
"""Writes `pgo/hlslc.order`, the order in which `tools/link-order.sh` has
LLD lay out the `hlslc` binary's functions (README, "Speed").

Runs each given binary under callgrind on the repository's own shaders
(every sample command as written, twice, and each compute shader of
`tests/in/runtime`; nothing of the DXC corpus, on which the speed is
measured) and lists every function that ran: first those that ran in
the most compiles, then by the instructions they ran. A function is named
by its symbol without the hash that Rust's mangling ends it with, so that
the list fits builds whose dependencies, features or profile differ, and
its size in bytes: the instances of a generic function share the name
(`RawVec<T>::grow_one` has over a hundred), and only those of a size that
ran are placed with it (`tools/link-order.sh`).

    python3 tools/link_order.py target/release/hlslc \
        target/x86_64-unknown-linux-musl/release/hlslc

Give binaries with symbols (`release`, not `dist`); each is one more set
of runs, so that the functions and sizes of each build are listed: the
glibc and musl builds with the profile (`cargo install --path .` builds
the glibc one, with or without `--locked`: the profile fits either).
"""
import collections, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'benches'))
import batch  # noqa: E402  (the training commands)

HASH = re.compile(r'17h[0-9a-f]{16}E$')


def key(symbol):
    """The symbol without Rust's hash (`tools/link-order.sh` does the same)."""
    return HASH.sub('E', symbol)


def sizes(hlslc):
    """{symbol: size in bytes} of the binary's functions."""
    out = subprocess.run(['nm', '-S', '--defined-only', hlslc], check=True,
                         capture_output=True, text=True).stdout
    return {w[3]: int(w[1], 16) for w in (l.split() for l in out.splitlines())
            if len(w) == 4 and w[2] in 'tTwW'}


def commands(out):
    # Each sample twice: the second finds its output up to date, as a
    # rebuild does.
    cmds = [c + ['-Fo', out] for c in batch.sample_commands() for _ in range(2)]
    return cmds + batch.runtime_commands(out)


def functions_run(hlslc, args, log):
    """{symbol: instructions} of the functions one compile ran."""
    subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no',
                    '--callgrind-out-file=' + log, hlslc] + args,
                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names, cost, current, in_call = {}, collections.Counter(), None, False
    with open(log) as f:
        for line in f:
            m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?$', line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                if m.group(1) == 'fn':
                    current = names[m.group(2)]
                    cost[current] += 0
                continue
            if line.startswith('calls='):
                in_call = True  # the next line is the call's inclusive cost
                continue
            if current and line[:1].isdigit():
                if not in_call:
                    words = line.split()
                    if len(words) > 1:
                        cost[current] += int(words[1])
                in_call = False
    os.remove(log)
    return cost


def main():
    binaries = sys.argv[1:]
    if not binaries:
        sys.exit(__doc__)
    runs, instructions = collections.Counter(), collections.Counter()
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for hlslc in binaries:
            size = sizes(hlslc)
            for args in commands(os.path.join(tmp, 'out.spv')):
                for symbol, count in functions_run(os.path.abspath(hlslc), args,
                                                   os.path.join(tmp, 'callgrind.out')).items():
                    if symbol not in size:
                        continue  # no symbol, or valgrind's own
                    entry = f'{key(symbol)} {size[symbol]}'
                    runs[entry] += 1
                    instructions[entry] += count
                n += 1
    order = sorted(runs, key=lambda k: (-runs[k], -instructions[k], k))
    out = os.path.join(ROOT, 'pgo', 'hlslc.order')
    with open(out, 'w') as f:
        f.writelines(k + '\n' for k in order)
    print(f'{out}: {len(order)} functions from {n} compiles')


if __name__ == '__main__':
    main()
