#!/bin/sh
# tests/install/run.sh <scratch dir>: the install test of `make test`
# (make test-install). Run from the repository root.
#
#  1. make install PREFIX=<scratch>/prefix, and cmake --install of the
#     root CMakeLists.txt into a DESTDIR with the same prefix: the files
#     must be the same, byte for byte.
#  2. Builds the consumers (consumer.c on skiplist.h, consumer_rcu.c on
#     skiplist_rcu.h, memb and qsbr flavors) through pkg-config and runs
#     them; each prints one line, compared with what its operations imply.
#  3. The same through find_package, after checking its version rule on a
#     table of requests.
#  4. The consumers (memb only) through add_subdirectory of this tree and
#     through FetchContent of a tarball of the files the CMake build needs.
#  5. make install with DESTDIR: nothing lands under PREFIX itself, and a
#     consumer builds from the staged tree (PKG_CONFIG_SYSROOT_DIR).
#  6. make uninstall for both: no file may be left in either prefix, nor
#     skiplist's own directories.
# Every build log is kept in <scratch>/logs and shown when its step fails.
set -eu

work=${1:?usage: tests/install/run.sh <scratch dir>}
root=$(pwd)
MAKE=${MAKE:-make}
CC=${CC:-cc}
rm -rf "$work"
mkdir -p "$work/logs"
work=$(cd "$work" && pwd)
prefix=$work/prefix
failed=0

version=$(sed -n 's/^#define SKIPLIST_VERSION_STRING "\([0-9.]*\)"$/\1/p' \
    skiplist.h)
# What the consumers must print. consumer.c inserts 3k for k < 1000:
# 1000 keys, 300 present, 301 absent, 303 the next one, their sum 3 times
# 0 + ... + 999. consumer_rcu.c inserts 5k for k < 500: 250 present, 251
# absent, 255 the next one.
n=1000
expect_map="skiplist $version ordered index: count $n, find 300 hit,\
 find 301 miss, lower_bound 301 -> 303, in-order sum $((3 * n * (n - 1) / 2))"
expect_rcu() {
    echo "skiplist $version rcu index ($1): count 500, find 250 hit,\
 find 251 miss, upper_bound 250 -> 255"
}

say() { printf '%s\n' "$*"; }
fail() {
    say "FAILED: $*"
    failed=1
}

# step <name> <command...>: runs the command with its output in a log;
# on failure shows the log's tail and stops the test.
step() {
    name=$1
    shift
    if ! "$@" >"$work/logs/$name.log" 2>&1; then
        tail -n 30 "$work/logs/$name.log"
        say "FAILED: $name (log: $work/logs/$name.log)"
        exit 1
    fi
}

# check <how> <program> <expected line>: runs a consumer, compares.
check() {
    if ! out=$("$2" 2>&1); then
        fail "$1: $2 exited non-zero: $out"
    elif [ "$out" != "$3" ]; then
        fail "$1: $2 printed \"$out\", expected \"$3\""
    else
        say "ok  $1: $out"
    fi
}

# no_files_left <dir> <prefix>: after uninstall, nothing at all under
# <prefix> (uninstall removes the shared directories it created once they
# are empty) and no file anywhere in <dir>.
no_files_left() {
    left=$(find "$1" ! -type d)
    [ ! -d "$2" ] || left="$left $(cd "$2" && find . -mindepth 1 | tr '\n' ' ')"
    if [ -n "$(echo "$left" | tr -d ' ')" ]; then
        fail "uninstall left in $1:"
        say "$left"
    else
        say "ok  uninstall: $2 is empty"
    fi
}

say "==== install test: make install, consumers via pkg-config," \
    "find_package, add_subdirectory, FetchContent; make uninstall"

# 1. make install, and CMake's install rules, which must give the same
# files (checked first: the tree must not change between the installs).
step make-install "$MAKE" --no-print-directory install PREFIX="$prefix"
step cmake-root cmake -S "$root" -B "$work/root" -DCMAKE_INSTALL_PREFIX=/none
step cmake-install env DESTDIR="$work/cmake-stage" \
    cmake --install "$work/root" --prefix "$prefix"
if diff -r "$prefix" "$work/cmake-stage$prefix" >"$work/logs/diff.log"; then
    say "ok  cmake --install: the same $(find "$prefix" -type f | wc -l)" \
        "files as make install"
else
    cat "$work/logs/diff.log"
    fail "cmake --install and make install differ"
fi

# 2. pkg-config. The consumers are copied out of the tree so that nothing
# but the installed headers can satisfy their #includes; the compiler's
# dependency output must name the installed header.
mkdir -p "$work/src" "$work/pc"
cp tests/install/consumer.c tests/install/consumer_rcu.c "$work/src/"
export PKG_CONFIG_PATH="$prefix/share/pkgconfig"
pcver=$(pkg-config --modversion skiplist)
[ "$pcver" = "$version" ] || fail "pkg-config --modversion: $pcver"
pc_build() { # <out> <source> <modules>
    # shellcheck disable=SC2046
    $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -MD -MF "$work/pc/$1.d" \
        $(pkg-config --cflags "$3") -o "$work/pc/$1" "$work/src/$2" \
        $(pkg-config --libs "$3")
}
step pc-consumer pc_build consumer consumer.c skiplist
step pc-consumer-rcu pc_build consumer_rcu consumer_rcu.c skiplist-rcu
step pc-consumer-rcu-qsbr pc_build consumer_rcu_qsbr consumer_rcu.c \
    skiplist-rcu-qsbr
for d in consumer consumer_rcu; do
    grep -q "$prefix/include/skiplist/skiplist.h" "$work/pc/$d.d" ||
        fail "pkg-config: $d was not built from $prefix/include/skiplist"
done
check pkg-config "$work/pc/consumer" "$expect_map"
check pkg-config "$work/pc/consumer_rcu" "$(expect_rcu memb)"
check pkg-config "$work/pc/consumer_rcu_qsbr" "$(expect_rcu qsbr)"

# 3. find_package: the version rule, then the consumers; 4.
# add_subdirectory and FetchContent.
step cmake-version cmake -S tests/install/version -B "$work/version" \
    -DCMAKE_PREFIX_PATH="$prefix" -DVERSION="$version"
say "ok  find_package: $(grep -o 'version rule: .*' "$work/logs/cmake-version.log")"
cmake_consumer() { # <mode> <cmake -D options...>
    mode=$1
    shift
    step "cmake-$mode" cmake -S tests/install/cmake -B "$work/$mode" \
        -DMODE="$mode" "$@"
    step "build-$mode" cmake --build "$work/$mode" -j 2
    check "$mode" "$work/$mode/consumer" "$expect_map"
    check "$mode" "$work/$mode/consumer_rcu" "$(expect_rcu memb)"
    if [ "$mode" = find ]; then
        check "$mode" "$work/$mode/consumer_rcu_qsbr" "$(expect_rcu qsbr)"
    fi
}
cmake_consumer find -DCMAKE_PREFIX_PATH="$prefix" -DEXPECT_PREFIX="$prefix"
cmake_consumer subdir -DSKIPLIST_SOURCE="$root"
# The tarball holds what a release archive must hold for CMake users.
tar -czf "$work/skiplist-src.tar.gz" CMakeLists.txt cmake skiplist.h \
    skiplist_sched.h skiplist_rcu.h skiplist.pc.in skiplist-rcu.pc.in
cmake_consumer fetch -DSKIPLIST_URL="$work/skiplist-src.tar.gz"

# 5. DESTDIR: the files go under the staging directory, named for PREFIX.
stage=$work/stage
staged_prefix=$work/never-created
step make-install-destdir "$MAKE" --no-print-directory install \
    PREFIX="$staged_prefix" DESTDIR="$stage"
[ ! -e "$staged_prefix" ] || fail "DESTDIR install wrote into $staged_prefix"
step pc-consumer-destdir env PKG_CONFIG_SYSROOT_DIR="$stage" \
    PKG_CONFIG_PATH="$stage$staged_prefix/share/pkgconfig" \
    sh -c "$CC -std=c11 -Wall -Wextra -Werror \
        \$(pkg-config --cflags skiplist) -o '$work/pc/consumer_destdir' \
        '$work/src/consumer.c'"
check "pkg-config (DESTDIR)" "$work/pc/consumer_destdir" "$expect_map"

# 6. make uninstall, with the same PREFIX (and DESTDIR).
step make-uninstall "$MAKE" --no-print-directory uninstall PREFIX="$prefix"
no_files_left "$prefix" "$prefix"
step make-uninstall-destdir "$MAKE" --no-print-directory uninstall \
    PREFIX="$staged_prefix" DESTDIR="$stage"
no_files_left "$stage" "$stage$staged_prefix"

if [ "$failed" != 0 ]; then
    say "install test: FAILED"
    exit 1
fi
say "install test: passed"
