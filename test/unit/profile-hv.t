#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's hypervisor code (sample ring, stack unwinder) in
# userspace: build tools/tests/profile into $BUILD/tests/profile and pass
# its TAP output through.  A build that fails is one failed check, with
# the compiler output as "# " comments.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
mk() { make -s --no-print-directory -C "$top/tools/tests/profile" "$@"; }

mkdir -p "$BUILD/tests/profile" &&
    out=$(cd "$BUILD/tests/profile" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/profile"; exit 1; }
if ! mk O="$out" all > "$out/build.log" 2>&1; then
    echo "1..1"
    echo "not ok 1 - build the hypervisor profiler unit tests"
    sed 's/^/# /' "$out/build.log"
    exit 1
fi
mk O="$out" run 2>&1 | sed 's/^make: /# make: /'
rc=${PIPESTATUS[0]}
# The same checks again under AddressSanitizer and UBSan, as one check:
# the stack walks must read nothing they were not allowed to.
if mk O="$out" run-asan > "$out/asan.log" 2>&1 &&
   ! grep -q '^not ok' "$out/asan.log"; then
    echo "ok - the same $(grep -c '^ok' "$out/asan.log") checks pass under ASan and UBSan"
else
    echo "not ok - the checks under ASan and UBSan"
    sed 's/^/# /' "$out/asan.log" | tail -40
    rc=1
fi
exit "$rc"
