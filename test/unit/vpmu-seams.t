#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Where the profiler meets AMD vPMU, in the patched sources of each base
# (the series' hunks applied to the pristine files): HVM's share of the
# PMU ownership (common/pmu-owner.c, a count of vCPUs) follows
# VPMU_RUNNING.  amd_vpmu_do_wrmsr() takes a share when it sets it and
# gives one back when it clears it; amd_vpmu_load() from a PV guest's
# XENPMU_flush only ever clears it (and then gives the share back),
# because vpmu_load() calls it only with VPMU_RUNNING set -- the guard
# the hunk relies on, checked here so that an upstream change to it shows;
# amd_vpmu_destroy() gives back a running vCPU's share.  These are checks
# of the source's text (a lint): the behaviour is not run.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/source.sh"
: "${BUILD:=$top/build}"
: "${SHARED_XEN:=$top/../shared/xen}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

deb=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
bases=("4.17 $deb" "4.22 $SHARED_XEN/xen-4.22.0.tar.xz")
plan $((${#bases[@]} * 5))

# count FILE RE: the lines of FILE matching RE.
count() { grep -c -E "$2" "$1" || true; }
# same FILE RE1 RE2: as many lines match RE1 as RE2, and at least one.
same() {
    local a b
    a=$(count "$1" "$2") b=$(count "$1" "$3")
    [ "$a" -gt 0 ] && [ "$a" = "$b" ] ||
        { diag "$(basename "$1"): $a of '$2', $b of '$3'"; return 1; }
}
# The checks, on the bodies in $d.
loads_only_running() {
    before "$d/vpmu_load" 'if \( !vpmu_is_set\(vpmu, VPMU_RUNNING\)' \
        'vpmu_ops\.arch_vpmu_load|arch_vpmu_load\(' &&
        grep -A3 'if ( !vpmu_is_set(vpmu, VPMU_RUNNING)' "$d/vpmu_load" |
        grep -q 'return 0;'
}
load_only_clears() {
    grep -A3 'else if ( vpmu_is_set(vpmu, VPMU_RUNNING) )' "$d/load" |
        grep -q -E "$give_re" &&
        same "$d/load" "$reset_re" "$give_re" &&
        [ "$(count "$d/load" "$take_re")" = 0 ]
}
wrmsr_takes() {
    same "$d/wrmsr" "$set_re" "$take_re" && before "$d/wrmsr" "$take_re" "$set_re"
}
destroy_gives() {
    grep -A1 'if ( vpmu_is_set(vpmu, VPMU_RUNNING) )' "$d/destroy" |
        grep -q -E "$give_re"
}

set_re='vpmu_set\(vpmu, VPMU_RUNNING\);'
reset_re='vpmu_reset\(vpmu, VPMU_RUNNING\);'
take_re='acquire_pmu_ownership\(PMU_OWNER_HVM\)'
give_re='release_pmu_ownership\(PMU_OWNER_HVM\);'
for b in "${bases[@]}"; do
    set -- $b
    name=$1 tarball=${2:-}
    if [ ! -f "$tarball" ]; then
        for i in 1 2 3 4 5; do
            skip "Xen $name: AMD vPMU ownership" "its source is not here"
        done
        continue
    fi
    d=$tmp/$name
    mkdir -p "$d"
    tar -C "$d" --strip-components=1 -xf "$tarball" --wildcards \
        '*/xen/arch/x86/cpu/vpmu_amd.c' '*/xen/arch/x86/cpu/vpmu.c'
    for p in $(grep -l -e "^Subject: \[PATCH\] x86/vpmu: " \
                   "$top"/patches/"$name"/[0-9]*.patch); do
        grep -q '^+++ b/xen/arch/x86/cpu/vpmu_amd.c' "$p" || continue
        sed -n '/^--- a\/xen\/arch\/x86\/cpu\/vpmu_amd.c/,/^--- a\//p' "$p" |
            sed '$ { /^--- a\//d }' > "$d/amd.diff"
        patch -d "$d" -p1 -s --batch --fuzz=0 < "$d/amd.diff"
    done
    f=$d/xen/arch/x86/cpu/vpmu_amd.c
    body "$f" amd_vpmu_load > "$d/load"
    body "$f" amd_vpmu_do_wrmsr > "$d/wrmsr"
    body "$f" amd_vpmu_destroy > "$d/destroy"
    body "$d/xen/arch/x86/cpu/vpmu.c" vpmu_load > "$d/vpmu_load"

    check "Xen $name: vpmu_load() returns before the arch load unless VPMU_RUNNING is set" \
        loads_only_running
    check "Xen $name: ... so amd_vpmu_load() only clears VPMU_RUNNING, and gives the share back" \
        load_only_clears
    check "Xen $name: amd_vpmu_do_wrmsr() takes a share for every set of VPMU_RUNNING" \
        wrmsr_takes
    check "Xen $name: ... and gives one back for every clear" \
        same "$d/wrmsr" "$reset_re" "$give_re"
    check "Xen $name: amd_vpmu_destroy() gives back the share of a vCPU still running" \
        destroy_gives
done
finish
