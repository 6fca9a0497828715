#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's hypervisor code (sample ring, stack unwinder) in
# userspace (tools/tests/profile), TAP passed through; then the same
# checks under AddressSanitizer and UBSan, as one check: the stack walks
# must read nothing they were not allowed to; and the sample-cost harness
# of make bench builds and runs.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/c-suite.sh"
c_suite profile "the hypervisor profiler unit tests" || rc=1
[ "$c_suite_built" = 1 ] || exit 1
if c_suite_make run-asan > "$c_suite_out/asan.log" 2>&1 &&
   ! grep -q '^not ok' "$c_suite_out/asan.log"; then
    echo "ok - the same $(grep -c '^ok' "$c_suite_out/asan.log") checks pass under ASan and UBSan"
else
    echo "not ok - the checks under ASan and UBSan"
    sed 's/^/# /' "$c_suite_out/asan.log" | tail -40
    rc=1
fi
# make bench counts a sample's instructions with this build (cost.c).
if c_suite_make "$c_suite_out/profile-cost" > "$c_suite_out/cost.log" 2>&1 &&
   "$c_suite_out/profile-cost" 16 100 > /dev/null 2>&1; then
    echo "ok - the sample-cost harness of make bench builds and runs"
else
    echo "not ok - the sample-cost harness of make bench builds and runs"
    sed 's/^/# /' "$c_suite_out/cost.log" | tail -20
    rc=1
fi
exit "${rc:-0}"
