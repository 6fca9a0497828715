#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-kernel.sh OUTDIR: get Debian bookworm's dom0 kernel (whatever
# linux-image-amd64 depends on today; KARCH=arm64: linux-image-arm64) with
# apt-get download, unpack it into OUTDIR (never into the machine's
# /boot), and leave there:
#   vmlinux          the uncompressed kernel (Xen unpacks it 4 s faster;
#                    on arm64 Debian's own Image, already uncompressed)
#   release          the kernel release (uname -r)
#   modules/*.ko     the modules dom0 needs, with their dependencies
#   modules/order    the load order
set -euo pipefail

out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Xen's dom0 interfaces, virtio for the results disk, and virtio-net for
# the network of the osstest run (run.py --ssh-port).
want="xen-evtchn xen-privcmd xenfs xen-gntdev xen-gntalloc virtio_pci virtio_blk
      virtio_net"
karch=${KARCH:-x86_64}
case $karch in
x86_64) kpkg=linux-image-amd64 apt_dir=$BUILD/dl/apt objcopy=objcopy ;;
arm64)
    # Xen on Arm: virtio-mmio devices of QEMU's virt board (built in).
    want="xen-evtchn xen-privcmd xenfs xen-gntdev xen-gntalloc virtio_mmio
          virtio_blk"
    kpkg=linux-image-arm64:arm64 apt_dir=$BUILD/dl/apt-arm64
    objcopy=aarch64-linux-gnu-objcopy ;;
*) echo "error: KARCH=$karch: expected x86_64 or arm64" >&2; exit 2 ;;
esac

conf=$(APT_FOREIGN=$([ "$karch" = arm64 ] && echo arm64) "$top/scripts/apt-private.sh" "$apt_dir")
lists=$apt_dir/lists
if [ -z "$(find "$lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
    APT_CONFIG=$conf apt-get -q -q update
fi
pkg=$(APT_CONFIG=$conf apt-cache depends "$kpkg" |
      awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ && !f { print $2; f = 1 }')
[ -n "$pkg" ] || { echo "error: cannot resolve $kpkg" >&2; exit 1; }
[ "$karch" = arm64 ] && pkg=${pkg%:arm64}:arm64
if [ "$(cat "$out/package" 2>/dev/null)" = "$pkg" ] && [ -f "$out/modules/order" ] &&
   [ "$(cat "$out/modules/want" 2>/dev/null)" = "$(echo $want)" ]; then
    echo "kernel: $pkg (cached)"
    exit 0
fi

rm -rf "$out/tmp"
mkdir -p "$out/tmp"
(cd "$out/tmp" && APT_CONFIG=$conf apt-get -q -q download "$pkg")
deb=$(ls "$out"/tmp/*.deb)
mkdir "$out/tmp/root"
dpkg-deb -x "$deb" "$out/tmp/root"
root=$out/tmp/root
release=$(ls "$root/lib/modules")
vmlinuz=$root/boot/vmlinuz-$release

if [ "$karch" = arm64 ]; then
    # An arm64 Image, "ARMd" at offset 56.
    [ "$(dd if="$vmlinuz" bs=1 skip=56 count=4 2>/dev/null)" = $'ARM\x64' ] ||
        { echo "error: $vmlinuz is not an arm64 Image" >&2; exit 1; }
    cp "$vmlinuz" "$out/vmlinux.new"
else
# The bzImage carries an XZ payload: unpack it to an ELF vmlinux.
# grep stops at its first match itself (-m 1); keep the first offset.
off=$(LC_ALL=C grep -abo -m 1 $'\xfd7zXZ\x00' "$vmlinuz" | LC_ALL=C cut -d: -f1)
off=${off%%[!0-9]*}
[ -n "$off" ] || { echo "error: no XZ payload in $vmlinuz" >&2; exit 1; }
tail -c +$((off + 1)) "$vmlinuz" | xz -dc > "$out/vmlinux.new" 2>/dev/null || true
[ "$(head -c 4 "$out/vmlinux.new")" = $'\x7fELF' ] ||
    { echo "error: cannot unpack vmlinux from $vmlinuz" >&2; exit 1; }
fi
mv "$out/vmlinux.new" "$out/vmlinux"

# Resolve module dependencies from each module's .modinfo section.
declare -A path done
while read -r ko; do
    n=$(basename "$ko" .ko)
    path[${n//-/_}]=$ko
done < <(find "$root/lib/modules/$release/kernel" -name '*.ko')
rm -rf "$out/modules"
mkdir "$out/modules"
: > "$out/modules/order"
add() {
    local m=${1//-/_} ko deps d
    [ -n "${done[$m]:-}" ] && return
    ko=${path[$m]:-}
    [ -n "$ko" ] || { echo "error: module $1 not in $pkg" >&2; exit 1; }
    done[$m]=1
    # (Into a file: objcopy replaces its output, and a failing one
    # removes it, which must never be /dev/stdout.)
    rm -f "$out/tmp/modinfo"
    $objcopy -O binary -j .modinfo "$ko" "$out/tmp/modinfo" &&
        grep -q -a 'license=' "$out/tmp/modinfo" ||
        { echo "error: cannot read the .modinfo of $ko" >&2; exit 1; }
    deps=$(tr '\0' '\n' < "$out/tmp/modinfo" | sed -n 's/^depends=//p')
    for d in ${deps//,/ }; do
        add "$d"
    done
    cp "$ko" "$out/modules/"
    basename "$ko" >> "$out/modules/order"
}
for m in $want; do
    add "$m"
done
echo "$release" > "$out/release"
echo "$pkg" > "$out/package"
echo $want > "$out/modules/want"
rm -rf "$out/tmp"
echo "kernel: $pkg ($release), modules: $(tr '\n' ' ' < "$out/modules/order")"
