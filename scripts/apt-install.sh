# SPDX-License-Identifier: GPL-2.0-only
#
# apt-install.sh, sourced: apt_install WHAT PKG...: install the Debian
# packages PKG as root, or, not root, print the apt-get line to run and
# exit 1 ("error: WHAT is missing; as root, run: ...").
apt_install() {
    local what=$1 line
    shift
    line="apt-get install -y --no-install-recommends $*"
    if [ "$(id -u)" != 0 ]; then
        echo "error: $what missing; as root, run: $line" >&2
        exit 1
    fi
    echo "installing: $*"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -q update
    $line
}
