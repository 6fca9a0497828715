#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# xl-info.sh OUTDIR: the smallest host job: the toolstack talks to Xen.
# Runs in dom0 of any Xen host (the virtual host runs it the same way),
# prints TAP, leaves xl info/dmesg/list output in OUTDIR, exits non-zero
# if a check failed.
out=${1:-.}
mkdir -p "$out"
n=0
fails=0
check() {    # check DESCRIPTION COMMAND...
    desc=$1
    shift
    n=$((n + 1))
    if "$@"; then
        echo "ok $n - $desc"
    else
        echo "not ok $n - $desc"
        fails=$((fails + 1))
    fi
}
field() {    # field NAME: the value of NAME in xl-info.txt
    sed -n "s/^$1 *: *//p" "$out/xl-info.txt"
}

echo "1..5"
check "xl info runs" sh -c "xl info > '$out/xl-info.txt'"
cat "$out/xl-info.txt"
ver=$(field xen_major).$(field xen_minor)
check "Xen says its version ($ver)" sh -c "echo '$ver' | grep -q -E '^4\.[0-9]+\$'"
check "at least 2 pCPUs" test "$(field nr_cpus)" -ge 2
check "xl list shows Domain-0" sh -c "xl list > '$out/xl-list.txt' && grep -q '^Domain-0 ' '$out/xl-list.txt'"
cat "$out/xl-list.txt"
check "xl dmesg has the boot log of Xen $ver" sh -c "xl dmesg > '$out/xl-dmesg.txt' && grep -q 'Xen version $ver' '$out/xl-dmesg.txt'"
exit $((fails > 0))
