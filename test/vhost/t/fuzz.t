#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's sysctl fuzzed, and large starts, in a virtual host of 8
# pCPUs (3 GiB: Xen then has about 2 GiB free) booted with
# profile-mem=256M, so that 64 MiB rings fit on 4 pCPUs and not on all:
# profile-fuzz.sh with fuzz-sysctl, as the toolstack installs them.  The job's TAP results are passed
# through, then its figures are printed.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/vhost/fuzz
jobs=$BUILD/dist/usr/lib/xen/profile
if [ ! -x "$jobs/fuzz-sysctl" ]; then
    nok "fuzz-sysctl is installed beside the job ($jobs)"
    finish
fi
ok "fuzz-sysctl is installed beside the job"
"$top/test/vhost/vhost.sh" --quiet --smp 8 --mem 3072 --timeout 900 \
    --xen-args profile-mem=256M "$out" \
    "$jobs/profile-fuzz.sh" "$jobs/tap.sh" "$jobs/fuzz-sysctl"
rc=$?
job=$(sed -n '/VHOST: job start/,/VHOST: job end/p' "$out/console.log" |
      sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//')
planned=$(echo "$job" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | tail -n 1)
echo "$job" | grep -E '^(ok|not ok) [0-9]+ - ' |
    sed 's/^\(ok\|not ok\) [0-9]* -/\1 - fuzz job:/'
echo "$job" | grep -E '^# # ' || true
seen=$(echo "$job" | grep -c -E '^(ok|not ok) [0-9]+ - ')
check "the fuzz job exits 0 in dom0 (status $rc)" test $rc -eq 0
check "the fuzz job reported its planned results" test "$seen" -ge "${planned:-999}"
finish
