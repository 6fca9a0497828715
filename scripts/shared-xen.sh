#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# shared-xen.sh TARBALL: check a Xen source archive of ../shared/xen/
# (XEN_BASE=4.22 or staging) against the SHA256SUMS beside it.
# Exit status: 0 ok, 1 missing, 2 checksum mismatch or not listed.
set -euo pipefail
tar=$1
dir=$(dirname "$tar")
if [ ! -f "$tar" ]; then
    echo "error: $tar not found: XEN_BASE=${XEN_BASE:-?} builds from ../shared/xen/ (or use XEN_SRC=<a Xen checkout>)" >&2
    exit 1
fi
want=$(awk -v f="$(basename "$tar")" '$2 == f { print $1 }' "$dir/SHA256SUMS" 2>/dev/null)
if [ -z "$want" ]; then
    echo "error: $(basename "$tar") is not listed in $dir/SHA256SUMS" >&2
    exit 2
fi
got=$(sha256sum "$tar" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
    echo "error: $tar: sha256 $got, expected $want (SHA256SUMS)" >&2
    exit 2
fi
