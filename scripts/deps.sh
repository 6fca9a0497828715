#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.sh [configs|misra]: install the Debian packages the build and the
# virtual host need (configs: and make check-configs; misra: and make
# check-misra).
# As root, missing packages are installed with apt-get; otherwise the
# apt-get line is printed and the exit status is 1.
set -euo pipefail

pkgs="build-essential python3-dev uuid-dev libncurses-dev libyajl-dev
      zlib1g-dev liblzma-dev acpica-tools flex bison binutils patch
      qemu-system-x86 busybox-static cpio xz-utils checkpolicy chromium
      clang libclang-rt-14-dev golang-go quilt
      libdbi-perl libdbd-sqlite3-perl tclx8.4 libsqlite3-tcl sqlite3
      dropbear-bin openssh-sftp-server openssh-client
      qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      device-tree-compiler bc"
# deps.sh configs: also the cross compilers of make check-configs.
[ "${1:-}" != configs ] ||
    pkgs="$pkgs gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu gcc-powerpc64le-linux-gnu"
[ "${1:-}" != misra ] || pkgs="$pkgs cppcheck"
missing=""
# Node.js and npm may come from another repository than Debian's (whose
# npm package would conflict): only ask for them when the commands are
# missing.
command -v node >/dev/null || missing="$missing nodejs"
command -v npm >/dev/null || missing="$missing npm"
for p in $pkgs; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
. "$(dirname "$0")/apt-install.sh"
# shellcheck disable=SC2086
apt_install "packages are" $missing
