#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitrd.sh OUT.cpio DIST KERNELDIR JOB [FILE...]: build the dom0
# initramfs: busybox, the toolstack installed in DIST with the shared
# libraries it needs, the kernel modules of KERNELDIR, and the job (run as
# /job/run; the FILEs go beside it in /job).  With WITH_DOMU=1 it also
# carries a PV domU: /boot/domu/vmlinux (KERNELDIR's kernel) and
# /boot/domu/initrd.cpio (busybox and domu-init).  VHOST_EXTRA=<dir>: a
# tree copied over the root first (e.g. an SSH server: its libraries are
# found as the toolstack's are).  XEN_ARCH=arm64: an arm64 dom0, whose
# busybox and libraries come from SYSROOT (scripts/arm64-sysroot.sh).
set -euo pipefail

out=$1 dist=$2 kdir=$3 job=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
stage=$out.d
rm -rf "$stage"
arch=${XEN_ARCH:-x86_64}
case $arch in
x86_64) triplet=x86_64-linux-gnu bb=$(command -v busybox || echo /bin/busybox) ;;
arm64) triplet=aarch64-linux-gnu bb=${SYSROOT:?mkinitrd.sh: arm64 needs SYSROOT}/bin/busybox ;;
*) echo "error: XEN_ARCH=$arch: expected x86_64 or arm64" >&2; exit 2 ;;
esac
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,run,tmp,job,lib64,lib/$triplet}
mkdir -p "$stage/var" && ln -s ../run "$stage/var/run"

cp "$bb" "$stage/bin/busybox"
# The applets of the build machine's busybox (the same Debian version).
for a in $(busybox --list 2>/dev/null || /bin/busybox --list); do
    [ -e "$stage/bin/$a" ] || ln -s busybox "$stage/bin/$a"
done

# The toolstack, without headers, static libraries and documentation (and
# what a package of it holds besides: the hypervisor, its debug symbols).
tar -C "$dist" --exclude=./usr/include --exclude='*.a' \
    --exclude=./usr/share --exclude=./usr/lib/pkgconfig \
    --exclude=./boot --exclude=./usr/lib/debug -cf - . |
    tar -C "$stage" -xf -
if [ -n "${VHOST_EXTRA:-}" ]; then
    tar -C "$VHOST_EXTRA" -cf - . | tar -C "$stage" -xf -
fi

if [ "$arch" = x86_64 ]; then
# Shared libraries from the build machine that those binaries need, plus
# libgcc_s, which glibc dlopen()s for pthread_cancel (ldd cannot see it).
# (ldd fails on the scripts among them, e.g. the installed host jobs.)
libs=$(find "$stage/usr" -type f -perm -u+x -o -type f -name '*.so*' |
       { xargs -r ldd 2>/dev/null || true; } |
       awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
       grep -v "^$stage" | sort -u)
# (No early exit in a pipeline: with pipefail the writer's SIGPIPE fails it.)
gcc_s=$(ldconfig -p | awk '/libgcc_s.so.1 .*x86-64/ && !f { print $NF; f = 1 }')
for l in $libs $gcc_s; do
    cp -L "$l" "$stage/lib/x86_64-linux-gnu/"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib64/"
else
# arm64: ldd cannot run the binaries; follow their DT_NEEDED entries
# (readelf) through the sysroot instead, and take libgcc_s as above.
sys=$SYSROOT/lib/$triplet
need() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
todo=$(find "$stage/usr" -type f \( -perm -u+x -o -name '*.so*' \))
declare -A seen
while [ -n "$todo" ]; do
    next=""
    for f in $todo; do
        for n in $(need "$f"); do
            [ -n "${seen[$n]:-}" ] && continue
            seen[$n]=1
            [ -e "$stage/usr/lib/$n" ] && continue     # the toolstack's own
            l=$sys/$n
            [ -e "$l" ] || l=$SYSROOT/usr/lib/$triplet/$n
            [ -e "$l" ] || { echo "error: $n (of ${f#$stage}) not in $SYSROOT" >&2; exit 1; }
            cp -L "$l" "$stage/lib/$triplet/"
            next="$next $stage/lib/$triplet/$n"
        done
    done
    todo=$next
done
cp -L "$sys/libgcc_s.so.1" "$stage/lib/$triplet/"
cp -L "$sys/ld-linux-aarch64.so.1" "$stage/lib/"
fi
# The loader's cache, for processes without dom0-init's LD_LIBRARY_PATH
# (e.g. SSH sessions).
printf '/usr/lib\n/lib/%s\n' "$triplet" > "$stage/etc/ld.so.conf"
if [ "$arch" = x86_64 ]; then
    ldconfig -r "$stage" 2>/dev/null || echo "mkinitrd: no ld.so.cache (ldconfig -r needs root)" >&2
fi

release=$(cat "$kdir/release")
mkdir -p "$stage/lib/modules/$release"
cp "$kdir"/modules/* "$stage/lib/modules/$release/"

if [ "${WITH_DOMU:-0}" = 1 ]; then
    d=$out.domu
    rm -rf "$d"
    mkdir -p "$d/bin" "$d/proc" "$stage/boot/domu"
    cp "$bb" "$d/bin/busybox"
    for a in sh mount cat poweroff; do ln -s busybox "$d/bin/$a"; done
    cp "$here/domu-init" "$d/init"
    chmod +x "$d/init"
    (cd "$d" && find . | cpio -o -H newc --quiet) > "$stage/boot/domu/initrd.cpio"
    rm -rf "$d"
    cp "$kdir/vmlinux" "$stage/boot/domu/vmlinux"
fi

cp "$here/dom0-init" "$stage/init"
cp "$job" "$stage/job/run"
for f in "$@"; do
    cp -r "$f" "$stage/job/"
done
chmod +x "$stage/init" "$stage/job/run"
(cd "$stage" && find . | cpio -o -H newc --quiet) > "$out"
rm -rf "$stage"
