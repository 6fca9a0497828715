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
# found as the toolstack's are).
set -euo pipefail

out=$1 dist=$2 kdir=$3 job=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
stage=$out.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,run,tmp,job,lib64,lib/x86_64-linux-gnu}
mkdir -p "$stage/var" && ln -s ../run "$stage/var/run"

bb=$(command -v busybox || echo /bin/busybox)
cp "$bb" "$stage/bin/busybox"
for a in $("$bb" --list); do
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
# The loader's cache, for processes without dom0-init's LD_LIBRARY_PATH
# (e.g. SSH sessions).
printf '/usr/lib\n/lib/x86_64-linux-gnu\n' > "$stage/etc/ld.so.conf"
ldconfig -r "$stage" 2>/dev/null || echo "mkinitrd: no ld.so.cache (ldconfig -r needs root)" >&2

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
