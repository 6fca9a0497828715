#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""perf-script-compare.py OURS.folded THEIRS.folded PERIOD

Compare xenprofile's folded stacks (OURS) with what FlameGraph's
stackcollapse-perf.pl made of xenprofile's --script text (THEIRS).  The
two differ on purpose in two ways (docs/man/xenprofile.1.pod, --script):

- stackcollapse-perf.pl puts the comm, the domain's name, at the root of
  every stack; ours puts the vCPU ("d1v0 name") at the root of guest and
  off-stack samples only.  Both roots are removed.
- stackcollapse-perf.pl weights a sample by the period perf printed;
  ours counts samples.  Its counts are divided by PERIOD (0: none
  printed, counts as they are).

What remains must be equal, stack for stack.  Prints "same N stacks,
M samples, comms: ..." and exits 0, or the first differences and exits 1.
"""
import collections
import re
import sys

HEAD = re.compile(r'^d\d+v\d+( .*)?$')


def read(path, drop_root, period):
    stacks = collections.Counter()
    roots = collections.Counter()
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            stack, _, count = line.rpartition(' ')
            if not stack or not count.isdigit():
                sys.exit(f'{path}:{n}: not "frames count": {line!r}')
            count = int(count)
            frames = stack.split(';')
            if drop_root(frames):
                roots[frames[0]] += 1
                frames = frames[1:]
            if period:
                if count % period:
                    sys.exit(f'{path}:{n}: {count} is not a multiple of '
                             f'the period {period}')
                count //= period
            stacks[';'.join(frames)] += count
    return stacks, roots


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    period = int(sys.argv[3])
    ours, _ = read(sys.argv[1], lambda fr: HEAD.match(fr[0]), 0)
    theirs, comms = read(sys.argv[2], lambda fr: len(fr) > 1, period)
    if ours == theirs:
        print(f'same {len(ours)} stacks, {sum(ours.values())} samples, '
              f'comms: {", ".join(sorted(comms))}')
        return 0
    shown = 0
    for k in sorted(set(ours) | set(theirs)):
        if ours[k] != theirs[k] and shown < 10:
            print(f'# {k}: ours {ours[k]}, stackcollapse-perf.pl '
                  f'{theirs[k]}')
            shown += 1
    print(f'# {sum(ours.values())} samples in ours, '
          f'{sum(theirs.values())} in theirs')
    return 1


if __name__ == '__main__':
    sys.exit(main())
