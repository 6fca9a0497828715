#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# demo-report.sh RESULTS DIST: the hottest stacks of the demo profile, and
# its report and flame graph, made here with the built xenprofile command
# (offline: it needs no hypervisor), written beside the other results.
res=$1 dist=$2
if [ ! -s "$res/out.folded" ] || [ ! -s "$res/xenprofile.data" ]; then
    echo "demo: no profile in $res" >&2
    exit 1
fi
xp() { LD_LIBRARY_PATH=$dist/usr/lib "$dist/usr/bin/xenprofile" "$@"; }
rc=0
xp -i "$res/xenprofile.data" > "$res/report.txt" ||
    { echo "demo: xenprofile report failed" >&2; rc=1; }
xp -i "$res/xenprofile.data" --svg "$res/flamegraph.svg" \
    --title "Xen on the virtual host: xl profile -F 97" ||
    { echo "demo: xenprofile --svg failed" >&2; rc=1; }

total=$(awk '{ s += $NF } END { print s }' "$res/out.folded")
echo
echo "== the 15 hottest stacks of $total samples (root;...;leaf count) =="
awk '{ print $NF, $0 }' "$res/out.folded" | sort -n -r -k1,1 |
    cut -d' ' -f2- | head -n 15 | cut -c1-160
echo
echo "== report (head of $res/report.txt) =="
head -n 40 "$res/report.txt"
echo
echo "== results: $res =="
ls -l "$res" | awk 'NR > 1 { printf "  %-20s %9d bytes\n", $NF, $5 }'
exit $rc
