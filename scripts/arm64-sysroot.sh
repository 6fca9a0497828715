#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# arm64-sysroot.sh OUT: the arm64 (aarch64) libraries that cross-building
# the toolstack needs, and that dom0 of the Arm virtual host runs with,
# unpacked from Debian bookworm's arm64 packages into OUT (downloaded with
# the private apt configuration: the machine's dpkg is not told of arm64).
# OUT/usr/include (multiarch headers included) and
# OUT/usr/lib/aarch64-linux-gnu then hold the -dev
# files, OUT/lib/aarch64-linux-gnu the C library, OUT/bin/busybox a
# static busybox.  Cached: done again only when the package list changes.
set -euo pipefail
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"

mkdir -p "$(dirname "$1")"
out=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
# Headers and libraries of the toolstack (yajl, uuid, zlib, libfdt, which
# libxl needs on Arm), and the run-time of dom0's programs.
pkgs="libc6 libgcc-s1 libyajl2 libyajl-dev libuuid1 uuid-dev zlib1g
      zlib1g-dev libfdt1 libfdt-dev libncurses-dev libncurses6 libncursesw6
      libtinfo6 busybox-static"
want="$(echo $pkgs) $(sha256sum "$0" | cut -c1-16)"
if [ "$(cat "$out/.packages" 2>/dev/null)" = "$want" ]; then
    echo "arm64 sysroot: cached ($out)"
    exit 0
fi
conf=$(APT_FOREIGN=arm64 "$top/scripts/apt-private.sh" "$BUILD/dl/apt-arm64")
lists=$BUILD/dl/apt-arm64/lists
if [ -z "$(find "$lists" -maxdepth 1 -name '*arm64_Packages*' -mmin -1440 2>/dev/null)" ]; then
    APT_CONFIG=$conf apt-get -q -q update
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp/debs"
(cd "$out.tmp/debs" &&
 APT_CONFIG=$conf apt-get -q -q download $(printf '%s:arm64 ' $pkgs))
mkdir -p "$out.tmp/root"
for d in "$out.tmp"/debs/*.deb; do
    dpkg-deb -x "$d" "$out.tmp/root"
done
# Debian 12 has merged /usr: the C library may be under usr/lib only.
root=$out.tmp/root
[ -e "$root/lib" ] || ln -s usr/lib "$root/lib"
# Absolute symbolic links of the -dev packages point into the sysroot.
find "$root" -type l | while read -r l; do
    t=$(readlink "$l")
    case $t in /*) ln -sfn "$out$t" "$l" ;; esac
done
# One library folder for the linker: what packages other than the C
# library's put in lib/ (e.g. libncurses.so.6, which libncurses.so names)
# is linked into usr/lib.  The C library stays the cross compiler's.
for d in "$out.tmp"/debs/*.deb; do
    case $(basename "$d") in libc6_*|libgcc-s1_*) continue ;; esac
    dpkg-deb -c "$d" | awk '{ print $6 }' | sed -n 's|^\./lib/aarch64-linux-gnu/||p' |
    while read -r f; do
        [ -n "$f" ] && [ ! -e "$root/usr/lib/aarch64-linux-gnu/$f" ] &&
            ln -s "../../../lib/aarch64-linux-gnu/$f" "$root/usr/lib/aarch64-linux-gnu/$f"
    done
done
# One include folder: the multiarch headers beside the others.
if [ -d "$root/usr/include/aarch64-linux-gnu" ]; then
    cp -a "$root/usr/include/aarch64-linux-gnu/." "$root/usr/include/"
fi
rm -rf "$out"
mv "$root" "$out"
rm -rf "$out.tmp"
echo "$want" > "$out/.packages"
echo "arm64 sysroot: $(echo $pkgs | wc -w) packages in $out"
