#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-xen.sh SRC: build the hypervisor in SRC/xen as a release build with
# our configuration fragment.  Incremental: only what changed is rebuilt.
set -euo pipefail
. "$(dirname "$0")/env.sh"

cd "$1/xen"
# XEN_ARCH: x86_64 (the default) or arm64 (cross-built with
# aarch64-linux-gnu-), whatever ARCH the environment has.
unset ARCH SRCARCH
export XEN_TARGET_ARCH=${XEN_ARCH:-x86_64}
case $XEN_TARGET_ARCH in
x86_64) arch_dir=x86 arch_opt=CONFIG_X86_64=y ;;
arm64) arch_dir=arm arch_opt=CONFIG_ARM_64=y
       export CROSS_COMPILE=aarch64-linux-gnu- ;;
*) echo "error: XEN_ARCH=$XEN_TARGET_ARCH: expected x86_64 or arm64" >&2; exit 2 ;;
esac
# FRAGMENT: another configuration fragment (check-series.sh passes the
# repository's, for commits before the series adds it); LAX_FRAGMENT=1:
# options it names that this tree lacks yet are not an error.
frag=${FRAGMENT:-arch/$arch_dir/configs/profiler.config}
# A .config made for another arch or version (or before the fragment or
# a Kconfig file changed) is made again.
# The Kconfig files too: options a patch adds must get the fragment's value.
key="$(sed -n -e 's/^export XEN_VERSION *= *//p' -e 's/^export XEN_SUBVERSION *= *//p' Makefile | paste -sd.) $XEN_TARGET_ARCH $(sha256sum "$frag" | cut -c1-16) $(find . -name 'Kconfig*' -not -path './.config*' -type f | sort | xargs cat | sha256sum | cut -c1-16)"
if [ ! -f .config ] || [ "$(cat .config.key 2>/dev/null)" != "$key" ] ||
   ! grep -qx "$arch_opt" .config; then
    rm -f .config
    make -s alldefconfig KCONFIG_ALLCONFIG="$frag"
    echo "$key" > .config.key
fi
# Every line of the fragment must have survived Kconfig's checks.
while read -r line; do
    case "$line" in CONFIG_*) ;; *) continue ;; esac
    grep -qxF "$line" .config || [ "${LAX_FRAGMENT:-0}" = 1 ] ||
        { echo "error: $frag: '$line' not in the resulting .config" >&2; exit 1; }
done < "$frag"
grep -qx 'CONFIG_DEBUG=y' .config &&
    { echo "error: the hypervisor must be a release build" >&2; exit 1; }
make -j"$JOBS" -s
ls -l xen xen-syms | awk '{ print $5, $NF }'
