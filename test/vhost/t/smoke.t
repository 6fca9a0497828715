#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The virtual host boots Xen + dom0 and runs the xl-info job; its results
# come back out of the virtual host.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/vhost/smoke
plan 5
"$top/test/vhost/vhost.sh" --timeout 300 "$out" "$top/test/jobs/xl-info.sh"
check "the xl-info job exits 0 in dom0" test $? -eq 0
info=$out/results/xl-info.txt
check "xl info came back out of the virtual host" test -s "$info"
# The version of the tree that was built (this base's xen/Makefile).
want=$(sed -n -e 's/^export XEN_VERSION *= *//p' -e 's/^export XEN_SUBVERSION *= *//p' \
           "$BUILD/xen/xen/Makefile" | paste -sd.)
check "xen_version is $want (.x or -unstable), the version built" \
    grep -q -E "^xen_version *: ${want//./\\.}([.-]|\$)" "$info"
check "nr_cpus >= 2" test "$(sed -n 's/^nr_cpus *: //p' "$info")" -ge 2 2>/dev/null
check "the hypervisor has frame pointers (CONFIG_FRAME_POINTER=y)" \
    grep -qx 'CONFIG_FRAME_POINTER=y' "$BUILD/xen/xen/.config"
finish
