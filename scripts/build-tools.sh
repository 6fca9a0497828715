#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-tools.sh SRC DESTDIR: configure (once) and build the part of the
# toolstack a dom0 needs (libraries, xenstored, xenconsoled, xl, helpers,
# xen-hptool),
# installed into DESTDIR.  Stubdoms, QEMU, firmware, OCaml and docs are
# skipped.
set -euo pipefail
. "$(dirname "$0")/env.sh"

src=$(cd "$1" && pwd)
mkdir -p "$2"; dest=$(cd "$2" && pwd)
flags="--prefix=/usr --disable-stubdom --disable-docs
  --disable-qemu-traditional --with-system-qemu=/usr/bin/qemu-system-i386
  --disable-rombios --disable-seabios --disable-ipxe --disable-ovmf
  --disable-ocamltools --disable-golang --disable-pvshim --disable-xsmpolicy
  --with-xenstored=xenstored"
# XEN_ARCH=arm64: cross-built with aarch64-linux-gnu-, against the arm64
# libraries of SYSROOT (scripts/arm64-sysroot.sh), never the build
# machine's.
unset ARCH SRCARCH
case ${XEN_ARCH:-x86_64} in
x86_64) ;;
arm64)
    : "${SYSROOT:?build-tools.sh: XEN_ARCH=arm64 needs SYSROOT}"
    flags="$flags --build=x86_64-linux-gnu --host=aarch64-linux-gnu
      APPEND_INCLUDES=$SYSROOT/usr/include
      APPEND_LIB=$SYSROOT/usr/lib/aarch64-linux-gnu"
    export PKG_CONFIG_LIBDIR=$SYSROOT/usr/lib/aarch64-linux-gnu/pkgconfig
    export PKG_CONFIG_SYSROOT_DIR=$SYSROOT
    # The libraries those libraries need, when linking programs.
    export APPEND_LDFLAGS="-Wl,-rpath-link,$SYSROOT/usr/lib/aarch64-linux-gnu"
    export XEN_TARGET_ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ;;
*) echo "error: XEN_ARCH=$XEN_ARCH: expected x86_64 or arm64" >&2; exit 2 ;;
esac
mkdir -p "$src.state"
stamp=$src.state/configured
cd "$src"
if [ "$(cat "$stamp" 2>/dev/null)" != "$(echo $flags)" ] ||
   [ ! -f config/Tools.mk ]; then
    ./configure $flags > "$src.state/configure.log" 2>&1 ||
        { tail -n 30 "$src.state/configure.log" >&2; exit 1; }
    echo $flags > "$stamp"
fi
log=$src.state/tools.log
: > "$log"
# xenstored and its clients: tools/xenstore up to 4.18, then
# tools/xenstored and tools/xs-clients.
for d in include libs xenstore xenstored xs-clients console helpers xl profile-jobs; do
    [ -d "tools/$d" ] || continue
    if ! make -s -j"$JOBS" -C "tools/$d" install DESTDIR="$dest" >>"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "error: building tools/$d failed (full log: $log)" >&2
        exit 1
    fi
done
# From tools/misc: xen-hptool (pCPU hotplug, for the profiler's hotplug
# test) and xenprofile (the offline profile reader), where the tree has it.
misc=
[ "${XEN_ARCH:-x86_64}" = x86_64 ] && misc=xen-hptool      # x86 only
[ -f tools/misc/xenprofile.c ] && misc="$misc xenprofile"
if ! make -s -C tools/misc $misc >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "error: building tools/misc failed (full log: $log)" >&2
    exit 1
fi
[ -f tools/misc/xen-hptool ] &&
    install -m 755 tools/misc/xen-hptool "$dest/usr/sbin/xen-hptool"
if [ -f tools/misc/xenprofile.c ]; then
    install -m 755 tools/misc/xenprofile "$dest/usr/bin/xenprofile"
fi
mkdir -p "$dest/etc/xen"
[ -f "$dest/etc/xen/xl.conf" ] || : > "$dest/etc/xen/xl.conf"
