#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# profile-overhead.sh OUTDIR: what profiling costs a workload, on any Xen
# host with the profiler built in (the virtual host runs it in make
# bench).  Run in dom0 as root, with hypercall-loop
# beside this script or in PATH.
#
# 1. ROUNDS rounds, each timing COUNT xen_version hypercalls with
#    profiling off, at 97 Hz, 1 kHz and 10 kHz (timer source, all pCPUs;
#    the modes interleaved, so that a drift of the host is in all of
#    them): ns per hypercall, median and spread of each mode, and the
#    overhead of each rate as the ratio of the medians.
# 2. With STOP_SECONDS set: a session of that long at 997 Hz on every
#    pCPU, then the latency of `xl profile stop` (reading every ring and
#    writing the data file) and the file's size.
#
# Prints TAP (that every measurement ran) and the figures as comments,
# and a "progress:" line after each measurement and every 10 s of the
# session (a long run under emulation is never silent); leaves overhead.txt (one "mode ns" line per measurement) in OUTDIR.
# Environment: ROUNDS (5), COUNT (200000), STOP_SECONDS (unset: no 2.),
# STOP_RING_KIB (16384).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
out=${1:-./profile-overhead-artifacts}
mkdir -p "$out" && cd "$out" || exit 1
loop=$here/hypercall-loop
[ -x "$loop" ] || loop=$(command -v hypercall-loop)
rounds=${ROUNDS:-5}
count=${COUNT:-200000}

plan 3
xl profile discard > /dev/null 2>&1
: > overhead.txt
failed=0
r=0
while [ $r -lt "$rounds" ]; do
    r=$((r + 1))
    for mode in off 97 1000 10000; do
        if [ $mode != off ] && ! xl profile start -s timer -F $mode > /dev/null; then
            failed=$((failed + 1))
            continue
        fi
        ns=$("$loop" "$count" | sed -n 's/^ns_per_call //p')
        [ $mode != off ] && xl profile discard > /dev/null
        if [ -n "$ns" ]; then echo "$mode $ns" >> overhead.txt; else failed=$((failed + 1)); fi
        # Progress, so that a watcher sees the job alive (not TAP).
        echo "progress: round $r of $rounds, $mode: ${ns:-failed} ns per call"
    done
done
check "every round timed the hypercalls in every mode ($rounds rounds of $count, $failed failed)" \
    sh -c "[ -n '$loop' ] && [ $failed -eq 0 ] && [ \$(wc -l < overhead.txt) -eq $((rounds * 4)) ]"
# The median, min and max of each mode, and the ratios to off.
awk '
{ v[$1, ++n[$1]] = $2 }
END {
    split("off 97 1000 10000", modes, " ")
    for (m = 1; m <= 4; m++) {
        k = modes[m]; c = n[k]
        for (i = 1; i <= c; i++) a[i] = v[k, i]
        for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++)
            if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        med[k] = c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
        lo[k] = a[1]; hi[k] = a[c]
    }
    printf "# %-6s %12s %12s %12s %10s\n", "mode", "ns/call", "min", "max", "overhead"
    for (m = 1; m <= 4; m++) {
        k = modes[m]
        printf "# %-6s %12.1f %12.1f %12.1f %9.1f%%\n", k == "off" ? k : k " Hz", \
            med[k], lo[k], hi[k], med["off"] ? (med[k] / med["off"] - 1) * 100 : 0
    }
}' overhead.txt | tee overhead-table.txt
check "profiling left no session behind" sh -c 'xl profile status | grep -q "^state *: idle"'

if [ -n "${STOP_SECONDS:-}" ]; then
    nr=$(xl info | sed -n 's/^nr_cpus *: //p')
    xl profile start -s timer -F 997 -b "${STOP_RING_KIB:-16384}" > /dev/null
    s=0
    while [ $s -lt "$STOP_SECONDS" ]; do
        d=$((STOP_SECONDS - s < 10 ? STOP_SECONDS - s : 10))
        sleep $d
        s=$((s + d))
        echo "progress: profiling for the stop latency, $s of $STOP_SECONDS s"
    done
    echo "progress: xl profile stop (reading $nr rings)"
    # busybox's date has no %N: /proc/uptime, in hundredths of a second.
    t0=$(tr -d . < /proc/uptime | cut -d' ' -f1)
    xl profile stop --data stop.data > stop.txt 2>&1
    src=$?
    t1=$(tr -d . < /proc/uptime | cut -d' ' -f1)
    sed 's/^/# /' stop.txt
    size=$(wc -c < stop.data 2>/dev/null || echo 0)
    echo "# stop after ${STOP_SECONDS} s x $nr pCPUs at 997 Hz: $(( (t1 - t0) * 10 )) ms, data file $((size / 1024)) KiB"
    check "xl profile stop after ${STOP_SECONDS} s on $nr pCPUs saved the data file" \
        sh -c "[ $src -eq 0 ] && [ $size -gt 0 ]"
else
    skip "xl profile stop latency" "STOP_SECONDS not set"
fi
finish
