#!/bin/sh
# README's headline table: a few rows per face, drawn from a benchmark CSV
# (docs/benchmark.md format), the same CSV docs/performance.md's tables
# come from (bench/report.sh). Only the lines between
#   <!-- bench-headline:begin --> ... <!-- bench-headline:end -->
# are written; the block's first comment names its CSV.
#
#   bench/headline.sh [CSV [README]]   write the block (make bench-report)
#   bench/headline.sh --check [README [CSV]]
#                                      fail, showing the difference, when
#                                      README's block is not what CSV gives
#                                      (CSV: by default the one the block
#                                      names): a hand edit or a stale CSV
#   bench/headline.sh --self-test      on a copy of README with its block
#                                      freshly written from the CSV it
#                                      names, the check passes, and fails
#                                      on an edited figure and on a
#                                      changed CSV row (README itself is
#                                      not read beyond the CSV's name)
#   defaults: bench/results-quick.csv README.md
#
# The rows are the list below, one a line:
#   face|suite|ours|op|n|threads|peers
# op "bytes" is the bytes per element the structure holds beyond the
# elements (the CSV's bytes_per_item at that n), any other op its ns per
# op. Each row shows ours (ns, or bytes) and, for every peer, peer / ours
# at the same n and threads, from the same run: above 1 ours is faster
# (or smaller). Nothing is invented: a row or a peer the CSV lacks shows
# "not in CSV" and is named on stderr.
# Needs only POSIX sh and awk.
set -eu

here=$(dirname "$0")
tag=bench-headline
rows='ordered index|map|skiplist|find_rand|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|lower_bound|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|insert_rand|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|insert_seq|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|erase_rand|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|scan|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|find_dep|1000000|1|bsd_rb absl_btree judyl
ordered index|map|skiplist|find_rand|10000000|1|absl_btree judyl
ordered index|map|skiplist|find_dep|10000000|1|absl_btree judyl
ordered index|map|skiplist|bytes|1000000|1|bsd_rb absl_btree judyl
extent index|extent|skiplist|alloc_free|100000|1|iova_rb
extent index|extent|skiplist|alloc_free|1000000|1|iova_rb
extent index|extent|skiplist|lookup_point|1000000|1|iova_rb
extent index|extent|skiplist|bytes|1000000|1|iova_rb
priority queue|pq|skiplist|hold|8|1|binheap rb_cached bfs_list
priority queue|pq|skiplist|hold|64|1|binheap rb_cached bfs_list
priority queue|pq|skiplist|hold|1024|1|binheap rb_cached bfs_list
priority queue|pq|skiplist|erase_handle|1024|1|binheap rb_cached
runqueue|sched|skiplist|cycle|1024|1|bfs_list
runqueue|sched|skiplist|cycle_aff90|1024|1|bfs_list
concurrent|rcu|skiplist_rcu|mixed90|1000000|2|rwlock_rb mutex_rb cds_skiplist
concurrent|rcu|skiplist_rcu|read|1000000|2|rwlock_rb cds_skiplist tbb_map urcu_lfht
concurrent|rcu|skiplist_rcu|mason|1000000|1|spin_rb mutex_rb
concurrent|rcu|skiplist_rcu|mason|1000000|2|spin_rb mutex_rb
concurrent|rcu|skiplist_rcu|bytes|1000000|1|rwlock_rb cds_skiplist'

# generate CSV OUT: the block, markers included, into OUT.
generate() {
    printf '%s\n' "$rows" | awk -F, -v csv="$1" -v tag="$tag" '
    function fmt(x) { return sprintf(x < 10 ? "%.2f" : x < 100 ? "%.1f" : "%.0f", x) }
    function pow10(n,    k) {
        if (n !~ /^10+$/) return n
        k = length(n) - 1
        return k == 1 ? "10" : "10^" k
    }
    function missing(what) {
        print "headline: not in " csv ": " what > "/dev/stderr"
        return "not in CSV"
    }
    # The CSV first (a later duplicate row replaces an earlier one, as in
    # bench/report.sh), then the row list from stdin.
    FILENAME == csv {
        if (FNR == 1 || NF < 6) next
        if ($3 !~ /^footprint/) ns[$1, $2, $3, $4, $5] = $6
        if ($7 != "" && $3 !~ /^footprint/) by[$1, $2, $4] = $7
        next
    }
    # The value of impl im for row r, or "" when the CSV lacks it.
    function value(r, im) {
        if (r["op"] == "bytes")
            return ((r["s"], im, r["n"]) in by) ? by[r["s"], im, r["n"]] : ""
        k = r["s"] SUBSEP im SUBSEP r["op"] SUBSEP r["n"] SUBSEP r["th"]
        return (k in ns) ? ns[k] : ""
    }
    {
        split($0, f, "|")
        r["s"] = f[2]; r["op"] = f[4]; r["n"] = f[5]; r["th"] = f[6]
        what = f[2] " " f[4] " n=" f[5] " threads=" f[6]
        unit = f[4] == "bytes" ? " B" : " ns"
        op = f[4] == "bytes" ? "bytes per element" : "`" f[4] "`"
        th = f[4] == "bytes" ? "" : f[6]
        ours = value(r, f[3])
        cell = ours == "" ? missing(f[3] " " what) : fmt(ours) unit
        peers = ""
        np = split(f[7], p, " ")
        for (j = 1; j <= np; j++) {
            v = value(r, p[j])
            if (v == "") v = missing(p[j] " " what)
            else if (ours == "" || ours + 0 == 0) v = "n/a"
            else v = sprintf("%.2f", v / ours)
            peers = peers (j > 1 ? ", " : "") "`" p[j] "` " v
        }
        line[++nl] = "| " f[1] " | " op " | " pow10(f[5]) " | " th " | " cell " | " peers " |"
    }
    END {
        print "<!-- " tag ":begin -->"
        print "<!-- Generated by bench/headline.sh from " csv ": make bench-report writes it, make test-bench-headline checks it; edit outside the markers. -->"
        print ""
        print "peer / ours: the peer'"'"'s ns per op (or bytes per element) over ours, at"
        print "the same n and threads in the same run; above 1 ours is faster (smaller)."
        print ""
        print "| face | op | n | threads | ours | peer / ours |"
        print "|---|---|---:|---:|---:|---|"
        for (i = 1; i <= nl; i++) print line[i]
        print ""
        print "<!-- " tag ":end -->"
    }' "$1" - > "$2"
}

# block FILE: README's block, markers included.
block() {
    awk -v tag="$tag" '
        index($0, "<!-- " tag ":begin -->") == 1 { on = 1 }
        on { print }
        index($0, "<!-- " tag ":end -->") == 1 { on = 0 }' "$1"
}

# check README [CSV]: 0 when README's block is what CSV gives.
check() {
    readme=$1
    csv=${2:-$(block "$readme" |
        sed -n 's/^<!-- Generated by bench\/headline.sh from \([^ :]*\):.*/\1/p')}
    [ -n "$csv" ] || { echo "headline: $readme has no generated $tag block" >&2; return 1; }
    [ -r "$csv" ] || { echo "headline: cannot read $csv (named by $readme)" >&2; return 1; }
    block "$readme" > "$tmp/have"
    generate "$csv" "$tmp/want" 2>/dev/null
    if ! cmp -s "$tmp/have" "$tmp/want"; then
        # "error:" lines: what tools/run-parts.sh shows of a failed part.
        echo "headline: error: $readme's $tag block is not what $csv gives:" >&2
        diff "$tmp/have" "$tmp/want" | sed -n \
            -e "s/^< /headline: error: $readme has:   /p" \
            -e "s/^> /headline: error: the CSV gives: /p" >&2 || :
        echo "headline: error: run make bench-report CSV=$csv, or fix the CSV" >&2
        return 1
    fi
    echo "headline: $readme's block is what $csv gives"
}

# expect_fail WHAT CMD...: the self-test's failing cases.
expect_fail() {
    what=$1; shift
    if "$@" > "$tmp/log" 2>&1; then
        echo "headline: self-test: the check passed on $what" >&2
        cat "$tmp/log" >&2
        return 1
    fi
    echo "headline: self-test: the check fails on $what"
}

# splice_block CSV IN OUT: IN with its block written afresh from CSV.
splice_block() {
    generate "$1" "$tmp/block"
    awk -v tag="$tag" -v gen="$tmp/block" -f "$here/splice.awk" "$2" > "$3"
}

self_test() {
    csv=$(block README.md |
        sed -n 's/^<!-- Generated by bench\/headline.sh from \([^ :]*\):.*/\1/p')
    src=${csv:-bench/results-quick.csv}
    splice_block "$src" README.md "$tmp/control.md" 2>/dev/null
    check "$tmp/control.md" > /dev/null ||
        { echo "headline: self-test: the check failed on a fresh block" >&2; return 1; }
    echo "headline: self-test: the check passes on a block fresh from $src"
    # A hand edit: the first digit of the first row's figure for ours.
    awk -v tag="$tag" '
        index($0, "<!-- " tag ":begin -->") == 1 { on = 1 }
        on && !done && /^\| [a-z]/ && match($0, /\| [0-9][0-9.]* (ns|B) \|/) {
            RSTART += 2; d = substr($0, RSTART, 1)
            $0 = substr($0, 1, RSTART - 1) ((d + 1) % 10) substr($0, RSTART + 1)
            done = 1
        }
        { print }' "$tmp/control.md" > "$tmp/edited.md"
    expect_fail "a hand-edited figure" check "$tmp/edited.md"
    # A stale CSV: the first row's ns per op for ours, doubled.
    first=$(printf '%s\n' "$rows" | head -1)
    awk -F, -v OFS=, -v r="$first" '
        BEGIN { split(r, f, "|") }
        $1 == f[2] && $2 == f[3] && $3 == f[4] && $4 == f[5] && $5 == f[6] { $6 = $6 * 2 }
        { print }' "$src" > "$tmp/stale.csv"
    expect_fail "a changed CSV row" check "$tmp/control.md" "$tmp/stale.csv"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

case "${1:-}" in
--check) shift; check "${1:-README.md}" "${2:-}" ;;
--self-test) self_test ;;
*)
    csv=${1:-bench/results-quick.csv}
    readme=${2:-README.md}
    [ -r "$csv" ] || { echo "headline: cannot read $csv" >&2; exit 1; }
    grep -q "^<!-- $tag:begin -->" "$readme" &&
        grep -q "^<!-- $tag:end -->" "$readme" ||
        { echo "headline: $readme lacks the $tag markers" >&2; exit 1; }
    splice_block "$csv" "$readme" "$tmp/readme"
    cp "$tmp/readme" "$readme"
    echo "headline: wrote $readme's $tag block from $csv" >&2
    ;;
esac
