#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The harness fails fast and loudly: a dom0 that panics, a job that hangs
# silently, and a job that never ends each fail within their timeout with
# the console tail printed; on a hang, with what Xen and dom0 say of their
# state.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vhost=$top/test/vhost/vhost.sh

job() {    # job NAME BODY: write a job script
    printf '#!/bin/sh\n%s\n' "$2" > "$tmp/$1"
    chmod +x "$tmp/$1"
}
# run NAME VHOST-OPTIONS...: run job NAME; its status in rc, seconds in secs
run() {
    t0=$(date +%s)
    name=$1
    shift
    "$vhost" "$@" "$BUILD/vhost/$name" "$tmp/$name" 2>"$tmp/err" >/dev/null
    rc=$?
    secs=$(( $(date +%s) - t0 ))
}
# expect WHAT STATUS HOW PATTERN LIMIT: the run failed with STATUS, and
# its error output says PATTERN in under LIMIT seconds
expect() {
    check "$1 fails with status $2 (got $rc)" test "$rc" -eq "$2"
    check "$3 ($secs s)" \
        sh -c "grep -q '$4' '$tmp/err' && [ $secs -lt $5 ]"
}

plan 12
job panic 'echo "job: crashing dom0"; echo c > /proc/sysrq-trigger; sleep 600'
run panic --timeout 240
expect "a dom0 panic" 125 "it is detected as a crash, well before the timeout" \
    'FAILED.*crash:' 200
check "the console tail is printed" grep -q 'console tail' "$tmp/err"

job silent 'echo "job: sleeping"; sleep 600'
run silent --timeout 240 --silence 15
expect "a silent hang" 124 "it is detected by the silence timeout" \
    'FAILED.*hang: console silent' 200
check "the tail shows the job's last line" grep -q 'job: sleeping' "$tmp/err"
check "Xen was asked where its pCPUs and dom0's vCPUs are, and said" \
    sh -c "grep -q 'Dumping Dom0 vcpu#0 state' '$tmp/err' && grep -q 'Dumping CPU0 host state' '$tmp/err'"
check "dom0 was asked for its blocked tasks and its CPUs' backtraces" \
    sh -c "grep -q 'Show Blocked State' '$tmp/err' && grep -q 'backtrace of all active CPUs' '$tmp/err'"
check "the verdict comes last and says how far the host got" \
    sh -c "tail -n 1 '$tmp/err' | grep -q 'FAILED.*reached: dom0 up at .*, job start at '"

job busy 'while :; do echo "job: tick"; sleep 1; done'
run busy --timeout 40 --silence 30
expect "a job that never ends" 124 "the wall-clock timeout stops it (limit 40, and 8 s asking for the state)" \
    'FAILED.*timeout: no power-off within 40 s' 70
check "no QEMU is left running" sh -c "! pgrep -f '[q]emu-system-x86_64.*$BUILD/vhost/busy' >/dev/null"
finish
