#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# patch-list.sh DIR WHICH: the patches of a series folder (patches/<dir>),
# one name per line, in order, comments and blank lines left out:
#   series    DIR/series: the series `make series` exports;
#   local     DIR/local ("KIND PATCH" lines): applied after the series
#             but not part of it; own and project: those of that kind;
#   applied   what prepare.sh applies: the series, then the local ones.
set -euo pipefail
dir=$1
list() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series"; }
local_kind() {      # local_kind KIND (empty: every kind)
    [ ! -f "$dir/local" ] ||
        awk -v k="$1" '{ sub(/#.*/, "") } NF && (k == "" || $1 == k) { print $2 }' "$dir/local"
}
case $2 in
series) list ;;
local) local_kind "" ;;
own|project) local_kind "$2" ;;
applied) list; local_kind "" ;;
*) echo "patch-list.sh: $2: expected series, local, own, project or applied" >&2; exit 2 ;;
esac
