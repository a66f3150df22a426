#!/bin/sh
# The linker rustc runs for the `hlslc` binary (`tools/rustc-pgo.sh`
# passes it as `-C linker`): the C compiler driver, `cc` or
# $HLSLC_LINKER, with LLD told to place the functions that a compile runs
# first, in the order `pgo/hlslc.order` lists them (written by
# `tools/link_order.py`), so that a process touches a few hundred KiB of
# code in one stretch instead of pages spread over the whole binary.
#
# The list names functions by their symbols without the hash that Rust's
# mangling ends them with (`17h` and 16 hex digits), which changes with
# the dependencies' versions, features and profile, and by their size
# (the instances of a generic function share a name); each symbol of the
# objects being linked takes the place of its name and size in the list.
# The ordering file is written beside the output (`OUTPUT.link-order`).
#
# Left as it is, the link runs unchanged: without the list or `nm`, with
# arguments in a response file, or without LLD (`-fuse-ld=lld`, rustc's
# default linker on x86-64 Linux with glibc; `tools/rustc-pgo.sh` asks
# for it for other targets where the toolchain has it).
linker=${HLSLC_LINKER:-cc}
order=$HLSLC_LINK_ORDER
[ -n "$order" ] && [ -f "$order" ] || exec "$linker" "$@"
command -v nm >/dev/null 2>&1 || exec "$linker" "$@"
lld= out= objects= next_is_out=
for arg in "$@"; do
    if [ -n "$next_is_out" ]; then
        out=$arg
        next_is_out=
    fi
    case $arg in
    @*) exec "$linker" "$@" ;;
    -fuse-ld=lld) lld=1 ;;
    -o) next_is_out=1 ;;
    *.o | *.rlib) objects="$objects
$arg" ;;
    esac
done
[ -n "$lld" ] && [ -n "$out" ] && [ -n "$objects" ] || exec "$linker" "$@"
file=$out.link-order
# The objects' function symbols, each at the rank (first line) of its name
# where no other symbol has that name, else of its name and size; then
# the `.cold` parts of placed functions that the list does not name;
# other symbols the list does not name are left where the linker puts
# them. A listed C function that none of the objects defines (the C
# library's, which the linker takes from its archives) is passed at its
# rank by name: LLD places it if the link has it.
printf '%s\n' "$objects" | sed '/^$/d' | while IFS= read -r object; do
    nm -S --defined-only "$object" 2>/dev/null
done | awk -v order="$order" '
    function hex(s,    i, n) {
        n = 0
        for (i = 1; i <= length(s); i++)
            n = n * 16 + index("0123456789abcdef", substr(tolower(s), i, 1)) - 1
        return n
    }
    BEGIN {
        while ((getline line < order) > 0) {
            n++
            split(line, w, " ")
            if (!(line in rank)) rank[line] = n
            if (!(w[1] in first)) first[w[1]] = n
        }
    }
    NF == 4 && $3 ~ /^[tTwW]$/ && !($4 in seen) {
        name = $4
        seen[name] = 1
        # A `.cold` part (machine function splitting) is keyed as its
        # function is, with the suffix.
        base = name
        suffix = ""
        if (substr(name, length(name) - 4) == ".cold") {
            base = substr(name, 1, length(name) - 5)
            suffix = ".cold"
        }
        key = name
        if (length(base) > 20 && substr(base, length(base) - 19, 3) == "17h" &&
            substr(base, length(base), 1) == "E")
            key = substr(base, 1, length(base) - 20) "E" suffix
        count[key]++
        names[++symbols] = name
        keys[symbols] = key
        sizes[symbols] = hex($2)
        if (suffix != "")
            function_of[symbols] = base
    }
    END {
        for (name in first)
            if (!(name in seen) && name !~ /^_(ZN|R)/)
                print first[name], name
        for (i = 1; i <= symbols; i++) {
            entry = keys[i] " " sizes[i]
            if (count[keys[i]] == 1 && (keys[i] in first))
                placed[names[i]] = first[keys[i]]
            else if (entry in rank)
                placed[names[i]] = rank[entry]
            if (names[i] in placed)
                print placed[names[i]], names[i]
        }
        # The `.cold` parts the list does not name (no listed compile ran
        # them) follow everything listed, in the order of their
        # functions: a compile that runs one most likely runs the
        # functions that run most.
        for (i = 1; i <= symbols; i++)
            if ((i in function_of) && !(names[i] in placed) && (function_of[i] in placed))
                print n + placed[function_of[i]], names[i]
    }' | sort -n -k1,1 -s | cut -d' ' -f2 >"$file" || exec "$linker" "$@"
exec "$linker" "$@" "-Wl,--symbol-ordering-file=$file" -Wl,--no-warn-symbol-ordering
