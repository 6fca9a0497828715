#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `xenprofile --script` is perf script text: FlameGraph's
# stackcollapse-perf.pl (../shared/tools/FlameGraph, or $FLAMEGRAPH) reads
# it without a complaint and makes of it the stacks of our --folded output
# (test/lib/perf-script-compare.py: less the roots, each tool's own, and
# with its counts weighted by the period).  On the benchmark's synthetic
# profile (tools/tests/xenprofile-bench/synth-data, 100k samples, 20k
# stacks) and on one with the cases the generator does not make (-x:
# off-stack samples, unknown addresses, odd domain names, a LOST record).
# The demo profile is checked the same way in test/vhost/t/profile.t.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
: "${FLAMEGRAPH:=$top/../shared/tools/FlameGraph}"
. "$top/test/lib/tap.sh"
collapse=$FLAMEGRAPH/stackcollapse-perf.pl
if ! command -v perl > /dev/null; then
    plan 1; skip "stackcollapse-perf.pl reads --script" "no perl"; finish
fi
if [ ! -f "$collapse" ]; then
    plan 1
    skip "stackcollapse-perf.pl reads --script" "no $collapse (../shared/tools/FlameGraph, or set FLAMEGRAPH)"
    finish
fi
mkdir -p "$BUILD/tests/perf-script" &&
    out=$(cd "$BUILD/tests/perf-script" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/perf-script"; exit 1; }
make -s --no-print-directory -C "$top/tools/tests/xenprofile-bench" \
    O="$out" "$out/synth-data" "$out/xenprofile" > "$out/build.log" 2>&1 ||
    { echo "Bail out! build synth-data, xenprofile (log: $out/build.log)"; exit 1; }

plan 10
# run NAME SYNTH-OPTS: script, folded and stackcollapse-perf.pl of it.
run() {
    "$out/synth-data" $2 "$out/$1.data" &&
        "$out/xenprofile" -i "$out/$1.data" --script > "$out/$1.script" &&
        "$out/xenprofile" -i "$out/$1.data" --folded "$out/$1.folded" &&
        perl "$collapse" "$out/$1.script" > "$out/$1.collapsed" \
            2> "$out/$1.collapse.err"
}
for c in "bench:-n 100000 -k 20000" "cases:-x -n 2000 -k 200"; do
    name=${c%%:*}
    if run "$name" "${c#*:}"; then
        ok "$name: --script, --folded and stackcollapse-perf.pl run"
    else
        nok "$name: --script, --folded and stackcollapse-perf.pl run"
    fi
    check "$name: stackcollapse-perf.pl reads every line (no 'Unrecognized line')" \
        test ! -s "$out/$name.collapse.err"
    head -n 3 "$out/$name.collapse.err" | sed 's/^/# /'
    # A timer profile at 97 Hz: the period is 1 s / 97 in ns.
    if python3 "$top/test/lib/perf-script-compare.py" "$out/$name.folded" \
        "$out/$name.collapsed" 10309278 > "$out/$name.compare"; then
        ok "$name: its stacks are our folded stacks ($(cat "$out/$name.compare"))"
    else
        nok "$name: its stacks are our folded stacks"
        sed 's/^/# /' "$out/$name.compare"
    fi
done
check "bench: a header line per sample, as perf prints it (100000)" \
    test "$(grep -c -E '^[^[:space:]#].* [0-9]+/[0-9]+ \[[0-9]{3}\] [0-9]+\.[0-9]{6}: 10309278 cpu-clock:$' \
            "$out/bench.script")" = 100000
check "cases: the roots are the domains' names (a ';' in one as '_')" \
    sh -c "cut -d';' -f1 '$out/cases.collapsed' | sort -u | tr '\n' ' ' |
           grep -qx 'Domain-0 a_b_c batch d3 d9 db idle web '"
check "cases: the LOST record is a comment perf's readers skip" \
    grep -qx '# lost 3 samples on cpu 1 at [0-9.]*' "$out/cases.script"
"$out/xenprofile" -i "$out/bench.folded" --script > /dev/null 2> "$out/folded.err"
rc=$?
check "--script of folded stacks: exit 2, 'needs a data file' ($(head -n 1 "$out/folded.err"))" \
    sh -c "[ $rc -eq 2 ] && grep -q 'needs a data file' '$out/folded.err'"
finish
