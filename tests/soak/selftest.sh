#!/usr/bin/env bash
# Checks tests/soak/soak.sh itself, on stand-in binaries that print what
# the Criterion suites print: the soak must add up the operations each run
# reports, scale its runs up to the share, and fail when a test fails, when
# a run crashes, and when a filter runs no test. Needs no build: `make
# soak-selftest` (part of `make test`).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# A stand-in suite: $1 is what it does (ok, fail, crash, none).
stand_in() {
    cat >"$tmp/$1" <<STUB
#!/bin/sh
n=\$((1000 * \${TEST_SCALE:-1}))
echo "stand-in: SEED=\$SEED"
case $1 in
ok)    echo "stand-in: \$n ops, 0 mismatches (seed \$SEED)"
       echo "[====] Synthesis: Tested: 1 | Passing: 1 | Failing: 0 | Crashing: 0"
       exit 0 ;;
fail)  echo "stand-in: \$n ops, 0 mismatches (seed \$SEED)"
       echo "[====] Synthesis: Tested: 2 | Passing: 1 | Failing: 1 | Crashing: 0"
       exit 1 ;;
crash) echo "stand-in: \$n ops, 0 mismatches (seed \$SEED)"
       exit 139 ;;
none)  echo "[====] Synthesis: Tested: 0 | Passing: 0 | Failing: 0 | Crashing: 0"
       exit 0 ;;
esac
STUB
    chmod +x "$tmp/$1"
}
for k in ok fail crash none; do stand_in $k; done

# soak OPS with the map face on stand-in $1; sets out and rc.
soak() {
    out=$(SOAK_BIN="$tmp/$1" SOAK_RCU_BIN="$tmp/$1" SOAK_LOG="$tmp/log" \
        SOAK_FACES=map SEED=1000 "$here/soak.sh" "$2" 2>&1)
    rc=$?
}

expect() { # $1: description, $2: condition result (0 = holds)
    if [ "$2" -ne 0 ]; then
        echo "soak selftest: FAILED: $1"
        printf '%s\n' "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
}

soak ok 5000
expect "a clean soak exits 0" "$rc"
printf '%s\n' "$out" | grep -qE 'ops=5000 +seeds=2 .*mismatches=0'
expect "5000 operations in two runs (scale 1, then 4), 0 mismatches" $?
printf '%s\n' "$out" | grep -q 'SEED=1000 TEST_SCALE=1' &&
    printf '%s\n' "$out" | grep -q 'SEED=2000 TEST_SCALE=4'
expect "run i uses SEED + 1000 i, the second at the scale that fits" $?

soak fail 5000
[ "$rc" -ne 0 ]
expect "a failing test fails the soak" $?
printf '%s\n' "$out" | grep -qE 'mismatches=1 '
expect "a failing test counts as a mismatch" $?

soak crash 5000
[ "$rc" -ne 0 ]
expect "a run that exits non-zero without a summary fails the soak" $?

soak none 5000
[ "$rc" -ne 0 ]
expect "a filter that runs no test fails the soak" $?

if [ "$fails" -ne 0 ]; then
    echo "soak selftest: $fails check(s) failed"
    exit 1
fi
echo "soak selftest: 7 checks passed (sums, scaling, seeds, fail, crash, no test)"
