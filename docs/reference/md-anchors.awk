# Doxygen input filter for the Markdown pages (docs/Doxyfile,
# FILTER_PATTERNS): makes GitHub-style section links work in the site too.
#
# On GitHub a heading "## Ordered index (SKIPLIST_DEFINE)" gets the anchor
# #ordered-index-skiplist_define, and the pages link to such anchors,
# within a page (#slug) and across pages (api.md#slug). Doxygen 1.9 makes
# no such anchors, and its labels are global to the site. So this filter
# gives every heading below the page title an explicit label, the page's
# name and the GitHub slug ("api-ordered-index-skiplist_define"), and
# rewrites each link to an anchor into a link to that label. A link to a
# complete example program, [text](examples/NAME.c) from any directory,
# goes to the program's page instead (mk/docs.mk lists the programs as
# \example pages). Code blocks are left alone.
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
    return examples(out line)
}
# Rewrites ](examples/NAME.c) and ](../../examples/NAME.c) to ](#NAME.c),
# a reference to the \example page of that name.
function examples(line,    out, target) {
    out = ""
    while (match(line, /\]\(([^)# ]*\/)?examples\/[A-Za-z0-9_-]+\.c\)/)) {
        target = substr(line, RSTART + 2, RLENGTH - 3)
        sub(/^.*\//, "", target)
        out = out substr(line, 1, RSTART + 1) "#" target ")"
        line = substr(line, RSTART + RLENGTH)
    }
    return out line
}
BEGIN { this_page = "" }
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
