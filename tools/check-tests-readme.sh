#!/bin/sh
# Keeps tests/README.md honest against tests/.
#
#   tools/check-tests-readme.sh              check tests/README.md
#   tools/check-tests-readme.sh --self-test  check that the check can fail
#
# Fails (exit 1, one line per problem) when a file tests/*.c, *.h, *.cc or
# *.mk, or a folder tests/*/, is not named in the README exactly once as
# `tests/<name>` (a folder as `tests/<name>/`), or when a name given so
# does not exist. Only backquoted tests/<name> with no further slash
# count: files inside the folders may be named freely.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)

# check README TESTDIR: prints the problems and a summary; returns 1 on any.
check() {
    readme=$1
    dir=$2
    if [ ! -f "$readme" ]; then
        echo "tests readme: $readme not found"
        return 1
    fi
    tmp=$(mktemp -d) || return 1
    # What is there: the top-level sources and the folders.
    (cd "$dir" && for f in *.c *.h *.cc *.mk */; do
        [ -e "$f" ] && echo "$f"
    done) | sort >"$tmp/have"
    # What the README names, once per mention.
    grep -oE '`tests/[A-Za-z0-9_.-]+/?`' "$readme" |
        sed -E 's/^`tests\///; s/`$//' | sort >"$tmp/named"
    status=0
    for f in $(comm -23 "$tmp/have" "$tmp/named"); do
        echo "tests readme: tests/$f is not listed"
        status=1
    done
    for f in $(uniq -d "$tmp/named"); do
        echo "tests readme: tests/$f is listed $(grep -cxF "$f" "$tmp/named") times"
        status=1
    done
    for f in $(sort -u "$tmp/named"); do
        if [ ! -e "$dir/$f" ]; then
            echo "tests readme: lists tests/$f, which does not exist"
            status=1
        fi
    done
    if [ "$status" -eq 0 ]; then
        echo "tests readme: all $(wc -l <"$tmp/have") files and folders of tests/ listed once, every name listed exists"
    fi
    rm -rf "$tmp"
    return "$status"
}

# Each doctored copy must fail the check; the real README must pass it.
self_test() {
    stmp=$(mktemp -d) || return 1
    fails=0
    mkdir "$stmp/tests"
    (cd "$ROOT/tests" && for f in *.c *.h *.cc *.mk; do
        [ -e "$f" ] && : >"$stmp/tests/$f"
    done
    for d in */; do mkdir "$stmp/tests/$d"; done)
    cp "$ROOT/tests/README.md" "$stmp/tests/README.md"
    # expect_fail WHAT PATTERN README
    expect_fail() {
        if check "$3" "$stmp/tests" >"$stmp/log" 2>&1; then
            echo "tests readme self-test: $1 was not caught"
            fails=1
        elif ! grep -q "$2" "$stmp/log"; then
            echo "tests readme self-test: $1 failed for another reason:"
            cat "$stmp/log"
            fails=1
        fi
    }
    if ! check "$stmp/tests/README.md" "$stmp/tests" >"$stmp/log" 2>&1; then
        echo "tests readme self-test: the copy does not pass:"
        cat "$stmp/log"
        fails=1
    fi
    : >"$stmp/tests/test_unlisted.c"
    expect_fail "an unlisted file" "tests/test_unlisted.c is not listed" \
        "$stmp/tests/README.md"
    rm "$stmp/tests/test_unlisted.c"
    sed 's#`tests/test_common.h`#`tests/test_common.h`, `tests/test_common.h`#' \
        "$ROOT/tests/README.md" >"$stmp/t.md"
    expect_fail "a file listed twice" "tests/test_common.h is listed 2 times" \
        "$stmp/t.md"
    sed 's#`tests/test_common.h`#`tests/test_common.h`, `tests/no_such_file.c`#' \
        "$ROOT/tests/README.md" >"$stmp/t.md"
    expect_fail "a listed file that does not exist" \
        "lists tests/no_such_file.c, which does not exist" "$stmp/t.md"
    rm -rf "$stmp"
    [ "$fails" -ne 0 ] ||
        echo "tests readme self-test: an unlisted file, a file listed twice and a missing file are each caught"
    return "$fails"
}

case "${1:-}" in
--self-test) self_test ;;
*) check "$ROOT/tests/README.md" "$ROOT/tests" ;;
esac
