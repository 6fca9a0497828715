#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The quick set of make check-configs on this base's prepared tree: the
# hypervisor with the profiler in the configurations that failed to link
# before (x86 EXPERT=y AMD_SVM=n; arm64 MPU=y), built out of tree.  Xen
# 4.22 and staging only: their Kconfig has those options.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
plan 2
ver=$("$top/scripts/xen-version.sh" "$BUILD/xen" 2>/dev/null)
case $ver in
4.17)
    skip "x86 without AMD_SVM builds with the profiler" "Xen 4.17: no AMD_SVM option"
    skip "arm64 with MPU builds with the profiler" "Xen 4.17: no Arm series"
    finish ;;
esac
out=$BUILD/tests/configs
mkdir -p "$out"
QUICK=1 "$top/scripts/check-configs.sh" "$BUILD/xen" "$out" > "$out/log" 2>&1
row() { grep "^| $1 |" "$out/table.md" 2>/dev/null | cut -d'|' -f6 | sed 's/^ *//; s/ *$//'; }
for c in "x86-no-svm:x86 without AMD_SVM (EXPERT=y)" "arm64-mpu:arm64 with MPU=y"; do
    r=$(row "${c%%:*}")
    case $r in
    built*) ok "${c#*:} builds with the profiler ($r)" ;;
    *) nok "${c#*:} builds with the profiler (${r:-no result})"
       tail -n 20 "$out/log" | sed 's/^/# /' ;;
    esac
done
finish
