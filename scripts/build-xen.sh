#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-xen.sh SRC: build the hypervisor in SRC/xen as a release build with
# our configuration fragment.  Incremental: only what changed is rebuilt.
set -euo pipefail
. "$(dirname "$0")/env.sh"

cd "$1/xen"
frag=arch/x86/configs/profiler.config
if [ ! -f .config ] || [ "$frag" -nt .config ]; then
    make -s alldefconfig KCONFIG_ALLCONFIG="$frag"
fi
# Every line of the fragment must have survived Kconfig's checks.
while read -r line; do
    case "$line" in CONFIG_*) ;; *) continue ;; esac
    grep -qxF "$line" .config ||
        { echo "error: $frag: '$line' not in the resulting .config" >&2; exit 1; }
done < "$frag"
grep -qx 'CONFIG_DEBUG=y' .config &&
    { echo "error: the hypervisor must be a release build" >&2; exit 1; }
make -j"$JOBS" -s
ls -l xen xen-syms | awk '{ print $5, $NF }'
