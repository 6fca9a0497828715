#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end on the Arm virtual host: the installed profile-timer.sh, the
# main job, with the timer source (the hypervisor timer interrupt; the job
# asks for -s timer where a PMU exists, as here).  Its TAP results are
# passed through.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/vhost-job.sh"
: "${BUILD:=$top/build/xen-4.22-arm64}"
export XEN_ARCH=arm64
out=$BUILD/vhost/timer
jobs=$BUILD/dist/usr/lib/xen/profile
vhost_job "arm timer job" "--timeout 900" "$out" \
    "$jobs/profile-timer.sh" "$jobs/tap.sh" "$jobs/pty-run"
res=$out/results
check "the timer source ran, as requested: $(head -n 1 "$res/start.txt" 2>/dev/null)" \
    grep -q "timer source (requested)" "$res/start.txt"
check "Xen on Arm's walks end at its roots: guest vectors and idle_loop" \
    sh -c "grep -q '^guest_sync_slowpath;' '$res/out.folded' && grep -q '^idle_loop' '$res/out.folded'"
finish
