#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make-debian-source.sh ORIG DEBIAN OUT: Debian's source package of Xen
# 4.17 (ORIG, its orig tarball, and DEBIAN, its debian.tar.xz) with the
# xl profile series added, unpacked in OUT/xen-UPSTREAM/:
#   - the 4.17 series as `make series` writes it (each patch with the new
#     files it adds), and the project's local patches after it (the host
#     jobs: SERIES_LOCAL=1), in debian/patches/profile/, after Debian's own
#     patches in debian/patches/series (applied by quilt, as dpkg-source
#     does), less its binary files: quilt cannot apply them, and they are
#     only inputs of the fuzzer, which the package does not build;
#   - patches/debian/: the packaging of what the series adds;
#   - a debian/changelog entry for VERSION+profile1 (SOURCE_DATE_EPOCH,
#     else the date of this repository's last commit, dates it).
# Prints the tree's path.  Nothing is applied: scripts/build-debian.sh
# builds the tree, test/unit/debian-source.t checks it with quilt.
set -euo pipefail
. "$(dirname "$0")/env.sh"

orig=$1 debian=$2
mkdir -p "$3"; out=$(cd "$3" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
: "${XEN_DEB_VERSION:=4.17.5+72-g01140da4e8-1}"
suffix=+profile1
version=$XEN_DEB_VERSION$suffix
maint="xl profile developers <xen-devel@lists.xenproject.org>"
tree=$out/xen-${XEN_DEB_VERSION%-*}

for f in "$orig" "$debian"; do
    [ -f "$f" ] || { echo "make-debian-source: $f: no such file" >&2; exit 1; }
done

# The series, from the pristine 4.17 tree, without its binary files.
SERIES_AUTHOR=$maint SERIES_LOCAL=1 \
    "$top/scripts/make-series.sh" "$orig" "$out/upstream" > "$out/series.log"
git=(git -C "$out/upstream.git")
mapfile -t binary < <("${git[@]}" diff --numstat --no-renames -z series-base series-head |
                      tr '\0' '\n' | awk -F'\t' '$1 == "-" { print ":(exclude)" $3 }')
rm -rf "$out/series"
"${git[@]}" format-patch -q --zero-commit --no-signature -o "$out/series" \
    series-base..series-head -- . "${binary[@]}"
patches=$(cd "$out/series" && ls [0-9]*.patch)

rm -rf "$tree"
mkdir -p "$tree"
tar -C "$tree" --strip-components=1 -xf "$orig"
tar -C "$tree" -xf "$debian"
head=$(sed -n '1s/^xen (\([^)]*\)).*/\1/p' "$tree/debian/changelog")
if [ "$head" != "$XEN_DEB_VERSION" ]; then
    echo "make-debian-source: $debian is of xen $head, not $XEN_DEB_VERSION" >&2
    exit 1
fi

# The packaging of what the series adds.
while read -r p; do
    patch -d "$tree" -p1 -s --batch --forward --fuzz=0 < "$top/patches/debian/$p"
done < <("$top/scripts/patch-list.sh" "$top/patches/debian" series)

# The series, after Debian's patches.
mkdir -p "$tree/debian/patches/profile"
{
    echo "# The xl profile series (make series, Xen 4.17)"
    for p in $patches; do
        cp "$out/series/$p" "$tree/debian/patches/profile/$p"
        echo "profile/$p"
    done
} >> "$tree/debian/patches/series"

# The changelog entry.
when=$(source_date)
n=$(echo "$patches" | wc -w)
{
    echo "xen ($version) bookworm; urgency=medium"
    echo
    echo "  * Add the hypervisor sampling profiler, xl profile: $n patches of the"
    echo "    xl profile series in debian/patches/profile/."
    echo "  * Build the hypervisor with CONFIG_XEN_PROFILER and CONFIG_FRAME_POINTER."
    echo "  * New packages libxenprofile1 (the profile library) and xenprofile"
    echo "    (the offline reader of profiles); the host jobs that check the"
    echo "    profiler go in xen-utils-4.17 (/usr/lib/xen-4.17/profile/)."
    echo
    echo " -- $maint  $(LC_ALL=C date -u -R -d "@$when")"
    echo
    cat "$tree/debian/changelog"
} > "$tree/debian/changelog.new"
mv "$tree/debian/changelog.new" "$tree/debian/changelog"
ln -sf "$(cd "$(dirname "$orig")" && pwd)/$(basename "$orig")" "$out/"
echo "$tree"
