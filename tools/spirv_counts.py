#!/usr/bin/env python3
"""SPIR-V instruction counts: hlslc at -O0 and -O3 against glslang + spirv-opt.

For every sample in samples/README.md's table (its own command line: profile,
entry point and flags) and, with --runtime, every compute kernel under
tests/in/runtime/, this compiles the shader with our compiler at -O0 and -O3
and, when glslangValidator and spirv-opt are on PATH, with

    glslangValidator -D -V -S STAGE -e ENTRY --target-env vulkan1.1 FILE -o X.spv
    spirv-opt -O X.spv -o Y.spv

and prints a Markdown table of instruction counts. An instruction is a line
of `spirv-dis` output that is not a comment. Two numbers per module:

- code: instructions inside functions (OpFunction … OpFunctionEnd), the
  part the optimisers work on;
- total: every instruction except debug information (OpName,
  OpMemberName, OpSource*, OpString, OpLine, OpNoLine, OpModuleProcessed),
  since hlslc emits names and spirv-opt -O keeps them.

A compiler that fails on a sample gets "-" (and the error with -v).

Usage (from the repository root, after `cargo build --release`):

    tools/spirv_counts.py [--hlslc target/release/hlslc] [--runtime] [-v]
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEBUG_OPS = {
    "OpName", "OpMemberName", "OpSource", "OpSourceContinued",
    "OpSourceExtension", "OpString", "OpLine", "OpNoLine",
    "OpModuleProcessed",
}

GLSLANG_STAGE = {
    "vs": "vert", "ps": "frag", "gs": "geom", "hs": "tesc", "ds": "tese",
    "cs": "comp", "ms": "mesh", "as": "task",
}


def count(spv, verbose):
    """(code, total) instruction counts of a SPIR-V file."""
    r = subprocess.run(["spirv-dis", "--raw-id", spv], capture_output=True, text=True)
    if r.returncode != 0:
        if verbose:
            print(r.stderr, file=sys.stderr)
        return None
    code = total = 0
    inside = False
    for line in r.stdout.splitlines():
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        tokens = line.split()
        op = tokens[2] if len(tokens) > 2 and tokens[1] == "=" else tokens[0]
        if op == "OpFunction":
            inside = True
        if op not in DEBUG_OPS:
            total += 1
            if inside:
                code += 1
        if op == "OpFunctionEnd":
            inside = False
    return code, total


def run(cmd, verbose):
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0 and verbose:
        print("$ " + " ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
        print(r.stdout + r.stderr, file=sys.stderr)
    return r.returncode == 0


def samples():
    """(name, file, profile, entry, extra flags) from samples/README.md."""
    out = []
    with open(os.path.join(ROOT, "samples", "README.md")) as f:
        for line in f:
            m = re.match(r"\| `([^`]+)`( \(\w+\))? \|.*\| `hlslc ([^`]+)` \|", line)
            if not m:
                continue
            args = shlex.split(m.group(3))
            profile = args[args.index("-T") + 1]
            entry = args[args.index("-E") + 1]
            hlsl = next(a for a in args if a.endswith(".hlsl"))
            extra = []
            skip = {"-spirv", "-T", profile, "-E", entry, hlsl, "-Fo"}
            i = 0
            while i < len(args):
                a = args[i]
                if a == "-Fo":
                    i += 2
                    continue
                if a not in skip:
                    extra.append(a)
                i += 1
            name = os.path.basename(hlsl)[:-5]
            if profile[:2] != "cs":
                name += "." + profile[:2]
            out.append((name, hlsl, profile, entry, extra))
    return out


def runtime_kernels():
    d = os.path.join(ROOT, "tests", "in", "runtime")
    return [
        (f[:-5], os.path.join("tests", "in", "runtime", f), "cs_6_0", "main", [])
        for f in sorted(os.listdir(d))
        if f.endswith(".hlsl")
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlslc", help="the hlslc binary (default: target/release/hlslc, else target/debug/hlslc)")
    ap.add_argument("--runtime", action="store_true", help="also the compute kernels of tests/in/runtime")
    ap.add_argument("-v", "--verbose", action="store_true", help="print compiler errors")
    a = ap.parse_args()
    hlslc = a.hlslc
    if not hlslc:
        for p in ("target/release/hlslc", "target/debug/hlslc"):
            if os.path.exists(os.path.join(ROOT, p)):
                hlslc = os.path.join(ROOT, p)
                break
    if not hlslc:
        sys.exit("no hlslc binary: run `cargo build --release` or pass --hlslc")
    if not shutil.which("spirv-dis"):
        sys.exit("spirv-dis (spirv-tools) is needed to count instructions")
    have_glslang = shutil.which("glslangValidator") and shutil.which("spirv-opt")

    cases = samples() + (runtime_kernels() if a.runtime else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, hlsl, profile, entry, extra in cases:
            cells = []
            for level in ("-O0", "-O3"):
                out = os.path.join(tmp, f"{name}{level}.spv")
                ok = run([hlslc, "-spirv", "-T", profile, "-E", entry, level, "-fspv-target-env=vulkan1.1", *extra, hlsl, "-Fo", out], a.verbose)
                cells.append(count(out, a.verbose) if ok else None)
            if have_glslang:
                x = os.path.join(tmp, f"{name}.glslang.spv")
                y = os.path.join(tmp, f"{name}.opt.spv")
                ok = run(["glslangValidator", "-D", "-V", "-S", GLSLANG_STAGE[profile[:2]], "-e", entry,
                          "--target-env", "vulkan1.1", hlsl, "-o", x], a.verbose)
                ok = ok and run(["spirv-opt", "-O", x, "-o", y], a.verbose)
                cells.append(count(y, a.verbose) if ok else None)
            rows.append((name, cells))

    def cell(c):
        return "-" if c is None else f"{c[0]} / {c[1]}"

    head = ["sample", "hlslc -O0", "hlslc -O3"] + (["glslang + spirv-opt -O"] if have_glslang else [])
    print("Instructions: code (inside functions) / total (without debug names)\n")
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for name, cells in rows:
        print(f"| {name} | " + " | ".join(cell(c) for c in cells) + " |")
    sums = []
    for i in range(len(head) - 1):
        both = [r[1] for r in rows if all(c is not None for c in r[1])]
        if both:
            sums.append((sum(c[i][0] for c in both), sum(c[i][1] for c in both)))
    if sums and have_glslang:
        print(f"| total (samples all three compile) | " + " | ".join(cell(s) for s in sums) + " |")


if __name__ == "__main__":
    main()
