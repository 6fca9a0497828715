#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-sample-cost.sh: the instructions of one Xen-mode sample (the
# handshake and record header, the walk, the ring commit) at depths
# 1/8/16/32/64, counted by valgrind's callgrind on the userspace builds
# of unwind.c and ring.c (tools/tests/profile/cost.c), with the goals as
# ratios.  Exact counts (instructions retired by the C code as compiled
# here, -O2), not times: the same on every run.  Part of make bench.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
out=$BUILD/bench/cost
mkdir -p "$out"
out=$(cd "$out" && pwd)
if ! command -v valgrind > /dev/null; then
    echo "instructions per sample: not measured (no valgrind)"
    exit 0
fi
make -s --no-print-directory -C "$top/tools/tests/profile" O="$out" \
    XEN_PUBLIC_INC="$("$top/scripts/public-headers.sh" "$BUILD/tests/public")" \
    "$out/profile-cost"
samples=1000
echo "instructions per sample (callgrind, $samples samples each; walk + ring commit + header):"
printf '  %5s %8s %10s %10s %10s\n' depth total walk ring other
declare -A tot
for d in 1 8 16 32 64; do
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$d" \
        --toggle-collect=sample_once "$out/profile-cost" $d $samples \
        > /dev/null 2> "$out/cg.$d.log"
    callgrind_annotate --auto=no "$out/cg.$d" > "$out/cg.$d.txt" 2>/dev/null
    ir() { sed -n "s/^ *\([0-9,]*\) ([ 0-9.]*%)  .*$1.*/\1/p" "$out/cg.$d.txt" | tr -d , |
           awk '{ s += $1 } END { print s + 0 }'; }
    all=$(ir 'PROGRAM TOTALS')
    walk=$(ir 'unwind.c:')
    ring=$(( $(ir 'ring.c:') + $(ir 'memcpy') ))
    tot[$d]=$all
    printf '  %5d %8d %10d %10d %10d\n' $d $((all / samples)) $((walk / samples)) \
        $((ring / samples)) $(((all - walk - ring) / samples))
done
per=$(echo "(${tot[64]} - ${tot[8]}) / 56 / $samples" | bc -l)
printf '  per frame (depth 8 to 64): %.1f\n' "$per"
printf '  goal <= 300 at depth 16: %d, ratio %.2f\n' $((tot[16] / samples)) \
    "$(echo "${tot[16]} / $samples / 300" | bc -l)"
printf '  goal <= 10 per frame: %.1f, ratio %.2f\n' "$per" "$(echo "$per / 10" | bc -l)"
