#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-xen-variant.sh SRC OUT CONFIG-LINE...: build the hypervisor of the
# prepared tree SRC again in OUT with some options changed (e.g.
# "# CONFIG_XEN_PROFILER is not set"), for tests of other configurations.
# OUT is a copy of SRC's xen/, copied again and built from clean whenever
# SRC's sources or the options change (Xen's build does not drop the
# objects of options turned off); SRC is not modified.
set -euo pipefail
. "$(dirname "$0")/env.sh"

src=$(cd "$1" && pwd)
out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
# What SRC holds: the upstream origin, the patches applied, the overlay
# files and their times, the options (prepare.sh keeps the first three).
key=$( {
    cat "$src.state/origin" "$src.state/applied"/* 2>/dev/null
    (cd "$src" && xargs -r stat -c '%n %Y' < "$src.state/overlay.list")
    printf '%s\n' "$@"
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/key" 2>/dev/null)" != "$key" ]; then
    rm -rf "$out"/{xen,config,Config.mk,tools,key}
    cp -a "$src/xen" "$src/config" "$src/Config.mk" "$out/"
    # Read only by the hypervisor build (the FLASK policy sources).
    ln -s "$src/tools" "$out/tools"
    make -s -C "$out/xen" clean
fi
cd "$out/xen"
# Touch .config only when an option differs: a new one rebuilds much.
missing=0
for line in "$@"; do
    grep -qxF "$line" .config 2>/dev/null || missing=1
done
[ $missing = 0 ] || for line in "$@"; do
    case "$line" in
    "# CONFIG_"*" is not set") sym=${line#"# "}; sym=${sym%% *} ;;
    CONFIG_*=*) sym=${line%%=*} ;;
    *) echo "error: not a config line: $line" >&2; exit 1 ;;
    esac
    sed -i -e "/^$sym=/d" -e "/^# $sym is not set/d" .config
    echo "$line" >> .config
done
[ $missing = 0 ] || make -s olddefconfig
for line in "$@"; do
    grep -qxF "$line" .config ||
        { echo "error: '$line' not in the resulting .config" >&2; exit 1; }
done
make -j"$JOBS" -s > "$out/build.log" 2>&1 || { tail -n 30 "$out/build.log" >&2; exit 1; }
echo "$key" > "$out/key"
