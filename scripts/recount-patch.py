#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""recount-patch.py PATCH...: fix the line counts of every hunk header
after a patch was edited by hand (like patchutils' recountdiff)."""
import re
import sys

HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$")


def recount(lines):
    out, i = [], 0
    while i < len(lines):
        m = HUNK.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        j, old, new = i + 1, 0, 0
        while j < len(lines) and lines[j][:1] in (" ", "-", "+", "\\") \
                and not lines[j].startswith(("--- ", "+++ ")):
            if lines[j][:1] in " -":
                old += 1
            if lines[j][:1] in " +":
                new += 1
            j += 1
        out.append("@@ -%s,%d +%s,%d @@%s\n"
                   % (m.group(1), old, m.group(2), new, m.group(3)))
        out.extend(lines[i + 1:j])
        i = j
    return out


for path in sys.argv[1:]:
    with open(path) as f:
        lines = f.readlines()
    with open(path, "w") as f:
        f.writelines(recount(lines))
