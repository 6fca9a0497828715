#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end: the installed profile-timer.sh in dom0 of the virtual host.  The
# job's own TAP results are passed through (so each counts here), then the
# artifacts are checked on this side.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/vhost/profile
# The job as the toolstack installs it, with pty-run beside it (record's
# status line on a terminal: dom0 has no script).
jobs=$BUILD/dist/usr/lib/xen/profile
WITH_DOMU=1 "$top/test/vhost/vhost.sh" --quiet --timeout 400 "$out" \
    "$jobs/profile-timer.sh" "$jobs/tap.sh" "$jobs/pty-run"
rc=$?
# The job's lines, without the console's time stamps and indentation.
job=$(sed -n '/VHOST: job start/,/VHOST: job end/p' "$out/console.log" |
      sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//')
planned=$(echo "$job" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
echo "$job" | grep -E '^(ok|not ok) ' | sed 's/^\(ok\|not ok\) [0-9]* -/\1 - job:/'
echo "$job" | grep '^# ' || true
seen=$(echo "$job" | grep -c -E '^(ok|not ok) ')
check "the profile job exits 0 in dom0 (status $rc)" test $rc -eq 0
check "the job reported all ${planned:-?} planned results ($seen)" test "$seen" = "${planned:-x}"
res=$out/results
check "out.folded came out of the virtual host" test -s "$res/out.folded"
check "xenprofile.data came out, with its magic" \
    sh -c "head -c 7 '$res/xenprofile.data' | grep -q XENPROF"
check "status, status --json and xl dmesg outputs came out" \
    test -s "$res/status-2.txt" -a -s "$res/status.json" -a -s "$res/xl-dmesg.txt"
# libxl's JSON leaves out fields at their default (0).
check "status --json is libxl's encoding of libxl_profile_status: running, timer, samples on every pCPU" \
    /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cpus = [c for c in d["cpus"] if c.get("flags", 0) & 1]
n = lambda c, k: c.get(k, 0)
assert d["state"] == "running" and d["source"] == "timer"
assert d["frequency"] == 97 and len(cpus) >= 2
assert all(n(c, "taken") > 0 and
           n(c, "taken") == n(c, "read") + n(c, "lost") + n(c, "pending")
           for c in cpus)
' "$res/status.json"
check "folded lines are 'frames count'" \
    sh -c "! grep -v -E '^[^ ].* [0-9]+\$' '$res/out.folded' | grep -q ."
# The demo profile's --script, read by FlameGraph's stackcollapse-perf.pl
# (as test/unit/perf-script.t does for synthetic profiles).
: "${FLAMEGRAPH:=$top/../shared/tools/FlameGraph}"
xp() { LD_LIBRARY_PATH=$BUILD/dist/usr/lib "$BUILD/dist/usr/bin/xenprofile" "$@"; }
if [ -f "$FLAMEGRAPH/stackcollapse-perf.pl" ] && command -v perl > /dev/null; then
    period=$(xp -i "$res/xenprofile.data" --script 2> /dev/null |
             sed -n '1s/.*: \([0-9]*\) cpu-clock:$/\1/p')
    xp -i "$res/xenprofile.data" --script > "$out/demo.script" &&
        xp -i "$res/xenprofile.data" --folded "$out/demo.folded" &&
        perl "$FLAMEGRAPH/stackcollapse-perf.pl" "$out/demo.script" \
            > "$out/demo.collapsed" 2> "$out/demo.collapse.err" &&
        [ ! -s "$out/demo.collapse.err" ] &&
        python3 "$top/test/lib/perf-script-compare.py" "$out/demo.folded" \
            "$out/demo.collapsed" "${period:-0}" > "$out/demo.compare"
    rc=$?
    check "the demo's --script through stackcollapse-perf.pl gives its folded stacks ($(tail -n 1 "$out/demo.compare" 2>/dev/null))" \
        test $rc -eq 0
    [ $rc -eq 0 ] || sed 's/^/# /' "$out/demo.compare" "$out/demo.collapse.err" 2>/dev/null | head
else
    skip "the demo's --script through stackcollapse-perf.pl" "no perl or no $FLAMEGRAPH"
fi
finish
