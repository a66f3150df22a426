#!/usr/bin/env python3
"""Writes `pgo/hlslc.order`, the order in which `tools/link-order.sh` has
LLD lay out the `hlslc` binary's functions (README, "Speed").

Runs each given binary under callgrind on the repository's own shaders
(every sample command as written, twice, and the shaders of the runtime
tests, `benches/batch.py`'s `runtime_commands`; nothing of the DXC
corpus, on which the speed is measured) and lists every function that
ran: first those that ran in the largest share of the compiles (of the
builds that have them), then by the instructions they ran. The
addresses of the instructions that ran tell the functions, so that a
function's `.cold` part (the blocks that machine function splitting
moved out because the profile counts them as never run, as it can
inlined code) is listed of its own where it ran. A function is named
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
import bisect, collections, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'benches'))
import batch  # noqa: E402  (the training commands)

HASH = re.compile(r'17h[0-9a-f]{16}E((?:\.cold)?)$')


def key(symbol):
    """The symbol without Rust's hash (`tools/link-order.sh` does the same):
    `...17h<16 hex digits>E`, or `...E.cold` for the part of a function
    that machine function splitting moved out (the blocks the profile
    counts as never run), which is a symbol of its own."""
    return HASH.sub(r'E\1', symbol)


def functions(hlslc):
    """The binary's functions (`.cold` parts included) as sorted lists of
    start addresses and (symbol, end address)."""
    out = subprocess.run(['nm', '-S', '--defined-only', hlslc], check=True,
                         capture_output=True, text=True).stdout
    syms = sorted((int(w[0], 16), w[3], int(w[1], 16))
                  for w in (l.split() for l in out.splitlines())
                  if len(w) == 4 and w[2] in 'tTwW')
    return [a for a, _, _ in syms], [(name, a + size) for a, name, size in syms]


def commands(out):
    # Each sample twice: the second finds its output up to date, as a
    # rebuild does.
    cmds = [c + ['-Fo', out] for c in batch.sample_commands() for _ in range(2)]
    return cmds + batch.runtime_commands(out)


def functions_run(hlslc, args, log, starts, symbols):
    """{symbol: instructions} of the functions (and `.cold` parts) one
    compile ran, by the addresses of the instructions it ran: callgrind
    names a `.cold` part after its function, and a resolver of the C
    library's (`memcpy_ifunc`) after the function it resolves."""
    subprocess.run(['valgrind', '--tool=callgrind', '--dump-instr=yes', '--compress-pos=no',
                    '--callgrind-out-file=' + log, hlslc] + args,
                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cost = collections.Counter()
    with open(log) as f:
        in_call = False
        for line in f:
            if line.startswith('calls='):
                in_call = True  # the next line is the call's inclusive cost
                continue
            if line.startswith('0x'):
                if not in_call:
                    words = line.split()
                    address = int(words[0], 16)
                    i = bisect.bisect_right(starts, address) - 1
                    if i >= 0 and address < symbols[i][1]:
                        cost[symbols[i][0]] += int(words[-1])
                in_call = False
    os.remove(log)
    return cost


def main():
    binaries = sys.argv[1:]
    if not binaries:
        sys.exit(__doc__)
    # Per entry: the compiles that ran it, their instructions in it, and
    # the compiles of the builds that have it (a function of one build
    # only, the C library's or one whose code differs, would otherwise
    # rank behind all that both builds run in more than half the compiles).
    runs, instructions, compiles = (collections.Counter() for _ in range(3))
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for hlslc in binaries:
            starts, symbols = functions(hlslc)
            size = {name: end - a for a, (name, end) in zip(starts, symbols)}
            cmds = commands(os.path.join(tmp, 'out.spv'))
            for entry in {f'{key(name)} {s}' for name, s in size.items()}:
                compiles[entry] += len(cmds)
            for args in cmds:
                for symbol, count in functions_run(os.path.abspath(hlslc), args,
                                                   os.path.join(tmp, 'callgrind.out'),
                                                   starts, symbols).items():
                    entry = f'{key(symbol)} {size[symbol]}'
                    runs[entry] += 1
                    instructions[entry] += count
                n += 1
    order = sorted(runs, key=lambda k: (-runs[k] / compiles[k], -instructions[k] / compiles[k], k))
    out = os.path.join(ROOT, 'pgo', 'hlslc.order')
    with open(out, 'w') as f:
        f.writelines(k + '\n' for k in order)
    print(f'{out}: {len(order)} functions from {n} compiles')


if __name__ == '__main__':
    main()
