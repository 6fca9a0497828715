#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# flask-policy.sh SRC OUT [sed-expression]: build Xen's FLASK policy from
# the prepared tree SRC into the file OUT, after applying the sed
# expression (if any) to a copy of its dom0 module.  Used to check that a
# policy without the profile_op grant denies the profiler.
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2
expr=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tools/flask"
cp -r "$src/tools/flask/policy" "$tmp/tools/flask/"
for f in xen config Config.mk tools/Rules.mk; do
    ln -s "$src/$f" "$tmp/$f"
done
[ -n "$expr" ] && sed -i -e "$expr" "$tmp/tools/flask/policy/modules/dom0.te"
mkdir -p "$tmp/out"
make -s -f "$tmp/tools/flask/policy/Makefile.common" -C "$tmp/tools/flask/policy" \
    FLASK_BUILD_DIR="$tmp/out" POLICY_FILENAME="$tmp/out/policy" >/dev/null
cp "$tmp/out/policy" "$out"
