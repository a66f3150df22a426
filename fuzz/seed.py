#!/usr/bin/env python3
"""Fills fuzz/corpus/<target>/ with seeds from samples/ and tests/in/.

Run from the repository root: `python3 fuzz/seed.py [DXC_CORPUS]`. The
corpus is not committed (see fuzz/.gitignore); libFuzzer grows it while it
runs. With the directory `../shared/tools/dxc-corpus/export.sh` fills
(its `manifest.tsv`), DXC's SPIR-V test files of every stage are seeds too,
with the profile and entry each is compiled with.

`preprocess_parse` takes the files as they are. `compile` reads its first
byte as the options (see fuzz_targets/compile.rs): each `-T <profile> -E
<entry>` a file's header names becomes one seed, with the matching byte in
front, -O3, and the entry point renamed to `main` (the name the target uses).
"""

import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Index = bits 0-2 of the options byte, as PROFILES in compile.rs.
PROFILES = [
    "cs_6_0", "vs_6_0", "ps_6_0", "gs_6_0", "hs_6_0", "ds_6_0", "cs_6_6", "ps_6_6", "ms_6_5",
    "as_6_5", "lib_6_3", "lib_6_8", "cs_6_5", "vs_6_1", "ps_6_5", "cs_6_8",
]
O3 = 3 << 4
VULKAN1_3 = 1 << 6


def profile_index(profile):
    """The closest profile of PROFILES: the same stage, the newest model
    not above the one asked for (`lib_6_3` for every library below 6.8)."""
    if profile in PROFILES:
        return PROFILES.index(profile)
    stage, _, minor = profile.split("_")
    same = [p for p in PROFILES if p.startswith(stage + "_")]
    below = [p for p in same if int(p.split("_")[2]) <= int(minor)] or same
    return PROFILES.index(max(below, key=lambda p: int(p.split("_")[2])))


def options_byte(profile):
    """-O3, and vulkan1.3 for what SPIR-V 1.0 cannot have (wave operations
    from 6.0 compile only from Vulkan 1.1; mesh, ray tracing and nodes need
    SPIR-V 1.4)."""
    byte = profile_index(profile) | O3
    if profile[:2] in ("ms", "as", "li") or profile.endswith(("_6_5", "_6_6", "_6_8")):
        byte |= VULKAN1_3
    return byte


def write(target, data):
    out = ROOT / "fuzz" / "corpus" / target
    out.mkdir(parents=True, exist_ok=True)
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)


def seed_compile(text, profile, entry):
    if entry and entry != "main" and not profile.startswith("lib"):
        text = re.sub(r"\b%s\b" % re.escape(entry), "main", text)
    write("compile", bytes([options_byte(profile)]) + text.encode())


def seed_dxc(corpus):
    """Every file of DXC's corpus that names a profile, compiled as DXC's
    RUN line does (defines and other flags are not carried)."""
    manifest = (corpus / "manifest.tsv").read_text().splitlines()
    for line in manifest[1:]:
        path, profile, entry = line.split("\t")[:3]
        if not re.fullmatch(r"(cs|vs|ps|gs|hs|ds|ms|as|lib)_6_\d", profile):
            continue
        data = (corpus / path).read_bytes()
        seed_compile(data.decode("utf-8", "replace"), profile, entry)


def main():
    if len(sys.argv) > 1:
        seed_dxc(pathlib.Path(sys.argv[1]))
    files = sorted(ROOT.glob("samples/*.hlsl*")) + sorted(ROOT.glob("tests/in/**/*.hlsl*"))
    for path in files:
        data = path.read_bytes()
        write("preprocess_parse", data)
        text = data.decode("utf-8", "replace")
        pairs = re.findall(r"-T ([a-z]{2,3}_6_\d)(?:.*?-E (\w+))?", text)
        for profile, entry in pairs or [("cs_6_0", "main")]:
            seed_compile(text, profile, entry)
    for target in ("preprocess_parse", "compile"):
        n = len(list((ROOT / "fuzz" / "corpus" / target).iterdir()))
        print(f"fuzz/corpus/{target}: {n} seeds")


if __name__ == "__main__":
    main()
