#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# libxenprofile unit tests: build tools/tests/xenprofile into
# $BUILD/tests/xenprofile and pass its TAP output through.  A build that
# fails is one failed check, with the compiler output as "# " comments.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
mk() { make -s --no-print-directory -C "$top/tools/tests/xenprofile" "$@"; }

mkdir -p "$BUILD/tests/xenprofile" &&
    out=$(cd "$BUILD/tests/xenprofile" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/xenprofile"; exit 1; }
if ! mk O="$out" all > "$out/build.log" 2>&1; then
    echo "1..1"
    echo "not ok 1 - build the libxenprofile unit tests"
    sed 's/^/# /' "$out/build.log"
    exit 1
fi
mk O="$out" run 2>&1 | sed 's/^make: /# make: /'
exit "${PIPESTATUS[0]}"
