#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make-debball.sh SRC DIST OUTDIR: Xen's own package of a build
# (tools/misc/mkdeb, as `make debball` in xen.git: one xen-upstream .deb),
# of what this series built: the toolstack in DIST (xl profile,
# xenprofile, the libraries), the hypervisor as /boot/xen-VERSION.gz with
# its xen-syms in /usr/lib/debug, the man pages of xl(1) and xenprofile(1),
# and the host jobs in /usr/lib/xen/profile (with their helpers, built
# against DIST).  The version is the Xen's plus "+profile1", so that the
# package is clearly ours.  Writes OUTDIR/xen-upstream-VERSION.deb and
# prints its path.
set -euo pipefail
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd) dist=$(cd "$2" && pwd)
mkdir -p "$3"; out=$(cd "$3" && pwd)
xenver=$(make -s -C "$src/xen" xenversion)
version=$xenver+profile1
for f in "$src/xen/xen.gz" "$src/xen/xen-syms" "$dist/usr/sbin/xl"; do
    [ -f "$f" ] || { echo "make-debball: $f missing: build first" >&2; exit 1; }
done

# mkdeb packages XEN_ROOT/dist/install: a stand-in root holds ours.
root=$out/root
rm -rf "$root"
inst=$root/dist/install
mkdir -p "$inst"
cp -a "$dist/." "$inst/"
install -D -m 644 "$src/xen/xen.gz" "$inst/boot/xen-$xenver.gz"
install -D -m 644 "$src/xen/xen-syms" "$inst/usr/lib/debug/xen-syms-$xenver"

# Man pages: xl(1) with the series' section, xenprofile(1).
man=$inst/usr/share/man/man1
mkdir -p "$man"
subst=$(sed -n 's/^\(XEN_[A-Z_]*\) *:= *\(.*\)$/-e s#@\1@#\2#g/p' "$src/config/Paths.mk")
# shellcheck disable=SC2086
sed $subst "$src/docs/man/xl.1.pod.in" > "$out/xl.1.pod"
pod2man --section=1 --release="Xen $xenver" --center=Xen --name=XL \
    "$out/xl.1.pod" "$man/xl.1"
pod2man --section=1 --release="Xen $xenver" --center=Xen --name=XENPROFILE \
    "$top/docs/man/xenprofile.1.pod" "$man/xenprofile.1"
gzip -9n "$man/xl.1" "$man/xenprofile.1"

XEN_TARGET_ARCH=x86_64 sh "$src/tools/misc/mkdeb" "$root" "$version" > "$out/mkdeb.log" 2>&1 ||
    { cat "$out/mkdeb.log" >&2; exit 1; }
rm -f "$out"/xen-upstream-*.deb
mv "$root/dist/xen-upstream-$version.deb" "$out/"
rm -rf "$root"
echo "$out/xen-upstream-$version.deb"
