# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the build scripts: a PATH where the system tools come first
# (a pyenv python3 earlier in PATH lacks the headers the tools need).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PYTHON=/usr/bin/python3
: "${JOBS:=2}"
