#!/bin/sh
# Makes sure the Debian/Ubuntu packages a target needs are present, and
# installs the missing ones with apt-get, saying first what and how.
#
# Usage: tools/install-deps.sh [--check] pkg...
#   --check   only report: list what is missing and exit 1, install nothing
#   SKIPLIST_NO_INSTALL=1 in the environment does the same (a machine where
#   make must never install anything).
#
# "Present" is decided per package by what the build really uses, so that
# a machine without dpkg (or with things built from source) works:
#   - a tool: its command on PATH (doxygen, dot for graphviz, cmake, clang,
#     pkg-config, ...), whatever installed it;
#   - a -dev library: its pkg-config module, or else its header compiling
#     with ${CC:-cc} (${CXX:-c++} for C++ libraries);
#   - otherwise, or when that probe fails, dpkg-query saying it is
#     installed (so a package without a probe here still works on Debian).
# When something is missing: prints the packages and the exact command,
# then runs it (sudo when not root). Without apt-get it names what is
# missing and how it was looked for, and fails.
set -e

check_only=${SKIPLIST_NO_INSTALL:-}
[ "$check_only" = 0 ] && check_only=""
if [ "${1:-}" = "--check" ]; then
    check_only=1
    shift
fi

have() { command -v "$1" >/dev/null 2>&1; }

has_pc() { have pkg-config && pkg-config --exists "$1"; }

# has_header c|c++ <header>: the header preprocesses with the compiler.
has_header() {
    if [ "$1" = c++ ]; then compiler=${CXX:-c++}; else compiler=${CC:-cc}; fi
    have "$compiler" &&
        printf '#include <%s>\n' "$2" |
        "$compiler" -E -x "$1" - >/dev/null 2>&1
}

# probe <pkg>: 0 when what the package provides is usable here.
probe() {
    case $1 in
    build-essential) have cc && have c++ && have make ;;
    graphviz) have dot ;;
    pkg-config | pkgconf) have pkg-config ;;
    libcriterion-dev) has_pc criterion || has_header c criterion/criterion.h ;;
    liburcu-dev) has_pc liburcu || has_header c urcu.h ;;
    libbsd-dev) has_pc libbsd || has_header c bsd/sys/tree.h ;;
    libjudy-dev) has_header c Judy.h ;;
    libglib2.0-dev) has_pc glib-2.0 ;;
    libabsl-dev) has_pc absl_btree ;;
    libboost-dev) has_header c++ boost/version.hpp ;;
    libcds-dev) has_header c++ cds/init.h ;;
    llvm-[0-9]*) have "llvm-cov-${1#llvm-}" && have "llvm-profdata-${1#llvm-}" ;;
    *-dev) return 1 ;; # no probe known here: dpkg-query decides
    *) have "$1" ;;    # a tool package whose command has its name
    esac
}

# how <pkg>: what probe looked for, for the message when it is missing.
how() {
    case $1 in
    build-essential) echo "cc, c++ and make on PATH" ;;
    graphviz) echo "dot on PATH" ;;
    pkg-config | pkgconf) echo "pkg-config on PATH" ;;
    libcriterion-dev) echo "pkg-config criterion, or <criterion/criterion.h>" ;;
    liburcu-dev) echo "pkg-config liburcu, or <urcu.h>" ;;
    libbsd-dev) echo "pkg-config libbsd, or <bsd/sys/tree.h>" ;;
    libjudy-dev) echo "<Judy.h>" ;;
    libglib2.0-dev) echo "pkg-config glib-2.0" ;;
    libabsl-dev) echo "pkg-config absl_btree" ;;
    libboost-dev) echo "<boost/version.hpp>" ;;
    libcds-dev) echo "<cds/init.h>" ;;
    llvm-[0-9]*) echo "llvm-cov-${1#llvm-} and llvm-profdata-${1#llvm-} on PATH" ;;
    *-dev) echo "dpkg-query: no other probe known for it" ;;
    *) echo "$1 on PATH" ;;
    esac
}

dpkg_has() {
    have dpkg-query &&
        dpkg-query -W -f='${Status}' "$1" 2>/dev/null |
        grep -q "install ok installed"
}

missing=""
for pkg in "$@"; do
    probe "$pkg" || dpkg_has "$pkg" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0

echo "install-deps: missing:$missing"
if [ -n "$check_only" ] || ! have apt-get; then
    for pkg in $missing; do
        echo "install-deps:   $pkg (looked for $(how "$pkg"))"
    done
    if [ -n "$check_only" ]; then
        echo "install-deps: not installing (--check or SKIPLIST_NO_INSTALL)" >&2
    else
        echo "install-deps: no apt-get here: install the equivalents of" \
            "these with your package manager, or put the tools on PATH" >&2
    fi
    exit 1
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
    if have sudo; then SUDO="sudo "; else
        echo "install-deps: need root or sudo to run apt-get for:$missing" >&2
        exit 1
    fi
fi
update="${SUDO}apt-get update -q"
install="${SUDO}env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
--no-install-recommends$missing"
echo "install-deps: running: $update"
echo "install-deps: running: $install"
# apt's own output goes to a log, shown only when it fails.
log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086
if ! $update >"$log" 2>&1 || ! $install >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "install-deps: FAILED:$missing (apt-get output above)" >&2
    exit 1
fi
# A package apt installed but whose probe still fails (a tool not on
# PATH, say) would fail the build later with a less clear message.
for pkg in $missing; do
    probe "$pkg" || dpkg_has "$pkg" ||
        { echo "install-deps: $pkg installed, yet $(how "$pkg") not found" >&2
          exit 1; }
done
echo "install-deps: installed:$missing"
