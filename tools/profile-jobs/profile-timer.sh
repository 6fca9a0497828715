#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# profile-timer.sh OUTDIR: end-to-end check of `xl profile` with the timer
# source, on any Xen host with the profiler built in (the virtual host runs
# it unchanged).  Run in dom0 as root.  Prints TAP, leaves its artifacts
# (data file, folded stacks, status and xl dmesg outputs) in OUTDIR, and
# exits non-zero if a check failed.
#
# Environment: SECONDS_TO_RUN (default 10), HZ (default 97), DOMU_KERNEL
# and DOMU_RAMDISK (default /boot/domu/{vmlinux,initrd.cpio}): when both
# exist, a PV domU is created at the start of the workload and destroyed
# at its end.  With pty-run beside this script,
# record's status line on a terminal is checked too.  EXPECT_PMU=1 (or 0)
# says whether the host has a usable PMU; unset, the job finds out by
# starting the PMU source.  With a PMU, the session is started with
# -s timer (-s auto would choose the PMU).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
out=${1:-./profile-artifacts}
mkdir -p "$out" && cd "$out" || exit 1
run=${SECONDS_TO_RUN:-10}
hz=${HZ:-97}
uptime() { cut -d' ' -f1 /proc/uptime; }
# one_line_error CMD...: fails with exactly one line on stderr
one_line_error() {
    "$@" >/dev/null 2>err.txt && return 1
    [ "$(wc -l < err.txt)" -eq 1 ] || { cat err.txt; return 1; }
    diag "$(cat err.txt)"
}

plan 68
xl profile discard >/dev/null 2>&1    # a leftover of an aborted run
check "status says idle" sh -c 'xl profile status | grep -q "^state *: idle"'
check "stop when idle fails, saying so" \
    sh -c 'xl profile stop 2>err.txt; [ $? -ne 0 ] && grep -q "no profile is running" err.txt'
check "-F abc: one-line error" one_line_error xl profile start -F abc
check "-F 0: one-line error" one_line_error xl profile start -F 0
check "-g 500: one-line error" one_line_error xl profile start -g 500
check "-s bogus: one-line error" one_line_error xl profile start -s bogus
check "-F with -c: one-line error" one_line_error xl profile start -F 97 -c 100000
check "-C 4095 (no such pCPU): one-line error from Xen" one_line_error xl profile start -C 4095
check "an unknown verb: one-line error" one_line_error xl profile bogus
for v in start stop status record discard; do
    check "xl profile $v -h prints its usage and exits 0" \
        sh -c "xl profile $v -h > help-$v.txt && head -n 1 help-$v.txt | grep -q '^Usage: xl profile $v'"
done

nr=$(xl info | sed -n 's/^nr_cpus *: //p')
if [ -z "${EXPECT_PMU:-}" ]; then
    EXPECT_PMU=0
    if xl profile start -s pmu -F 1 >/dev/null 2>&1; then
        xl profile discard >/dev/null 2>&1
        EXPECT_PMU=1
    fi
    diag "usable PMU: $([ "$EXPECT_PMU" = 1 ] && echo yes || echo no) (found out by starting -s pmu)"
fi
# Without a usable PMU, -s pmu and events only a PMU counts are refused
# with one clear line.
if [ "$EXPECT_PMU" != 1 ]; then
    check "-s pmu without a usable PMU: one-line error saying so" \
        sh -c 'one_line_error() { "$@" >/dev/null 2>err.txt && return 1; [ "$(wc -l < err.txt)" -eq 1 ]; }
               one_line_error xl profile start -s pmu && grep -q "source pmu: no usable PMU" err.txt'
    check "-e instructions (auto) without a PMU: refused, not replaced" \
        sh -c '! xl profile start -e instructions 2>err.txt && grep -q "no usable PMU" err.txt &&
               xl profile status | grep -q "^state *: idle"'
else
    skip "-s pmu without a usable PMU" "this host has a PMU"
    skip "-e instructions without a PMU" "this host has a PMU"
fi
# The timer source: what -s auto runs without a PMU, asked for with one.
src=""
[ "$EXPECT_PMU" = 1 ] && src="-s timer"
check "-e bogus: one-line error" one_line_error xl profile start -e bogus
t0=$(uptime)
check "start $src -F $hz" sh -c "xl profile start $src -F $hz > start.txt"
cat start.txt
check "start says the timer source runs" grep -q "timer source" start.txt
if [ "$EXPECT_PMU" != 1 ]; then
    check "-s auto says why it runs the timer (no usable PMU here)" \
        grep -q "timer source (auto: no usable PMU)" start.txt
else
    check "-s timer: the timer source, as requested" \
        grep -q "timer source (requested)" start.txt
fi
check "a second start fails: already running" \
    sh -c 'xl profile start 2>err.txt; [ $? -ne 0 ] && grep -q "already running" err.txt'

# Workload: hypercalls (sysctls, console reads, xenstore) for $run seconds,
# and a PV domU's life if we have a kernel for it.
end=$(awk -v t="$t0" -v r="$run" 'BEGIN { print t + r }')
xl profile status > status-1.txt
domu_k=${DOMU_KERNEL:-/boot/domu/vmlinux}
domu_r=${DOMU_RAMDISK:-/boot/domu/initrd.cpio}
domu=""
if [ -f "$domu_k" ] && [ -f "$domu_r" ]; then
    domu=profdomu
    cat > domu.cfg <<EOC
name = "$domu"
type = "pv"
kernel = "$domu_k"
ramdisk = "$domu_r"
extra = "console=hvc0"
memory = 128
vcpus = 1
on_poweroff = "destroy"
on_crash = "preserve"
on_reboot = "preserve"
EOC
    xl create domu.cfg > domu-create.txt 2>&1
    domu_id=$(xl domid "$domu" 2>/dev/null)
    # The same kernel as a PVH guest (an HVM container: direct kernel boot,
    # no firmware, no device model).
    pvh=profpvh
    sed -e "s/^name = .*/name = \"$pvh\"/" -e 's/^type = .*/type = "pvh"/' \
        domu.cfg > pvh.cfg
    xl create pvh.cfg > pvh-create.txt 2>&1
    pvh_id=$(xl domid "$pvh" 2>/dev/null)
    # However long their creation took, the guests run for a while under
    # the profiler, and it notes their names while they exist: the loop
    # below would not run at all if creating them outlasted $run seconds.
    xl profile status > /dev/null
    end=$(awk -v e="$end" -v u="$(uptime)" -v m="${DOMU_SECONDS:-4}" \
        'BEGIN { print (u + m > e) ? u + m : e }')
fi
while awk -v u="$(uptime)" -v e="$end" 'BEGIN { exit !(u < e) }'; do
    xl info > /dev/null
    xl dmesg > /dev/null
    xenstore-ls > /dev/null 2>&1
    xl profile status > /dev/null   # notes the names of live domains
done
[ -n "$domu" ] && xl list > xl-list-domu.txt &&
    { xl destroy "$domu" 2>/dev/null; xl destroy "$pvh" 2>/dev/null; true; }
xl profile status > status-2.txt
xl profile status --json > status.json
t1=$(uptime)
check "stop -o out.folded" sh -c "xl profile stop -o out.folded > stop.txt"
cat stop.txt status-2.txt
xl dmesg > xl-dmesg.txt
check "status showed source timer while running" grep -q "^source *: timer" status-1.txt
taken() { awk '$2 == "sampled" { s += $3 } END { print s + 0 }' "$1"; }
check "status counts rose while running ($(taken status-1.txt) -> $(taken status-2.txt))" \
    test "$(taken status-2.txt)" -gt "$(taken status-1.txt)"
check "the data file and the folded stacks exist" test -s xenprofile.data -a -s out.folded
total=$(awk '{ s += $NF } END { print s + 0 }' out.folded)
expect=$(awk -v h="$hz" -v a="$t0" -v b="$t1" -v n="$nr" 'BEGIN { printf "%d", h * (b - a) * n }')
check "samples $total within 20% of $hz Hz x $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') s x $nr pCPUs = $expect" \
    awk -v t="$total" -v e="$expect" 'BEGIN { exit !(t >= 0.8 * e && t <= 1.2 * e) }'
check "no sample lost at the default ring size" grep -q "(0 lost)" stop.txt
if [ -n "$domu" ]; then
    cat domu-create.txt xl-list-domu.txt
    check "a PV domU ($domu, d${domu_id:-?}) ran during the profile and is gone" \
        sh -c "[ -n '$domu_id' ] && grep -q '^$domu ' xl-list-domu.txt && ! xl domid $domu >/dev/null 2>&1"
    check "its guest samples carry its name, captured while it existed" \
        grep -q "^d${domu_id}v0 $domu;\[guest " out.folded
    cat pvh-create.txt
    # A guest that crashed or rebooted stays (preserve) until destroyed:
    # what is checked is that it ran under the profiler.  Under QEMU's
    # TCG, with Xen 4.22, the PVH guest triple-faults during its boot when
    # the PV domU runs beside it (not with the profiler alone).
    grep -E "Triple fault|crash" xl-dmesg.txt | sed 's/^/# guest: /' || true
    xl profile report -i xenprofile.data --script > script.txt 2>&1
    check "a PVH domU ($pvh, d${pvh_id:-?}) ran during the profile and is gone" \
        sh -c "[ -n '$pvh_id' ] && grep -q '^$pvh ' xl-list-domu.txt && ! xl domid $pvh >/dev/null 2>&1"
    check "its guest samples carry its name" \
        grep -q "^d${pvh_id:-x}v0 $pvh;\[guest " out.folded
    check "the script shows them as perf does: comm, domid/vcpu, a guest kernel or user IP" \
        sh -c "grep -A1 '^$pvh ${pvh_id:-x}/0 \[' script.txt |
               grep -q -E '^[[:space:]]+[0-9a-f]+ \[guest (kernel|user)\] \(\[guest\.(kernel|user)\]\)\$'"
else
    skip "a PV domU ran during the profile" "no domU kernel (DOMU_KERNEL)"
    skip "its guest samples carry its name" "no domU kernel (DOMU_KERNEL)"
    skip "a PVH domU ran during the profile" "no domU kernel (DOMU_KERNEL)"
    skip "its guest samples carry its name" "no domU kernel (DOMU_KERNEL)"
    skip "the script shows them as perf does" "no domU kernel (DOMU_KERNEL)"
fi
check "status is idle after stop" sh -c 'xl profile status | grep -q "^state *: idle"'
# The saved profile reads back: xl profile report and the standalone
# xenprofile command share their code, options and output.
check "xl profile report reads it back: $total samples" \
    sh -c "xl profile report -i xenprofile.data > report.txt && grep -q '^# Samples: *$total,' report.txt"
if command -v xenprofile > /dev/null; then
    check "xenprofile prints the same report" \
        sh -c "xenprofile -i xenprofile.data | cmp -s - report.txt"
else
    skip "xenprofile prints the same report" "xenprofile not installed"
fi
check "report --svg writes a flame graph" \
    sh -c "xl profile report -i xenprofile.data --svg flamegraph.svg && grep -q '<svg' flamegraph.svg"
check "report --folded gives out.folded again" \
    sh -c "xl profile report -i xenprofile.data --folded again.folded && cmp -s again.folded out.folded"

# Xen function names: every frame of Xen stacks, markers and guests aside.
awk '{ $NF = ""; n = split($0, f, ";"); for (i = 1; i <= n; i++) print f[i] }' out.folded |
    sed 's/ *$//' | grep -v -e '^\[' -e '^d[0-9]*v[0-9]*' | sort -u > functions.txt
check "at least 20 distinct Xen functions ($(wc -l < functions.txt))" test "$(wc -l < functions.txt)" -ge 20
if [ -r /proc/xen/xensyms ] && head -c 1 /proc/xen/xensyms 2>/dev/null | grep -q .; then
    # Both without the "file#" prefix (kept in reports where names clash).
    sed 's/^[0-9a-f]* . //; s/^.*#//' /proc/xen/xensyms | sort -u > xensyms.txt
    missing=$(sed 's/^.*#//' functions.txt | grep -v -x -F -f xensyms.txt |
              head -n 5 | tr '\n' ' ')
    check "every function is in Xen's symbol table${missing:+ (not: $missing)}" test -z "$missing"
else
    skip "every function is in Xen's symbol table" "no /proc/xen/xensyms"
fi
deep=$(awk '!/^\[|^d[0-9]+v|^idle_loop/ { n = split($1, f, ";"); t += $NF; if (n > 2) d += $NF }
            END { printf "%d %d", d, t }' out.folded)
check "most Xen stacks outside the idle loop are deeper than 2 frames ($deep)" \
    sh -c "set -- $deep; [ \$((\$1 * 2)) -gt \$2 ]"
# A stack entered afresh (the idle loop) ends there: nothing stale above.
above=$(grep -E ';idle_loop(;| )' out.folded | head -n 3 | tr '\n' ' ')
check "idle_loop is always the root: no frame above it${above:+ (not: $above)}" test -z "$above"
bad=$(awk '/^\[bad frame\]/ { b += $NF } { t += $NF } END { printf "%d %d", b, t }' out.folded)
check "BAD_FRAME samples under 1 % ($bad)" \
    sh -c "set -- $bad; [ \$((\$1 * 100)) -lt \$2 ]"
# Roots: idle pCPUs sample the idle loop, the workload the hypercall path.
idle=$(awk '/(^|;)idle_loop(;| )/ { s += $NF } END { print s + 0 }' out.folded)
# (x86: pv_hypercall or hvm_hypercall; Arm: the vector of a guest's
# synchronous exceptions, HVC included, whose IRQ-off parts the sample
# waits out.)
hcall=$(awk '/(^|;)(pv_hypercall|hvm_hypercall|guest_sync_slowpath)(;| )/ { s += $NF } END { print s + 0 }' out.folded)
check "idle pCPU time is in idle_loop ($idle samples)" test "$idle" -ge 10
check "the workload's hypercalls are seen ($hcall samples under the hypercall entry)" test "$hcall" -ge 10

# A stop that cannot write its file keeps the samples in Xen; run again,
# it saves all of them.
xl profile start $src -F "$hz" > /dev/null && sleep 1
xl profile stop --data /proc/no-such-dir/x.data > /dev/null 2> stop-fail.txt
failrc=$?
xl profile status > status-kept.txt
kept=$(awk '$2 == "stopped" { s += $6 } END { print s + 0 }' status-kept.txt)
xl profile stop --data retry.data > stop-retry.txt 2>&1
retryrc=$?
cat stop-fail.txt stop-retry.txt
check "stop fails when the data file cannot be written, saying the samples are kept" \
    sh -c "[ $failrc -ne 0 ] && grep -q 'kept in Xen' stop-fail.txt"
check "the samples stay in Xen ($kept pending, state stopped)" \
    sh -c "grep -q '^state *: stopped' status-kept.txt && [ $kept -gt 0 ]"
saved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' stop-retry.txt)
check "stop run again saves them all ($saved of $kept)" \
    sh -c "[ $retryrc -eq 0 ] && [ '${saved:-0}' -eq $kept ] && [ -s retry.data ]"

# A ring too small for the session: samples are lost, counted exactly,
# and the record stream says when (LOST records, in the script output).
xl profile start $src -F 1000 -b 16 > /dev/null && sleep 2
xl profile stop --data small.data > stop-small.txt 2>&1
xl profile report -i small.data --script > small-script.txt 2>&1
cat stop-small.txt
nlost=$(sed -n 's/^[0-9]* samples (\([0-9]*\) lost).*/\1/p' stop-small.txt)
inscript=$(awk '$1 == "#" && $2 == "lost" { s += $3 } END { print s + 0 }' \
           small-script.txt)
check "a 16 KiB ring at 1000 Hz loses samples (${nlost:-?} lost)" \
    test "${nlost:-0}" -gt 0
check "the stream's LOST records add up to them ($inscript of ${nlost:-?})" \
    test "$inscript" = "${nlost:-x}"

# record: start, run a command (drained while it runs), stop, save; the
# exit status is the command's.
xl profile record $src -F "$hz" -o record.folded --data record.data -- \
    sh -c 'end=$(($(cut -d. -f1 /proc/uptime) + 3))
           while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do xl info >/dev/null; done
           exit 3' > record.txt 2>&1
recrc=$?
cat record.txt
rsaved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' record.txt)
check "record exits with the command's status (3, got $recrc)" test $recrc -eq 3
check "record saved the samples ($rsaved) and the folded stacks" \
    sh -c "[ '${rsaved:-0}' -gt 0 ] && [ -s record.data ] && [ -s record.folded ]"
check "record left no spool file and no session" \
    sh -c "! ls record.data.spool.* >/dev/null 2>&1 && xl profile status | grep -q '^state *: idle'"

# The state file names record's spool by its absolute path, so that a
# data file in a folder whose name has a blank, and a `stop` run from
# another folder after record was killed, both find the drained samples.
mkdir -p "spool dir" elsewhere
xl profile record $src -F "$hz" --duration 2 --data "spool dir/r.data" \
    > record-blank.txt 2>&1
blankrc=$?
cat record-blank.txt
check "record into a folder named with a blank: exit 0, saved, no spool left" \
    sh -c "[ $blankrc -eq 0 ] && grep -q '^[0-9]* samples' record-blank.txt &&
           [ -s 'spool dir/r.data' ] && ! ls 'spool dir'/r.data.spool.* >/dev/null 2>&1"
[ $blankrc -eq 0 ] || xl profile discard > /dev/null 2>&1
(cd "spool dir" && exec xl profile record $src -F "$hz" --data rel.data) \
    > record-kill.txt 2>&1 &
recpid=$!
sleep 4
kill -KILL $recpid
wait $recpid 2>/dev/null
spools=$(ls "spool dir"/rel.data.spool.* 2>/dev/null | wc -l)
xl profile status > status-killed.txt
kread=$(awk '$1 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }' status-killed.txt)
kpend=$(awk '$1 ~ /^[0-9]+$/ { s += $6 } END { print s + 0 }' status-killed.txt)
(cd elsewhere && xl profile stop --data ../killed.data) > stop-killed.txt 2>&1
killrc=$?
ksaved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' stop-killed.txt)
cat record-kill.txt status-killed.txt stop-killed.txt
check "record killed: stop in another folder saves its spool too ($ksaved >= $kread drained + $kpend)" \
    sh -c "[ $spools -eq 1 ] && [ $killrc -eq 0 ] && [ $kread -gt 0 ] &&
           [ '${ksaved:-0}' -ge $((kread + kpend)) ] &&
           ! ls 'spool dir'/rel.data.spool.* >/dev/null 2>&1"
[ $killrc -eq 0 ] || xl profile discard > /dev/null 2>&1

# A verb run during record may rewrite the state file from what it read
# before record named its spool there: record names it again, and saves
# the spool's samples whatever the state file says at the end.
statef=/var/run/xen/xenprofile.state
[ -e "$statef" ] || statef=/run/xen/xenprofile.state
xl profile record $src -F "$hz" --data race.data -- sh -c "
    sleep 2; sed -i '/^spool /d' $statef; sleep 2
    grep -q '^spool ' $statef && echo named > race-named.txt" \
    > record-race.txt 2>&1
racerc=$?
cat record-race.txt
check "record whose spool line was dropped names it again and saves it: exit 0, no spool left" \
    sh -c "[ $racerc -eq 0 ] && [ -s race-named.txt ] && [ -s race.data ] &&
           ! ls race.data.spool.* >/dev/null 2>&1"
[ $racerc -eq 0 ] || xl profile discard > /dev/null 2>&1

# A full disk under record: a write into the spool cut short is cut back
# to the last whole record, and what could not be written is counted as
# lost; once there is room again, stop saves the spool and what Xen kept.
mkdir -p full
if mount -t tmpfs -o size=256k tmpfs full 2>/dev/null; then
    xl profile record $src -F "$hz" --data full/r.data -- sh -c '
        sleep 2
        set -- $(df -P full | tail -n 1)    # $4: KiB available
        kib=$4
        head -c $((kib > 4 ? (kib - 4) * 1024 : 0)) /dev/zero > full/filler
        sleep 3' > record-full.txt 2>&1
    fullrc=$?
    flost=$(sed -n 's/.* \([0-9]*\) samples drained from Xen could not.*/\1/p' record-full.txt)
    xl profile status > status-full.txt
    fread=$(awk '$1 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }' status-full.txt)
    fpend=$(awk '$1 ~ /^[0-9]+$/ { s += $6 } END { print s + 0 }' status-full.txt)
    rm -f full/filler
    (cd elsewhere && xl profile stop --data ../full.data) > stop-full.txt 2>&1
    fstoprc=$?
    fsaved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' stop-full.txt)
    cat record-full.txt status-full.txt stop-full.txt
    check "record on a full disk fails, says the samples are kept and how many are lost (${flost:-none})" \
        sh -c "[ $fullrc -ne 0 ] && grep -q 'kept in Xen' record-full.txt"
    check "with room again, stop saves the spool's and Xen's ($fsaved + ${flost:-0} lost >= $fread read + $fpend)" \
        sh -c "[ $fstoprc -eq 0 ] && [ $fread -gt 0 ] &&
               [ \$((${fsaved:-0} + ${flost:-0})) -ge $((fread + fpend)) ] &&
               ! grep -q 'cannot read' stop-full.txt &&
               ! ls full/r.data.spool.* >/dev/null 2>&1"
    [ $fstoprc -eq 0 ] || xl profile discard > /dev/null 2>&1
    umount full
else
    skip "record on a full disk fails, says the samples are kept" "no tmpfs"
    skip "with room again, stop saves the spool's and Xen's" "no tmpfs"
fi

# record as perf record -a: for --duration seconds, with a status line
# on a terminal only (pty-run, built beside this job, gives it one).
pty=$here/pty-run
if [ -x "$pty" ]; then
    "$pty" record-tty.txt xl profile record $src -F "$hz" --duration 3 \
        --data record-tty.data
    ttyrc=$?
    lines=$(tr '\r' '\n' < record-tty.txt | grep -c '^xl profile record: [0-9]* s, [0-9]* samples/s, [0-9]* lost, [0-9]* KiB pending, spool [0-9.]* MiB')
    check "record --duration 3 on a terminal: exit 0, a status line refreshed ($lines times)" \
        sh -c "[ $ttyrc -eq 0 ] && [ $lines -ge 2 ] && [ -s record-tty.data ]"
    check "the status line is cleared at the end (CR, erase to end of line)" \
        sh -c "tr '\r\033' 'RE' < record-tty.txt | grep -q 'E\[KRE\[K[0-9]* samples'"
else
    skip "record --duration 3 on a terminal" "no pty-run beside the job"
    skip "the status line is cleared at the end" "no pty-run beside the job"
fi
xl profile record $src -F "$hz" --duration 2 --data record-dur.data > record-dur.txt 2> record-dur.err
durrc=$?
cat record-dur.txt record-dur.err
check "record --duration 2, stderr not a terminal: exit 0, saved, no status line" \
    sh -c "[ $durrc -eq 0 ] && grep -q '^[0-9]* samples' record-dur.txt && [ -s record-dur.data ] &&
           ! grep -q 'samples/s' record-dur.err"
# Without a command, until SIGINT; a second SIGINT while saving changes
# nothing: every sample is saved.
xl profile record $src -F "$hz" --data record-int.data > record-int.txt 2>&1 &
recpid=$!
sleep 3
kill -INT $recpid
sleep 0.1 2>/dev/null || sleep 1
kill -INT $recpid 2>/dev/null
wait $recpid
intrc=$?
cat record-int.txt
isaved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' record-int.txt)
ifile=$(xl profile report -i record-int.data --json 2>/dev/null | sed -n 's/^ *"samples": \([0-9]*\),$/\1/p' | head -n 1)
check "record until SIGINT, SIGINT again while saving: exit 0, all saved ($isaved, file $ifile)" \
    sh -c "[ $intrc -eq 0 ] && [ '${isaved:-0}' -gt 0 ] && [ '${isaved:-x}' = '${ifile:-y}' ]"
xl profile record $src -F "$hz" --data record-term.data > record-term.txt 2>&1 &
recpid=$!
sleep 2
kill -TERM $recpid
wait $recpid
termrc=$?
check "record until SIGTERM: exit 0, saved, no session left" \
    sh -c "[ $termrc -eq 0 ] && grep -q '^[0-9]* samples' record-term.txt &&
           xl profile status | grep -q '^state *: idle'"
xl profile record --duration 2 -- true > record-both.txt 2>&1
bothrc=$?
xl profile record --duration 0 > record-zero.txt 2>&1
zerorc=$?
cat record-both.txt record-zero.txt
check "record: --duration with a command, or of 0 s, is refused with a message" \
    sh -c "[ $bothrc -ne 0 ] && grep -q 'exclude each other' record-both.txt &&
           [ $zerorc -ne 0 ] && grep -q 'duration: expected a whole number' record-zero.txt &&
           xl profile status | grep -q '^state *: idle'"

# record where neither the spool nor the data file can be written: no
# sample is drained or lost; stop run again saves them all.
xl profile record $src -F "$hz" --data /proc/no-such-dir/r.data -- sleep 2 \
    > record-fail.txt 2>&1
rfrc=$?
kept=$(xl profile status | awk '$2 == "stopped" { s += $6 } END { print s + 0 }')
xl profile stop --data record-retry.data > record-retry.txt 2>&1
rsaved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' record-retry.txt)
cat record-fail.txt record-retry.txt
check "record that cannot write fails and says the samples are kept" \
    sh -c "[ $rfrc -ne 0 ] && grep -q 'kept in Xen' record-fail.txt"
check "none was drained away: stop saves all of them ($rsaved of $kept)" \
    sh -c "[ $kept -gt 100 ] && [ '${rsaved:-0}' -eq $kept ]"

# CPU hotplug in a session: an offlined pCPU's samples stay readable, a
# pCPU onlined again is left out, and status says so.
cpu_field() { awk -v c="$2" -v f="$3" '$1 == c { print $f }' "$1"; }
if command -v xen-hptool >/dev/null && [ "$nr" -ge 2 ]; then
    last=$((nr - 1))
    xl profile start $src -F "$hz" > /dev/null && sleep 1 &&
        xen-hptool cpu-offline "$last" > hotplug.txt 2>&1 && sleep 1
    xl profile status > status-offline.txt
    xen-hptool cpu-online "$last" >> hotplug.txt 2>&1 && sleep 1
    xl profile status > status-online.txt
    xl profile stop --data hotplug.data > stop-hotplug.txt 2>&1
    cat hotplug.txt status-offline.txt status-online.txt stop-hotplug.txt
    check "an offlined pCPU shows as offlined, its samples pending" \
        test "$(cpu_field status-offline.txt "$last" 2)" = offlined -a \
             "$(cpu_field status-offline.txt "$last" 6)" -gt 0
    check "a pCPU onlined again is left out of the session" \
        test "$(cpu_field status-online.txt "$last" 2)" = left-out
    pend=$(awk '$2 ~ /sampled|offlined|left-out/ { s += $6 } END { print s + 0 }' status-online.txt)
    saved=$(sed -n 's/^\([0-9]*\) samples.*/\1/p' stop-hotplug.txt)
    check "stop saves every pending sample, the offlined pCPU's too ($saved >= $pend)" \
        test "${saved:-0}" -ge "$pend" -a "$pend" -gt 0
else
    skip "an offlined pCPU shows as offlined" "no xen-hptool or one pCPU"
    skip "a pCPU onlined again is left out" "no xen-hptool or one pCPU"
    skip "stop saves every pending sample" "no xen-hptool or one pCPU"
fi
finish
