#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The pinned tarball is checked: a wrong file is refused with a clear error.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch=$top/scripts/fetch-xen.sh

plan 10
head -c 4735560 /dev/urandom > "$tmp/wrong.tar.xz"
XEN_TARBALL=$tmp/wrong.tar.xz "$fetch" "$tmp/out.tar.xz" 2>"$tmp/err"
rc=$?
check "a wrong tarball of the right size exits 2" test $rc -eq 2
check "the error says checksum mismatch" grep -q "error: checksum mismatch" "$tmp/err"
check "the error says how to supply the tarball" grep -q "XEN_TARBALL=" "$tmp/err"
check "nothing is left at the output path" test ! -e "$tmp/out.tar.xz"

echo corrupt > "$tmp/short.tar.xz"
XEN_TARBALL=$tmp/short.tar.xz "$fetch" "$tmp/out.tar.xz" 2>"$tmp/err"
check "a short file exits 2" test $? -eq 2

XEN_TARBALL=$tmp/missing.tar.xz "$fetch" "$tmp/out.tar.xz" 2>"$tmp/err"
check "a missing XEN_TARBALL exits 1 and says so" \
    sh -c "test $? -eq 1 && grep -q 'no such file' '$tmp/err'"

# Debian's packaging (make debian-packages) is pinned too.
good=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
head -c 139916 /dev/urandom > "$tmp/wrong.debian.tar.xz"
XEN_TARBALL=${good:-$tmp/missing.tar.xz} XEN_DEBIAN_TARBALL=$tmp/wrong.debian.tar.xz \
    "$fetch" "$tmp/orig.tar.xz" "$tmp/out.debian.tar.xz" 2>"$tmp/err"
rc=$?
if [ -n "$good" ]; then
    check "a wrong debian.tar.xz exits 2 (status $rc)" test $rc -eq 2
    check "the error names its pin" grep -q "expected sha256 5bcf3812" "$tmp/err"
    check "nothing is left at its output path" test ! -e "$tmp/out.debian.tar.xz"
else
    for i in 1 2 3; do skip "a wrong debian.tar.xz" "the pinned tarball is not downloaded yet"; done
fi

if [ -n "$good" ]; then
    XEN_TARBALL=$good "$fetch" "$tmp/out.tar.xz" 2>"$tmp/err"
    check "the pinned tarball is accepted and copied" \
        sh -c "test $? -eq 0 && cmp -s '$good' '$tmp/out.tar.xz'"
else
    skip "the pinned tarball is accepted" "not downloaded yet"
fi
finish
