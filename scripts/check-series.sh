#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-series.sh OUT: build the hypervisor and the toolstack at every
# commit of the series make-series.sh left in OUT.git, in order, for
# each of CHECK_SERIES_ARCHS (default: x86_64 arm64; arm64 is
# cross-built, in a clone OUT-arm64.git, against SYSROOT), and print one
# line per commit and arch.  Each build is incremental on the last, and
# a commit builds what it changes: the hypervisor when it changes xen/,
# the toolstack when it changes tools/ or Xen's public headers (which
# the tools include); the first commit builds both.  Each arch's
# hypervisor is configured with this project's profiler.config (options
# a commit does not have yet are skipped).  Exit status: 0 when every
# commit builds for every arch.
set -euo pipefail
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
archs=${CHECK_SERIES_ARCHS:-x86_64 arm64}
mapfile -t commits < <(git -C "$out.git" rev-list --reverse series-base..series-head)
fails=0 i=0
for arch in $archs; do
    case $arch in
    x86_64) work=$out.git frag=$top/xen/arch/x86/configs/profiler.config ;;
    arm64)
        : "${SYSROOT:?check-series.sh: arm64 needs SYSROOT (make sysroot)}"
        work=$out-arm64.git frag=$top/xen/arch/arm/configs/profiler.config
        rm -rf "$work"
        git clone -q "$out.git" "$work" ;;
    *) echo "error: CHECK_SERIES_ARCHS: $arch: expected x86_64 or arm64" >&2; exit 2 ;;
    esac
    n=0
    for c in "${commits[@]}"; do
        i=$((i + 1)) n=$((n + 1))
        git -C "$work" checkout -q "$c"
        subject=$(git -C "$work" log -1 --format=%s)
        log=$out.log.$arch.$n
        start=$(date +%s)
        # What the commit changes is built again (both at the first):
        # the hypervisor for xen/, the tools for tools/ and for Xen's
        # public headers, which the tools include.
        changed=$(git -C "$work" show --name-only --format= "$c")
        xen=0 tools=0
        [ $n -gt 1 ] || xen=1 tools=1
        ! grep -q '^xen/' <<<"$changed" || xen=1
        ! grep -q -e '^tools/' -e '^xen/include/public/' <<<"$changed" || tools=1
        what=
        [ $xen = 0 ] || what=hypervisor
        [ $tools = 0 ] || what=${what:+$what+}tools
        : > "$log"
        if { [ $xen = 0 ] || XEN_ARCH=$arch FRAGMENT=$frag LAX_FRAGMENT=1 \
                 "$top/scripts/build-xen.sh" "$work" >> "$log" 2>&1; } &&
           { [ $tools = 0 ] ||
             XEN_ARCH=$arch "$top/scripts/build-tools.sh" "$work" "$out.dist.$arch" >> "$log" 2>&1; }; then
            echo "ok $i - $arch: builds after $n: $subject (${what:-nothing to build}, $(( $(date +%s) - start )) s)"
        else
            echo "not ok $i - $arch: does not build after $n: $subject (log: $log)"
            tail -n 15 "$log" | sed 's/^/# /'
            fails=$((fails + 1))
        fi
    done
    git -C "$work" checkout -q series-head
done
echo "1..$i"
echo "series: $((i - fails)) of $i builds ($archs) succeed"
[ $fails -eq 0 ]
