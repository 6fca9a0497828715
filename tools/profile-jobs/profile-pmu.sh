#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# profile-pmu.sh OUTDIR: end-to-end check of `xl profile` with the PMU
# source (overflow NMIs on a real Intel or AMD Xen host, overflow IRQs of
# PMUv3 on Arm, QEMU's emulated one included), run in dom0 as root.  Prints TAP, leaves its artifacts in OUTDIR, exits non-zero if a
# check failed.  On a host without a usable PMU (the virtual host, most
# clouds) it checks the clear refusal and skips the rest, unless
# REQUIRE_PMU=1, when no PMU is a failure.  See docs/misc/xl-profile-pmu.md
# (x86) and docs/misc/xl-profile-arm.md for boot options and what to
# expect.
#
# Environment: SECONDS_TO_RUN (default 10), HZ (default 997),
# EXPECT_INSTRUCTIONS=1 (instructions must be counted, as on x86).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
out=${1:-./profile-pmu-artifacts}
mkdir -p "$out" && cd "$out" || exit 1
run=${SECONDS_TO_RUN:-10}
hz=${HZ:-997}
uptime() { cut -d' ' -f1 /proc/uptime; }
workload() {    # workload SECONDS: hypercalls and dom0 CPU work
    end=$(awk -v t="$(uptime)" -v r="$1" 'BEGIN { print t + r }')
    while awk -v u="$(uptime)" -v e="$end" 'BEGIN { exit !(u < e) }'; do
        xl info > /dev/null
        xl dmesg > /dev/null
        i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done
    done
}
PLAN=13
plan $PLAN
xl profile discard >/dev/null 2>&1
xl dmesg > xl-dmesg-before.txt
nr=$(xl info | sed -n 's/^nr_cpus *: //p')

if ! xl profile start -s pmu -F "$hz" > start.txt 2> start-err.txt; then
    cat start-err.txt
    if [ -n "${REQUIRE_PMU:-}" ]; then
        nok "the PMU source starts (REQUIRE_PMU set): $(cat start-err.txt)"
    else
        check "no usable PMU: -s pmu is refused with one clear line" \
            sh -c '[ "$(wc -l < start-err.txt)" -eq 1 ] && grep -q "source pmu: " start-err.txt'
    fi
    xl profile start -s auto > auto.txt 2>&1 && xl profile discard >/dev/null
    check "-s auto runs the timer and says why" grep -q "timer source (auto: " auto.txt
    while [ $tap_n -lt $PLAN ]; do skip "PMU check" "no usable PMU on this host"; done
    finish
fi

ok "the PMU source starts at $hz Hz"
cat start.txt
check "start says the pmu source runs" grep -q "pmu source" start.txt
t0=$(uptime)
workload "$run"
xl profile status > status.txt
t1=$(uptime)
check "stop -o pmu.folded" sh -c "xl profile stop -o pmu.folded --data pmu.data > stop.txt"
cat status.txt stop.txt
check "status showed source pmu" grep -q "^source *: pmu" status.txt
total=$(awk '{ s += $NF } END { print s + 0 }' pmu.folded)
expect=$(awk -v h="$hz" -v a="$t0" -v b="$t1" -v n="$nr" 'BEGIN { printf "%d", h * (b - a) * n }')
check "frequency mode: $total samples within 20% of $hz Hz x $nr pCPUs x $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') s = $expect" \
    awk -v t="$total" -v e="$expect" 'BEGIN { exit !(t >= 0.8 * e && t <= 1.2 * e) }'
check "no sample lost" grep -q "(0 lost)" stop.txt
nf=$(awk '{ $NF = ""; n = split($0, f, ";"); for (i = 1; i <= n; i++) print f[i] }' pmu.folded |
     grep -v -e '^\[' -e '^d[0-9]*v[0-9]*' | sort -u | wc -l)
check "at least 20 distinct Xen functions ($nf)" test "$nf" -ge 20
# Stacks are walked: a quarter of the Xen samples outside the idle loop
# have more than 2 frames, the deepest at least 6.  (Not most: an overflow
# while interrupts are masked is taken where they come back on, e.g. at
# the start of a vector, where the stack is short: docs/misc/xl-profile-arm.md.)
deep=$(awk '!/^\[|^d[0-9]+v|^idle_loop/ { n = split($1, f, ";"); t += $NF; if (n > 2) d += $NF; if (n > m) m = n }
            END { printf "%d %d %d", d, t, m }' pmu.folded)
check "Xen stacks are walked: of the samples outside the idle loop, deeper than 2 frames / all / deepest: $deep" \
    sh -c "set -- $deep; [ \$((\$1 * 4)) -ge \$2 ] && [ \$3 -ge 6 ]"
bad=$(awk '/^\[bad frame\]/ { b += $NF } { t += $NF } END { printf "%d %d", b, t }' pmu.folded)
check "BAD_FRAME samples under 1 % ($bad)" \
    sh -c "set -- $bad; [ \$((\$1 * 100)) -lt \$2 ]"

# Period mode and the other events: each starts, or is refused clearly.
# x86 PMUs all count instructions.  Arm PMUs do when PMCEID0_EL0 lists
# INST_RETIRED (QEMU's: only with -icount): otherwise a clear refusal,
# and period mode runs on cycles (docs/misc/xl-profile-arm.md).
# EXPECT_INSTRUCTIONS=1: instructions must be counted.
if xl profile start -s pmu -e instructions -c 1000000 > /dev/null 2> ev-err.txt; then
    sleep 1
    check "-c 1000000 -e instructions (period mode)" \
        sh -c 'xl profile stop --data period.data > period.txt && grep -q -E "^[1-9][0-9]* samples" period.txt'
elif [ "$(uname -m)" = aarch64 ] && [ -z "${EXPECT_INSTRUCTIONS:-}" ]; then
    check "-e instructions is refused clearly ($(cat ev-err.txt)), and -c 1000000 (period mode) samples cycles" \
        sh -c 'grep -q "cannot count that event" ev-err.txt &&
               xl profile start -s pmu -c 1000000 >/dev/null && sleep 1 &&
               xl profile stop --data period.data > period.txt && grep -q -E "^[1-9][0-9]* samples" period.txt'
else
    nok "-c 1000000 -e instructions (period mode): $(cat ev-err.txt)"
fi
for e in branch-misses llc-misses; do
    if xl profile start -s pmu -e $e -F "$hz" > ev.txt 2> ev-err.txt; then
        sleep 1
        check "-e $e samples" \
            sh -c "xl profile stop --data $e.data | grep -q -E '^[1-9][0-9]* samples'"
    else
        check "-e $e is refused clearly: $(cat ev-err.txt)" grep -q "cannot count that event" ev-err.txt
    fi
done
xl dmesg > xl-dmesg.txt
check "Xen reported no unknown NMI or lockup while sampling" \
    sh -c '! grep -i -e "unknown reason" -e "is stuck" -e "Uhhuh. NMI" xl-dmesg.txt'
finish
