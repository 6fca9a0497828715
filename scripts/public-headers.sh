#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# public-headers.sh OUT: Xen's public headers with this series' additions
# (XEN_SYSCTL_profile_op in sysctl.h), for the unit tests, which build
# outside a Xen tree: xen/include/public/ of the pinned 4.17 tarball (the
# default base, always fetched: $BUILD/dl, or XEN_TARBALL) with the
# patches of its series that change only public headers.  Prints OUT/include,
# a folder whose xen/ and public/ are those headers, for -I: the tools'
# <xen/sysctl.h> and the hypervisor's <public/sysctl.h>.  Does nothing when
# OUT is up to date with the tarball and those patches.
set -euo pipefail
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
: "${BUILD:=$top/build}"
tarball=${XEN_TARBALL:-$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)}
[ -f "$tarball" ] || { echo "public-headers: no Xen 4.17 tarball in $BUILD/dl (make fetch)" >&2; exit 1; }
ver=$(tar -xOf "$tarball" --wildcards '*/xen/Makefile' |
      sed -n -e 's/^export XEN_VERSION *= *//p' -e 's/^export XEN_SUBVERSION *= *//p' | paste -sd.)
dir=$top/patches/$(awk -v v="$ver" '$1 == v { print $2 }' "$top/patches/bases")
# The patches of the series that change public headers alone.
patches=()
while read -r p; do
    files=$(sed -n 's|^+++ b/||p' "$dir/$p" | cut -f1)
    [ -n "$files" ] && ! grep -qv '^xen/include/public/' <<<"$files" && patches+=("$dir/$p")
done < <("$top/scripts/patch-list.sh" "$dir" series)
[ ${#patches[@]} -gt 0 ] || { echo "public-headers: $dir/series changes no public header" >&2; exit 1; }
key="$(sha256sum "$tarball" "${patches[@]}" | cut -c1-64 | sha256sum | cut -c1-64)"
if [ "$(cat "$out/key" 2>/dev/null)" != "$key" ]; then
    rm -rf "$out"
    mkdir -p "$out/tree" "$out/include"
    tar -C "$out/tree" --strip-components=1 -xf "$tarball" --wildcards '*/xen/include/public/*'
    for p in "${patches[@]}"; do
        patch -d "$out/tree" -p1 -s --batch --forward --fuzz=0 < "$p"
    done
    ln -s ../tree/xen/include/public "$out/include/xen"
    ln -s ../tree/xen/include/public "$out/include/public"
    echo "$key" > "$out/key"
fi
echo "$(cd "$out/include" && pwd)"
