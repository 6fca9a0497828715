#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vhost.sh [run.py options] OUTDIR JOB [FILE...]: run JOB (with FILEs
# beside it) in dom0 of the virtual host built in $BUILD.  The job's
# artifacts land in OUTDIR/results, the console in OUTDIR/console.log.
# XEN_IMAGE=<file> boots another hypervisor than $BUILD's; the dom0
# kernel is in ${KERNEL_DIR:-$BUILD/kernel}.  XEN_ARCH=arm64: the Arm
# virtual host (qemu-system-aarch64), with dom0's libraries from SYSROOT.
# Exit status: see run.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${BUILD:=$(cd "$here/../.." && pwd)/build}"
opts=()
while [[ $# -gt 0 && $1 == --* ]]; do
    case $1 in
    --quiet|--icount) opts+=("$1"); shift ;;
    *) opts+=("$1" "$2"); shift 2 ;;
    esac
done
out=$1 job=$2
shift 2
xen=${XEN_IMAGE:-$BUILD/xen/xen/xen}
kdir=${KERNEL_DIR:-$BUILD/kernel}
for f in "$xen" "$kdir/vmlinux" "$BUILD/dist/usr/sbin/xl"; do
    [ -f "$f" ] || { echo "error: $f missing: run make first" >&2; exit 125; }
done
rm -rf "$out"
mkdir -p "$out"
[ -n "${TIMING_LOG:-}" ] && opts+=(--timing "$TIMING_LOG")
[ "${XEN_ARCH:-x86_64}" = arm64 ] && opts+=(--arch arm64)
start=$(date +%s%N)
"$here/mkinitrd.sh" "$out/initrd.cpio" "$BUILD/dist" "$kdir" "$job" "$@"
[ -n "${TIMING_LOG:-}" ] &&
    awk -v ms=$(( ($(date +%s%N) - start) / 1000000 )) \
        -v pre="${TIMING_PREFIX:-}" 'BEGIN { printf "%sinitramfs %.3f\n", pre, ms / 1000 }' >> "$TIMING_LOG"
rc=0
/usr/bin/python3 "$here/run.py" --xen "$xen" \
    --kernel "$kdir/vmlinux" --initrd "$out/initrd.cpio" \
    --out "$out" "${opts[@]}" || rc=$?
rm -f "$out/initrd.cpio"
exit $rc
