#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# timing-report.sh LOG: print the time each stage took, in order of first
# appearance (stages that ran more than once are summed, with a count).
[ -f "$1" ] || exit 0
echo "== time per stage =="
awk '{ if (!($1 in t)) order[n++] = $1; t[$1] += $2; c[$1]++ }
     END { for (i = 0; i < n; i++) {
               s = order[i]
               printf "  %-12s %7.1f s%s\n", s, t[s], (c[s] > 1 ? sprintf(" (%d runs)", c[s]) : "")
               sum += t[s] }
     }' "$1"
