#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make debian-packages' source tree (scripts/make-debian-source.sh), without
# building it: Debian's 4.17.5 source package with the series after its
# own patches applies with quilt, without fuzz; the result holds every
# new file of this repository unchanged (less the fuzzer's binary inputs);
# the packaging and the changelog entry are ours; a debian.tar.xz of
# another version is refused.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
: "${XEN_DEB_VERSION:=4.17.5+72-g01140da4e8-1}"
orig=$BUILD/dl/xen_${XEN_DEB_VERSION%-*}.orig.tar.xz
debian=$BUILD/dl/xen_$XEN_DEB_VERSION.debian.tar.xz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 17
why=""
command -v quilt > /dev/null || why="quilt is not installed (scripts/deps.sh)"
command -v dpkg-parsechangelog > /dev/null || why="dpkg-dev is not installed"
[ -f "$debian" ] || why="$debian is not fetched (make fetch)"
[ -f "$orig" ] || why="$orig is not fetched (make fetch)"
if [ -n "$why" ]; then
    for i in $(seq 17); do skip "Debian source package" "$why"; done
    exit 0
fi

tree=$("$top/scripts/make-debian-source.sh" "$orig" "$debian" "$tmp/out" 2> "$tmp/err")
rc=$?
sed 's/^/# /' "$tmp/err"
if [ $rc -ne 0 ] || [ ! -d "$tree/debian" ]; then
    nok "make-debian-source.sh builds the tree (status $rc)"
    for i in $(seq 2 17); do skip "Debian source package" "no tree"; done
    exit 1
fi
ok "make-debian-source.sh builds the tree"
cd "$tree" || exit 1

# The series and its local patches (the host jobs).
n=$("$top/scripts/patch-list.sh" "$top/patches/4.17" applied | wc -l)
check "the version is Debian's plus +profile1" \
    test "$(dpkg-parsechangelog -S Version)" = "$XEN_DEB_VERSION+profile1"
check "the entry is for bookworm" test "$(dpkg-parsechangelog -S Distribution)" = bookworm
check "the entry is signed by the series' authors" \
    test "$(dpkg-parsechangelog -S Maintainer)" = "xl profile developers <xen-devel@lists.xenproject.org>"
check "the entry counts the $n patches of the series" \
    sh -c "dpkg-parsechangelog -S Changes | grep -q ' $n patches of the'"
check "the entry before it is Debian's $XEN_DEB_VERSION" \
    test "$(dpkg-parsechangelog -o1 -c1 -S Version)" = "$XEN_DEB_VERSION"
check "the series follows Debian's patches in debian/patches/series" \
    test "$(grep -c '^profile/' debian/patches/series)" = "$n" -a \
         "$(sed -e '/^#/d' debian/patches/series | tail -n 1)" = \
         "profile/$(ls debian/patches/profile | tail -n 1)"
check "no patch of the series holds a binary diff" \
    sh -c "! grep -l 'GIT binary patch' debian/patches/profile/*"

QUILT_PATCHES=debian/patches quilt push -a -q --fuzz=0 > "$tmp/quilt" 2>&1
rc=$?
check "quilt applies every patch without fuzz (status $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/quilt" | tail -n 20
d=$(sed -e '/^#/d' -e '/^profile\//d' -e '/^[[:space:]]*$/d' debian/patches/series | wc -l)
check "all $((d + n)) patches are applied" \
    test "$(QUILT_PATCHES=debian/patches quilt applied 2>/dev/null | wc -l)" = $((d + n))

# Every new file of this repository is in the tree, unchanged, but those
# the 4.17 series does not use (patches/4.17/files: "unused", Xen on Arm);
# those its backport patches adapt are as the overlay's with them applied.
mkdir -p "$tmp/adapted"
(cd "$top" && git ls-files -- xen tools docs | tar -cf - -T -) | tar -C "$tmp/adapted" -xf -
for p in $("$top/scripts/patch-list.sh" "$top/patches/4.17" series); do
    grep -q '^Subject: \[PATCH\] [^ ]*: backport ' "$top/patches/4.17/$p" || continue
    patch -d "$tmp/adapted" -p1 -s --batch --forward --fuzz=0 -r - \
          -i "$top/patches/4.17/$p" > /dev/null 2>&1
done
unused=$(cd "$top" && git ls-files -- $(awk '$1 == "unused" { $1 = ""; print }' patches/4.17/files))
missing=0 differ=0
while read -r f; do
    grep -qxF -- "$f" <<<"$unused" && continue
    if [ ! -f "$f" ]; then
        missing=$((missing + 1)); diag "missing: $f"
    elif ! cmp -s "$f" "$tmp/adapted/$f"; then
        differ=$((differ + 1)); diag "differs: $f"
    fi
done < <(cd "$top" && git ls-files -- xen tools docs | while read -r f; do
             grep -qI . "$f" 2>/dev/null || [ ! -s "$f" ] || continue; echo "$f"; done)
check "every text file of the overlay is in the tree" test $missing -eq 0
check "and is the same as here" test $differ -eq 0
check "the hypervisor is configured with the profiler and frame pointers" \
    sh -c "grep -qx CONFIG_XEN_PROFILER=y debian/xen-kconfig && grep -qx CONFIG_FRAME_POINTER=y debian/xen-kconfig"
check "libxenprofile1 and xenprofile are binary packages" \
    sh -c "grep -qx 'Package: libxenprofile1' debian/control && grep -qx 'Package: xenprofile' debian/control"
check "the host jobs go in xen-utils-4.17" \
    grep -qx 'usr/lib/xen-@version@/profile' debian/xen-utils-V.install.vsn-in
cd "$tmp" || finish

# A debian.tar.xz of another version is refused.
mkdir -p other/debian
printf 'xen (4.17.3-1) bookworm; urgency=medium\n\n  * x\n\n -- A <a@b>  Mon, 01 Jan 2024 00:00:00 +0000\n' \
    > other/debian/changelog
tar -C other -cJf other.debian.tar.xz debian
"$top/scripts/make-debian-source.sh" "$orig" other.debian.tar.xz "$tmp/out2" > /dev/null 2> err2
rc=$?
check "a debian.tar.xz of xen 4.17.3-1 exits 1 (status $rc)" test $rc -eq 1
check "and says which version it is" grep -q "is of xen 4.17.3-1, not $XEN_DEB_VERSION" err2
finish
