#!/bin/sh
# Keeps docs/reference/ in step with the functions the macros generate.
#
# For each face, gcc compiles tests/docs/sync_gen.c (the face instantiated
# with the placeholder names name, T, K_T) and tests/docs/sync_ref.c (the
# reference headers that document that face), each with -aux-info, which
# writes one normalised prototype per function, parameter names included.
# The generated side keeps the definitions (NF) of name_* functions made by
# the instantiation, minus the library's own name_slx_* / name_slr_*
# helpers; the documented side keeps the declarations (NC) written in
# docs/reference/. The two lists must be equal: a generated function
# missing from the reference, a documented one that is not generated, or a
# parameter list that differs (types or names) fails the test.
#
# Usage: tests/docs/sync.sh BUILD_DIR   (CC_AUX: the gcc to use; -aux-info
# is gcc's, clang has no equivalent). Nothing is compiled to code: parsing
# (-fsyntax-only) is all -aux-info needs.
set -eu
out=${1:?usage: tests/docs/sync.sh BUILD_DIR}
cc=${CC_AUX:-gcc}
faces="map pq extent ranked_map ranked_extent rcu_map rcu_extent"
# The reference headers must compile cleanly, as the real ones do.
flags="-std=c11 -I. -Wall -Wextra -Wpedantic -Werror"
mkdir -p "$out"

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "docs-sync: FAILED, $cc not found (the test needs gcc's -aux-info)"
    exit 1
fi

# aux-info lines look like
#   /* FILE:LINE:NF */ static T *name_find (const struct name *sl, K_T key); /* (sl, key) ... */
# $1: aux file, $2: file name the lines must come from, $3: NF or NC.
# Prints "T *name_find (const struct name *sl, K_T key);" per function.
protos() {
    sed 's,^/\* \./,/* ,' "$1" | grep -F "/* $2" | grep -F ":$3 */" |
        sed -e 's,^/\* [^*]*\*/ ,,' -e 's, /\*.*\*/$,,' \
            -e 's,^extern ,,' -e 's,^static ,,' -e 's,^inline ,,' |
        grep -E '[ *]name_[a-z0-9_]+ \(' |
        grep -Ev '[ *]name_sl[xr]_' | sort
}

fail=0
seen="$out/seen-files"
: >"$seen"
for f in $faces; do
    gen="$out/gen-$f" ref="$out/ref-$f"
    "$cc" $flags -DSYNC_FACE_$f -fsyntax-only tests/docs/sync_gen.c \
        -aux-info "$gen.aux"
    # -aux-info drops parameter names from mere declarations, so the
    # reference prototypes are turned into empty definitions first: in
    # the preprocessed text (whose line markers keep each line's file),
    # every line of docs/reference/ that ends a prototype, ");", ends
    # with ") { }" instead.
    "$cc" $flags -DSYNC_FACE_$f -fsyntax-only tests/docs/sync_ref.c
    "$cc" $flags -DSYNC_FACE_$f -E tests/docs/sync_ref.c |
        awk '/^# [0-9]+ "/ { inref = ($3 ~ /docs\/reference\//) }
             inref && !/^#/ { sub(/\);[ \t]*$/, ") { }") }
             { print }' >"$ref.i"
    "$cc" -std=c11 -w -fsyntax-only "$ref.i" -aux-info "$ref.aux"
    protos "$gen.aux" tests/docs/sync_gen.c NF >"$gen.txt"
    protos "$ref.aux" docs/reference/ NF >"$ref.txt"
    sed -n "s|^/\* \(\./\)*\(docs/reference/[^:]*\):.*|\2|p" "$ref.aux" >>"$seen"
    n=$(wc -l <"$gen.txt")
    if [ "$n" -lt 10 ]; then
        # Guards the filter itself: a face generates 17 or more.
        echo "docs-sync: FAILED, only $n generated functions found for $f"
        fail=1
        continue
    fi
    missing=$(comm -23 "$gen.txt" "$ref.txt")
    extra=$(comm -13 "$gen.txt" "$ref.txt")
    if [ -n "$missing$extra" ]; then
        fail=1
        echo "docs-sync: FAILED, face $f:"
        [ -z "$missing" ] || printf '  generated, not in docs/reference/ as written:\n%s\n' \
            "$(echo "$missing" | sed 's/^/    /')"
        [ -z "$extra" ] || printf '  in docs/reference/, not generated so:\n%s\n' \
            "$(echo "$extra" | sed 's/^/    /')"
    else
        echo "docs-sync: $f: $n generated functions, all documented as generated"
    fi
done

# Every reference header that declares a generated function must belong to
# a face above (sync_ref.c), or its declarations would go unchecked.
for h in docs/reference/*.h; do
    if grep -Eq '^[A-Za-z].*[ *]name_[a-z0-9_]+\(' "$h" &&
        ! grep -qxF "$h" "$seen"; then
        echo "docs-sync: FAILED, $h declares functions but no face includes it (tests/docs/sync_ref.c)"
        fail=1
    fi
done
exit $fail
