#!/bin/sh
# The rustc wrapper of this repository's builds (`.cargo/config.toml`):
# compiles the hlslc crate (library and binaries) with the profile that
# `tools/pgo.py` recorded, `pgo/hlslc.profdata`; every other crate and
# the build script as cargo asked. HLSLC_PGO=off leaves the profile out;
# HLSLC_PGO=generate=DIR instruments the crate instead, writing its
# counts into DIR (what `tools/pgo.py` runs). Cargo runs
# `WRAPPER RUSTC ARGS...` (RUSTC may be clippy's driver, which takes the
# same flags).
[ "$CARGO_PKG_NAME" = hlslc ] || exec "$@"
case " $* " in
*" --crate-name build_script_build "*) exec "$@" ;;
esac
case "$HLSLC_PGO" in
off) exec "$@" ;;
generate=*) exec "$@" "-Cprofile-generate=${HLSLC_PGO#generate=}" ;;
esac
profile="$CARGO_MANIFEST_DIR/pgo/hlslc.profdata"
[ -f "$profile" ] || exec "$@"
# A function changed since the profile was recorded is compiled without
# it (LLVM's mismatch warning would name each one). Only code the profile
# counts as cold is optimised for size: by default LLVM does that to all
# code not counted hot, so a function the profile lacks (all of them in a
# build whose symbols differ) would be slower than without a profile.
exec "$@" "-Cprofile-use=$profile" -Cllvm-args=-no-pgo-warn-mismatch \
    -Cllvm-args=-pgso-cold-code-only
