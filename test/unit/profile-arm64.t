#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's hypervisor code (AArch64 stack walk, guest modes, the
# PMUv3 source over a simulated PMU and GIC) in
# userspace (tools/tests/profile-arm64), TAP passed through; then the same
# checks under AddressSanitizer and UBSan, as one check: the stack walks
# must read nothing they were not allowed to.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/c-suite.sh"
c_suite profile-arm64 "the Arm profiler unit tests" || rc=1
[ "$c_suite_built" = 1 ] || exit 1
if c_suite_make run-asan > "$c_suite_out/asan.log" 2>&1 &&
   ! grep -q '^not ok' "$c_suite_out/asan.log"; then
    echo "ok - the same $(grep -c '^ok' "$c_suite_out/asan.log") checks pass under ASan and UBSan"
else
    echo "not ok - the checks under ASan and UBSan"
    sed 's/^/# /' "$c_suite_out/asan.log" | tail -40
    rc=1
fi
exit "${rc:-0}"
