#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The functions that end the profiler's stack walks and are found by name
# at boot (root_names[] of xen/arch/{x86,arm}/profile/sample.c: static
# functions and assembly labels, whose addresses C cannot take) are
# defined in each base's source: a function renamed upstream would end no
# walk, and Xen says so only in its boot log (XENLOG_INFO, "profiler: no
# stack root NAME", as a configuration without PV or SVM lacks some).
# Arm has no 4.17 series.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
: "${SHARED_XEN:=$top/../shared/xen}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

deb=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
staging=$(ls "$SHARED_XEN"/xen-staging-*.tar.xz 2>/dev/null | head -n 1)
checks=("4.17 x86 $deb" "4.22 x86 $SHARED_XEN/xen-4.22.0.tar.xz"
        "4.22 arm $SHARED_XEN/xen-4.22.0.tar.xz" "staging x86 $staging"
        "staging arm $staging")
plan $((${#checks[@]} + 2))

# names ARCH: the entries of root_names[] in the series' sample.c.
names() {
    sed -n '/^static const char \*const root_names\[\] = {/,/^};/p' \
        "$top/xen/arch/$1/profile/sample.c" | grep -o '"[^"]*"' | tr -d '"'
}
for a in x86 arm; do
    n=$(names $a | wc -l)
    check "$a: root_names[] read from sample.c ($n names)" [ "$n" -ge 4 ]
done

# defined DIR NAME: a C function definition or an assembly label/FUNC().
defined() {
    grep -rqE "(^[a-z].*[ *]$2\(|^$2:|FUNC(_LOCAL)?\($2\)|ENTRY\($2\)|LABEL(_LOCAL)?\($2\b)" \
        --include='*.c' --include='*.S' "$1"
}
for c in "${checks[@]}"; do
    set -- $c
    base=$1 arch=$2 tarball=${3:-}
    if [ ! -f "$tarball" ]; then
        skip "Xen $base $arch: the named stack roots are defined" "its source is not here"
        continue
    fi
    d=$tmp/$base
    [ -d "$d" ] || { mkdir -p "$d" &&
        tar -C "$d" --strip-components=1 -xf "$tarball" --wildcards \
            '*/xen/arch/x86/*' '*/xen/arch/arm/*'; }
    missing=$(for n in $(names $arch); do defined "$d/xen/arch/$arch" "$n" || echo "$n"; done)
    if [ -z "$missing" ]; then
        ok "Xen $base $arch: the $(names $arch | wc -l) named stack roots are defined"
    else
        nok "Xen $base $arch: the named stack roots are defined"
        diag "not found: $(echo $missing)"
    fi
done
finish
