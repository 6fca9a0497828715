#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every patch of patches/series applies, in order, to the pristine tarball;
# patches only change existing files; no upstream file is committed.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
tarball=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
mapfile -t series < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' patches/series)

plan $(( ${#series[@]} * 2 + 4 ))
if [ -z "$tarball" ]; then
    echo "Bail out! the pinned tarball is not in $BUILD/dl (run make fetch)"
    exit 1
fi
tar -C "$tmp" --strip-components=1 -xf "$tarball"
tar -tf "$tarball" | sed -e 's|^[^/]*/||' -e '/\/$/d' | sort > "$tmp.upstream"

for p in "${series[@]}"; do
    check "$p applies in order without fuzz" \
        patch -d "$tmp" -p1 -s --batch --forward --fuzz=0 \
              --no-backup-if-mismatch -r - -i "$top/patches/$p"
    new=$(sed -n 's|^+++ b/||p' "patches/$p" | cut -f1 | sort -u |
          comm -23 - "$tmp.upstream")
    check "$p changes only upstream files${new:+ (adds: $new)}" test -z "$new"
done
extra=$(ls patches | grep -v -x -F -e series $(printf -- '-e %s ' "${series[@]}"))
check "every file in patches/ is in the series${extra:+ (not: $extra)}" test -z "$extra"
bad=$(cd patches && for p in "${series[@]}"; do
          grep -q '^Subject: ' "$p" && grep -q '^Signed-off-by: ' "$p" || echo "$p"
      done)
check "every patch has a Subject and a Signed-off-by${bad:+ (not: $bad)}" test -z "$bad"

# The overlay (xen/, tools/, docs/) holds only new files.  The project's
# own root files (Makefile, COPYING, .gitignore) share upstream's names but
# are never copied into the tree: they must not be copies of upstream's.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    clash=$(git -C "$top" ls-files -- xen tools docs | sort | comm -12 - "$tmp.upstream" | tr '\n' ' ')
    check "no overlay file is also an upstream file${clash:+ ($clash)}" test -z "$clash"
    same=$(git -C "$top" ls-files | grep -v -E '^(xen|tools|docs)/' | sort |
           comm -12 - "$tmp.upstream" | while read -r f; do
               cmp -s "$top/$f" "$tmp/$f" && echo "$f"; done | tr '\n' ' ')
    check "no other committed file is a copy of an upstream file${same:+ ($same)}" test -z "$same"
else
    skip "no overlay file is also an upstream file" "not a git checkout"
    skip "no other committed file is a copy of an upstream file" "not a git checkout"
fi
rm -f "$tmp.upstream"
finish
