#!/usr/bin/env python3
"""Fills fuzz/corpus/<target>/ with seeds from samples/ and tests/in/.

Run from the repository root: `python3 fuzz/seed.py`. The corpus is not
committed (see fuzz/.gitignore); libFuzzer grows it while it runs.

`preprocess_parse` takes the files as they are. `compile` reads its first
byte as the options (see fuzz_targets/compile.rs): each `-T <profile> -E
<entry>` a file's header names becomes one seed, with the matching byte in
front, -O3, and the entry point renamed to `main` (the name the target uses).
"""

import hashlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Index = bits 0-2 of the options byte, as PROFILES in compile.rs.
PROFILES = ["cs_6_0", "vs_6_0", "ps_6_0", "gs_6_0", "hs_6_0", "ds_6_0", "cs_6_6", "ps_6_6"]
O3 = 3 << 3


def profile_index(profile):
    if profile in PROFILES:
        return PROFILES.index(profile)
    stage, _, minor = profile.split("_")
    if stage in ("cs", "ps") and int(minor) >= 6:
        return PROFILES.index(stage + "_6_6")
    return PROFILES.index(stage + "_6_0")


def write(target, data):
    out = ROOT / "fuzz" / "corpus" / target
    out.mkdir(parents=True, exist_ok=True)
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    files = sorted(ROOT.glob("samples/*.hlsl*")) + sorted(ROOT.glob("tests/in/**/*.hlsl*"))
    for path in files:
        data = path.read_bytes()
        write("preprocess_parse", data)
        text = data.decode("utf-8", "replace")
        pairs = re.findall(r"-T ([a-z]{2}_6_\d)(?:.*?-E (\w+))?", text)
        for profile, entry in pairs or [("cs_6_0", "main")]:
            if profile[:2] not in ("cs", "vs", "ps", "gs", "hs", "ds"):
                continue
            source = text
            if entry and entry != "main":
                source = re.sub(r"\b%s\b" % re.escape(entry), "main", text)
            write("compile", bytes([profile_index(profile) | O3]) + source.encode())
    for target in ("preprocess_parse", "compile"):
        n = len(list((ROOT / "fuzz" / "corpus" / target).iterdir()))
        print(f"fuzz/corpus/{target}: {n} seeds")


if __name__ == "__main__":
    main()
