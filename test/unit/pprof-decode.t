#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# libxenprofile's pprof output read by an independent decoder: the npm
# package pprof-format (pinned, installed into $BUILD/npm once) decodes
# what tools/tests/xenprofile-bench/pprof-expect writes for a synthetic
# profile (200k samples, 20k stacks), and test/unit/pprof-check.js prints
# totals, sample types and the top 10 functions by self count; they must
# be what pprof-expect computed from the library's stack set.  Twice:
# from the data (CPU time, period) and through folded text (no data).
# npm and build output go to logs in $BUILD/tests/pprof-decode.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
. "$top/test/lib/tap.sh"
. "$top/test/lib/npm.sh"
PPROF_FORMAT=pprof-format@2.3.2

mkdir -p "$BUILD/tests/pprof-decode" "$BUILD/npm" &&
    out=$(cd "$BUILD/tests/pprof-decode" && pwd) &&
    npmdir=$(cd "$BUILD/npm" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/pprof-decode"; exit 1; }

npm_need "$PPROF_FORMAT" "$npmdir" "$out/npm.log"
make -s --no-print-directory -C "$top/tools/tests/xenprofile-bench" \
    O="$out" "$out/pprof-expect" > "$out/build.log" 2>&1 ||
    fail "build pprof-expect (log: $out/build.log)" "$out/build.log"

plan 16
# compare MODE KEY DESC: the lines starting with KEY agree.
compare() {
    if diff <(grep "^$2" "$out/$1.expect") <(grep "^$2" "$out/$1.got") \
        > "$out/$1.diff"; then
        ok "pprof $1: $3"
    else
        nok "pprof $1: $3"
        sed 's/^/# /' "$out/$1.diff"
    fi
}
for mode in data folded; do
    flag=; [ "$mode" = folded ] && flag=-f
    if ! "$out/pprof-expect" $flag "$out/$mode.pb.gz" > "$out/$mode.expect" \
        2> "$out/$mode.err" ||
       ! node "$top/test/unit/pprof-check.js" "$npmdir/node_modules" \
        "$out/$mode.pb.gz" > "$out/$mode.got" 2>> "$out/$mode.err"; then
        nok "pprof $mode: written and decoded by $PPROF_FORMAT"
        sed 's/^/# /' "$out/$mode.err"
    else
        ok "pprof $mode: written and decoded by $PPROF_FORMAT"
    fi
    check "pprof $mode: string_table[0] is \"\"" \
        grep -qx "string0 ok" "$out/$mode.got"
    check "pprof $mode: every location and function id resolves" \
        grep -qx "valid ok" "$out/$mode.got"
    compare $mode "sample_types\|period" "sample types and period"
    compare $mode "total_" "total samples and total value"
    compare $mode "functions\|samples" "functions and samples (stacks)"
    compare $mode "top " "top 10 functions by self count"
done
check "pprof data: a timer profile has CPU time" \
    grep -qx "sample_types samples/count cpu/nanoseconds" "$out/data.got"
check "pprof folded: a folded input has sample counts only" \
    grep -qx "sample_types samples/count" "$out/folded.got"
finish
