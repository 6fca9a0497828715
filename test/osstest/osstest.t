#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# osstest itself runs ts-xen-profile against the virtual host.  The copy
# of osstest.git in ../shared/osstest is unpacked, this folder's series
# applied with git am; osstest's standalone mode (sqlite job DB, a config
# naming the host) then runs the step over SSH to dom0 (dropbear, QEMU
# user networking: only 127.0.0.1:PORT reaches it, dom0 reaches nothing).
# Checked: osstest's log, stash and runvars of a passing run; a run whose
# host job fails ends as a failure with the failed check in the log; a
# host with a session already running is broken; make-flight makes the
# jobs and sg-run-job runs the step.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build/xen-4.17-x86_64}"
: "${OSSTEST_COPY:=$top/../shared/osstest}"
tarball=$OSSTEST_COPY/osstest-01c2f5ff.tar.xz
work=$BUILD/osstest
N=37
# The virtual host runs in its own session, so that QEMU goes with it
# whatever ends this test; the test's time goes in the timing table.
vhost=""
stop_vhost() {
    [ -n "$vhost" ] || return 0
    kill -- -"$vhost" 2>/dev/null
    wait "$vhost" 2>/dev/null
    vhost=""
}
t_start=$(date +%s%N)
at_exit() {
    stop_vhost
    [ -n "${TIMING_LOG:-}" ] &&
        awk -v ms=$(( ($(date +%s%N) - t_start) / 1000000 )) \
            'BEGIN { printf "osstest %.3f\n", ms / 1000 }' >> "$TIMING_LOG"
}
trap at_exit EXIT
plan $N
skip_all() { for i in $(seq "$1" $N); do skip "osstest run" "$2"; done; exit 0; }
[ -f "$tarball" ] || skip_all 1 "no osstest copy ($tarball is absent)"

missing=""
perl -MDBI -MDBD::SQLite -e 1 2>/dev/null || missing="$missing libdbi-perl libdbd-sqlite3-perl"
echo 'package require Tclx; package require sqlite3' | tclsh >/dev/null 2>&1 ||
    missing="$missing tclx8.4 libsqlite3-tcl"
[ -x /usr/sbin/dropbear ] || missing="$missing dropbear-bin"
[ -x /usr/lib/openssh/sftp-server ] || missing="$missing openssh-sftp-server"
command -v sqlite3 >/dev/null || missing="$missing sqlite3"
if [ -n "$missing" ]; then
    nok "osstest's prerequisites are installed (missing:$missing; make deps installs them)"
    finish
fi
ok "osstest's prerequisites are installed"

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
osst=$work/osstest
tar -C "$work" -xJf "$tarball"
g() { git -C "$osst" -c user.name=osstest.t -c user.email=osstest.t@localhost "$@"; }
g init -q && g add -A && g commit -q -m "osstest 01c2f5ff, as copied"
check "the series applies to osstest with git am" \
    sh -c "git -C '$osst' -c user.name=t -c user.email=t@t am -q '$top'/test/osstest/0*.patch > '$work/am.log' 2>&1"
sed 's/^/# /' "$work/am.log"
check "git am made one commit per patch" \
    test "$(g rev-list --count HEAD)" = $((1 + $(ls "$top"/test/osstest/0*.patch | wc -l)))

# osstest's standalone mode: its config, its logs and tmp folders (which
# standalone-reset would make), and the job DB.
mkdir -p "$osst/logs" "$osst/tmp"
cat > "$work/config" <<EOF
DnsDomain localdomain
TestHost vhost
HostProp_vhost_IpAddr 127.0.0.1
EOF
sqlite3 "$osst/standalone.db" <<'EOF'
CREATE TABLE flights (flight TEXT PRIMARY KEY, intended TEXT, branch TEXT);
CREATE TABLE jobs (flight TEXT NOT NULL, job TEXT NOT NULL, recipe TEXT NOT NULL,
                   status TEXT NOT NULL, PRIMARY KEY(flight,job));
CREATE TABLE runvars (flight TEXT NOT NULL, job TEXT NOT NULL, name TEXT NOT NULL,
                      val TEXT NOT NULL, synth BOOLEAN NOT NULL,
                      PRIMARY KEY(flight,job,name));
EOF
# osstest runs ssh and scp from PATH: these read our own ssh_config (the
# forwarded port, the key) and touch nothing of the machine's.
mkdir -p "$work/bin"
for c in ssh scp; do
    printf '#!/bin/sh\nexec /usr/bin/%s -F "%s" "$@"\n' "$c" "$work/ssh_config" > "$work/bin/$c"
    chmod +x "$work/bin/$c"
done
osstest() {    # osstest LOG CMD...: run an osstest command in its tree
    local log=$1
    shift
    (cd "$osst" && PATH=$work/bin:$PATH PERL5LIB=$osst OSSTEST_CONFIG=$work/config \
         OSSTEST_FLIGHT=standalone "$@") > "$log" 2>&1
}
db() { sqlite3 "$osst/standalone.db" "$1"; }
runvar() { db "SELECT val FROM runvars WHERE job='$1' AND name='$2'"; }

# make-flight makes the jobs, on the branches that carry the profiler.
osstest "$work/make-flight.log" ./make-flight xen-unstable xen-unstable play
rc=$?
check "make-flight makes test-amd64-amd64-xl-profile (recipe test-xen-profile; status $rc)" \
    test $rc -eq 0 -a "$(db "SELECT recipe FROM jobs WHERE job='test-amd64-amd64-xl-profile'")" = test-xen-profile
check "with profile_source=timer" test "$(runvar test-amd64-amd64-xl-profile profile_source)" = timer
check "and test-amd64-amd64-xl-profile-pmu for hosts flagged pmu" \
    sh -c "test '$(runvar test-amd64-amd64-xl-profile-pmu profile_source)' = pmu &&
           echo '$(runvar test-amd64-amd64-xl-profile-pmu all_hostflags)' | grep -q ',pmu$'"
check "but no profile job for i386 dom0" \
    test -z "$(db "SELECT job FROM jobs WHERE job LIKE '%i386%profile%'")"
osstest "$work/make-flight-4.4.log" ./make-flight xen-4.4-testing xen-4.4-testing play
rc=$?
check "nor on xen-4.4-testing (no profiler there), whose flight has its other jobs" \
    test $rc -eq 0 -a -z "$(db "SELECT job FROM jobs WHERE job LIKE '%profile%'")" -a \
         -n "$(db "SELECT job FROM jobs WHERE job='test-amd64-amd64-xl'")"
osstest "$work/flight.log" ./cs-flight-create play xen-unstable

# The virtual host, with an SSH server for osstest in dom0.
ssh-keygen -q -t ed25519 -N '' -C osstest.t -f "$work/key"
cp "$work/key.pub" "$work/authorized_keys"
extra=$work/extra
mkdir -p "$extra/usr/sbin" "$extra/usr/lib"
cp /usr/sbin/dropbear "$extra/usr/sbin/"
cp /usr/lib/openssh/sftp-server "$extra/usr/lib/sftp-server"
start_vhost() {    # start_vhost: boot it, wait until dom0 serves SSH
    local i
    port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat > "$work/ssh_config" <<EOF
Host 127.0.0.1
    Port $port
    User root
    IdentityFile "$work/key"
    IdentitiesOnly yes
    LogLevel ERROR
EOF
    VHOST_EXTRA=$extra setsid "$top/test/vhost/vhost.sh" --quiet --timeout 1800 \
        --ssh-port "$port" "$work/vhost" "$top/test/jobs/sshd.sh" \
        "$work/authorized_keys" &
    vhost=$!
    for ((i = 0; i < 300; i++)); do
        grep -q "VHOST: sshd ready" "$work/vhost/console.log" 2>/dev/null && return 0
        kill -0 "$vhost" 2>/dev/null || break
        sleep 2
    done
    stop_vhost
    return 1
}
# (The port is free when chosen; if something takes it before QEMU binds
# it, QEMU says so and exits: then another port.)
for try in 1 2 3; do
    start_vhost && break
    grep -q "host forwarding" "$work/vhost/console.log" 2>/dev/null || break
    diag "port $port was taken before QEMU bound it: another"
done
if [ -z "$vhost" ]; then
    nok "dom0 serves SSH on 127.0.0.1:$port"
    tail -n 30 "$work/vhost/console.log" 2>/dev/null | sed 's/^/# /'
    skip_all $((tap_n + 1)) "dom0 has no SSH server"
fi
ok "dom0 serves SSH on 127.0.0.1:$port"
on_host() { "$work/bin/ssh" -o BatchMode=yes -o StrictHostKeyChecking=no \
                -o UserKnownHostsFile=/dev/null root@127.0.0.1 "$@"; }
check "root logs in with the key" on_host true
stash=$osst/logs/standalone
# 1. A passing run: the installed host job, timer source, 10 s.
j=test-amd64-amd64-xl-profile
osstest "$work/run.log" ./cs-job-create standalone $j test-xen-profile \
    toolstack=xl host=vhost profile_source=timer profile_seconds=10
osstest "$work/run.log" env OSSTEST_JOB=$j ./ts-xen-profile host
rc=$?
sed -n '/host jobs in\|checks,\|stashed:\|runvar store\|profiled:\|FAILURE\|BROKEN/p' "$work/run.log" |
    sed 's/^/# osstest: /'
check "ts-xen-profile passes (status $rc)" test $rc -eq 0
check "osstest's log: it ran the installed host job" \
    grep -q "host jobs in /usr/lib/xen/profile$" "$work/run.log"
check "osstest's log: all of its checks passed" \
    grep -q -E "profile-timer.sh: exit status 0, ([0-9]+) of \1 checks, 0 failed" "$work/run.log"
for f in xenprofile.data out.folded report.txt flamegraph.svg tap.txt stop.txt xl-dmesg.txt; do
    check "the stash has $f" test -s "$stash/$j/vhost--$f"
done
check "the flame graph is an SVG" grep -q "<svg" "$stash/$j/vhost--flamegraph.svg"
samples=$(runvar $j profile_samples)
check "runvar profile_samples is stored ($samples)" test "${samples:-0}" -gt 0
data_total=$(LD_LIBRARY_PATH=$BUILD/dist/usr/lib "$BUILD/dist/usr/bin/xenprofile" \
                 -i "$stash/$j/vhost--xenprofile.data" --folded - 2>/dev/null |
             awk '{ s += $NF } END { print s + 0 }')
check "and is the stashed data file's count ($data_total)" test "$data_total" = "$samples"
check "runvar profile_lost is 0" test "$(runvar $j profile_lost)" = 0
top_self=$(runvar $j profile_top_self)
check "runvar profile_top_self is a Xen function of the report ($top_self)" \
    sh -c "test -n '$top_self' && grep -q ' $top_self\$' '$stash/$j/vhost--report.txt'"
check "runvar profile_run_source is timer" test "$(runvar $j profile_run_source)" = timer
check "runvar profile_run_reason says why" \
    test "$(runvar $j profile_run_reason)" = "auto: no usable PMU"

# 2. A host job that fails (copied from here): a failure, with the check.
mkdir -p "$work/badjobs"
printf '#!/bin/sh\necho 1..2\necho "ok 1 - starts"\necho "not ok 2 - deliberately broken host job"\nexit 1\n' \
    > "$work/badjobs/profile-timer.sh"
chmod +x "$work/badjobs/profile-timer.sh"
cp "$top/tools/profile-jobs/tap.sh" "$work/badjobs/"
j=test-amd64-amd64-xl-profile-badjob
osstest "$work/fail.log" ./cs-job-create standalone $j test-xen-profile \
    toolstack=xl host=vhost profile_jobs="$work/badjobs" profile_seconds=1
osstest "$work/fail.log" env OSSTEST_JOB=$j ./ts-xen-profile host
rc=$?
grep -E "FAILURE|copied" "$work/fail.log" | sed 's/^/# osstest: /'
check "a failing host job fails the step (status $rc)" test $rc -ne 0
check "osstest's log: the job was copied to the host" \
    grep -q "host jobs copied from $work/badjobs to /root/xen-profile/jobs" "$work/fail.log"
check "osstest's log: FAILURE with the failed check" \
    grep -q "FAILURE: profile-timer.sh exited with status 1: 1 of 2 checks failed, first: not ok 2 - deliberately broken host job" "$work/fail.log"
check "its TAP is in the stash" grep -q "deliberately broken" "$stash/$j/vhost--tap.txt"

# 3. A session already running: the host is broken, not the test.
j=test-amd64-amd64-xl-profile-busy
osstest "$work/busy.log" ./cs-job-create standalone $j test-xen-profile toolstack=xl host=vhost
on_host 'xl profile start -F 97' > /dev/null 2>&1
osstest "$work/busy.log" env OSSTEST_JOB=$j ./ts-xen-profile host
rc=$?
on_host 'cd /tmp && xl profile stop' > /dev/null 2>&1
grep -E "BROKEN" "$work/busy.log" | sed 's/^/# osstest: /'
check "a session already running stops the step (status $rc)" test $rc -ne 0
check "osstest's log: BROKEN, saying why" \
    grep -q "BROKEN: a profiling session is already on the host (state running)" "$work/busy.log"
check "the job is marked broken in the job DB" \
    test "$(db "SELECT status FROM jobs WHERE job='$j'")" = broken

# 4. sg-run-job, the recipe: simulated, the steps it would run.
j=test-amd64-amd64-xl-profile
osstest "$work/sg.log" env OSSTEST_SIMULATE=1 tclsh ./sg-run-job $j
check "sg-run-job's test-xen-profile recipe runs ts-xen-profile on the host" \
    grep -q "ts-xen-profile host" "$work/sg.log"
check "after installing it and booting Xen" \
    sh -c "grep -n 'ts-xen-install\|ts-host-reboot\|ts-xen-profile' '$work/sg.log' | tail -n 1 | grep -q ts-xen-profile &&
           grep -q ts-xen-install '$work/sg.log'"

# The end: dom0's job exits 0 and the virtual host powers off (within two
# minutes, else it is stopped).
on_host 'echo 0 > /run/vhost-done' 2>/dev/null
for ((i = 0; i < 60; i++)); do kill -0 "$vhost" 2>/dev/null || break; sleep 2; done
if kill -0 "$vhost" 2>/dev/null; then
    stop_vhost
    nok "the virtual host ends when told (it did not: stopped)"
else
    wait "$vhost"
    rc=$?
    vhost=""
    check "the virtual host ends cleanly (status $rc)" test $rc -eq 0
fi
finish
