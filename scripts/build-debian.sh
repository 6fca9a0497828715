#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-debian.sh TREE: build the binary packages of the Debian source
# tree TREE (scripts/make-debian-source.sh) with dpkg-buildpackage, then
# check them with lintian.  The packages land beside TREE; their list is
# printed.  Missing build dependencies are installed as root (apt-get
# build-dep TREE), or the command is printed and the exit status is 1.
# Exit status: 0 built, lintian reports no error and apt would install
# them (apt-get install --simulate), 1 otherwise.
set -euo pipefail
. "$(dirname "$0")/env.sh"

tree=$(cd "$1" && pwd)
out=$(dirname "$tree")
cd "$tree"
version=$(dpkg-parsechangelog -S Version)

if ! dpkg-checkbuilddeps > "$out/builddeps.log" 2>&1; then
    sed 's/^/  /' "$out/builddeps.log" >&2
    if [ "$(id -u)" != 0 ]; then
        echo "error: build dependencies missing; as root, run: apt-get build-dep $tree" >&2
        exit 1
    fi
    echo "installing the build dependencies of $tree"
    DEBIAN_FRONTEND=noninteractive apt-get -q -y build-dep "$tree" > "$out/builddeps.log" 2>&1 ||
        { tail -n 20 "$out/builddeps.log" >&2; exit 1; }
fi
if ! command -v lintian > /dev/null; then
    . "$(dirname "$0")/apt-install.sh"
    apt_install "lintian is" lintian
fi

rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
log=$out/build.log
echo "dpkg-buildpackage -b of xen $version (log: $log)"
if ! dpkg-buildpackage -b -us -uc -j"$JOBS" > "$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "error: dpkg-buildpackage failed (full log: $log)" >&2
    exit 1
fi
changes=$(ls "$out"/xen_"${version#*:}"_*.changes)
echo "lintian $(basename "$changes")"
rc=0
lintian --fail-on error "$changes" > "$out/lintian.log" 2>&1 || rc=$?
errors=$(grep -c '^E: ' "$out/lintian.log" || true)
warnings=$(grep -c '^W: ' "$out/lintian.log" || true)
echo "lintian: $errors errors, $warnings warnings (full report: $out/lintian.log)"
grep '^E: ' "$out/lintian.log" >&2 || true
ls "$out"/*.deb
# They must install over Debian's (or on their own): apt resolves them
# against this machine's packages and archive, without installing.
debs=$(ls "$out"/*.deb | grep -v -e '-dbg_' -e '-dbgsym_' -e '-arm64' -e '-armhf')
if apt-get install --simulate --no-install-recommends $debs > "$out/simulate.log" 2>&1; then
    echo "apt install --simulate of the packages: $(grep -c '^Inst ' "$out/simulate.log") to install"
else
    tail -n 20 "$out/simulate.log" >&2
    echo "error: apt would not install the packages (full log: $out/simulate.log)" >&2
    rc=1
fi
exit $rc
