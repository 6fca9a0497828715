#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# regen-test-data.sh: make the expected outputs of the libxenprofile unit
# tests (tools/tests/xenprofile/data/expected/) again from what the code
# gives now, then show what changed.  Run it when an output changes on
# purpose, read the diff, and commit it with the change.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
out=$BUILD/tests/xenprofile-regen
mkdir -p "$out"
make -s --no-print-directory -C "$top/tools/tests/xenprofile" O="$out" \
    XEN_PUBLIC_INC="$("$top/scripts/public-headers.sh" "$BUILD/tests/public")" all
TEST_REGEN=1 "$out/test-xenprofile" | grep '^# regenerated' || true
git -C "$top" status --short -- tools/tests/xenprofile/data/expected
git -C "$top" --no-pager diff --stat -- tools/tests/xenprofile/data/expected
