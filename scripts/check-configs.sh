#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-configs.sh SRC OUT [NAME...]: build the hypervisor of the prepared
# tree SRC (Xen 4.22 or staging with the series) in the configurations
# Xen's GitLab CI could draw with the profiler, out of tree in OUT/NAME/,
# and print a table of what built.  Without NAMEs, every configuration
# below; with them (or QUICK=1: the quick set), only those.
#
# A configuration is the arch's defconfig (riscv64: tiny64_defconfig, as
# Xen's CI) with its lines added, or a randconfig drawn with a fixed seed
# from Xen's tools/kconfig/allrandom.config and its lines.  "on" rows must
# end with CONFIG_XEN_PROFILER=y and every line kept; "off" rows, where
# the profiler cannot be selected or is turned off, with no profiler.
# Exit status: 0 when every row built as expected.
set -uo pipefail
. "$(dirname "$0")/env.sh"

src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2

P=CONFIG_XEN_PROFILER=y
# name | arch | compiler | expect | seed (randconfig) or - | config lines
configs="
x86-gcc          | x86_64  | gcc   | on  | - | $P
x86-clang        | x86_64  | clang | on  | - | $P
x86-no-svm       | x86_64  | gcc   | on  | - | $P CONFIG_EXPERT=y CONFIG_AMD_SVM=n
x86-no-vmx       | x86_64  | gcc   | on  | - | $P CONFIG_EXPERT=y CONFIG_INTEL_VMX=n
x86-no-pv        | x86_64  | gcc   | on  | - | $P CONFIG_PV=n
x86-no-hvm       | x86_64  | gcc   | on  | - | $P CONFIG_HVM=n
x86-no-shadow    | x86_64  | gcc   | on  | - | $P CONFIG_EXPERT=y CONFIG_SHADOW_PAGING=n
x86-ibt          | x86_64  | gcc   | on  | - | $P CONFIG_XEN_IBT=y
x86-debug        | x86_64  | gcc   | on  | - | $P CONFIG_DEBUG=y
x86-clang-debug  | x86_64  | clang | on  | - | $P CONFIG_DEBUG=y
x86-no-profiler  | x86_64  | gcc   | off | - | CONFIG_XEN_PROFILER=n
x86-no-sysctl    | x86_64  | gcc   | off | - | $P CONFIG_EXPERT=y CONFIG_SYSCTL=n
arm64-mmu        | arm64   | gcc   | on  | - | $P
arm64-mmu-debug  | arm64   | gcc   | on  | - | $P CONFIG_DEBUG=y
arm64-mpu        | arm64   | gcc   | on  | - | $P CONFIG_XEN_START_ADDRESS=0x0 CONFIG_MPU=y CONFIG_UNSUPPORTED=y CONFIG_DEBUG=y
arm32            | arm32   | gcc   | off | - | $P
riscv64          | riscv64 | gcc   | off | - | $P
ppc64            | ppc64   | gcc   | off | - | $P
x86-rand-1       | x86_64  | gcc   | on  | 1 | $P CONFIG_SYSCTL=y CONFIG_COVERAGE=n
x86-rand-2       | x86_64  | gcc   | on  | 2 | $P CONFIG_SYSCTL=y CONFIG_COVERAGE=n
x86-rand-3       | x86_64  | clang | on  | 3 | $P CONFIG_SYSCTL=y CONFIG_COVERAGE=n
x86-rand-4       | x86_64  | clang | on  | 4 | $P CONFIG_SYSCTL=y CONFIG_COVERAGE=n
arm64-rand-1     | arm64   | gcc   | on  | 1 | $P CONFIG_SYSCTL=y CONFIG_COVERAGE=n
arm64-rand-2     | arm64   | gcc   | on  | 2 | $P CONFIG_SYSCTL=y CONFIG_COVERAGE=n
"
# The quick set, for make check: the configurations that failed before.
quick="x86-no-svm arm64-mpu"

want=("$@")
[ ${#want[@]} -gt 0 ] || [ "${QUICK:-0}" != 1 ] || read -r -a want <<< "$quick"

# The cross compilers: Debian's packages.
cross() {
    case $1 in
    x86_64) echo "" ;;
    arm64) echo aarch64-linux-gnu- ;;
    arm32) echo arm-linux-gnueabihf- ;;
    riscv64) echo riscv64-linux-gnu- ;;
    ppc64) echo powerpc64le-linux-gnu- ;;
    esac
}

# A clean copy of SRC's sources for out-of-tree builds, made again when
# SRC's origin, patches or overlay change (as build-xen-variant.sh).
key=$( {
    cat "$src.state/origin" "$src.state/applied"/* 2>/dev/null
    (cd "$src" && xargs -r stat -c '%n %Y' < "$src.state/overlay.list")
} | sha256sum | cut -d' ' -f1)
tree=$out/src
if [ "$(cat "$tree/key" 2>/dev/null)" != "$key" ]; then
    rm -rf "$tree"
    mkdir -p "$tree"
    cp -a "$src/xen" "$src/config" "$src/Config.mk" "$tree/"
    # Read only by the hypervisor build (the FLASK policy sources).
    ln -s "$src/tools" "$tree/tools"
    make -s -C "$tree/xen" distclean > /dev/null
    echo "$key" > "$tree/key"
fi

table=$out/table.md
{
    echo "| configuration | arch | compiler | profiler | result | seconds |"
    echo "|---|---|---|---|---|---|"
} > "$table"
failed=0 n=0
while IFS='|' read -r name arch cc expect seed lines; do
    name=$(echo $name) arch=$(echo $arch) cc=$(echo $cc)
    expect=$(echo $expect) seed=$(echo $seed)
    [ -n "$name" ] || continue
    if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qxF "$name"; then
        continue
    fi
    n=$((n + 1))
    o=$out/$name
    rm -rf "$o"
    mkdir -p "$o"
    pre=$(cross "$arch")
    if [ -n "$pre" ] && ! command -v "${pre}gcc" > /dev/null; then
        echo "| $name | $arch | $cc | $expect | FAILED: ${pre}gcc is not installed | 0 |" >> "$table"
        failed=$((failed + 1))
        continue
    fi
    mk=(make -C "$tree/xen" O="$o" XEN_TARGET_ARCH="$arch")
    [ -z "$pre" ] || mk+=(CROSS_COMPILE="$pre")
    [ "$cc" != clang ] || mk+=(clang=y)
    start=$(date +%s)
    result=
    if [ "$seed" != - ]; then
        cp "$tree/xen/tools/kconfig/allrandom.config" "$o/allrandom.config"
        printf '%s\n' $lines >> "$o/allrandom.config"
        "${mk[@]}" -s KCONFIG_ALLCONFIG="$o/allrandom.config" \
            KCONFIG_SEED="$seed" randconfig > "$o/config.log" 2>&1 ||
            result="FAILED: randconfig"
    else
        def=defconfig
        [ "$arch" != riscv64 ] || def=tiny64_defconfig
        { "${mk[@]}" -s "$def" &&
          printf '%s\n' $lines >> "$o/.config" &&
          "${mk[@]}" -s olddefconfig; } > "$o/config.log" 2>&1 ||
            result="FAILED: $def"
    fi
    lost=
    if [ -z "$result" ]; then
        for l in $lines; do
            case $l in
            *=n) grep -qx "# ${l%=n} is not set" "$o/.config" ||
                     ! grep -q "^${l%=n}=" "$o/.config" || lost="$lost ${l%=n}" ;;
            *) grep -qxF "$l" "$o/.config" || lost="$lost ${l%%=*}" ;;
            esac
        done
        if [ "$expect" = on ] && [ -n "${lost:-}" ]; then
            result="FAILED: not kept:${lost}"
        elif [ "$expect" = off ] && grep -qx "$P" "$o/.config"; then
            result="FAILED: the profiler was selectable"
        fi
    fi
    grep -q '^# CONFIG_DEBUG is not set' "$o/.config" 2>/dev/null && dbg=release || dbg=debug
    if [ -z "$result" ]; then
        if "${mk[@]}" -j"$JOBS" > "$o/build.log" 2>&1; then
            result="built ($dbg)"
        else
            result="FAILED: $(grep -m1 -E 'error|undefined reference' "$o/build.log" |
                              sed 's/|/\\|/g' | cut -c1-160)"
        fi
    fi
    case $result in FAILED*) failed=$((failed + 1)) ;; esac
    echo "| $name | $arch | $cc | $expect | $result | $(( $(date +%s) - start )) |" >> "$table"
    echo "check-configs: $name: $result"
done <<< "$configs"

cat "$table"
echo "check-configs: $((n - failed)) of $n configurations as expected"
[ "$n" -gt 0 ] && [ "$failed" = 0 ]
