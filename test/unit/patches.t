#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The patch series of every base applies, in order and without fuzz, to
# its pristine source with the overlay copied in, as prepare.sh applies
# it (the series, then its local patches): patches/4.17 to Debian's
# 4.17.5 tarball, patches/4.22 to Xen 4.22.0 and to the staging snapshot (../shared/xen, skipped where absent);
# patches only change existing upstream files (a backport, "area:
# backport ...", may add a file Xen 4.22 has, or adapt overlay files to
# its older base); no upstream file is committed.  Each patch's message
# is as Xen's: an "area: what" subject of at most 72 columns, body lines
# of at most 75, and no author or sign-off (make series adds the
# sender's); a fix posted on its own says what it fixes.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
: "${SHARED_XEN:=$top/../shared/xen}"
deb=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
# series DIR: the patches prepare.sh applies, the series then its local
# ones.
series() { "$top/scripts/patch-list.sh" "$top/patches/$1" applied; }
folder() {    # folder VERSION: the series folder patches/bases maps it to
    awk -v v="$1" '$1 == v { print $2 }' patches/bases
}
# name tarball: the bases to check.
bases=("4.17 $deb" "4.22 $SHARED_XEN/xen-4.22.0.tar.xz"
       "staging $(ls "$SHARED_XEN"/xen-staging-*.tar.xz 2>/dev/null | head -n 1)")
# The files of Xen 4.22, which backports to 4.17 may add.
tar -tf "$SHARED_XEN/xen-4.22.0.tar.xz" 2>/dev/null |
    sed -e 's|^[^/]*/||' -e '/\/$/d' | sort > "$tmp/later"
n=0
for b in "${bases[@]}"; do
    set -- $b
    [ -f "${2:-}" ] && v=$("$top/scripts/xen-version.sh" "$2") &&
        n=$((n + 2 * $(series "$(folder "$v")" | wc -l) + 2)) || n=$((n + 1))
done
plan $((n + 8))
if [ -z "$deb" ]; then
    echo "Bail out! the pinned tarball is not in $BUILD/dl (run make fetch)"
    exit 1
fi

for b in "${bases[@]}"; do
    set -- $b
    name=$1 tarball=${2:-}
    if [ ! -f "$tarball" ]; then
        skip "the series applies to Xen $name" "its source is not in $SHARED_XEN"
        continue
    fi
    v=$("$top/scripts/xen-version.sh" "$tarball")
    dir=$(folder "$v")
    check "Xen $name ($v, read from its xen/Makefile) has a series: patches/${dir:-?}" \
        test -n "$dir" -a -f "patches/$dir/series"
    rm -rf "$tmp/src" && mkdir "$tmp/src"
    tar -C "$tmp/src" --strip-components=1 -xf "$tarball"
    tar -tf "$tarball" | sed -e 's|^[^/]*/||' -e '/\/$/d' | sort > "$tmp/upstream"
    git ls-files -- xen tools docs | tar -cf - -T - | tar -C "$tmp/src" -xf -
    # XEN_SYSCTL_profile_op is 31, the next free op, until upstream takes it.
    ops=$(grep -E '^#define XEN_SYSCTL_[a-z][a-z0-9_]* +[0-9]+' \
              "$tmp/src/xen/include/public/sysctl.h" | awk '{ print $3 }' | sort -n)
    check "op 31 is free in Xen $name's sysctl.h (highest: $(echo "$ops" | tail -n 1))" \
        test -n "$ops" -a "$(echo "$ops" | tail -n 1)" -lt 31
    git ls-files -- xen tools docs > "$tmp/overlay"
    for p in $(series "$dir"); do
        # What a build applies: its hunks on the overlay's files grow a
        # file an earlier patch added, and are in the overlay already.
        scripts/patch-part.py upstream "patches/$dir/$p" "$tmp/overlay" > "$tmp/part"
        check "$dir/$p applies to Xen $name in order without fuzz" \
            patch -d "$tmp/src" -p1 -s --batch --forward --fuzz=0 \
                  --no-backup-if-mismatch -r - -i "$tmp/part"
        new=$(sed -n 's|^+++ b/||p' "$tmp/part" | cut -f1 | sort -u |
              comm -23 - "$tmp/upstream")
        # A backport to an older base may add what later Xen has, and
        # adapt the overlay's files.
        if [ -n "$new" ] && grep -q '^Subject: \[PATCH\] [^ ]*: backport ' "patches/$dir/$p" &&
           [ -s "$tmp/later" ]; then
            new=$(echo "$new" | comm -23 - "$tmp/later" |
                  comm -23 - <(git ls-files -- xen tools docs | sort))
        fi
        check "$dir/$p changes only files of Xen $name${new:+ (adds: $new)}" test -z "$new"
    done
done

extra=$(cd patches && for d in */; do
            d=${d%/}
            ls "$d" | grep -v -x -F -e series -e files -e local $(series "$d" | sed 's/^/-e /') |
                sed "s|^|$d/|"
        done)
check "every file in patches/*/ is in its series${extra:+ (not: $extra)}" test -z "$extra"
bad=$(cd patches && for d in */; do for p in $(series "${d%/}"); do
          grep -q '^Subject: \[PATCH\] [^ ]*: ' "$d$p" || echo "$d$p"
      done; done)
check "every patch has a Subject \"[PATCH] area: what\"${bad:+ (not: $bad)}" test -z "$bad"
# The message: Subject to the first "---".
long=$(cd patches && for d in */; do for p in $(series "${d%/}"); do
           awk -v p="$d$p" '/^---$/ { exit }
               /^Subject: / { s = $0; sub(/^Subject: \[PATCH\] /, "", s)
                              if (length(s) > 72) print p ": subject"; next }
               length($0) > 75 { print p ":" NR; exit }' "$d$p"
       done; done | tr '\n' ' ')
check "subjects of at most 72 columns, body lines of at most 75${long:+ (not: $long)}" test -z "$long"
who=$(cd patches && for d in */; do for p in $(series "${d%/}"); do
          sed '/^---$/q' "$d$p" | grep -q -E '^(From|Signed-off-by): ' && echo "$d$p"
      done; done | tr '\n' ' ')
check "no patch names an author or signs off: make series adds the sender's${who:+ (not: $who)}" test -z "$who"
nofix=$(cd patches && for d in */; do
            for p in $("$top/scripts/patch-list.sh" "$d" own); do
                grep -q -E '^Fixes: [0-9a-f]{12} \(".*"\)$' "$d$p" || echo "$d$p"; done
        done | tr '\n' ' ')
check "every fix posted on its own has a Fixes: tag${nofix:+ (not: $nofix)}" test -z "$nofix"
# The ABI (XEN_SYSCTL_profile_op in sysctl.h) is the same on every base:
# the lines the series add to sysctl.h.
abi() { awk '/^\+\+\+ b\/xen\/include\/public\/sysctl.h/ { on = 1; next }
             /^\+\+\+ / { on = 0 } on && /^\+/' "$top"/patches/$1/*.patch; }
abi17=$(abi 4.17) abi22=$(abi 4.22)
check "the series of 4.17 and 4.22 add the same lines to sysctl.h ($(echo "$abi22" | wc -l))" \
    test -n "$abi22" -a "$abi17" = "$abi22"

# The overlay (xen/, tools/, docs/) holds only new files.  The project's
# own root files (Makefile, COPYING, .gitignore) share upstream's names but
# are never copied into the tree: they must not be copies of upstream's.
rm -rf "$tmp/src" && mkdir "$tmp/src"
tar -C "$tmp/src" --strip-components=1 -xf "$deb"
tar -tf "$deb" | sed -e 's|^[^/]*/||' -e '/\/$/d' | sort > "$tmp/upstream"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    clash=$(git -C "$top" ls-files -- xen tools docs | sort | comm -12 - "$tmp/upstream" | tr '\n' ' ')
    check "no overlay file is also an upstream file${clash:+ ($clash)}" test -z "$clash"
    same=$(git -C "$top" ls-files | grep -v -E '^(xen|tools|docs)/' | sort |
           comm -12 - "$tmp/upstream" | while read -r f; do
               cmp -s "$top/$f" "$tmp/src/$f" && echo "$f"; done | tr '\n' ' ')
    check "no other committed file is a copy of an upstream file${same:+ ($same)}" test -z "$same"
else
    skip "no overlay file is also an upstream file" "not a git checkout"
    skip "no other committed file is a copy of an upstream file" "not a git checkout"
fi
finish
