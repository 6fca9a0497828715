#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# xen-version.sh DIR|TARBALL: print XEN_VERSION.XEN_SUBVERSION of a Xen
# tree or source archive, read from its xen/Makefile (never from a name).
set -euo pipefail
if [ -d "$1" ]; then
    mk=$(cat "$1/xen/Makefile")
else
    mk=$(tar -xOf "$1" --wildcards '*/xen/Makefile' 2>/dev/null)
fi
echo "$mk" | sed -n -e 's/^export XEN_VERSION *= *\([0-9]*\).*/\1/p' \
                    -e 's/^export XEN_SUBVERSION *= *\([0-9]*\).*/\1/p' | paste -sd.
