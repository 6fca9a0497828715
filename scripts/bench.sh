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
