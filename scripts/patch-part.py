#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# patch-part.py PART PATCH OVERLAY [FILE...]: one part of a patch of a
# series (patches/<dir>/), its message kept, on stdout:
#   upstream  the changes to Xen's own files: what a build applies (the
#             overlay's files are copied as they are);
#   overlay   the changes to the overlay's files (OVERLAY: a file of their
#             paths, one per line), or with FILEs to those alone.
#
# The overlay holds each new file as it is at the end of the series.  A
# series patch that grows a file an earlier patch added (a line in a
# Makefile, a sub-op in a dispatcher) carries that change as a hunk on
# the overlay file: already in the overlay for a build, and reversed by
# make-series.sh to give the earlier patch the file as it was then.  A
# backport to an older base ("Subject: [PATCH] area: backport ...")
# adapts the overlay's files instead: all of it is its upstream part.
# Exit status 2 on a patch this cannot read.
import re
import sys


def sections(text):
    """The message, then (path, text) for each file the patch changes."""
    lines = text.splitlines(keepends=True)
    starts = [i for i in range(len(lines) - 1)
              if lines[i].startswith('--- ') and lines[i + 1].startswith('+++ ')]
    head = ''.join(lines[:starts[0]] if starts else lines)
    out = []
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        new = lines[i + 1][4:].split('\t')[0].strip()
        old = lines[i][4:].split('\t')[0].strip()
        path = new if new != '/dev/null' else old
        if not re.match(r'^[ab]/', path):
            raise ValueError('%s: not a -p1 path' % path)
        out.append((path[2:], ''.join(lines[i:end])))
    return head, out


def main(argv):
    if len(argv) < 4 or argv[1] not in ('upstream', 'overlay'):
        sys.stderr.write('usage: patch-part.py upstream|overlay PATCH OVERLAY [FILE...]\n')
        return 2
    part, patch, listing, only = argv[1], argv[2], argv[3], set(argv[4:])
    try:
        text = open(patch).read()
        head, secs = sections(text)
    except (OSError, ValueError) as e:
        sys.stderr.write('patch-part.py: %s: %s\n' % (patch, e))
        return 2
    overlay = set(l.strip() for l in open(listing) if l.strip())
    backport = re.search(r'^Subject: \[PATCH\] [^ ]*: backport ', head, re.M)
    keep = []
    for path, body in secs:
        ours = path in overlay and not backport
        if part == 'upstream' and not ours:
            keep.append(body)
        elif part == 'overlay' and ours and (not only or path in only):
            keep.append(body)
    if keep:
        sys.stdout.write(head + ''.join(keep))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
