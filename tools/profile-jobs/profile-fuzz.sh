#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# profile-fuzz.sh OUTDIR: the profiler's sysctl against bad input and
# large starts, on any Xen host with the profiler built in (the virtual
# host runs it with 8 pCPUs).  Run in dom0 as root, with fuzz-sysctl
# beside this script or in PATH.  Prints
# TAP, leaves fuzz.txt, the status outputs and xl dmesg in OUTDIR.
#
# Environment: FUZZ_CALLS (default 100000), FUZZ_CYCLES (default 1000),
# FUZZ_SEED (default 1).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
out=${1:-./profile-fuzz-artifacts}
mkdir -p "$out" && cd "$out" || exit 1
fuzz=$here/fuzz-sysctl
[ -x "$fuzz" ] || fuzz=$(command -v fuzz-sysctl)

plan 16
xl profile discard >/dev/null 2>&1
xl dmesg -c > dmesg-before.txt

# 1. Random sysctls in every state, then cycles with samples in the rings.
if [ -n "$fuzz" ]; then
    "$fuzz" "${FUZZ_CALLS:-100000}" "${FUZZ_CYCLES:-1000}" "${FUZZ_SEED:-1}" \
        > fuzz.txt 2>&1
    frc=$?
    sed 's/^/# /' fuzz.txt
    sed -n -e 's/^ok [0-9]* - /ok /p' -e 's/^not ok [0-9]* - /nok /p' \
        fuzz.txt > fuzz-checks.txt
    while read -r res desc; do
        if [ "$res" = ok ]; then ok "fuzz: $desc"; else nok "fuzz: $desc"; fi
    done < fuzz-checks.txt
    check "fuzz-sysctl reported its 6 checks and exited 0 (status $frc)" \
        sh -c "[ $frc -eq 0 ] && [ \$(wc -l < fuzz-checks.txt) -eq 6 ]"
else
    for i in 1 2 3 4 5 6 7; do skip "fuzz-sysctl" "not found beside the job or in PATH"; done
fi
xl dmesg > dmesg-fuzz.txt
check "xl dmesg: no warning, bug, assertion or trap after the fuzzing" \
    sh -c "! grep -i -E 'warn|bug|assert|fatal|panic|traps\.c|page fault|Xen call trace' dmesg-fuzz.txt"
check "the profiler is idle after the fuzzing" \
    sh -c 'xl profile status | grep -q "^state *: idle"'

# 2. Large starts: rings of 64 MiB on every pCPU, within the cap that
#    status reports (profile-mem=, and at most a quarter of Xen's free
#    memory), else refused.
nr=$(xl info | sed -n 's/^nr_cpus *: //p')
free=$(xl info | sed -n 's/^free_memory *: //p')
capkib=$(xl profile status --json | tr -d ' \n' |
         sed -n 's/.*"total_kib_max":\([0-9]*\).*/\1/p')
cap=$((${capkib:-0} / 1024))
pm=$(xl info | sed -n 's/^xen_commandline *:.*profile-mem=\([0-9]*\)M.*/\1/p')
quarter=$((free / 4))
if [ -n "$pm" ]; then
    want=$quarter; [ "$want" -gt "$pm" ] && want=$pm
    check "status reports the cap: the smaller of profile-mem=${pm}M and a quarter of $free MiB free ($cap MiB, expected $want)" \
        sh -c "[ $cap -ge $((want - 1)) ] && [ $cap -le $((want + 1)) ]"
else
    check "status reports the cap: at most a quarter of $free MiB free ($cap MiB)" \
        sh -c "[ $cap -ge 1 ] && [ $cap -le $((quarter + 1)) ]"
fi
fit=$((cap / 64)); [ $fit -gt "$nr" ] && fit=$nr
diag "$nr pCPUs, $free MiB free: cap $cap MiB, $fit rings of 64 MiB fit"
if [ "$fit" -ge 1 ]; then
    check "start -b 65536 on $fit pCPUs (0-$((fit - 1))): allowed" \
        sh -c "xl profile start -b 65536 -C 0-$((fit - 1)) > start-big.txt 2>&1"
    cat start-big.txt
    xl profile status > status-big.txt
    cat status-big.txt
    check "status: ring 65536 KiB, $fit pCPUs sampled" \
        sh -c "grep -q '^ring *: 65536 KiB' status-big.txt &&
               [ \$(awk '\$2 == \"sampled\"' status-big.txt | wc -l) -eq $fit ]"
    sleep 1
    check "stop saves its samples" \
        sh -c "xl profile stop --data big.data > stop-big.txt 2>&1 && [ -s big.data ]"
    check "Xen's free memory is back after it ($(xl info | sed -n 's/^free_memory *: //p') of $free MiB)" \
        test "$(xl info | sed -n 's/^free_memory *: //p')" -ge $((free - 1))
else
    for i in 1 2 3 4; do skip "start -b 65536" "less than 256 MiB free"; done
fi
if [ "$fit" -lt "$nr" ]; then
    check "start -b 65536 on all $nr pCPUs ($((nr * 64)) MiB > cap $cap MiB): one-line E2BIG error" \
        sh -c "! xl profile start -b 65536 2> err-big.txt && [ \$(wc -l < err-big.txt) -eq 1 ] &&
               grep -q 'more than Xen allows now ($capkib KiB in all)' err-big.txt && cat err-big.txt"
    check "nothing is left allocated: idle, free memory unchanged" \
        sh -c "xl profile status | grep -q '^state *: idle' &&
               [ \$(xl info | sed -n 's/^free_memory *: //p') -ge $((free - 1)) ]"
else
    skip "start -b 65536 on all pCPUs over the cap" "all $nr rings fit in $cap MiB"
    skip "nothing is left allocated" "all $nr rings fit in $cap MiB"
fi
xl dmesg > xl-dmesg.txt
finish
