#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Where the profiler meets Xen's NMI path, in the patched sources of each
# base (the series' patch applied to the pristine file): in do_nmi()
# nothing of the profiler runs before the NMI callback (a crash's
# do_nmi_crash() and livepatch's mask_nmi_callback() take every NMI
# there, and do_nmi() is not safely patchable); port 0x61 is still read
# after an NMI that is the profiler's alone; and the livepatch rendezvous
# takes the block of NMI sampling (or refuses) before it masks NMIs, and
# gives it back after it unmasks them (common/profile/nmi.c).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/source.sh"
: "${BUILD:=$top/build}"
: "${SHARED_XEN:=$top/../shared/xen}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

deb=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
bases=("4.17 $deb" "4.22 $SHARED_XEN/xen-4.22.0.tar.xz")
plan $((${#bases[@]} * 6))

for b in "${bases[@]}"; do
    set -- $b
    name=$1 tarball=${2:-}
    if [ ! -f "$tarball" ]; then
        for i in 1 2 3 4 5 6; do
            skip "Xen $name: NMI seams" "its source is not here"
        done
        continue
    fi
    d=$tmp/$name
    mkdir -p "$d"
    tar -C "$d" --strip-components=1 -xf "$tarball" --wildcards \
        '*/xen/arch/x86/traps.c' '*/xen/common/livepatch.c'
    # do_nmi()'s hook, and the livepatch exclusion (its own patch in 4.22)
    for p in $(grep -l -e "^Subject: \[PATCH\] x86/traps: claim the profiler" \
                      -e "^Subject: \[PATCH\] livepatch: refuse to apply while the profiler" \
                      "$top"/patches/"$name"/[0-9]*.patch); do
        patch -d "$d" -p1 -s --batch --fuzz=0 < "$p"
    done
    body "$d/xen/arch/x86/traps.c" do_nmi > "$d/do_nmi"
    # The rendezvous: check_for_livepatch_work() in 4.17, split out later.
    lp=do_livepatch_work
    grep -q '^static void noinline do_livepatch_work(' "$d/xen/common/livepatch.c" ||
        lp=check_for_livepatch_work
    body "$d/xen/common/livepatch.c" $lp > "$d/lp"

    check "Xen $name: do_nmi() calls the NMI callback before any profiler code" \
        before "$d/do_nmi" 'callback\(regs, cpu\)' 'profile_'
    check "Xen $name: do_nmi() claims the profiler's overflows (profile_pmu_nmi)" \
        grep -q 'profiled = profile_pmu_nmi(regs);' "$d/do_nmi"
    check "Xen $name: an NMI that is the profiler's alone still reads port 0x61, rate-limited" \
        sh -c "grep -A5 'if ( cpu == nmi_cpu )\$' '$d/do_nmi' | grep -q 'read_reason = profile_pmu_nmi_reason_due();' &&
               grep -q 'if ( read_reason )' '$d/do_nmi' &&
               ! grep -A1 'profiled == PROFILE_NMI_OURS' '$d/do_nmi' | grep -q 'goto out'"
    check "Xen $name: ... and does not tick the NMI watchdog" \
        grep -q 'if ( profiled != PROFILE_NMI_OURS &&$' "$d/do_nmi"
    check "Xen $name: the livepatch rendezvous blocks NMI sampling (or refuses) before it masks NMIs" \
        before "$d/lp" 'if \( !profile_nmi_block\(\) \)' 'arch_livepatch_mask\(\);'
    check "Xen $name: ... and unblocks it after it unmasks them" \
        before "$d/lp" 'arch_livepatch_unmask\(\);' 'profile_nmi_unblock\(\);'
done
finish
