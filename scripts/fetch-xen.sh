#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-xen.sh OUT [DEBIAN_OUT]: put the pinned Xen orig tarball at OUT,
# verified; with DEBIAN_OUT, Debian's packaging of it too (the source
# package's debian.tar.xz, pinned as well), for make debian-packages.
#
# Source, in order: $XEN_TARBALL (a file given by hand), an existing OUT,
# or Debian's source package through a private apt configuration (and
# the same for DEBIAN_OUT: $XEN_DEBIAN_TARBALL, an existing file, apt).
# Exit status: 0 ok, 1 download failed, 2 checksum or size mismatch.
set -euo pipefail

out=$1
deb_out=${2:-}
: "${XEN_DEB_VERSION:=4.17.5+72-g01140da4e8-1}"
: "${XEN_SHA256:=53922f4d0a02c577f2ea9d63f65989cd88715779eebeed879ca1d314103ee06e}"
: "${XEN_SIZE:=4735560}"
: "${XEN_DEBIAN_SHA256:=5bcf3812c64585e270e0b3fa6ee8fd16dff7b9bc0f61375d648c64672484c4d9}"
: "${XEN_DEBIAN_SIZE:=139916}"
orig="xen_${XEN_DEB_VERSION%-*}.orig.tar.xz"
debian="xen_$XEN_DEB_VERSION.debian.tar.xz"
here=$(cd "$(dirname "$0")" && pwd)

how_to() {
    cat >&2 <<EOM
  To supply the tarball by hand, fetch $orig
  (Debian source package xen=$XEN_DEB_VERSION, sha256 $XEN_SHA256,
  $XEN_SIZE bytes) and run:  make XEN_TARBALL=/path/to/$orig ...
  or use an existing Xen 4.17 checkout:  make XEN_SRC=/path/to/xen ...
  (make debian-packages also needs $debian, sha256
  $XEN_DEBIAN_SHA256, $XEN_DEBIAN_SIZE bytes:
  make XEN_DEBIAN_TARBALL=/path/to/$debian debian-packages)
EOM
}

verify() {    # verify FILE [SHA256 SIZE]: 0 if it is the pinned file
    local f=$1 want=${2:-$XEN_SHA256} want_size=${3:-$XEN_SIZE} sum size
    size=$(stat -c %s "$f")
    sum=$(sha256sum "$f" | cut -d' ' -f1)
    if [ "$sum" != "$want" ] || [ "$size" != "$want_size" ]; then
        echo "error: checksum mismatch for $f" >&2
        echo "  expected sha256 $want ($want_size bytes)" >&2
        echo "  got      sha256 $sum ($size bytes)" >&2
        return 1
    fi
}

given() {    # given VAR FILE OUT [SHA256 SIZE]: copy a file given by hand
    local var=$1 f=$2 to=$3
    shift 3
    if [ ! -f "$f" ]; then
        echo "error: $var=$f: no such file" >&2
        exit 1
    fi
    verify "$f" "$@" || { how_to; exit 2; }
    cmp -s "$f" "$to" 2>/dev/null || cp "$f" "$to"
}

mkdir -p "$(dirname "$out")"
need_orig=1 need_debian=0
if [ -n "${XEN_TARBALL:-}" ]; then
    given XEN_TARBALL "$XEN_TARBALL" "$out"
    need_orig=0
elif [ -f "$out" ]; then
    verify "$out" || { how_to; exit 2; }
    need_orig=0
fi
if [ -n "$deb_out" ]; then
    mkdir -p "$(dirname "$deb_out")"
    if [ -n "${XEN_DEBIAN_TARBALL:-}" ]; then
        given XEN_DEBIAN_TARBALL "$XEN_DEBIAN_TARBALL" "$deb_out" \
            "$XEN_DEBIAN_SHA256" "$XEN_DEBIAN_SIZE"
    elif [ -f "$deb_out" ]; then
        verify "$deb_out" "$XEN_DEBIAN_SHA256" "$XEN_DEBIAN_SIZE" ||
            { how_to; exit 2; }
    else
        need_debian=1
    fi
fi
[ $need_orig = 1 ] || [ $need_debian = 1 ] || exit 0

aptdir=$(cd "$(dirname "$out")" && pwd)/apt
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
if [ $need_orig = 1 ]; then
    verify "$tmp/$orig" || { how_to; exit 2; }
    mv "$tmp/$orig" "$out"
fi
if [ $need_debian = 1 ]; then
    [ -f "$tmp/$debian" ] ||
        { echo "error: apt gave no $debian" >&2; how_to; exit 1; }
    verify "$tmp/$debian" "$XEN_DEBIAN_SHA256" "$XEN_DEBIAN_SIZE" ||
        { how_to; exit 2; }
    mv "$tmp/$debian" "$deb_out"
fi
