#!/usr/bin/env python3
"""Records `pgo/hlslc.profdata`, the profile the hlslc crate is compiled
with (profile-guided optimisation; `tools/rustc-pgo.sh` passes it to
rustc, README "Speed").

1. Builds binaries whose hlslc crate is instrumented (`-Cprofile-generate`
   through `tools/rustc-pgo.sh`; dependencies, build scripts and proc
   macros are not, so their counts do not set what "hot" means) in
   `target/pgo-generate`: the `release` profile, for the host and for
   musl as `cargo build-static` builds it (for musl: `rustup target add
   x86_64-unknown-linux-musl`). Their symbols are the same (the
   wrapper's own `-C metadata`), but some of their code is not (the
   allocator's limit, position-dependent code), and LLVM keeps the counts
   of each form of a function apart.
2. Runs each on the repository's own shaders: every sample command (as
   written, twice, so that the second finds its output up to date as a
   rebuild does; with `-O0` and with `-Zi`), the shaders of the runtime
   tests (each compute shader of `tests/in/runtime`, each entry point of
   `tests/in/runtime_graphics` and `tests/in/runtime_stages`), and one
   batch of the sample commands in 16 define permutations
   (`benches/batch.py`'s jobs). Nothing of the DXC corpus, on which the
   speed is measured.
3. Merges the counts with `llvm-profdata merge --sparse` (from rustup's
   `llvm-tools` component, which matches rustc's LLVM).

    python3 tools/pgo.py            # then commit pgo/hlslc.profdata

Rerun it after changes to hot code: a function whose control flow changed
since the profile was recorded is compiled without profile (no warning),
the rest keep theirs.
"""
import os, shlex, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'benches'))
import batch  # noqa: E402  (the samples' commands and the batch jobs)


def llvm_profdata():
    sysroot = subprocess.run(['rustc', '--print', 'sysroot'], check=True,
                             capture_output=True, text=True).stdout.strip()
    host = next(l.split()[1] for l in subprocess.run(
        ['rustc', '-vV'], check=True, capture_output=True, text=True).stdout.splitlines()
        if l.startswith('host:'))
    tool = os.path.join(sysroot, 'lib', 'rustlib', host, 'bin', 'llvm-profdata')
    if not os.path.exists(tool):
        sys.exit(f'{tool} is missing: rustup component add llvm-tools')
    return tool


def train(hlslc, tmp):
    """Runs the training compiles; returns how many there were."""
    def run(args):
        subprocess.run([hlslc] + args, cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    n = 0
    for i, cmd in enumerate(batch.sample_commands()):
        # Twice as written: the second finds its output up to date, as a
        # rebuild does.
        for extra in ([], [], ['-O0'], ['-Zi']):
            run(cmd + extra + ['-Fo', os.path.join(tmp, f'{i}.spv')])
            n += 1
    for cmd in batch.runtime_commands(os.path.join(tmp, 'runtime.spv')):
        run(cmd)
        n += 1
    jobs = batch.jobs(tmp)
    jobs_file = os.path.join(tmp, 'jobs.txt')
    with open(jobs_file, 'w') as f:
        f.writelines(shlex.join(j) + '\n' for j in jobs)
    run(['--jobs-file', jobs_file])
    return n + len(jobs)


def main():
    profdata = llvm_profdata()
    out = os.path.join(ROOT, 'pgo', 'hlslc.profdata')
    target = os.path.join(ROOT, 'target', 'pgo-generate')
    # The musl build's flags are those of the `build-static` alias
    # (RUSTFLAGS replaces the alias's).
    builds = [(['--release'], [], 'release'),
              (['--release', '--target', 'x86_64-unknown-linux-musl'],
               ['-Ctarget-feature=+crt-static', '-Crelocation-model=static'],
               'x86_64-unknown-linux-musl/release')]
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, 'raw')
        for args, flags, out_dir in builds:
            env = dict(os.environ, HLSLC_PGO=f'generate={raw}', RUSTFLAGS=' '.join(flags))
            subprocess.run(['cargo', 'build', '--bin', 'hlslc', '--target-dir', target] + args,
                           cwd=ROOT, env=env, check=True)
            n += train(os.path.join(target, out_dir, 'hlslc'), tmp)
        raws = [os.path.join(raw, f) for f in sorted(os.listdir(raw))]
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([profdata, 'merge', '--sparse', '-o', out] + raws, check=True)
    print(f'{out}: {n} compiles, {os.path.getsize(out)} bytes')


if __name__ == '__main__':
    main()
