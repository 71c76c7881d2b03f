#!/bin/sh
# Installs the Debian/Ubuntu packages a target needs, when they are missing.
# Usage: tools/install-deps.sh pkg...   (says what it installs; uses sudo
# when not root; does nothing when everything is present).
set -e
missing=""
for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $pkg"
    fi
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing packages:$missing (no apt-get here: install them by hand)" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install-deps: need root or sudo to install:$missing" >&2
        exit 1
    fi
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
echo "install-deps: done"
