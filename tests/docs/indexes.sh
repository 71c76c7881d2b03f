#!/bin/sh
# Checks the indexes of a Doxygen site built by `make docs-check`.
#
#   1. No internal or example symbol: no entry of the index pages
#      (globals*, functions*, annotated, classes, files) is named with an
#      engine prefix (slx_, slr_, sls_, SLX_, SLR_, SLS_) or is
#      main, and every entry links to a page made from an allowed input
#      (the three headers, docs/reference/, a module, an allowed struct);
#      an example's symbol would link to its .c file's page.
#   2. The generated API is there: every function the macros generate
#      (the lists tests/docs/sync.sh wrote) is in the functions index.
#   3. Every public SKIPLIST_* macro of the three headers is documented
#      (in the macros index), and every named argument of a function-like
#      one has a \param (read from the XML output).
#   4. Every page under docs/ became a page, every complete example
#      program a page of its own, and every image a page shows (the plots,
#      the Graphviz diagrams) was written.
#
# Usage: tests/docs/indexes.sh SITE_DIR SYNC_DIR
set -eu
site=${1:?usage: tests/docs/indexes.sh SITE_DIR SYNC_DIR}
sync=${2:?usage: tests/docs/indexes.sh SITE_DIR SYNC_DIR}
html="$site/html" xml="$site/xml"
fail=0
bad() {
    echo "docs-check: FAILED, $*"
    fail=1
}

# ------------------------------------------------- 1. what the indexes hold
index_pages=$(ls "$html"/globals*.html "$html"/functions*.html \
    "$html"/annotated.html "$html"/classes.html "$html"/files.html \
    2>/dev/null)
[ -n "$index_pages" ] || bad "no index pages in $html"
# Entry names: the member indexes write "<li>name()&#160;:&#160;<a ...>
# file</a>", the struct and file lists link the name itself.
entries=$( (cat $index_pages | grep -o '<li>[^&<]*' | sed 's/<li>//; s/()$//'
    cat $index_pages | grep -o 'class="el" href="[^"]*"[^>]*>[^<]*<' |
        sed 's/.*>\([^<]*\)<$/\1/') | grep . | sort -u)
n_entries=$(echo "$entries" | grep -c .)
[ "$n_entries" -ge 50 ] || bad "only $n_entries index entries (expected the whole API)"
internal=$(echo "$entries" |
    grep -E '(^|[^A-Za-z0-9])(slx_|slr_|sls_|SLX_|SLR_|SLS_)|^main(\(\))?$|_sl[xr]_' || true)
[ -z "$internal" ] || bad "internal or example symbols in the indexes: $(echo $internal)"
[ -n "$(grep -lE '[a-z_]+_8c(_source)?\.html' $index_pages || true)" ] &&
    bad "an index links to a .c file's page (an example in INPUT?)"
# Every link target: allowed pages only. A header's pages are named after
# it ("skiplist_rcu.h" -> skiplist__rcu_8h.html, _source.html); the allowed
# headers are the three public ones and docs/reference/'s.
headers=$(for h in skiplist.h skiplist_sched.h skiplist_rcu.h docs/reference/*.h; do
    basename "$h" .h | sed 's/_/__/g; s/$/_8h/'
done)
targets=$(cat $index_pages | grep -o 'class="el" href="[^"#]*' |
    sed 's/.*href="//' | sort -u)
for t in $targets; do
    case "$t" in
    group__*.html) continue ;;
    structname.html | structname__iter.html | structskiplist__*.html) continue ;;
    dir_*.html)
        # Directories: docs/ and docs/reference/ only.
        grep -Eq '<div class="title">(docs|reference|guides) Directory Reference' \
            "$html/$t" 2>/dev/null && continue ;;
    *_8h.html | *_8h_source.html)
        echo "$headers" | grep -qx "$(echo "$t" | sed 's/\(_source\)\{0,1\}\.html$//')" &&
            continue ;;
    esac
    bad "an index entry links to $t, not a page of the API"
done

# --------------------------------------------- 2. the generated API is there
funcs=$(cat "$html"/globals_func*.html |
    grep -o '<li>[A-Za-z0-9_]*()' | sed 's/<li>//; s/()//' | sort -u)
gen=$(cat "$sync"/gen-*.txt 2>/dev/null |
    sed 's/^.*[ *]\(name_[a-z0-9_]*\) (.*/\1/' | sort -u)
n_gen=$(echo "$gen" | grep -c . || true)
[ "$n_gen" -ge 30 ] || bad "only $n_gen generated function names in $sync (run tests/docs/sync.sh first)"
missing=$(echo "$gen" | while read -r f; do
    echo "$funcs" | grep -qx "$f" || echo "$f"
done)
[ -z "$missing" ] || bad "generated functions missing from the functions index: $(echo $missing)"

# ------------------------------------------- 3. every SKIPLIST_* macro documented
# The macros the headers define, and the switches they only test (#if,
# #ifdef: documented in docs/reference/switches.h).
macros=$( (grep -ho '^#define SKIPLIST_[A-Z0-9_]*' skiplist.h skiplist_sched.h skiplist_rcu.h |
    sed 's/#define //'
    grep -h '^#[[:space:]]*\(if\|ifdef\|ifndef\|elif\)' skiplist.h skiplist_sched.h skiplist_rcu.h |
        grep -o 'SKIPLIST_[A-Z0-9_]*') |
    grep -Ev '^SKIPLIST_(RCU_|SCHED_)?H$' | sort -u)
defs=$(cat "$html"/globals_defs*.html | grep -o '<li>SKIPLIST_[A-Z0-9_]*' |
    sed 's/<li>//' | sort -u)
for m in $macros; do
    echo "$defs" | grep -qx "$m" || bad "macro $m is not documented"
done
# Function-like macros: each <defname> needs a <parametername>. One
# memberdef per record (the XML puts tags on their own lines).
for x in "$xml"/skiplist_8h.xml "$xml"/skiplist__sched_8h.xml "$xml"/skiplist__rcu_8h.xml; do
    [ -f "$x" ] || { bad "$x missing"; continue; }
    awk '
        /<memberdef kind="define"/ { indef = 1; name = ""; np = 0; nd = 0; next }
        indef && /<name>/ { if (name == "") { name = $0; gsub(/.*<name>|<\/name>.*/, "", name) } }
        indef && /<defname>/ { d = $0; gsub(/.*<defname>|<\/defname>.*/, "", d); defn[++np] = d }
        indef && /<parametername>/ { p = $0; gsub(/.*<parametername>|<\/parametername>.*/, "", p); doc[p] = 1 }
        indef && /<\/memberdef>/ {
            if (name ~ /^SKIPLIST_/)
                for (i = 1; i <= np; i++)
                    if (!(defn[i] in doc))
                        print "docs-check: FAILED, " name ": argument " defn[i] " has no \\param"
            indef = 0; delete defn; delete doc
        }' "$x" >"$site/params.txt"
    if [ -s "$site/params.txt" ]; then
        cat "$site/params.txt"
        fail=1
    fi
done

# ------------------------------------------------ 4. pages and their images
for md in docs/*.md docs/guides/*.md docs/reference/*.md; do
    [ -f "$md" ] || continue
    page="md_$(echo "${md%.md}" | sed 's/[-\/]/_/g').html"
    [ -f "$html/$page" ] || bad "$md did not become a page ($page)"
done
for img in $(grep -ho '](plots/[^)]*\.png)' docs/*.md | sed 's/](plots\///; s/)$//' | sort -u); do
    [ -f "$html/$img" ] || bad "plot $img is not in the site"
done
for dot in docs/diagrams/*.dot; do
    [ -f "$dot" ] || continue
    base=$(basename "$dot" .dot)
    grep -q "dotfile $base" docs/reference/*.h docs/reference/*.md 2>/dev/null ||
        bad "$dot is not shown on any page (\\dotfile $base)"
done
for c in docs/guides/examples/*.c examples/*.c; do
    [ -f "$c" ] || continue
    [ -f "$html/$(basename "$c" .c)_8c-example.html" ] ||
        bad "$c has no example page (mk/docs.mk lists them)"
done
n_dot=$(ls "$html"/dot_*.svg 2>/dev/null | wc -l)
n_src=$(ls docs/diagrams/*.dot 2>/dev/null | wc -l)
[ "$n_dot" -ge "$n_src" ] || bad "$n_src diagram sources but $n_dot rendered diagrams"

if [ $fail = 0 ]; then
    echo "docs-check: $n_entries index entries, none internal or from the examples;" \
        "$n_gen generated functions all in the functions index;" \
        "$(echo "$macros" | wc -w) SKIPLIST_* macros documented"
fi
exit $fail
