#!/bin/sh
# Turns a benchmark CSV (docs/benchmark.md format) into gnuplot PNGs and
# markdown tables.
#
#   bench/report.sh [CSV [PLOTDIR [MARKDOWN]]]
#   defaults: bench/results-quick.csv docs/plots docs/performance.md
#
# The markdown file keeps whatever is written by hand outside the markers
#   <!-- bench-report:begin --> ... <!-- bench-report:end -->
# and only the part between them is regenerated (the file and the markers
# are created when missing).
#
# Per suite, the reference implementation is ours: skiplist_rcu when the
# suite has it, else skiplist. Ratios are peer ns / our ns for the same op,
# n and threads: above 1 means we are faster. Suites without ours (limit)
# get a table of absolute times. An op the reference does not run at some
# n and threads, but another of ours does (the map suite's order
# statistics rank, select and count_range, which only skiplist_ranked
# answers; the list is alt_refs below), goes to a second table with that
# one as the reference, its columns the peers measured there (judyl,
# zskiplist).
#
# The bulk ops (bulk_pairs below: build, find_many, erase_range_*) also
# get a table against the one-at-a-time op each replaces (insert_seq,
# find_rand, erase_loop_*): for every implementation that ran that op at
# the same n and threads, its ns for it / the reference's ns for the bulk
# op. So ours' own column is the bulk call's gain over our own loop, and
# a peer without the bulk call is compared through its loop (find_many
# runs for ours only: against every implementation's find_rand).
#
# Plots: for each suite and op measured at two or more n, ns/op against n
# (log-log), one line per implementation; for each suite, a bar chart of
# every op at the largest n our implementation was measured at, and another
# at the largest n where it was measured with the most implementations when
# that n is smaller (the map suite's quick run: 10^7 with three, 10^6 with
# all).
#
# The footprint ops (docs/benchmark.md) are bytes, not times: their rows
# (op footprint, footprint_rss; ns_per_op empty, bytes_per_item the bytes of
# one list) stay out of the ratio tables and the ns plots. Per suite they
# get a table (bytes per list at each n, and the 10^6-list RSS row) and two
# line plots, one line per implementation: bytes per list against n (n = 0
# included, x spaced as log(n + 1)) and bytes per element against n >= 1
# (log-log).
# The suites come in the order of the faces (faces below), each titled
# with its face; a suite not listed there follows, titled with its name.
# README's headline table comes from the same CSV, by bench/headline.sh
# (make bench-report runs both).
# Needs only POSIX sh, awk and gnuplot.
set -eu

here=$(dirname "$0")

csv=${1:-bench/results-quick.csv}
plots=${2:-docs/plots}
md=${3:-docs/performance.md}
# Ours that stand in for the suite's reference at the keys it lacks, in
# order of preference (the first measured at a key is its reference).
alt_refs="skiplist_ranked"
# Bulk op:the op it replaces, for the second kind of ratio (above).
bulk_pairs="build:insert_seq find_many:find_rand erase_range_0.1pct:erase_loop_0.1pct erase_range_10pct:erase_loop_10pct"
# Suite=face, in the order the results show them.
faces="map=Ordered index|extent=Extent index|pq=Priority queue|sched=Runqueue|rcu=Concurrent, skiplist_rcu.h|limit=The machine's memory latency"

[ -r "$csv" ] || { echo "report: cannot read $csv" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "report: gnuplot missing" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$plots"
# Links in the markdown are relative to its own directory.
md_dir=$(dirname "$md")
case "$plots" in
"$md_dir"/*) plots_rel=${plots#"$md_dir"/} ;;
*) plots_rel=$plots ;;
esac

# Normalise: drop the header and blank lines; a later duplicate row (same
# suite, impl, op, n, threads) replaces an earlier one.
awk -F, 'NR > 1 && NF >= 6 {
    k = $1 FS $2 FS $3 FS $4 FS $5
    if (!(k in row)) order[++cnt] = k
    row[k] = $0
}
END { for (i = 1; i <= cnt; i++) print row[order[i]] }' "$csv" > "$tmp/all"
awk -F, -v fp="$tmp/fprows" '$3 ~ /^footprint/ { print > fp; next } { print }' \
    "$tmp/all" > "$tmp/rows"
[ -f "$tmp/fprows" ] || : > "$tmp/fprows"

suites=$(cut -d, -f1 "$tmp/all" | awk '!seen[$0]++')

# ------------------------------------------------------------------ plots
plot_lines() { # suite op threads
    s=$1 op=$2 th=$3
    awk -F, -v s="$s" -v op="$op" -v th="$th" -v dir="$tmp" '
        $1 == s && $3 == op && $5 == th {
            f = dir "/line_" $2
            if (!(f in seen)) { seen[f] = 1; list = list " " $2 }
            print $4, $6 > f
        }
        END { print list > (dir "/impls") }' "$tmp/rows"
    impls=$(cat "$tmp/impls")
    out="$plots/${s}_${op}.png"
    [ "$th" = 1 ] || out="$plots/${s}_${op}_t${th}.png"
    {
        echo "set terminal pngcairo size 800,500 noenhanced"
        echo "set output '$out'"
        echo "set title '$s: $op (threads $th)'"
        echo "set logscale xy"
        echo "set xlabel 'n'"
        echo "set ylabel 'ns per op (lower is better)'"
        echo "set key outside right"
        echo "set grid"
        printf "plot"
        sep=""
        for i in $impls; do
            printf "%s '%s' using 1:2 with linespoints lw 2 title '%s'" \
                "$sep" "$tmp/line_$i" "$i"
            sep=","
        done
        echo
    } > "$tmp/plot.gp"
    gnuplot "$tmp/plot.gp"
    for i in $impls; do rm -f "$tmp/line_$i"; done
    echo "$out"
}

plot_bars() { # suite n threads -> bars of every op, one bar per impl
    s=$1 n=$2 th=$3
    awk -F, -v s="$s" -v n="$n" -v th="$th" '
        $1 == s && $4 == n && $5 == th {
            if (!($3 in so)) { so[$3] = 1; ops[++no] = $3 }
            if (!($2 in si)) { si[$2] = 1; impls[++ni] = $2 }
            v[$3, $2] = $6
        }
        END {
            printf "op"
            for (j = 1; j <= ni; j++) printf " %s", impls[j]
            print ""
            for (i = 1; i <= no; i++) {
                printf "%s", ops[i]
                for (j = 1; j <= ni; j++)
                    printf " %s", ((ops[i], impls[j]) in v) ? v[ops[i], impls[j]] : "?"
                print ""
            }
        }' "$tmp/rows" > "$tmp/bars"
    ncols=$(head -1 "$tmp/bars" | awk '{ print NF }')
    out="$plots/${s}_n${n}.png"
    {
        echo "set terminal pngcairo size 900,500 noenhanced"
        echo "set output '$out'"
        echo "set title '$s at n = $n (threads $th)'"
        echo "set datafile missing '?'"
        echo "set style data histogram"
        echo "set style histogram cluster gap 1"
        echo "set style fill solid 0.8 border -1"
        echo "set logscale y"
        echo "set ylabel 'ns per op (lower is better)'"
        echo "set xtics rotate by -30"
        echo "set key outside right"
        echo "set grid ytics"
        echo "plot for [c=2:$ncols] '$tmp/bars' using c:xtic(1) title columnhead"
    } > "$tmp/plot.gp"
    gnuplot "$tmp/plot.gp"
    echo "$out"
}

plot_footprint() { # suite list|elem -> one line per impl
    s=$1 mode=$2
    awk -F, -v s="$s" -v mode="$mode" -v dir="$tmp" '
        $1 == s && $3 == "footprint" && $7 != "" {
            if (mode == "elem" && $4 + 0 < 1) next
            f = dir "/fp_" $2
            if (!(f in seen)) { seen[f] = 1; list = list " " $2 }
            if (mode == "list") print $4 + 1, $7 > f
            else print $4, $7 / $4 > f
            if (!($4 in ns)) { ns[$4] = 1; tics = tics sep "\"" $4 "\" " ($4 + 1); sep = ", " }
        }
        END { print list > (dir "/impls"); print tics > (dir "/tics") }' \
        "$tmp/fprows"
    impls=$(cat "$tmp/impls")
    [ -n "$impls" ] || return 0
    if [ "$mode" = list ]; then
        out="$plots/${s}_footprint.png"
    else
        out="$plots/${s}_footprint_per_elem.png"
    fi
    {
        echo "set terminal pngcairo size 800,500 noenhanced"
        echo "set output '$out'"
        echo "set logscale xy"
        echo "set xlabel 'n (elements in the list)'"
        echo "set autoscale xfix"
        if [ "$mode" = list ]; then
            echo "set title '$s: footprint, bytes per list (head + heap + links in the elements)'"
            echo "set ylabel 'bytes per list (lower is better)'"
            echo "set xtics ($(cat "$tmp/tics"))"
        else
            echo "set title '$s: footprint, bytes per element (bytes per list / n)'"
            echo "set ylabel 'bytes per element (lower is better)'"
        fi
        echo "set key outside right"
        echo "set grid"
        printf "plot"
        sep=""
        for i in $impls; do
            printf "%s '%s' using 1:2 with linespoints lw 2 title '%s'" \
                "$sep" "$tmp/fp_$i" "$i"
            sep=","
        done
        echo
    } > "$tmp/plot.gp"
    gnuplot "$tmp/plot.gp"
    for i in $impls; do rm -f "$tmp/fp_$i"; done
    echo "$out"
}

: > "$tmp/images"
for s in $suites; do
    ref=$(awk -F, -v s="$s" '$1 == s && $2 == "skiplist_rcu" { r = $2 }
        $1 == s && $2 == "skiplist" && r == "" { r = $2 }
        END { print r }' "$tmp/rows")
    # Line plots: (op, threads) pairs measured at two or more n.
    awk -F, -v s="$s" '$1 == s { k = $3 " " $5; if (!((k, $4) in seen)) {
        seen[k, $4] = 1; c[k]++; if (!(k in o)) { o[k] = 1; ks[++nk] = k } } }
        END { for (i = 1; i <= nk; i++) if (c[ks[i]] > 1) print ks[i] }' \
        "$tmp/rows" > "$tmp/pairs"
    while read -r op th; do
        f=$(plot_lines "$s" "$op" "$th")
        echo "$s|$op ($th thread(s))|$f" >> "$tmp/images"
    done < "$tmp/pairs"
    # Bars at the largest n with our implementation (or any, without it),
    # then at the largest n with ours and the most implementations if it
    # is another n (same threads).
    set -- $(awk -F, -v s="$s" -v ref="$ref" '$1 == s &&
        (ref == "" || $2 == ref) && ($4 + 0 > best + 0 ||
        ($4 == best && $5 + 0 < th + 0)) { best = $4; th = $5 }
        END { print best, th }' "$tmp/rows")
    if [ $# -eq 2 ]; then
        f=$(plot_bars "$s" "$1" "$2")
        echo "$s|all ops at n = $1|$f" >> "$tmp/images"
        wide=$(awk -F, -v s="$s" -v ref="$ref" -v th="$2" '
            $1 == s && $5 == th {
                if (ref == "" || $2 == ref) has[$4] = 1
                if (!(($4, $2) in seen)) { seen[$4, $2] = 1; c[$4]++ }
            }
            END { for (n in has) if (c[n] > most ||
                      (c[n] == most && n + 0 > best + 0)) {
                      most = c[n]; best = n }
                  print best }' "$tmp/rows")
        if [ -n "$wide" ] && [ "$wide" != "$1" ]; then
            f=$(plot_bars "$s" "$wide" "$2")
            echo "$s|all ops at n = $wide|$f" >> "$tmp/images"
        fi
    fi
    f=$(plot_footprint "$s" list)
    [ -z "$f" ] || echo "$s|footprint, bytes per list|$f" >> "$tmp/images"
    f=$(plot_footprint "$s" elem)
    [ -z "$f" ] || echo "$s|footprint, bytes per element|$f" >> "$tmp/images"
done

# ----------------------------------------------------------------- tables
awk -F, -v csv="$csv" -v images="$tmp/images" -v rel="$plots_rel" \
    -v altrefs="$alt_refs" -v bulkpairs="$bulk_pairs" -v faces="$faces" '
function fmt(x) { return sprintf(x < 10 ? "%.2f" : x < 100 ? "%.1f" : "%.0f", x) }
# The table of suite s with a row per rl[s, 1..nr], headed h, and a column
# per cl[s, 1..nc]: each cell cell[s, row, column], empty where absent.
function grid(h, s, rl, nr, cl, nc, cell,    i, j, hdr, sep, line) {
    hdr = "| " h " |"; sep = "|---:|"
    for (j = 1; j <= nc; j++) { hdr = hdr " " cl[s, j] " |"; sep = sep "---:|" }
    print hdr; print sep
    for (i = 1; i <= nr; i++) {
        line = "| " rl[s, i] " |"
        for (j = 1; j <= nc; j++)
            line = line " " (((s, rl[s, i], cl[s, j]) in cell) ? cell[s, rl[s, i], cl[s, j]] : "") " |"
        print line
    }
}
# The ratio table of suite s for its keys whose reference is t (tref): t ns,
# then peer ns / t ns for every other implementation measured at one of
# those keys; t == "" (no reference): absolute times.
function table(s, t,    i, j, im, nc, hdr, sep, line, base, v, cell, kk) {
    nc = 0
    for (j = 1; j <= ni[s]; j++) {
        im = impls[s, j]
        if (im == t) continue
        for (i = 1; i <= nk[s]; i++)
            if (tref[s, i] == t && ((s, keys[s, i], im) in ns_)) {
                cols[++nc] = im
                break
            }
    }
    if (t != "") {
        hdr = "| op | n | threads | " t " ns |"; sep = "|---|---:|---:|---:|"
        for (j = 1; j <= nc; j++) { hdr = hdr " " cols[j] " |"; sep = sep "---:|" }
    } else {
        hdr = "| op | n | threads |"; sep = "|---|---:|---:|"
        for (j = 1; j <= nc; j++) { hdr = hdr " " cols[j] " ns |"; sep = sep "---:|" }
    }
    print hdr; print sep
    for (i = 1; i <= nk[s]; i++) {
        if (tref[s, i] != t) continue
        split(keys[s, i], kk, SUBSEP)
        line = "| " kk[1] " | " kk[2] " | " kk[3] " |"
        base = ((s, keys[s, i], t) in ns_) ? ns_[s, keys[s, i], t] : ""
        if (t != "") line = line " " (base == "" ? "" : fmt(base)) " |"
        for (j = 1; j <= nc; j++) {
            im = cols[j]
            v = ((s, keys[s, i], im) in ns_) ? ns_[s, keys[s, i], im] : ""
            if (v == "") cell = ""
            else if (t == "") cell = fmt(v)
            else if (base == "" || base + 0 == 0) cell = ""
            else cell = sprintf("%.2f", v / base)
            line = line " " cell " |"
        }
        print line
    }
}
# The bulk ops of suite s against the ops they replace (bulk_pairs), with
# t (the suite reference) as the base: the other op ns of each
# implementation / t bulk ns.
function bulk_table(s, t,    i, j, x, y, im, nb, nc, bk, bvs, bc, kk, pq, ck, hdr, sep, line, base, v) {
    if (t == "") return
    nb = 0
    for (i = 1; i <= nk[s]; i++) {
        split(keys[s, i], kk, SUBSEP)
        if (!((s, keys[s, i], t) in ns_)) continue
        for (x = 1; x <= npairs; x++) {
            split(bpairs[x], pq, ":")
            if (kk[1] == pq[1]) { bk[++nb] = i; bvs[nb] = pq[2] }
        }
    }
    if (nb == 0) return
    nc = 0
    for (j = 0; j <= ni[s]; j++) {
        im = j ? impls[s, j] : t
        if (j && im == t) continue
        for (y = 1; y <= nb; y++) {
            split(keys[s, bk[y]], kk, SUBSEP)
            if ((s, bvs[y] SUBSEP kk[2] SUBSEP kk[3], im) in ns_) { bc[++nc] = im; break }
        }
    }
    print ""
    print "Bulk ops against the op each replaces, one element at a time (that op'"'"'s ns, per"
    print "implementation, / `" t "` bulk ns: above 1 the bulk call is faster):"
    print ""
    hdr = "| op | against | n | threads | " t " ns |"; sep = "|---|---|---:|---:|---:|"
    for (j = 1; j <= nc; j++) { hdr = hdr " " bc[j] " |"; sep = sep "---:|" }
    print hdr; print sep
    for (y = 1; y <= nb; y++) {
        split(keys[s, bk[y]], kk, SUBSEP)
        base = ns_[s, keys[s, bk[y]], t]
        ck = bvs[y] SUBSEP kk[2] SUBSEP kk[3]
        line = "| " kk[1] " | " bvs[y] " | " kk[2] " | " kk[3] " | " fmt(base) " |"
        for (j = 1; j <= nc; j++) {
            v = ((s, ck, bc[j]) in ns_) ? ns_[s, ck, bc[j]] : ""
            line = line " " ((v == "" || base + 0 == 0) ? "" : sprintf("%.2f", v / base)) " |"
        }
        print line
    }
}
{
    s = $1
    if (!(s in sseen)) { sseen[s] = 1; suites[++ns] = s }
    if ($3 ~ /^footprint/) {
        if ($7 == "") next
        if (!((s, $2) in fiseen)) { fiseen[s, $2] = 1; fimpls[s, ++nfi[s]] = $2 }
        if ($3 == "footprint_rss") { rss[s, $2] = sprintf("%.1f", $7); hasrss[s] = 1; next }
        fp[s, $4, $2] = sprintf("%.0f", $7)
        if (!((s, $4) in fnseen)) { fnseen[s, $4] = 1; fns[s, ++nfn[s]] = $4 }
        next
    }
    if (!((s, $2) in iseen)) { iseen[s, $2] = 1; impls[s, ++ni[s]] = $2 }
    k = $3 SUBSEP $4 SUBSEP $5
    if (!((s, k) in kseen)) { kseen[s, k] = 1; keys[s, ++nk[s]] = k }
    ns_[s, k, $2] = $6
    if ($7 != "") { by[s, $4, $2] = $7; if (!((s, $4) in bn)) {
        bn[s, $4] = 1; bns[s, ++nbn[s]] = $4 } }
    if ($2 == "skiplist_rcu") ref[s] = $2
    else if ($2 == "skiplist" && ref[s] == "") ref[s] = $2
}
END {
    print "<!-- bench-report:begin -->"
    print "<!-- Generated by bench/report.sh from " csv "; edit outside the markers. -->"
    print ""
    print "Source: `" csv "`. Ratios are peer ns / our ns for the same op, n and"
    print "threads: above 1 we are faster, below 1 the peer is."
    while ((getline line < images) > 0) {
        split(line, p, "|")
        img[p[1], ++nimg[p[1]]] = p[2] "|" p[3]
    }
    nalt = split(altrefs, alts, " ")
    npairs = split(bulkpairs, bpairs, " ")
    # The suites in the order of faces, then the others as they came.
    nf = split(faces, fl, "|"); no = 0
    for (x = 1; x <= nf; x++) {
        split(fl[x], kv, "=")
        face[kv[1]] = kv[2]
        if (kv[1] in sseen) order[++no] = kv[1]
    }
    for (a = 1; a <= ns; a++) if (!(suites[a] in face)) order[++no] = suites[a]
    for (a = 1; a <= no; a++) {
        s = order[a]; r = ref[s]
        print ""
        print "### " ((s in face) ? face[s] " (`" s "`)" : "`" s "`")
        if (nk[s] > 0) {
        # The reference of each key: that of the suite, or where it has no row the
        # first of alt_refs that has one (a second table per such one).
        nmain = 0; nt = 0
        for (i = 1; i <= nk[s]; i++) {
            t = r
            if (r != "" && !((s, keys[s, i], r) in ns_))
                for (x = 1; x <= nalt; x++)
                    if ((s, keys[s, i], alts[x]) in ns_) { t = alts[x]; break }
            tref[s, i] = t
            if (t == r) nmain++
            else if (!((s, t) in tseen)) { tseen[s, t] = 1; talt[++nt] = t }
        }
        if (nmain > 0) { print ""; table(s, r) }
        for (x = 1; x <= nt; x++) {
            print ""
            print "Ops that `" r "` does not run, against `" talt[x] "` (peer ns / `" talt[x] "` ns):"
            print ""
            table(s, talt[x])
        }
        bulk_table(s, r)
        if (nbn[s] > 0) {
            print ""
            print "Bytes per element the structure holds (beyond the elements):"
            print ""
            grid("n", s, bns, nbn[s], impls, ni[s], by)
        }
        }
        if (nfi[s] > 0) {
            print ""
            print "Footprint, bytes per list (head, heap and the links kept in the"
            print "elements; bytes per element = bytes per list / n). The last row is"
            print "the process memory of 10^6 lists of one element each, per list"
            print "(RSS growth; links inside the elements not included):"
            print ""
            if (hasrss[s]) { # the last row
                n = "10^6 lists of 1, RSS"; fns[s, ++nfn[s]] = n
                for (j = 1; j <= nfi[s]; j++)
                    if ((s, fimpls[s, j]) in rss) fp[s, n, fimpls[s, j]] = rss[s, fimpls[s, j]]
            }
            grid("n", s, fns, nfn[s], fimpls, nfi[s], fp)
        }
        for (i = 1; i <= nimg[s]; i++) {
            split(img[s, i], p, "|")
            f = p[2]; sub(/.*\//, "", f)
            if (i == 1) print ""
            print "![" s ": " p[1] "](" rel "/" f ")"
        }
    }
    print ""
    print "<!-- bench-report:end -->"
}' "$tmp/all" > "$tmp/generated"

# Splice between the markers, keeping the hand-written rest.
if [ -f "$md" ] && grep -q '^<!-- bench-report:begin -->' "$md" &&
    grep -q '^<!-- bench-report:end -->' "$md"; then
    awk -v tag=bench-report -v gen="$tmp/generated" -f "$here/splice.awk" \
        "$md" > "$tmp/md"
else
    mkdir -p "$md_dir"
    {
        [ -f "$md" ] && cat "$md" && echo
        echo "# Performance"
        echo
        echo "Tables and plots below are generated by \`make bench-report\`."
        echo
        cat "$tmp/generated"
    } > "$tmp/md"
fi
cp "$tmp/md" "$md"
echo "report: wrote $md and $(wc -l < "$tmp/images") plot(s) in $plots" >&2
