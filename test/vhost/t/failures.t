#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The harness fails fast and loudly: a dom0 that panics, a job that hangs
# silently, and a job that never ends each fail within their timeout with
# the console tail printed.
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
elapsed() { echo $(( $(date +%s) - $1 )); }

plan 9
job panic 'echo "job: crashing dom0"; echo c > /proc/sysrq-trigger; sleep 600'
t0=$(date +%s)
"$vhost" --timeout 240 "$BUILD/vhost/panic" "$tmp/panic" 2>"$tmp/err"
rc=$? secs=$(elapsed $t0)
check "a dom0 panic fails with status 125 (got $rc)" test $rc -eq 125
check "it is detected as a crash, well before the timeout ($secs s)" \
    sh -c "grep -q 'FAILED.*crash:' '$tmp/err' && [ $secs -lt 200 ]"
check "the console tail is printed" grep -q 'console tail' "$tmp/err"

job silent 'echo "job: sleeping"; sleep 600'
t0=$(date +%s)
"$vhost" --timeout 240 --silence 15 "$BUILD/vhost/silent" "$tmp/silent" 2>"$tmp/err"
rc=$? secs=$(elapsed $t0)
check "a silent hang fails with status 124 (got $rc)" test $rc -eq 124
check "it is detected by the silence timeout ($secs s)" \
    sh -c "grep -q 'FAILED.*hang: console silent' '$tmp/err' && [ $secs -lt 200 ]"
check "the tail shows the job's last line" grep -q 'job: sleeping' "$tmp/err"

job busy 'while :; do echo "job: tick"; sleep 1; done'
t0=$(date +%s)
"$vhost" --timeout 40 --silence 30 "$BUILD/vhost/busy" "$tmp/busy" 2>"$tmp/err" >/dev/null
rc=$? secs=$(elapsed $t0)
check "a job that never ends fails with status 124 (got $rc)" test $rc -eq 124
check "the wall-clock timeout stops it ($secs s, limit 40)" \
    sh -c "grep -q 'FAILED.*timeout: no power-off within 40 s' '$tmp/err' && [ $secs -lt 55 ]"
check "no QEMU is left running" sh -c "! pgrep -f '[q]emu-system-x86_64.*$BUILD/vhost/busy' >/dev/null"
finish
