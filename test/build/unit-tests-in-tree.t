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
# make install puts each test program in $(LIBEXEC)/tests, where Xen's
# CI runs every program with automation/scripts/run-tools-tests: run
# there with that script, they pass.  Out of
# tree (O=), so that the prepared tree is left as it was.  The 4.17
# series does not wire them: skipped there.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
suites="profile profile-pmu profile-arm64 xenprofile"
plan 9
tree=$BUILD/xen
if ! grep -q 'SUBDIRS-.* += xenprofile$' "$tree/tools/tests/Makefile" 2>/dev/null; then
    for s in listed $suites targets fuzz install run; do skip "$s in tools/tests" "this base's series does not wire the unit tests"; done
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
# Installed as Xen's tools/tests install them, and run from there by
# the tree's run-tools-tests (every base whose series wires the suites
# has it).
nsuites=$(echo $suites | wc -w)
dest=$out/dest
rm -rf "$dest"
installed=
for s in $suites; do
    (unset XEN_PUBLIC_INC; make -s -C "$tree/tools/tests/$s" O="$out/$s" DESTDIR="$dest" install) \
        >> "$out/install.log" 2>&1 || installed="$installed $s:failed"
done
progs=$(cd "$dest" 2>/dev/null && find . -path '*/tests/*' -type f -perm -u+x | sort)
dirs=$(for p in $progs; do dirname "$p"; done | sort -u)
check "make install puts the $nsuites test programs in one \$(LIBEXEC)/tests (${dirs:-none}: $(echo $progs | wc -w))${installed:+ (install$installed)}" \
    test -z "$installed" -a "$(echo $progs | wc -w)" -eq "$nsuites" -a "$(echo $dirs | wc -w)" -eq 1
runner=$tree/automation/scripts/run-tools-tests
if [ "$(echo $dirs | wc -w)" -eq 1 ] && [ -x "$runner" ]; then
    (cd "$out" && "$runner" "$dest/${dirs#./}" "$out/junit.xml") > "$out/run.log" 2>&1; rc=$?
    cases=$(grep -c '<testcase ' "$out/junit.xml")
    fails=$(grep -c '<failure ' "$out/junit.xml")
    passed=$(grep -c '^ok ' "$out/run.log")
    if [ "$rc" -eq 0 ] && [ "$cases" -eq "$nsuites" ] && [ "$fails" -eq 0 ] &&
       ! grep -q '^not ok' "$out/run.log"; then
        ok "the installed test programs pass, run by Xen's run-tools-tests ($cases programs, $passed checks)"
    else
        nok "the installed test programs pass, run by Xen's run-tools-tests (rc $rc, $cases programs, $fails failed)"
        grep -E '^(not ok|FAILED|Running)' "$out/run.log" | head -20 | sed 's/^/# /'
    fi
else
    nok "the installed test programs pass (${dirs:-nothing installed}; run-tools-tests: $([ -x "$runner" ] && echo here || echo missing))"
fi
finish
