#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-xen.sh OUT: put the pinned Xen orig tarball at OUT, verified.
#
# Source, in order: $XEN_TARBALL (a file given by hand), an existing OUT,
# or Debian's source package through a private apt configuration.
# Exit status: 0 ok, 1 download failed, 2 checksum or size mismatch.
set -euo pipefail

out=$1
: "${XEN_DEB_VERSION:=4.17.5+72-g01140da4e8-1}"
: "${XEN_SHA256:=53922f4d0a02c577f2ea9d63f65989cd88715779eebeed879ca1d314103ee06e}"
: "${XEN_SIZE:=4735560}"
orig="xen_${XEN_DEB_VERSION%-*}.orig.tar.xz"
here=$(cd "$(dirname "$0")" && pwd)

how_to() {
    cat >&2 <<EOM
  To supply the tarball by hand, fetch $orig
  (Debian source package xen=$XEN_DEB_VERSION, sha256 $XEN_SHA256,
  $XEN_SIZE bytes) and run:  make XEN_TARBALL=/path/to/$orig ...
  or use an existing Xen 4.17 checkout:  make XEN_SRC=/path/to/xen ...
EOM
}

verify() {    # verify FILE: 0 if it is the pinned tarball
    local f=$1 sum size
    size=$(stat -c %s "$f")
    sum=$(sha256sum "$f" | cut -d' ' -f1)
    if [ "$sum" != "$XEN_SHA256" ] || [ "$size" != "$XEN_SIZE" ]; then
        echo "error: checksum mismatch for $f" >&2
        echo "  expected sha256 $XEN_SHA256 ($XEN_SIZE bytes)" >&2
        echo "  got      sha256 $sum ($size bytes)" >&2
        return 1
    fi
}

mkdir -p "$(dirname "$out")"
if [ -n "${XEN_TARBALL:-}" ]; then
    if [ ! -f "$XEN_TARBALL" ]; then
        echo "error: XEN_TARBALL=$XEN_TARBALL: no such file" >&2
        exit 1
    fi
    verify "$XEN_TARBALL" || { how_to; exit 2; }
    cmp -s "$XEN_TARBALL" "$out" 2>/dev/null || cp "$XEN_TARBALL" "$out"
    exit 0
fi

if [ -f "$out" ]; then
    verify "$out" || { how_to; exit 2; }
    exit 0
fi

aptdir=$(dirname "$out")/apt
conf=$("$here/apt-private.sh" "$aptdir")
tmp=$(mktemp -d "$(dirname "$out")/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "fetching Debian source package xen=$XEN_DEB_VERSION with apt" >&2
if ! APT_CONFIG=$conf apt-get -q -q update >&2 ||
   ! (cd "$tmp" && APT_CONFIG=$conf apt-get -q -q source --download-only \
          "xen=$XEN_DEB_VERSION" >&2) ||
   [ ! -f "$tmp/$orig" ]; then
    echo "error: could not download the Xen source package with apt" >&2
    how_to
    exit 1
fi
verify "$tmp/$orig" || { how_to; exit 2; }
mv "$tmp/$orig" "$out"
