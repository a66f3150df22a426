#!/usr/bin/env python3
"""One batch invocation against one process per job.

The jobs: every `// Compile:` command of samples/*.hlsl, each in 16 define
permutations (-DPERM_A..-DPERM_D = 0/1), writing -Fo and -MF files under a
temporary directory. Times, best of RUNS:

  batch     `hlslc --jobs-file jobs.txt` (one process, every core)
  parallel  one `hlslc` process per job, as many at once as there are
            cores (what `ninja` or `make -j` does)
  serial    one `hlslc` process per job, one after another

and prints the ratios and the load average before and after.

    python3 benches/batch.py target/release/hlslc [RUNS] [--fresh]

Each run writes its files over those the run before wrote (as a rebuild
does); with `--fresh` they are deleted before each run, outside the time.
"""
import concurrent.futures, os, re, shlex, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sample_commands():
    """The `hlslc` commands in the headers of the samples (as tests/samples.rs reads them)."""
    out = []
    for name in sorted(os.listdir(os.path.join(ROOT, 'samples'))):
        if not name.endswith('.hlsl'):
            continue
        in_block = False
        for line in open(os.path.join(ROOT, 'samples', name)):
            if not line.startswith('//'):
                break
            c = line[2:].strip()
            if c.startswith('Compile:'):
                in_block, c = True, c[len('Compile:'):].strip()
            elif not (in_block and c.startswith('hlslc ')):
                in_block = False
                continue
            words = c.split()[1:]
            out.append(words[:words.index('-Fo')] if '-Fo' in words else words)
    return out


def runtime_commands(out):
    """The `hlslc` commands of the runtime tests' shaders, writing `out`:
    each compute shader of tests/in/runtime, and each entry point
    (`VSMain`, `PSMain`, `GSMain`, `HSMain`, `DSMain`) of the shaders of
    tests/in/runtime_graphics and tests/in/runtime_stages."""
    runtime = os.path.join('tests', 'in', 'runtime')
    cmds = [['-spirv', '-T', 'cs_6_0', '-E', 'main', os.path.join(runtime, n), '-Fo', out]
            for n in sorted(os.listdir(os.path.join(ROOT, runtime))) if n.endswith('.hlsl')]
    for folder in ('runtime_graphics', 'runtime_stages'):
        folder = os.path.join('tests', 'in', folder)
        for n in sorted(os.listdir(os.path.join(ROOT, folder))):
            if not n.endswith('.hlsl'):
                continue
            with open(os.path.join(ROOT, folder, n)) as f:
                text = f.read()
            for stage in ('vs', 'ps', 'gs', 'hs', 'ds'):
                entry = stage[0].upper() + 'SMain'
                if re.search(r'\b%s\s*\(' % entry, text):
                    cmds.append(['-spirv', '-T', stage + '_6_0', '-E', entry,
                                 os.path.join(folder, n), '-Fo', out])
    return cmds


def jobs(tmp):
    result = []
    for n, cmd in enumerate(sample_commands()):
        for p in range(16):
            perm = [f'-DPERM_{k}={(p >> i) & 1}' for i, k in enumerate('ABCD')]
            stem = os.path.join(tmp, f'{n}-{p}')
            result.append(cmd + perm + ['-Fo', stem + '.spv', '-MF', stem + '.d'])
    return result


def best(runs, f, before=lambda: None):
    times = []
    for _ in range(runs):
        before()
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    fresh = '--fresh' in sys.argv
    args = [a for a in sys.argv[1:] if a != '--fresh']
    hlslc = os.path.abspath(args[0])
    runs = int(args[1]) if len(args) > 1 else 5
    # Removed when the script exits.
    scratch = tempfile.TemporaryDirectory()
    tmp = scratch.name
    js = jobs(tmp)
    jobs_file = os.path.join(tmp, 'jobs.txt')
    with open(jobs_file, 'w') as f:
        f.writelines(shlex.join(j) + '\n' for j in js)
    cores = os.cpu_count() or 1

    def run(args):
        subprocess.run([hlslc] + args, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def parallel():
        with concurrent.futures.ThreadPoolExecutor(cores) as ex:
            list(ex.map(run, js))

    def clear():
        if fresh:
            for name in os.listdir(tmp):
                if name != 'jobs.txt':
                    os.remove(os.path.join(tmp, name))

    print('outputs:', 'deleted before each run' if fresh else 'written over')
    print('load average before:', os.getloadavg())
    batch = best(runs, lambda: run(['--jobs-file', jobs_file]), clear)
    par = best(runs, parallel, clear)
    ser = best(runs, lambda: [run(j) for j in js], clear)
    print('load average after:', os.getloadavg())
    print(f'{len(js)} jobs, {cores} cores: batch {batch * 1e3:.0f} ms, '
          f'one process each in parallel {par * 1e3:.0f} ms ({par / batch:.1f}x), '
          f'one after another {ser * 1e3:.0f} ms ({ser / batch:.1f}x)')


if __name__ == '__main__':
    main()
