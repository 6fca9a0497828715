#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# demo-report.sh RESULTS DIST: the hottest stacks of the demo profile
# (out.folded, xenprofile.data), and its report and flame graph, made here
# with the xenprofile command built in DIST for this machine (offline: it
# needs no hypervisor), written beside the other results.  TITLE: the
# flame graph's title.
res=$1 dist=$2
folded=$res/out.folded data=$res/xenprofile.data
if [ ! -s "$folded" ] || [ ! -s "$data" ]; then
    echo "demo: no profile in $res" >&2
    exit 1
fi
xp() { LD_LIBRARY_PATH=$dist/usr/lib "$dist/usr/bin/xenprofile" "$@"; }
rc=0
xp -i "$data" > "$res/report.txt" ||
    { echo "demo: xenprofile report failed" >&2; rc=1; }
xp -i "$data" --svg "$res/flamegraph.svg" \
    --title "${TITLE:-Xen on the virtual host: xl profile -F 97}" ||
    { echo "demo: xenprofile --svg failed" >&2; rc=1; }

total=$(awk '{ s += $NF } END { print s }' "$folded")
echo
echo "== the 15 hottest stacks of $total samples (root;...;leaf count) =="
awk '{ print $NF, $0 }' "$folded" | sort -n -r -k1,1 |
    cut -d' ' -f2- | head -n 15 | cut -c1-160
echo
echo "== report (head of $res/report.txt) =="
head -n 40 "$res/report.txt"
echo
echo "== results: $res =="
ls -l "$res" | awk 'NR > 1 { printf "  %-20s %9d bytes\n", $NF, $5 }'
exit $rc
