#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end on the Arm virtual host booted with -icount (one pCPU: QEMU
# then runs Xen on one thread), where the emulated PMUv3 lists
# INST_RETIRED: the PMU source samples instructions on an event counter,
# which counts at EL2 through MDCR_EL2.HPME (patches/4.22/0016).  Its TAP
# results are passed through.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/vhost-job.sh"
: "${BUILD:=$top/build/xen-4.22-arm64}"
export XEN_ARCH=arm64
out=$BUILD/vhost/events
jobs=$BUILD/dist/usr/lib/xen/profile
vhost_job "arm events job" "--icount --smp 1 --timeout 600" "$out" \
    "$top/test/jobs/pmu-events.sh" "$jobs/tap.sh"
finish
