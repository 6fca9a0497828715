#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/series-import.py, which writes the series back from its git
# history (make series in reverse), on Xen 4.22.0 (the staging snapshot
# when 4.22.0 is absent):
#   - the history make series writes comes back as the very same patches;
#   - an edit to a file a patch adds, within the context of a later
#     patch's hunk on that file, comes back as that hunk with the new
#     context (not the old patch's text with the old context), so that
#     make series gives the edited history back, tree for tree.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/series-repo.sh"
: "${SHARED_XEN:=$top/../shared/xen}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 5
tarball=$SHARED_XEN/xen-4.22.0.tar.xz
[ -f "$tarball" ] || tarball=$(ls "$SHARED_XEN"/xen-staging-*.tar.xz 2>/dev/null | head -n 1)
if [ ! -f "$tarball" ]; then
    for i in $(seq 5); do skip "series-import" "no Xen 4.22 or staging source in $SHARED_XEN"; done
    exit 0
fi
diag "base: $(basename "$tarball")"

repo=$tmp/repo
series_repo "$top" "$repo"
export FILTER_BRANCH_SQUELCH_WARNING=1
git -C "$repo" config user.name "Jane Sender"
git -C "$repo" config user.email "jane@example.org"
series() { (cd "$repo" && scripts/make-series.sh "$tarball" "$1") > "$tmp/log" 2>&1; }
import() {  # import GIT REV: the commits up to REV, the CHANGELOG's left out
    (cd "$repo" && python3 scripts/series-import.py "$1" "series-base..$2" 4.22) > "$tmp/import.log" 2>&1
}

series "$tmp/out1"
last=$(git -C "$tmp/out1.git" log -1 --format=%s series-head)
# A release's CHANGELOG has no unreleased section: the entry gets a new
# one above the release's, never a line in the released version's list.
first=$(git -C "$tmp/out1.git" show series-head:CHANGELOG.md 2>/dev/null | grep -m 1 '^## ')
added=$(git -C "$tmp/out1.git" diff series-head^ series-head -- CHANGELOG.md |
        grep -c '^+ - On x86 and Arm64')
case $first in
*UNRELEASED*|'## [Unreleased]') unreleased=1 ;;
*) unreleased=0 ;;
esac
check "the CHANGELOG entry goes in an unreleased section (${first%%(*}), once ($added)" \
    test "$unreleased" = 1 -a "$added" = 1
tip=series-head
[ "$last" != "CHANGELOG: the hypervisor sampling profiler" ] || tip=series-head^
import "$tmp/out1.git" "$tip"
rc=$?
changed=$(git -C "$repo" status --porcelain -- patches | head -n 3 | tr '\n' ' ')
check "the history make series writes imports as the same patches (status $rc)${changed:+: $changed}" \
    test $rc -eq 0 -a -z "$changed"

# Edit tools/xl/xl_profile.c, which the first xl patch adds and later
# ones grow, in every commit that has it and in the overlay: a line
# after its first include, within the context of the record patch's
# hunk on the file's head comment.
f=tools/xl/xl_profile.c
edit='if [ -f '$f' ]; then sed -i "0,/^#include <errno.h>\$/s//&\n#include <limits.h>/" '$f'; fi'
git clone -q "$tmp/out1.git" "$tmp/w"
(cd "$tmp/w" && git filter-branch -f --tree-filter "$edit" -- series-base..master) > "$tmp/filter.log" 2>&1
(cd "$repo" && eval "$edit")
wtip=master
[ "$last" != "CHANGELOG: the hypervisor sampling profiler" ] || wtip=master^
import "$tmp/w" "$wtip"
rc=$?
check "the edited history imports (status $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/import.log" | tail -n 3
series "$tmp/out2"
rc=$?
check "make series writes it (status $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log" | tail -n 3
a=($(git -C "$tmp/w" rev-list --reverse series-base..master))
b=($(git -C "$tmp/out2.git" rev-list --reverse series-base..series-head 2>/dev/null))
differ=
for i in "${!a[@]}"; do
    [ "$(git -C "$tmp/w" rev-parse "${a[$i]}^{tree}")" = \
      "$(git -C "$tmp/out2.git" rev-parse "${b[$i]}^{tree}" 2>/dev/null)" ] || differ="$differ $((i + 1))"
done
check "... as the edited history, tree for tree (${#a[@]} commits)${differ:+: differ at$differ}" \
    test "${#a[@]}" -eq "${#b[@]}" -a -z "$differ"
finish
