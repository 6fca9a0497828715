#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# pmu-events.sh OUTDIR: the PMU source on an event counter, where the PMU
# lists INST_RETIRED (the Arm virtual host booted with -icount, whose
# emulated PMUv3 then counts instructions): -e instructions in period and
# in frequency mode.  Run with tap.sh beside it; prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
out=${1:-./pmu-events-artifacts}
mkdir -p "$out" && cd "$out" || exit 1
hz=${HZ:-997}
uptime() { cut -d' ' -f1 /proc/uptime; }
workload() {    # workload SECONDS: hypercalls and dom0 CPU work
    end=$(awk -v t="$(uptime)" -v r="$1" 'BEGIN { print t + r }')
    while awk -v u="$(uptime)" -v e="$end" 'BEGIN { exit !(u < e) }'; do
        xl info > /dev/null
        i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done
    done
}
plan 6
nr=$(xl info | sed -n 's/^nr_cpus *: //p')
check "-e instructions -c 1000000 starts (period mode)" \
    sh -c 'xl profile start -s pmu -e instructions -c 1000000 > start-period.txt 2>&1'
cat start-period.txt
workload 1
check "it sampled instructions" \
    sh -c 'xl profile stop --data period.data > period.txt && grep -q -E "^[1-9][0-9]* samples" period.txt &&
           grep -q "instructions" start-period.txt'
check "-e instructions -F $hz starts (frequency mode)" \
    sh -c "xl profile start -s pmu -e instructions -F $hz > start-freq.txt 2>&1"
cat start-freq.txt
t0=$(uptime)
workload 3
t1=$(uptime)
check "stop -o freq.folded" sh -c "xl profile stop -o freq.folded --data freq.data > stop.txt"
cat stop.txt
total=$(awk '{ s += $NF } END { print s + 0 }' freq.folded)
expect=$(awk -v h="$hz" -v a="$t0" -v b="$t1" -v n="$nr" 'BEGIN { printf "%d", h * (b - a) * n }')
check "frequency mode: $total samples within 20% of $hz Hz x $nr pCPUs x $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') s = $expect" \
    awk -v t="$total" -v e="$expect" 'BEGIN { exit !(t >= 0.8 * e && t <= 1.2 * e) }'
check "no sample lost" grep -q "(0 lost)" stop.txt
finish
