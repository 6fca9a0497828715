#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stage.sh LOG NAME CMD...: run CMD and append "NAME SECONDS" to LOG.
log=$1 name=$2
shift 2
start=$(date +%s%N)
"$@"
rc=$?
mkdir -p "$(dirname "$log")"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf '%s %d.%03d\n' "$name" $((ms / 1000)) $((ms % 1000)) >> "$log"
exit $rc
