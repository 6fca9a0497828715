#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-compare.sh REV [RUNS]: the libxenprofile benchmark of REV (a
# commit of this repository) against the working tree's, run in turns
# RUNS times (default 7) on the same synthetic profile, and per stage the
# best time of each and the ratio new/old (<= 1.00: no slower).  A shared
# machine is noisy: only the best of several runs is compared.  Prints,
# never fails on speed.
set -euo pipefail
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
rev=${1:?usage: bench-compare.sh REV [RUNS]}
runs=${2:-7}
old=$BUILD/bench-old
new=$BUILD/bench
rm -rf "$old/tree"
mkdir -p "$old" "$new"
git -C "$top" archive --prefix=tree/ "$rev" | tar -C "$old" -xf -
make -s --no-print-directory -C "$old/tree/tools/tests/xenprofile-bench" \
    O="$old" "$old/xenprofile-bench"
make -s --no-print-directory -C "$top/tools/tests/xenprofile-bench" \
    O="$new" "$new/xenprofile-bench"
for _ in $(seq "$runs"); do
    "$old/xenprofile-bench" "$old" | sed 's/^/old /'
    "$new/xenprofile-bench" "$new" | sed 's/^/new /'
done | /usr/bin/python3 -c '
import re, sys
best = {}
for line in sys.stdin:
    m = re.match(r"(old|new) (\S.*?)\s{2,}([0-9.]+)\s", line)
    if m:
        k = (m.group(1), m.group(2))
        best[k] = min(best.get(k, 1e9), float(m.group(3)))
print("stage (best of %s runs each)   old (s)  new (s)  new/old" % sys.argv[1])
for s in sorted({k[1] for k in best}):
    o, n = best.get(("old", s)), best.get(("new", s))
    if o and n:
        print("%-28s %8.3f %8.3f %8.2f" % (s, o, n, n / o))
' "$runs"
