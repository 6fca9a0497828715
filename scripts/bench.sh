#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh: build and run the libxenprofile benchmark
# (tools/tests/xenprofile-bench: a synthetic profile of 1,000,000 samples,
# every stage timed in its own process) in $BUILD/bench.  It prints times,
# throughputs, peak memory and the ratios to this machine's goals; it
# fails only when it cannot build or run, never on speed.
set -euo pipefail
. "$(dirname "$0")/env.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
mkdir -p "$BUILD/bench"
out=$(cd "$BUILD/bench" && pwd)
make -s --no-print-directory -C "$top/tools/tests/xenprofile-bench" \
    O="$out" "$out/xenprofile-bench"
"$out/xenprofile-bench" "$out"
echo
BUILD=$BUILD "$top/scripts/bench-sample-cost.sh"

# The flame graph of 100,000 folded stacks, ours against FlameGraph's
# flamegraph.pl (../shared/tools/FlameGraph, or $FLAMEGRAPH), side by
# side in this run: the best of 3 runs of each command, as processes.
: "${FLAMEGRAPH:=$top/../shared/tools/FlameGraph}"
echo
if [ ! -f "$FLAMEGRAPH/flamegraph.pl" ] || ! command -v perl > /dev/null; then
    echo "flamegraph.pl: not measured (no perl or no $FLAMEGRAPH/flamegraph.pl)"
else
    make -s --no-print-directory -C "$top/tools/tests/xenprofile-bench" \
        O="$out" "$out/synth-data" "$out/xenprofile"
    "$out/synth-data" -n 2000000 -k 150000 "$out/fg.data"
    "$out/xenprofile" -i "$out/fg.data" --folded "$out/fg.all.folded"
    head -n 100000 "$out/fg.all.folded" > "$out/fg.folded"
    best() {    # best CMD...: the least wall time of 3 runs, in s
        local b= t0 t1 t i
        for i in 1 2 3; do
            t0=$(date +%s.%N); "$@" > /dev/null 2>&1; t1=$(date +%s.%N)
            t=$(echo "$t1 - $t0" | bc -l)
            if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
        done
        echo "$b"
    }
    ours=$(best "$out/xenprofile" -i "$out/fg.folded" --svg "$out/fg-ours.svg")
    theirs=$(best perl "$FLAMEGRAPH/flamegraph.pl" "$out/fg.folded")
    ratio=$(echo "$theirs / $ours" | bc -l)
    printf 'flame graph of %s folded stacks (%.1f MB): xenprofile --svg %.3f s, flamegraph.pl %.3f s: %.1fx\n' \
        "$(wc -l < "$out/fg.folded")" "$(echo "$(stat -c %s "$out/fg.folded") / 1000000" | bc -l)" \
        "$ours" "$theirs" "$ratio"
    printf '  goal >= 30x flamegraph.pl: ratio %.2f\n' "$(echo "30 / $ratio" | bc -l)"
fi
