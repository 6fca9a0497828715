# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the build scripts: a PATH where the system tools come first
# (a pyenv python3 earlier in PATH lacks the headers the tools need).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PYTHON=/usr/bin/python3
: "${JOBS:=2}"

# The date of what is built, in seconds since the epoch, for outputs that
# must come out the same from the same tree: SOURCE_DATE_EPOCH, else the
# date of this repository's last commit, else now.
source_date() {
    local top
    top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    echo "${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}"
}
