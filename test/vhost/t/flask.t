#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# FLASK: with xsm=flask flask=enforcing, dom0 may profile under the default
# policy (dom0.te grants xen2:profile_op, patch 0005), and a policy without
# that grant denies XEN_SYSCTL_profile_op.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/job" <<'EOJ'
#!/bin/sh
xl profile start -F 97 > /results/start.txt 2> /results/start-err.txt
echo $? > /results/start-rc
sleep 1
xl profile stop --data /results/f.data > /results/stop.txt 2>&1
echo $? > /results/stop-rc
xl dmesg > /results/xl-dmesg.txt
EOJ
chmod +x "$tmp/job"
flask="xsm=flask flask=enforcing"

plan 9
# vhost.sh prints the console's tail to stderr when the host does not
# run the job to its end: that is what a failure here is diagnosed by.
rc=0
"$top/test/vhost/vhost.sh" --quiet --timeout 240 --xen-args "$flask" \
    "$BUILD/vhost/flask-allow" "$tmp/job" || rc=$?
check "the host with FLASK enforcing runs the job (status $rc)" test $rc -eq 0
res=$BUILD/vhost/flask-allow/results
check "Xen booted with FLASK enforcing" \
    grep -q "Flask:  Starting in enforcing mode" "$res/xl-dmesg.txt"
check "dom0 may start the profiler under the default policy" \
    test "$(cat "$res/start-rc" 2>/dev/null)" = 0
check "and stop it and save the samples" \
    sh -c "test \"\$(cat '$res/stop-rc')\" = 0 && grep -q ' samples (0 lost)' '$res/stop.txt'"

if ! "$top/test/vhost/flask-policy.sh" "$BUILD/xen" "$tmp/deny.pol" 's/[[:space:]]*profile_op//'; then
    nok "a policy without profile_op builds"
    finish
fi
ok "a policy without profile_op builds"
rc=0
"$top/test/vhost/vhost.sh" --quiet --timeout 240 --xen-args "$flask" \
    --module "$tmp/deny.pol" "$BUILD/vhost/flask-deny" "$tmp/job" || rc=$?
check "the host with the policy that denies runs the job (status $rc)" test $rc -eq 0
res=$BUILD/vhost/flask-deny/results
check "without the grant, start fails" \
    test "$(cat "$res/start-rc" 2>/dev/null)" = 1
check "with one line saying permission denied" \
    sh -c "[ \$(wc -l < '$res/start-err.txt') -eq 1 ] && grep -q 'permission denied' '$res/start-err.txt'"
check "and FLASK logged the denial of profile_op" \
    grep -q "avc:  denied  { profile_op }" "$res/xl-dmesg.txt"
finish
