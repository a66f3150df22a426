#!/bin/sh
# The rustc wrapper of this repository's builds (`.cargo/config.toml`):
# compiles the hlslc crate (library and binaries) with the profile that
# `tools/pgo.py` recorded, `pgo/hlslc.profdata`; every other crate and
# the build script as cargo asked. HLSLC_PGO=off leaves the profile out;
# HLSLC_PGO=generate=DIR instruments the crate instead, writing its
# counts into DIR (what `tools/pgo.py` runs). Cargo runs
# `WRAPPER RUSTC ARGS...` (RUSTC may be clippy's driver, which takes the
# same flags).
#
# The crate's symbols do not depend on its dependencies' versions (see
# below), so the profile fits builds that resolve other versions.
#
# The `hlslc` binary is linked through `tools/link-order.sh`, which lays
# out its functions in the order `pgo/hlslc.order` lists them (unless
# HLSLC_ORDER=off, or cargo names a linker of its own): with LLD, which
# rustc uses on x86-64 Linux with glibc and which this asks for (rustc's
# own copy) on other Linux targets where the toolchain has it.
[ "$CARGO_PKG_NAME" = hlslc ] || exec "$@"
args=" $* "
# Whether the arguments hold the words $1.
has() { case $args in *" $1 "*) ;; *) return 1 ;; esac; }
has "--crate-name build_script_build" && exec "$@"
# The library and the binary get a `-C metadata` of their own instead of
# cargo's, which hashes the versions of all their dependencies: it is
# part of every symbol of the crate, and so of the names the profile and
# the function order give its functions. With cargo's, `cargo install
# --path .` without `--locked` (which resolves the newest versions) would
# find none of them.
crate=
if has "--crate-name hlslc"; then
    for type in lib bin; do has "--crate-type $type" && crate=$type; done
fi
if [ -n "$crate" ]; then
    n=$#
    while [ "$n" -gt 0 ]; do
        arg=$1
        shift
        n=$((n - 1))
        case $arg in metadata=*) arg=metadata=hlslc-$crate ;; esac
        set -- "$@" "$arg"
    done
fi
order="$CARGO_MANIFEST_DIR/pgo/hlslc.order"
case $args in
*" -C linker="* | *" -Clinker="*) ;;
*)
    if [ "$crate" = bin ] && [ "$HLSLC_ORDER" != off ] && [ -f "$order" ]; then
        export HLSLC_LINK_ORDER="$order"
        set -- "$@" "-Clinker=$CARGO_MANIFEST_DIR/tools/link-order.sh"
        target=$(printf '%s\n' "$@" | sed -n '/^--target$/{n;p;q;}')
        case $target in
        "" | x86_64-unknown-linux-gnu) ;;
        *-linux-*)
            host=$("$1" -vV 2>/dev/null | sed -n 's/^host: //p')
            gcc_ld="$("$1" --print sysroot 2>/dev/null)/lib/rustlib/$host/bin/gcc-ld"
            if [ -x "$gcc_ld/ld.lld" ]; then
                set -- "$@" "-Clink-arg=-B$gcc_ld" -Clink-arg=-fuse-ld=lld
            fi
            ;;
        esac
    fi
    ;;
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
# The blocks of a function that the profile counts as never run move to
# a symbol of their own (`NAME.cold`, machine function splitting), which
# the function order places apart: where it ran (inlined code that the
# profile of its function counts as rare), at its rank; otherwise after
# all listed code, in its function's order. The code a compile runs lies
# closer together (with the C library in the order too, a small
# shader's compile ran code in 57 stretches of 64 KiB instead of 69).
exec "$@" "-Cprofile-use=$profile" -Cllvm-args=-no-pgo-warn-mismatch \
    -Cllvm-args=-pgso-cold-code-only -Cllvm-args=-enable-split-machine-functions \
    -Cllvm-args=-mfs-psi-cutoff=0 -Cllvm-args=-mfs-count-threshold=1
