#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's unit test suites build inside the prepared Xen tree as
# Xen's own tools/tests/Makefile builds them (patch "tools/tests: build
# the sampling profiler's unit tests"): listed in its SUBDIRS, with the
# tree's public headers (tools/include/xen) and no XEN_PUBLIC_INC given,
# with every target that Makefile runs in its SUBDIRS.  The fuzzing
# harnesses build as tools/fuzz/Makefile builds them (patch "tools/fuzz:
# fuzz libxenprofile's readers"): an archive per harness, with the
# tools' compiler and flags (tools/Rules.mk) when the tree is configured.
# Out of tree (O=), so that the prepared tree is left as it was.  The
# 4.17 series does not wire them: skipped there.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
suites="profile profile-pmu profile-arm64 xenprofile"
plan 7
tree=$BUILD/xen
if ! grep -q 'SUBDIRS-.* += xenprofile$' "$tree/tools/tests/Makefile" 2>/dev/null; then
    for s in listed $suites targets fuzz; do skip "$s in tools/tests" "this base's series does not wire the unit tests"; done
    finish
fi
missing=
for s in $suites; do
    grep -q -E "^SUBDIRS-.* \+= $s\$" "$tree/tools/tests/Makefile" || missing="$missing $s"
done
check "tools/tests/Makefile lists the suites${missing:+ (missing:$missing)}" test -z "$missing"
# Every target tools/tests/Makefile runs in its SUBDIRS, each suite has.
targets=$(sed -n 's/^all clean distclean install uninstall: .*/all clean distclean install uninstall/p' "$tree/tools/tests/Makefile")
lacking=
for s in $suites; do
    for t in ${targets:-all clean distclean install uninstall}; do
        make -n -s -C "$tree/tools/tests/$s" O=/nonexistent "$t" > /dev/null 2>&1 || lacking="$lacking $s:$t"
    done
done
check "each suite has the targets tools/tests/Makefile runs in it${lacking:+ (lacking:$lacking)}" test -z "$lacking"
out=$BUILD/tests/in-tree
rm -rf "$out"
for s in $suites; do
    mkdir -p "$out/$s"
    if (unset XEN_PUBLIC_INC; make -s -C "$tree/tools/tests/$s" O="$out/$s" all) > "$out/$s.log" 2>&1; then
        ok "$s builds in the Xen tree with its public headers"
    else
        nok "$s builds in the Xen tree with its public headers"
        tail -n 15 "$out/$s.log" | sed 's/^/# /'
    fi
done
mkdir -p "$out/fuzz"
if grep -q '^SUBDIRS-y += xenprofile$' "$tree/tools/fuzz/Makefile" &&
   make -s -C "$tree/tools/fuzz/xenprofile" O="$out/fuzz" all > "$out/fuzz.log" 2>&1 &&
   [ "$(ls "$out"/fuzz/xenprofile-*-fuzzer.a 2>/dev/null | wc -l)" -eq 4 ]; then
    ok "tools/fuzz/Makefile lists xenprofile, whose 4 archives build in the Xen tree$([ -f "$tree/config/Tools.mk" ] && echo ' (configured: tools/Rules.mk)')"
else
    nok "tools/fuzz/Makefile lists xenprofile, whose 4 archives build in the Xen tree"
    tail -n 15 "$out/fuzz.log" | sed 's/^/# /'
fi
finish
