# Doxygen input filter for the Markdown pages (docs/Doxyfile,
# FILTER_PATTERNS): makes GitHub-style section links work in the site too.
#
# On GitHub a heading "## Ordered index (SKIPLIST_DEFINE)" gets the anchor
# #ordered-index-skiplist_define, and the pages link to such anchors,
# within a page (#slug) and across pages (api.md#slug). Doxygen 1.9 makes
# no such anchors, and its labels are global to the site. So this filter
# gives every heading below the page title an explicit label, the page's
# name and the GitHub slug ("api-ordered-index-skiplist_define"), and
# rewrites each link to an anchor into a link to that label. Links to
# example programs and to headers go to their pages in the site (mk/docs.mk
# lists the programs as \example pages). Code blocks are left alone.
# Usage: awk -f md-anchors.awk FILE.md
function page_of(path) {
    sub(/^.*\//, "", path)
    sub(/\.md$/, "", path)
    gsub(/[^A-Za-z0-9]/, "_", path)
    return path
}
# GitHub's slug: lower case, keep letters, digits, spaces, '-' and '_',
# spaces become '-'.
function slug(text,    s) {
    s = tolower(text)
    gsub(/[^a-z0-9 _-]/, "", s)
    gsub(/ /, "-", s)
    return s
}
# Rewrites ](#slug) and ](path/file.md#slug) in line, outside code spans.
function links(line,    out, pre, target, page, anchor, i) {
    out = ""
    while (match(line, /\]\([^)# ]*#[^) ]+\)/)) {
        pre = substr(line, 1, RSTART + 1)
        target = substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH - 1)
        i = index(target, "#")
        page = substr(target, 1, i - 1)
        anchor = substr(target, i + 1)
        page = page == "" ? this_page : page_of(page)
        out = out pre "#" page "-" anchor
    }
    return files(out line)
}
# Links to files the site shows as pages of their own go to those pages:
# an example program (any path ending in examples/NAME.c, to its \example
# page), a header of docs/reference/ (to the module it documents, or its
# file page) or one of the three public headers (to its file page),
# docs/reference/ itself (to the Generated API module). Markdown links and
# the href of HTML links alike.
function files(line,    out, t, re) {
    out = ""
    re = "(\\]\\(|href=\")[^)\" #]*(examples/[A-Za-z0-9_-]+\\.c|reference/[A-Za-z0-9_-]+\\.h|skiplist(_rcu|_sched)?\\.h|reference/)[)\"]"
    while (match(line, re)) {
        t = substr(line, RSTART, RLENGTH)
        out = out substr(line, 1, RSTART - 1)
        line = substr(line, RSTART + RLENGTH)
        if (t ~ /^href/) {
            out = out "href=\"" target(t, 1) "\""
        } else {
            out = out "](" target(t, 0) ")"
        }
    }
    return out line
}
# The new target for a matched link t; html: for an HTML href. A header
# of docs/reference/ that holds one module goes to the module's page.
function target(t, html,    name, g) {
    sub(/[)"]$/, "", t)
    if (t ~ /reference\/$/)
        return html ? "group__generated.html" : "#generated"
    name = t
    sub(/^.*\//, "", name)
    sub(/^.*[("]/, "", name)
    if (name ~ /\.c$/ && html) {
        sub(/\.c$/, "_8c-example.html", name)
        return name
    }
    if (t ~ /reference\// && (name in group)) {
        g = group[name]
        if (!html)
            return "#" g
        gsub(/_/, "__", g)
        return "group__" g ".html"
    }
    return html ? t : "#" name
}
BEGIN {
    this_page = ""
    group["skiplist_common.h"] = "gen_common"
    group["skiplist_remove.h"] = "gen_remove"
    group["skiplist_map.h"] = "gen_map"
    group["skiplist_pq.h"] = "gen_pq"
    group["skiplist_extent.h"] = "gen_extent"
    group["skiplist_rank.h"] = "gen_rank"
    group["skiplist_rcu_common.h"] = "gen_rcu"
    group["skiplist_rcu_map.h"] = "gen_rcu_map"
    group["skiplist_rcu_extent.h"] = "gen_rcu_extent"
    group["skiplist_sched_api.h"] = "sched"
}
FNR == 1 { this_page = page_of(FILENAME); fence = 0; n_heads = 0 }
/^[ \t]*(```|~~~)/ { fence = !fence; print; next }
fence { print; next }
/^##+[ \t]/ && !/\{#[^}]*\}[ \t]*$/ {
    text = $0
    sub(/^#+[ \t]+/, "", text)
    s = slug(text)
    # GitHub numbers repeated slugs within a page: x, x-1, x-2.
    if (s in seen) { seen[s]++; s = s "-" seen[s] } else { seen[s] = 0 }
    print links($0) " {#" this_page "-" s "}"
    next
}
{ print links($0) }
