#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end on the Arm virtual host (QEMU's emulated PMUv3): the installed
# profile-pmu.sh samples Xen on Arm with the PMU source at 997 Hz, a real
# counter-overflow path.  Its TAP results are passed through; here it must
# also have used the PMU (a host without one would only skip).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/vhost-job.sh"
: "${BUILD:=$top/build/xen-4.22-arm64}"
export XEN_ARCH=arm64
out=$BUILD/vhost/pmu
jobs=$BUILD/dist/usr/lib/xen/profile
vhost_job "arm pmu job" "--timeout 600" "$out" \
    "$jobs/profile-pmu.sh" "$jobs/tap.sh"
res=$out/results
check "the PMU source ran, not the timer: $(head -n 1 "$res/start.txt" 2>/dev/null)" \
    grep -q "with the pmu source (requested), cycles, 997 Hz" "$res/start.txt"
check "no check was skipped for want of a PMU" \
    sh -c "! echo \"\$1\" | grep -q 'no usable PMU'" _ "$vhost_job_output"
xp() { LD_LIBRARY_PATH=$HOST_DIST/usr/lib "$HOST_DIST/usr/bin/xenprofile" "$@"; }
if [ -n "${HOST_DIST:-}" ] && [ -x "$HOST_DIST/usr/bin/xenprofile" ]; then
    xp -i "$res/pmu.data" > "$out/report.txt" 2> "$out/report.err"
    check "xenprofile on the build machine reads the arm64 data file ($(grep -m 1 -o 'Xen [^,]* on [a-z0-9_]*' "$out/report.txt"))" \
        grep -q 'aarch64' "$out/report.txt"
    check "its functions are Xen on Arm's (guest_sync_slowpath, idle_loop)" \
        sh -c "grep -q guest_sync_slowpath '$out/report.txt' && grep -q idle_loop '$out/report.txt'"
    # The build's aarch64 xen-syms names the samples too (build-id checked).
    xp -i "$res/pmu.data" --xen-syms "$BUILD/xen/xen/xen-syms" \
        > "$out/report-syms.txt" 2> "$out/report-syms.err"
    check "and so does the build's aarch64 xen-syms (--xen-syms: build-id matches, same functions)" \
        sh -c "grep -q guest_sync_slowpath '$out/report-syms.txt' && ! grep -q -i 'error\|differ' '$out/report-syms.err'"
else
    skip "xenprofile on the build machine reads the arm64 data file" "no HOST_DIST"
    skip "its functions are Xen on Arm's" "no HOST_DIST"
    skip "and so does the build's aarch64 xen-syms" "no HOST_DIST"
fi
finish
