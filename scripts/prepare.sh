#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# prepare.sh TARBALL SRC: make SRC the pinned Xen tree plus our overlay and
# patch series, doing only what changed since the last run:
#   - unpack TARBALL (or copy $XEN_SRC) only when SRC does not hold it yet;
#   - copy overlay files (xen/, tools/, docs/ of this repo) that changed
#     since they were last copied, so that make rebuilds only what was
#     edited (a copy edited in SRC itself is left as it is: make clean);
#   - re-apply the patch series from the first patch that changed, or
#     that changes an overlay file that changed (a backport): the
#     series of SRC's Xen version (XEN_VERSION.XEN_SUBVERSION in its
#     xen/Makefile), as patches/bases maps it to a folder of patches/,
#     then that folder's local patches (not part of the series).
# A patch that does not apply, or a version without a series, stops with
# an error naming it.
set -euo pipefail

tarball=$1
src=$2
top=${OVERLAY_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
state=$src.state
applied=$state/applied

if [ -n "${XEN_SRC:-}" ]; then
    [ -f "$XEN_SRC/xen/Makefile" ] ||
        { echo "error: XEN_SRC=$XEN_SRC is not a Xen tree (no xen/Makefile)" >&2; exit 1; }
    origin="dir $(cd "$XEN_SRC" && pwd)"
else
    origin="tarball $(sha256sum "$tarball" 2>/dev/null | cut -d' ' -f1)"
fi

# 1. Unpack.
if [ "$(cat "$state/origin" 2>/dev/null)" != "$origin" ] || [ ! -d "$src/xen" ]; then
    rm -rf "$src" "$state"
    mkdir -p "$src" "$applied"
    if [ -n "${XEN_SRC:-}" ]; then
        echo "copying $XEN_SRC"
        tar -C "$XEN_SRC" --exclude=.git -cf - . | tar -C "$src" -xf -
    else
        echo "unpacking $(basename "$tarball")"
        tar -C "$src" --strip-components=1 -xf "$tarball"
    fi
    echo "$origin" > "$state/origin"
fi

# The series for this tree's version.
ver=$(sed -n -e 's/^export XEN_VERSION *= *\([0-9]*\).*/\1/p' \
             -e 's/^export XEN_SUBVERSION *= *\([0-9]*\).*/.\1/p' \
          "$src/xen/Makefile" | tr -d '\n')
series_dir=$(awk -v v="$ver" '$1 == v { print $2 }' "$top/patches/bases")
if [ -z "$series_dir" ] || [ ! -f "$top/patches/$series_dir/series" ]; then
    echo "error: Xen ${ver:-of unknown version} ($src/xen/Makefile) has no patch series: supported: $(awk '!/^#/ { printf "%s ", $1 }' "$top/patches/bases")" >&2
    exit 1
fi
echo " Xen $ver: patches/$series_dir"

# 2. Overlay: new files at their xen.git paths.  A patch of the series
# may change overlay files too (a backport to an older base adapting
# them): such a patch is reverted before any file it touches is copied
# again, and applied again after.  What was copied is recorded by
# checksum, so that a patched overlay file is not taken for an edited one.
cd "$top"
{
    if git rev-parse --git-dir >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard -- xen tools docs
    else
        for d in xen tools docs; do
            [ -d "$d" ] && find "$d" -type f
        done
    fi
    true
} | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done > "$state/overlay.new"
xargs -r -d '\n' sha1sum < "$state/overlay.new" | sort > "$state/overlay.sums.new"
# Changed: its checksum is not the one copied (without a record, as an
# older prepare.sh left the tree: it differs from the tree's copy), it
# is missing from the tree, or it left the overlay.
if [ -f "$state/overlay.sums" ]; then
    comm -23 "$state/overlay.sums.new" "$state/overlay.sums" | cut -c43-
    while read -r f; do [ -f "$src/$f" ] || echo "$f"; done < "$state/overlay.new"
else
    while read -r f; do cmp -s "$f" "$src/$f" || echo "$f"; done < "$state/overlay.new"
fi | sort -u > "$state/overlay.changed"
if [ -f "$state/overlay.list" ]; then
    comm -23 "$state/overlay.list" "$state/overlay.new" >> "$state/overlay.changed"
fi

# 3. Patch series: keep the applied patches up to the first that changed
# or that touches a changed overlay file.
pdir=patches/$series_dir
# The series, then the patches applied after it that are not part of it
# (patches/<dir>/local).
mapfile -t want < <("$(dirname "$0")/patch-list.sh" "$top/$pdir" applied)
mapfile -t have < <(cat "$applied/series" 2>/dev/null)
touches_changed() {
    sed -n -e 's|^+++ b/||p' -e 's|^--- a/||p' "$applied/$1" | cut -f1 |
        grep -qxF -f "$state/overlay.changed"
}
# What a build applies of a patch: its changes to upstream files (a
# series patch's hunks on the overlay's files are in the overlay already).
upstream_part() {
    "$(dirname "$0")/patch-part.py" upstream "$pdir/$1" "$state/overlay.new"
}
keep=0
while [ $keep -lt ${#want[@]} ] && [ $keep -lt ${#have[@]} ] &&
      [ "${want[$keep]}" = "${have[$keep]}" ] &&
      cmp -s <(upstream_part "${want[$keep]}") "$applied/${have[$keep]}" &&
      { [ ! -s "$state/overlay.changed" ] || ! touches_changed "${have[$keep]}"; }; do
    keep=$((keep + 1))
done
for ((i = ${#have[@]} - 1; i >= keep; i--)); do
    echo "reverting ${have[$i]}"
    patch -d "$src" -p1 -R -s --batch --no-backup-if-mismatch \
        < "$applied/${have[$i]}"
    # What is applied, after each revert: an interrupted run resumes.
    printf '%s\n' "${have[@]:0:$i}" | sed '/^$/d' > "$applied/series"
    rm -f "$applied/${have[$i]}"
done
printf '%s\n' "${have[@]:0:$keep}" | sed '/^$/d' > "$applied/series"

n=0
while read -r f; do
    if [ -f "$f" ]; then
        mkdir -p "$src/$(dirname "$f")"
        cp "$f" "$src/$f"
        n=$((n + 1))
    else
        # It left the overlay: it was ours.
        rm -f "$src/$f"
    fi
done < "$state/overlay.changed"
mv "$state/overlay.new" "$state/overlay.list"
mv "$state/overlay.sums.new" "$state/overlay.sums"
echo "overlay: $(wc -l < "$state/overlay.list") files, $n updated"

for ((i = keep; i < ${#want[@]}; i++)); do
    p=${want[$i]}
    [ -f "$pdir/$p" ] || { echo "error: $pdir/series names missing $p" >&2; exit 1; }
    "$(dirname "$0")/patch-part.py" upstream "$pdir/$p" "$state/overlay.list" > "$state/part"
    if ! patch -d "$src" -p1 -s --dry-run --batch --forward --fuzz=0 \
            < "$state/part" >"$state/patch.log" 2>&1; then
        echo "error: patch $p does not apply:" >&2
        cat "$state/patch.log" >&2
        exit 1
    fi
    patch -d "$src" -p1 -s --batch --forward --fuzz=0 --no-backup-if-mismatch \
        < "$state/part"
    mv "$state/part" "$applied/$p"
    echo "$p" >> "$applied/series"
    echo "applied $p"
done
echo "patches: ${#want[@]} in series, $(( ${#want[@]} - keep )) (re)applied"
