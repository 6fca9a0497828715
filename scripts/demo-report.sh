#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# demo-report.sh RESULTS: the hottest stacks of the demo profile.
res=$1
if [ ! -s "$res/out.folded" ]; then
    echo "demo: no out.folded in $res" >&2
    exit 1
fi
total=$(awk '{ s += $NF } END { print s }' "$res/out.folded")
echo
echo "== the 15 hottest stacks of $total samples (root;...;leaf count) =="
sort -t' ' -k2 -n -r "$res/out.folded" | awk '{ print $NF, $0 }' |
    sort -n -r -k1,1 | cut -d' ' -f2- | head -n 15 | cut -c1-160
echo
echo "== results: $res =="
ls -l "$res" | awk 'NR > 1 { printf "  %-16s %9d bytes\n", $NF, $5 }'
