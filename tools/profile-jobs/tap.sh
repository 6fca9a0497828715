# SPDX-License-Identifier: GPL-2.0-only
# TAP helpers for test and job scripts (POSIX sh, busybox included).
#   plan N | check DESC CMD... | ok DESC | nok DESC | skip DESC WHY | finish
tap_n=0
tap_fails=0
plan() { echo "1..$1"; }
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
nok() {
    tap_n=$((tap_n + 1))
    tap_fails=$((tap_fails + 1))
    echo "not ok $tap_n - $1"
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
check() {    # check DESC CMD...: ok when CMD succeeds
    tap_desc=$1
    shift
    if "$@"; then ok "$tap_desc"; else nok "$tap_desc"; fi
}
diag() { echo "# $*"; }
finish() { [ "$tap_fails" -eq 0 ]; exit $?; }
