#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end, as a host runs it.  make debball's package
# (scripts/make-debball.sh, Xen's mkdeb) holds what a host needs: its
# contents are checked, then it is unpacked and the virtual host is booted
# from it alone (its /boot/xen-VERSION.gz, its toolstack as dom0's), and
# dom0 runs the host job as the package installs it,
# /usr/lib/xen/profile/profile-timer.sh, no checkout around.  The job's own
# TAP results are passed through (so each counts here), then its artifacts
# are checked on this side.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/tests/profile
rm -rf "$out"
mkdir -p "$out"
deb=$("$top/scripts/make-debball.sh" "$BUILD/xen" "$BUILD/dist" "$out" 2> "$out/make.log")
rc=$?
sed 's/^/# /' "$out/make.log" | tail -n 5
check "make-debball.sh builds the package ($(basename "${deb:-none}"))" \
    sh -c "[ $rc -eq 0 ] && [ -f '$deb' ]"
[ -f "$deb" ] || { finish; }
ver=$(dpkg-deb -f "$deb" Version)
check "its version is Xen's with +profile1 ($ver)" \
    sh -c "echo '$ver' | grep -q -E '^[0-9]+\.[0-9]+\.[0-9]+(-rc|-unstable)?[^+]*\+profile1\$'"
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's#^\./##' > "$out/contents.txt"
missing=
for f in usr/sbin/xl usr/bin/xenprofile usr/lib/libxenprofile.so.1 \
         usr/share/man/man1/xl.1.gz usr/share/man/man1/xenprofile.1.gz \
         usr/lib/xen/profile/profile-timer.sh usr/lib/xen/profile/tap.sh \
         usr/lib/xen/profile/pty-run usr/lib/xen/profile/hypercall-loop; do
    grep -q -x -F "$f" "$out/contents.txt" || missing="$missing $f"
done
grep -q -x -E 'boot/xen-[0-9].*\.gz' "$out/contents.txt" || missing="$missing boot/xen-*.gz"
grep -q -x -E 'usr/lib/debug/xen-syms-[0-9].*' "$out/contents.txt" || missing="$missing xen-syms"
check "it holds xl, xenprofile, the libraries, the man pages, the hypervisor, its xen-syms and the host jobs${missing:+ (missing:$missing)}" \
    test -z "$missing"
pkg=$out/pkg
dpkg-deb -x "$deb" "$pkg"
check "xl(1) in it documents xl profile" \
    sh -c "zcat '$pkg/usr/share/man/man1/xl.1.gz' | grep -q 'profile'"

# A build folder made of the package alone.
fake=$out/fake
mkdir -p "$fake"
ln -s "$pkg" "$fake/dist"
zcat "$pkg"/boot/xen-*.gz > "$out/xen"
cat > "$out/job.sh" <<'JOB'
#!/bin/sh
exec /usr/lib/xen/profile/profile-timer.sh "$@"
JOB
out_vm=$BUILD/vhost/profile
KERNEL_DIR=${KERNEL_DIR:-$BUILD/kernel} XEN_IMAGE=$out/xen BUILD=$fake WITH_DOMU=1 \
    "$top/test/vhost/vhost.sh" --quiet --timeout 400 "$out_vm" "$out/job.sh"
rc=$?
# The job's lines, without the console's time stamps and indentation.
job=$(sed -n '/VHOST: job start/,/VHOST: job end/p' "$out_vm/console.log" |
      sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//')
planned=$(echo "$job" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
echo "$job" | grep -E '^(ok|not ok) ' | sed 's/^\(ok\|not ok\) [0-9]* -/\1 - job:/'
echo "$job" | grep '^# ' || true
seen=$(echo "$job" | grep -c -E '^(ok|not ok) ')
check "booted from the package, the installed profile job exits 0 (status $rc)" test $rc -eq 0
check "the job reported all ${planned:-?} planned results ($seen)" test "$seen" = "${planned:-x}"
res=$out_vm/results
check "out.folded came out of the virtual host" test -s "$res/out.folded"
check "xenprofile.data came out, with its magic" \
    sh -c "head -c 7 '$res/xenprofile.data' | grep -q XENPROF"
check "status, status --json and xl dmesg outputs came out" \
    test -s "$res/status-2.txt" -a -s "$res/status.json" -a -s "$res/xl-dmesg.txt"
# libxl's JSON leaves out fields at their default (0).
check "status --json is libxl's encoding of libxl_profile_status: running, timer, samples on every pCPU" \
    /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cpus = [c for c in d["cpus"] if c.get("flags", 0) & 1]
n = lambda c, k: c.get(k, 0)
assert d["state"] == "running" and d["source"] == "timer"
assert d["frequency"] == 97 and len(cpus) >= 2
assert all(n(c, "taken") > 0 and
           n(c, "taken") == n(c, "read") + n(c, "lost") + n(c, "pending")
           for c in cpus)
' "$res/status.json"
check "folded lines are 'frames count'" \
    sh -c "! grep -v -E '^[^ ].* [0-9]+\$' '$res/out.folded' | grep -q ."
# The demo profile's --script, read by FlameGraph's stackcollapse-perf.pl
# (as test/unit/perf-script.t does for synthetic profiles).
: "${FLAMEGRAPH:=$top/../shared/tools/FlameGraph}"
xp() { LD_LIBRARY_PATH=$pkg/usr/lib "$pkg/usr/bin/xenprofile" "$@"; }
if [ -f "$FLAMEGRAPH/stackcollapse-perf.pl" ] && command -v perl > /dev/null; then
    period=$(xp -i "$res/xenprofile.data" --script 2> /dev/null |
             sed -n '1s/.*: \([0-9]*\) cpu-clock:$/\1/p')
    xp -i "$res/xenprofile.data" --script > "$out_vm/demo.script" &&
        xp -i "$res/xenprofile.data" --folded "$out_vm/demo.folded" &&
        perl "$FLAMEGRAPH/stackcollapse-perf.pl" "$out_vm/demo.script" \
            > "$out_vm/demo.collapsed" 2> "$out_vm/demo.collapse.err" &&
        [ ! -s "$out_vm/demo.collapse.err" ] &&
        python3 "$top/test/lib/perf-script-compare.py" "$out_vm/demo.folded" \
            "$out_vm/demo.collapsed" "${period:-0}" > "$out_vm/demo.compare"
    rc=$?
    check "the demo's --script through stackcollapse-perf.pl gives its folded stacks ($(tail -n 1 "$out_vm/demo.compare" 2>/dev/null))" \
        test $rc -eq 0
    [ $rc -eq 0 ] || sed 's/^/# /' "$out_vm/demo.compare" "$out_vm/demo.collapse.err" 2>/dev/null | head
else
    skip "the demo's --script through stackcollapse-perf.pl" "no perl or no $FLAMEGRAPH"
fi
finish
