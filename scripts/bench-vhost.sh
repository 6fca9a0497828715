#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-vhost.sh: the hypervisor side of make bench, in the virtual host
# (TCG: printed, never asserted; the same job runs on real hardware):
# profile-overhead.sh (as the toolstack installs it) with 8 pCPUs, the overhead of profiling
# on a loop of xen_version hypercalls (off, 97 Hz, 1 kHz, 10 kHz,
# interleaved rounds) and the latency of `xl profile stop` after 60 s at
# 997 Hz on every pCPU; drain-bench: how long other sysctls wait while the
# rings are drained at 10 kHz x 127 frames, in reads of 1 MiB, 256 KiB and
# 64 KiB; then the cost of the sample hook when no session runs, from the
# disassembly of the timer interrupt.
# BASE_BUILD: the build folder of the base (its xen, dist; the kernel in
# KERNEL_DIR).  Environment: ROUNDS, COUNT, STOP_SECONDS as the job's.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
: "${BASE_BUILD:?}"
out=$BASE_BUILD/bench-vhost
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ ! -x "$BASE_BUILD/dist/usr/sbin/xl" ] || [ ! -f "$BASE_BUILD/xen/xen/xen" ]; then
    echo "virtual host: not measured (no build in $BASE_BUILD: run make build)"
    exit 0
fi
jobs=$BASE_BUILD/dist/usr/lib/xen/profile
cat > "$out/job.sh" <<JOB
#!/bin/sh
d=\$(dirname "\$0")
ROUNDS=${ROUNDS:-9} COUNT=${COUNT:-20000} STOP_SECONDS=${STOP_SECONDS:-60} \\
    sh "\$d/profile-overhead.sh" "\$@"
rc=\$?
# Other sysctls while the rings are drained, in reads of 1 MiB (the most
# one read copies), 256 KiB (xl's) and 64 KiB.
for kib in 1024 256 64; do
    "\$d/drain-bench" ${DRAIN_SECONDS:-40} \$kib 10000 || rc=1
done
exit \$rc
JOB
echo "virtual host (QEMU TCG, 8 pCPUs: figures of this machine, not of hardware):"
rc=0
BUILD=$BASE_BUILD "$top/test/vhost/vhost.sh" --quiet --smp 8 --mem 3072 \
    --timeout 1500 "$out/vhost" "$out/job.sh" \
    "$jobs/profile-overhead.sh" "$jobs/tap.sh" "$jobs/hypercall-loop" \
    "$jobs/drain-bench" || rc=$?
sed -n '/VHOST: job start/,/VHOST: job end/p' "$out/vhost/console.log" |
    sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//' | grep -E '^(# |not ok)' |
    sed 's/^# /  /'
[ $rc -eq 0 ] || echo "  (the virtual host's job exited $rc: $out/vhost/console.log)"

# The hook when no session runs: the timer interrupt's test of the
# sampling flag, from the disassembly of xen-syms.
syms=$BASE_BUILD/xen/xen/xen-syms
echo
echo "the timer interrupt when not profiling (objdump of $syms):"
objdump -d --no-show-raw-insn "$syms" > "$out/xen-syms.dis"
awk '/<apic_timer_interrupt>:/ { on = 1 } on && /^$/ { exit } on' \
    "$out/xen-syms.dis" > "$out/apic_timer_interrupt.dis"
if grep -q profile_timer_cpus "$out/apic_timer_interrupt.dis"; then
    grep -B1 -A2 'profile_timer_cpus' "$out/apic_timer_interrupt.dis" |
        sed 's/^/  /'
else
    echo "  (no test of profile_timer_cpus in apic_timer_interrupt: see $out/apic_timer_interrupt.dis)"
fi
