# Replaces a generated block of a markdown file: the lines from
# "<!-- TAG:begin -->" to "<!-- TAG:end -->", markers included, by the
# file GEN (which brings its own markers); every other line is kept.
#
#   awk -v tag=TAG -v gen=GEN -f bench/splice.awk FILE.md > NEW.md
#
# Used by bench/report.sh (tag bench-report, docs/performance.md) and
# bench/headline.sh (tag bench-headline, README.md).
index($0, "<!-- " tag ":begin -->") == 1 {
    while ((getline l < gen) > 0) print l
    skip = 1
    next
}
index($0, "<!-- " tag ":end -->") == 1 { skip = 0; next }
!skip
