#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Without CONFIG_XEN_PROFILER no profiler code is built in, the sysctl
# answers -EOPNOTSUPP, and xl says so in one line; Xen works as before.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
var=$BUILD/xen-noprof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 6
if ! "$top/scripts/build-xen-variant.sh" "$BUILD/xen" "$var" \
        "# CONFIG_XEN_PROFILER is not set" > "$tmp/build.log" 2>&1; then
    sed 's/^/# /' "$tmp/build.log"
    nok "a hypervisor without CONFIG_XEN_PROFILER builds"
    finish
fi
ok "a hypervisor without CONFIG_XEN_PROFILER builds"
code=$(nm "$var/xen/xen-syms" | grep -E ' [TtDdBb] (profile_|arch_profile_|pmu_cpu_|pmu_hw_)' | head -n 3 | tr '\n' ' ')
check "no profiler code or data is in it${code:+ (found: $code)}" test -z "$code"

cat > "$tmp/job" <<'EOJ'
#!/bin/sh
xl info > /results/xl-info.txt; echo $? > /results/info-rc
xl profile status > /dev/null 2> /results/status-err.txt; echo $? > /results/status-rc
xl profile start > /dev/null 2> /results/start-err.txt; echo $? > /results/start-rc
EOJ
chmod +x "$tmp/job"
rc=0
XEN_IMAGE=$var/xen/xen "$top/test/vhost/vhost.sh" --quiet --timeout 240 \
    "$BUILD/vhost/noprof" "$tmp/job" || rc=$?
check "the host runs the job to its end (status $rc)" test $rc -eq 0
res=$BUILD/vhost/noprof/results
want=$(sed -n -e 's/^export XEN_VERSION *= *//p' -e 's/^export XEN_SUBVERSION *= *//p' \
           "$BUILD/xen/xen/Makefile" | paste -sd.)
check "it boots and the toolstack works (xl info: Xen $want)" \
    sh -c "test \"\$(cat '$res/info-rc')\" = 0 && grep -q -E '^xen_version *: ${want//./\\.}([.-]|\$)' '$res/xl-info.txt'"
check "xl profile start fails in one line: no sampling profiler" \
    sh -c "test \"\$(cat '$res/start-rc')\" = 1 && [ \$(wc -l < '$res/start-err.txt') -eq 1 ] &&
           grep -q 'no sampling profiler (CONFIG_XEN_PROFILER)' '$res/start-err.txt'"
check "xl profile status fails, saying so" \
    sh -c "test \"\$(cat '$res/status-rc')\" = 1 && grep -q 'built with it' '$res/status-err.txt'"
finish
