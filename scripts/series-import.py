#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# series-import.py GIT RANGE DIR: write the commits RANGE (e.g.
# series-base..my-branch) of a Xen tree GIT back as the patch series
# patches/DIR/ (series, files and the patches), the reverse of
# make-series.sh: edit the series as git history (rebase, split, reorder,
# build each commit), then import it.  Run from the top of this
# repository, whose overlay (xen/, tools/, docs/) must hold every new
# file as it is at the end of RANGE.
#
# Of each commit: its message (without Signed-off-by: make series adds
# the sender's) becomes the patch's; its changes to Xen's files become
# hunks; the files it adds go to its line of DIR/files; its changes to
# files an earlier commit added become hunks on the overlay's files
# (scripts/patch-part.py).  A patch keeps its name when its subject is
# unchanged, renumbered.  DIR/files keeps its comments and the lines of
# patches outside the series (local, unused).
import os
import re
import subprocess
import sys


def git(gitdir, *args):
    return subprocess.run(['git', '-C', gitdir] + list(args), check=True,
                          stdout=subprocess.PIPE).stdout.decode()


def sections(diff):
    """(path, status, text from '--- ' on) for each file of a git diff."""
    out = []
    for chunk in re.split(r'^(?=diff --git )', diff, flags=re.M):
        if not chunk.startswith('diff --git '):
            continue
        m = re.match(r'diff --git a/(\S+) b/(\S+)', chunk)
        path = m.group(2)
        status = 'M'
        if re.search(r'^new file mode', chunk, re.M):
            status = 'A'
        elif re.search(r'^deleted file mode', chunk, re.M):
            status = 'D'
        i = chunk.find('\n--- ')
        body = chunk[i + 1:] if i >= 0 else ''
        if 'Binary files' in chunk and i < 0:
            body = None
        out.append((path, status, body))
    return out


def file_sections(text):
    """(path, text from '--- ' on) for each file of a patch."""
    lines = text.splitlines(keepends=True)
    starts = [i for i in range(len(lines) - 1)
              if lines[i].startswith('--- a/') and lines[i + 1].startswith('+++ b/')]
    out = []
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        out.append((lines[i + 1][6:].split('\t')[0].strip(), ''.join(lines[i:end])))
    return out


def changes(body):
    """The lines a section removes and adds, in order."""
    return tuple(l for l in body.splitlines()[2:]
                 if l[:1] in '+-')


def slug(subject):
    s = re.sub(r'[^A-Za-z0-9]+', '-', subject).strip('-')
    return s


def main(argv):
    if len(argv) != 4:
        sys.stderr.write('usage: series-import.py GIT RANGE DIR\n')
        return 2
    gitdir, rng, d = argv[1:]
    pdir = os.path.join('patches', d)
    overlay = set(subprocess.run(['git', 'ls-files', '--', 'xen', 'tools', 'docs'],
                                 check=True, stdout=subprocess.PIPE).stdout.decode().split())
    old = {}
    # A change to Xen's file that an old patch made alike keeps its hunk
    # as written there (its context may be cut to apply to more bases);
    # a hunk on a file of the overlay never does.
    kept = {}
    for name in os.listdir(pdir):
        if name.endswith('.patch'):
            text = open(os.path.join(pdir, name)).read()
            m = re.search(r'^Subject: \[PATCH\] (.*)$', text, re.M)
            if m:
                old[m.group(1)] = name[5:] if re.match(r'\d{4}-', name) else name
            for path, body in file_sections(text):
                kept[(path, changes(body))] = body
    commits = git(gitdir, 'rev-list', '--reverse', rng).split()
    # The folders of the tree the series starts from.
    upstream = set(git(gitdir, 'ls-tree', '-r', '-d', '--name-only',
                       commits[0] + '^').split())
    added_by = {}
    names = []
    for n, c in enumerate(commits, 1):
        subject = git(gitdir, 'log', '-1', '--format=%s', c).strip()
        body = git(gitdir, 'log', '-1', '--format=%b', c)
        body = '\n'.join(l for l in body.strip('\n').split('\n')
                         if not l.startswith('Signed-off-by: ')).strip('\n')
        name = '%04d-%s' % (n, old.get(subject, slug(subject) + '.patch'))
        hunks = []
        for path, status, text in sections(git(gitdir, 'diff', '--no-renames', '-U3',
                                               c + '^', c)):
            if status == 'A':
                if path not in overlay:
                    sys.stderr.write('error: %s adds %s, which is not in the overlay\n' % (name, path))
                    return 1
                added_by[path] = name
                continue
            if status == 'D' or text is None:
                sys.stderr.write('error: %s deletes or changes the binary %s\n' % (name, path))
                return 1
            if path in overlay and path not in added_by:
                sys.stderr.write('error: %s changes %s before any commit adds it\n' % (name, path))
                return 1
            # A file of the overlay is grown by exact hunks: its context
            # is the file's, which may have changed since the old patch.
            hunks.append(text if path in overlay else kept.get((path, changes(text)), text))
        text = 'Subject: [PATCH] %s\n\n%s\n---\n%s' % (subject, body, ''.join(hunks))
        names.append(name)
        open(os.path.join(pdir, name + '.new'), 'w').write(text)
    # Every added file as the overlay has it.
    tip = commits[-1]
    for path in added_by:
        have = subprocess.run(['git', '-C', gitdir, 'show', '%s:%s' % (tip, path)],
                              check=True, stdout=subprocess.PIPE).stdout
        if have != open(path, 'rb').read():
            sys.stderr.write('error: %s differs from the overlay\'s at the end of %s\n' % (path, rng))
            return 1
    # Replace the series' patches.
    series = os.path.join(pdir, 'series')
    for name in open(series).read().split():
        if not name.startswith('#'):
            os.remove(os.path.join(pdir, name))
    for name in names:
        os.rename(os.path.join(pdir, name + '.new'), os.path.join(pdir, name))
    open(series, 'w').write(''.join(n + '\n' for n in names))
    # DIR/files: a folder whose files one patch adds alone is "folder/*".
    lines = []
    for name in names:
        mine = sorted(p for p, by in added_by.items() if by == name)
        globs = []
        for p in mine:
            top = p
            parts = p.split('/')
            for k in range(2, len(parts)):
                folder = '/'.join(parts[:k])
                if folder in upstream:
                    continue
                under = [q for q in overlay if q.startswith(folder + '/')]
                if all(added_by.get(q) == name for q in under):
                    top = folder + '/*'
                    break
            if top not in globs:
                globs.append(top)
        if globs:
            lines.append('%s %s\n' % (name, ' '.join(globs)))
    files = os.path.join(pdir, 'files')
    keep_head, keep_tail = [], []
    for l in open(files):
        first = l.split()[0] if l.split() else ''
        if l.startswith('#') and not lines_seen(keep_tail):
            keep_head.append(l)
        elif first and not first.startswith('#') and not re.match(r'\d{4}-', first):
            keep_tail.append(l)
        elif l.startswith('#'):
            keep_tail.append(l)
    open(files, 'w').write(''.join(keep_head + lines + keep_tail))
    print('series-import: %d patches into %s, %d new files' % (len(names), pdir, len(added_by)))
    return 0


def lines_seen(tail):
    return bool(tail)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
