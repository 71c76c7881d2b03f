#!/bin/sh
# Keeps docs/errors.md honest against the test sources.
#
#   tests/errors/check_table.sh [TABLE]     check TABLE (default docs/errors.md)
#   tests/errors/check_table.sh --self-test check that the check can fail
#
# Fails (exit 1, one line per problem) when
#   - a table row names no test (its last cell holds no `suite::test`),
#   - a row names a test that no Test(suite, test) in tests/ defines,
#   - a Test of a bad_* suite in tests/test_*_bad.c, or of
#     tests/rcu/test_rcu_bad.c (the suites written for the table), is
#     named by no row (tests/test_map_bad.c's map_badinput suite came
#     before the table and is not required).
# A table row is a line starting with "|", other than a header (last cell
# "test") or a separator ("|---"). Run from anywhere: paths are taken
# from the repository root, two levels above this script.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# Every Test(suite, name ...) defined under tests/, as suite::name.
defined_tests() {
    grep -hoE '^(Parameterized)?Test\([[:space:]]*[A-Za-z0-9_]+[[:space:]]*,[[:space:]]*[A-Za-z0-9_]+' \
        "$ROOT"/tests/*.c "$ROOT"/tests/*/*.c 2>/dev/null |
        sed -E 's/^(Parameterized)?Test\([[:space:]]*([A-Za-z0-9_]+)[[:space:]]*,[[:space:]]*([A-Za-z0-9_]+)/\2::\3/' |
        sort -u
}

# The tests the table must name: those of the suites written for it.
own_tests() {
    for f in "$ROOT"/tests/test_*_bad.c "$ROOT"/tests/rcu/test_rcu_bad.c; do
        [ -f "$f" ] || continue
        grep -hoE '^Test\([[:space:]]*(bad_|rcu_bad)[A-Za-z0-9_]*[[:space:]]*,[[:space:]]*[A-Za-z0-9_]+' "$f" |
            sed -E 's/^Test\([[:space:]]*([A-Za-z0-9_]+)[[:space:]]*,[[:space:]]*([A-Za-z0-9_]+)/\1::\2/'
    done | sort -u
}

# check TABLE: prints the problems and a summary; returns 1 on any problem.
check() {
    table=$1
    if [ ! -f "$table" ]; then
        echo "errors table: $table not found"
        return 1
    fi
    ctmp=$(mktemp -d) || return 1
    defined_tests >"$ctmp/defined"
    own_tests >"$ctmp/own"
    # Row by row: the last cell's `suite::test` names, or a complaint.
    awk -v out="$ctmp/named" '
        /^\|/ && !/^\|[-:| ]+$/ {
            n = split($0, cell, "|")
            last = cell[n - 1]
            gsub(/^[ \t]+|[ \t]+$/, "", last)
            if (last == "test")
                next
            rows++
            found = 0
            s = last
            while (match(s, /`[A-Za-z0-9_]+::[A-Za-z0-9_]+`/)) {
                print substr(s, RSTART + 1, RLENGTH - 2) > out
                found++
                s = substr(s, RSTART + RLENGTH)
            }
            if (!found) {
                printf "errors table: line %d names no test: %s\n", NR, $0
                bad = 1
            }
        }
        END {
            print rows + 0 > (out ".rows")
            exit bad
        }' "$table"
    status=$?
    touch "$ctmp/named"
    sort -u "$ctmp/named" >"$ctmp/named.u"
    for t in $(comm -23 "$ctmp/named.u" "$ctmp/defined"); do
        echo "errors table: names $t, which no Test() in tests/ defines"
        status=1
    done
    for t in $(comm -23 "$ctmp/own" "$ctmp/named.u"); do
        echo "errors table: $t is not named in $table"
        status=1
    done
    if [ "$status" -eq 0 ]; then
        echo "errors table: $(cat "$ctmp/named.rows") rows, $(wc -l <"$ctmp/named.u") tests named, all defined; all $(wc -l <"$ctmp/own") tests of the bad-input suites named"
    fi
    rm -rf "$ctmp"
    return "$status"
}

# Each doctored copy of the table must fail the check; the table itself
# must pass it.
# (The backquotes in its sed scripts are the table's, not the shell's.)
# shellcheck disable=SC2016
self_test() {
    real="$ROOT/docs/errors.md"
    stmp=$(mktemp -d) || return 1
    fails=0
    # expect_fail WHAT PATTERN: the check fails, saying PATTERN.
    expect_fail() {
        if check "$stmp/t.md" >"$stmp/log" 2>&1; then
            echo "errors table self-test: $1 was not caught"
            fails=1
        elif ! grep -q "$2" "$stmp/log"; then
            echo "errors table self-test: $1 failed for another reason:"
            cat "$stmp/log"
            fails=1
        fi
    }
    # A row naming a test that does not exist.
    sed 's/`bad_map::init_half_allocator`/`bad_map::no_such_test`/' "$real" >"$stmp/t.md"
    expect_fail "a row naming a missing test" "names bad_map::no_such_test"
    # A row naming no test at all.
    sed 's/| `bad_extent::insert_twice` |/| none |/' "$real" >"$stmp/t.md"
    expect_fail "a row naming no test" "names no test"
    # A bad-input test that no row names.
    sed 's/`bad_sched::empty_affinity`/`sched::bad_input`/' "$real" >"$stmp/t.md"
    expect_fail "an unnamed bad-input test" "bad_sched::empty_affinity is not named"
    rm -rf "$stmp"
    if [ "$fails" -eq 0 ]; then
        echo "errors table self-test: a missing test, a row without a test and an unnamed test are each caught"
    fi
    return "$fails"
}

if [ "${1:-}" = "--self-test" ]; then
    self_test
    exit $?
fi
check "${1:-$ROOT/docs/errors.md}"
