#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The installed profile-pmu.sh runs unchanged in the virtual host, which has no
# PMU: it must refuse -s pmu clearly, fall back with -s auto, and skip the
# rest.  Its TAP results are passed through.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/vhost/pmu
jobs=$BUILD/dist/usr/lib/xen/profile
"$top/test/vhost/vhost.sh" --quiet --timeout 300 "$out" \
    "$jobs/profile-pmu.sh" "$jobs/tap.sh"
rc=$?
job=$(sed -n '/VHOST: job start/,/VHOST: job end/p' "$out/console.log" |
      sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//')
echo "$job" | grep -E '^(ok|not ok) ' | sed 's/^\(ok\|not ok\) [0-9]* -/\1 - pmu job:/'
check "the PMU job exits 0 in the virtual host (status $rc)" test $rc -eq 0
check "it says why there is no PMU" grep -q "source pmu: no usable PMU" "$out/results/start-err.txt"
finish
