#!/bin/sh
# Runs the parts of a test battery (`make test`, `make check`) one after
# the other, each a make target, and ends with one summary table: each
# part, its test count, passed or FAILED, and its time; then the total.
#
# Usage: tools/run-parts.sh TITLE NAME=TARGET...
#   TITLE        the battery's name, for the headings ("make test")
#   NAME=TARGET  a part: NAME in the table and in its log's name, TARGET
#                the make target that runs it ($MAKE, default make)
# Environment:
#   PARTS_LOG    directory of the logs (default build/logs): each part's
#                whole output goes to PARTS_LOG/NAME.log
#   PARTS_JOBS   -j for each part's make (default nproc): a part's
#                prerequisites that are out of date are rebuilt in parallel
#   PARTS_TAIL   lines of a failing part's log shown (default 40): the
#                lines that report a failure (Criterion's [FAIL] and its
#                [----] messages, FAILED, error:, the sanitizers'
#                reports, make's ***), else the log's end
#
# Every part runs, whatever failed before it, so that the summary is
# complete; the exit status is 1 when any part failed. While a part runs,
# only its result lines reach the screen (those matching $show below);
# when it fails, the lines of its log that say why follow.
#
# The test count of a part is read from what it prints:
#   [====] Synthesis: Tested: N | ...   Criterion: N tests
#   tsan runner: N tests, ...           the TSan stand-in runner: N tests
#   ok: <what>  or  ok  <what>          one check (the recipes of the
#                                       parts that are not Criterion
#                                       suites print one per check;
#                                       tests/install/run.sh the second)
#   <what>: N checks passed             N checks (tests/soak/selftest.sh)
# A part that prints none of these (a build) shows "-".
set -u

title=${1:?usage: tools/run-parts.sh TITLE NAME=TARGET...}
shift
: "${MAKE:=make}"
log_dir=${PARTS_LOG:-build/logs}
jobs=${PARTS_JOBS:-$(nproc 2>/dev/null || echo 2)}
tail_n=${PARTS_TAIL:-40}
# The lines of a part's output worth seeing as it runs.
show='^ok(: |  )|[0-9]+ checks passed|Synthesis: |tsan runner: |^clean: |install-deps:|SKIPPED|skipped|FAILED|rror:|^make.*\*\*\*'
# The lines of a failed part's log that say why.
why='\[FAIL\]|^\[----\] |FAILED|error:|ERROR|Sanitizer|^make.*\*\*\*'

mkdir -p "$log_dir" || exit 1
# Strips terminal colours (Criterion's, compilers') from what is read back.
nocolor() { sed 's/\x1b\[[0-9;]*m//g' "$@"; }

# count LOG: the part's test count, or "-".
count() {
    nocolor "$1" | awk '
        /\[====\] Synthesis: Tested: [0-9]+/ {
            for (i = 1; i <= NF; i++) if ($i == "Tested:") n += $(i + 1); seen = 1 }
        /^tsan runner: [0-9]+ tests/ { n += $3; seen = 1 }
        /^ok(: |  )/ { n++; seen = 1 }
        match($0, /: [0-9]+ checks passed/) {
            n += substr($0, RSTART + 2, RLENGTH - 16); seen = 1 }
        END { if (seen) print n; else print "-" }'
}

now() { date +%s; }

summary=$(mktemp "${TMPDIR:-/tmp}/run-parts.XXXXXX") || exit 1
trap 'rm -f "$summary" "$summary.rc"' EXIT
start=$(now)
total=$#
i=0
failed=0
for spec in "$@"; do
    i=$((i + 1))
    name=${spec%%=*}
    target=${spec#*=}
    log=$log_dir/$name.log
    echo "---- $title [$i/$total] $name ($MAKE $target, log $log)"
    t0=$(now)
    # The part's status goes through a file: a pipeline's is its last
    # command's.
    { $MAKE --no-print-directory -j"$jobs" "$target" 2>&1
      echo $? >"$summary.rc"; } |
        tee "$log" | nocolor | grep -E --line-buffered "$show"
    rc=$(cat "$summary.rc")
    secs=$(($(now) - t0))
    n=$(count "$log")
    if [ "$rc" = 0 ]; then
        result=passed
        echo "     $name: passed, $n tests, $secs s"
    else
        result=FAILED
        failed=$((failed + 1))
        if nocolor "$log" | grep -qE "$why"; then
            echo "     $name: FAILED (exit $rc), $n tests, $secs s; from $log:"
            nocolor "$log" | grep -E "$why" | head -n "$tail_n" | sed 's/^/   | /'
        else
            echo "     $name: FAILED (exit $rc), $n tests, $secs s; the end of $log:"
            nocolor "$log" | tail -n "$tail_n" | sed 's/^/   | /'
        fi
    fi
    printf '%s %s %s %s\n' "$name" "$n" "$result" "$secs" >>"$summary"
done
elapsed=$(($(now) - start))

echo
echo "==== $title: summary (logs in $log_dir/)"
awk -v elapsed="$elapsed" -v failed="$failed" -v parts="$total" '
    BEGIN { printf "%-18s %7s  %-7s %8s\n", "part", "tests", "result", "seconds" }
    { printf "%-18s %7s  %-7s %8d\n", $1, $2, $3, $4; if ($2 != "-") n += $2 }
    END {
        printf "%-18s %7d  %-7s %8d\n", "total", n,
            failed ? "FAILED" : "passed", elapsed
        if (failed) printf "%d of %d parts FAILED\n", failed, parts
        else printf "all %d parts passed\n", parts
    }' "$summary"
[ "$failed" = 0 ]
