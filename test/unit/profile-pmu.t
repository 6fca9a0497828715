#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's PMU driver (xen/arch/x86/profile/pmu.c, pmu-xen.c,
# xen/common/pmu-owner.c) against a simulated PMU in userspace: build
# tools/tests/profile-pmu into $BUILD/tests/profile-pmu and pass its TAP
# output through.  A build that fails is one failed check, with the
# compiler output as "# " comments.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
mk() { make -s --no-print-directory -C "$top/tools/tests/profile-pmu" "$@"; }

mkdir -p "$BUILD/tests/profile-pmu" &&
    out=$(cd "$BUILD/tests/profile-pmu" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/profile-pmu"; exit 1; }
if ! mk O="$out" all > "$out/build.log" 2>&1; then
    echo "1..1"
    echo "not ok 1 - build the PMU driver tests"
    sed 's/^/# /' "$out/build.log"
    exit 1
fi
mk O="$out" run 2>&1 | sed 's/^make: /# make: /'
exit "${PIPESTATUS[0]}"
