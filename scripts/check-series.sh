#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-series.sh OUT: build the hypervisor and the toolstack at every
# commit of the series make-series.sh left in OUT.git, in order (each
# build incremental on the last), and print one line per commit.  Exit
# status: 0 when every commit builds.
set -euo pipefail
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(cd "$1.git" && pwd)
dest=$1.dist
mapfile -t commits < <(git -C "$work" rev-list --reverse series-base..series-head)
fails=0 i=0
for c in "${commits[@]}"; do
    i=$((i + 1))
    git -C "$work" checkout -q "$c"
    subject=$(git -C "$work" log -1 --format=%s)
    start=$(date +%s)
    if FRAGMENT=$top/xen/arch/x86/configs/profiler.config LAX_FRAGMENT=1 \
           "$top/scripts/build-xen.sh" "$work" > "$1.log.$i" 2>&1 &&
       "$top/scripts/build-tools.sh" "$work" "$dest" >> "$1.log.$i" 2>&1; then
        echo "ok $i - builds after: $subject ($(( $(date +%s) - start )) s)"
    else
        echo "not ok $i - does not build after: $subject (log: $1.log.$i)"
        tail -n 15 "$1.log.$i" | sed 's/^/# /'
        fails=$((fails + 1))
    fi
done
git -C "$work" checkout -q series-head
echo "1..$i"
echo "series: $((i - fails)) of $i commits build"
[ $fails -eq 0 ]
