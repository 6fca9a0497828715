#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# prepare.sh does only what changed: no re-unpack on a re-run, an edited
# overlay file is the only file copied, the series is re-applied from the
# first changed patch (or the first that adapts an edited overlay file),
# and a patch that does not apply stops the build.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
tarball=$(ls "$BUILD"/dl/xen_*.orig.tar.xz 2>/dev/null | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prep() { OVERLAY_DIR=$tmp/ov "$top/scripts/prepare.sh" "$tarball" "$tmp/src" > "$tmp/log" 2>&1; }

plan 21
[ -n "$tarball" ] || { echo "Bail out! no tarball in $BUILD/dl (run make fetch)"; exit 1; }
mkdir -p "$tmp/ov/xen/common" "$tmp/ov/tools/misc" "$tmp/ov/patches/t"
# The tarball's version maps to the series folder t.
ver=$(tar -xOf "$tarball" --wildcards '*/xen/Makefile' |
      sed -n -e 's/^export XEN_VERSION *= *//p' -e 's/^export XEN_SUBVERSION *= *//p' |
      paste -sd.)
echo "$ver t" > "$tmp/ov/patches/bases"
echo "/* a */" > "$tmp/ov/xen/common/a.c"
echo "/* b */" > "$tmp/ov/tools/misc/b.c"
# A one-line patch to README, made from the tarball's own first lines.
tar -xOf "$tarball" --wildcards '*/README' | head -n 3 > "$tmp/ctx"
{
    printf 'Subject: [PATCH] test\nSigned-off-by: t\n---\n'
    printf -- '--- a/README\n+++ b/README\n@@ -1,3 +1,4 @@\n+PATCHED ONE\n'
    sed 's/^/ /' "$tmp/ctx"
} > "$tmp/ov/patches/t/0001-readme.patch"
echo 0001-readme.patch > "$tmp/ov/patches/t/series"

prep
check "a first run unpacks, picks the series of its Xen version, copies 2 overlay files, applies 1 patch" \
    sh -c "grep -q unpacking '$tmp/log' && grep -q 'Xen $ver: patches/t' '$tmp/log' && grep -q '2 updated' '$tmp/log' &&
           grep -q '1 (re)applied' '$tmp/log' && grep -q 'PATCHED ONE' '$tmp/src/README'"
touch "$tmp/src/marker"
touch -d '2000-01-01' "$tmp/src/xen/common/a.c" "$tmp/src/tools/misc/b.c" "$tmp/src/README"
prep
check "a re-run does not unpack again" \
    sh -c "! grep -q unpacking '$tmp/log' && test -e '$tmp/src/marker'"
check "a re-run copies nothing and applies nothing" \
    sh -c "grep -q '0 updated' '$tmp/log' && grep -q '0 (re)applied' '$tmp/log'"
check "a re-run touches no file" \
    test -z "$(find "$tmp/src/xen/common/a.c" "$tmp/src/tools/misc/b.c" "$tmp/src/README" -newer "$tmp/src/marker")"

echo "/* b2 */" > "$tmp/ov/tools/misc/b.c"
prep
check "after editing one overlay file only it is copied" \
    sh -c "grep -q '1 updated' '$tmp/log' && grep -q b2 '$tmp/src/tools/misc/b.c' &&
           test -z \"\$(find '$tmp/src/xen/common/a.c' -newer '$tmp/src/marker')\""

sed 's/PATCHED ONE/PATCHED TWO/' "$tmp/ov/patches/t/0001-readme.patch" > "$tmp/p" &&
    mv "$tmp/p" "$tmp/ov/patches/t/0001-readme.patch"
prep
check "an edited patch is reverted and re-applied" \
    sh -c "grep -q 'reverting 0001' '$tmp/log' && grep -q 'PATCHED TWO' '$tmp/src/README' &&
           ! grep -q 'PATCHED ONE' '$tmp/src/README'"

rm "$tmp/ov/xen/common/a.c"
prep
check "a file removed from the overlay is removed from the tree" test ! -e "$tmp/src/xen/common/a.c"

# A backport patch that adapts an overlay file: kept across runs, and
# re-applied to the overlay file when that file is edited.
printf '/* b2 */\n/* one */\n/* two */\n/* three */\n' > "$tmp/ov/tools/misc/b.c"
cat > "$tmp/ov/patches/t/0002-backport.patch" <<'EOP'
Subject: [PATCH] test: backport to an older base
Signed-off-by: t
---
--- a/tools/misc/b.c
+++ b/tools/misc/b.c
@@ -1,4 +1,5 @@
 /* b2 */
 /* one */
+/* backported */
 /* two */
 /* three */
EOP
echo 0002-backport.patch >> "$tmp/ov/patches/t/series"
prep
check "a backport patch adapts an overlay file" \
    sh -c "grep -q '1 (re)applied' '$tmp/log' && grep -q backported '$tmp/src/tools/misc/b.c'"
prep
check "a re-run keeps it: nothing copied, nothing applied" \
    sh -c "grep -q '0 updated' '$tmp/log' && grep -q '0 (re)applied' '$tmp/log' &&
           grep -q backported '$tmp/src/tools/misc/b.c'"
echo '/* tail */' >> "$tmp/ov/tools/misc/b.c"
prep
check "editing that file reverts the backport patch alone, copies it, applies it again" \
    sh -c "grep -q 'reverting 0002' '$tmp/log' && ! grep -q 'reverting 0001' '$tmp/log' &&
           grep -q '1 updated' '$tmp/log' && grep -q backported '$tmp/src/tools/misc/b.c' &&
           grep -q tail '$tmp/src/tools/misc/b.c'"
sed -i '/0002-backport/d' "$tmp/ov/patches/t/series"
prep
check "dropped from the series, it is reverted" \
    sh -c "grep -q 'reverting 0002' '$tmp/log' && ! grep -q backported '$tmp/src/tools/misc/b.c' &&
           grep -q tail '$tmp/src/tools/misc/b.c'"

# A local patch (patches/t/local: "KIND PATCH"), applied after the series.
sed 's/backported/local/' "$tmp/ov/patches/t/0002-backport.patch" \
    > "$tmp/ov/patches/t/project-local.patch"
printf '# comment\nproject project-local.patch  # the project only\n' > "$tmp/ov/patches/t/local"
prep
check "a local patch is applied after the series, its comments ignored" \
    sh -c "grep -q '2 in series, 1 (re)applied' '$tmp/log' &&
           grep -q 'applied project-local.patch' '$tmp/log' && grep -q local '$tmp/src/tools/misc/b.c'"
rm "$tmp/ov/patches/t/local"
prep
check "dropped from the local list, it is reverted" \
    sh -c "grep -q 'reverting project-local.patch' '$tmp/log' && ! grep -q local '$tmp/src/tools/misc/b.c'"

cat > "$tmp/ov/patches/t/0002-bad.patch" <<'EOP'
Subject: [PATCH] does not apply
Signed-off-by: t
---
--- a/README
+++ b/README
@@ -1,2 +1,2 @@
-this line is not in README
+neither is this one
 at all
EOP
echo 0002-bad.patch >> "$tmp/ov/patches/t/series"
prep
rc=$?
check "a patch that does not apply fails the prepare step" test $rc -ne 0
check "the error names the patch" grep -q 'error: patch 0002-bad.patch does not apply' "$tmp/log"
check "the tree is left as it was (dry run first)" \
    sh -c "grep -q 'PATCHED TWO' '$tmp/src/README' && ! grep -q 'neither' '$tmp/src/README'"
sed -i '/0002/d' "$tmp/ov/patches/t/series"
echo 0003-missing.patch >> "$tmp/ov/patches/t/series"
prep
check "a series entry without a file fails and says so" \
    sh -c "test $? -ne 0 && grep -q 'missing 0003-missing.patch' '$tmp/log'"

# XEN_SRC: any Xen checkout instead of the tarball (here: an unpacked one).
sed -i '/0003-missing/d' "$tmp/ov/patches/t/series"
mkdir "$tmp/checkout"
tar -C "$tmp/checkout" --strip-components=1 -xf "$tarball"
mkdir "$tmp/checkout/.git"
XEN_SRC=$tmp/checkout OVERLAY_DIR=$tmp/ov "$top/scripts/prepare.sh" "$tarball" \
    "$tmp/src" > "$tmp/log" 2>&1
rc=$?
check "XEN_SRC=<dir> is copied instead (without .git), patched, overlaid" \
    sh -c "[ $rc -eq 0 ] && grep -q 'copying $tmp/checkout' '$tmp/log' &&
           [ ! -e '$tmp/src/.git' ] && grep -q 'PATCHED TWO' '$tmp/src/README' &&
           grep -q b2 '$tmp/src/tools/misc/b.c' && [ ! -e '$tmp/checkout/tools/misc/b.c' ]"
XEN_SRC=$tmp/nowhere OVERLAY_DIR=$tmp/ov "$top/scripts/prepare.sh" "$tarball" \
    "$tmp/src2" > "$tmp/log" 2>&1
check "XEN_SRC that is not a Xen tree fails and says so" \
    sh -c "[ $? -ne 0 ] && grep -q 'is not a Xen tree' '$tmp/log'"

# A tree of a version patches/bases does not list: one clear line.
echo "9.99 t" > "$tmp/ov/patches/bases"
OVERLAY_DIR=$tmp/ov "$top/scripts/prepare.sh" "$tarball" "$tmp/src3" > "$tmp/log" 2>&1
rc=$?
check "a Xen version without a series fails with one line naming it and the supported ones" \
    sh -c "[ $rc -ne 0 ] && [ \$(grep -c '^error' '$tmp/log') -eq 1 ] &&
           grep -q 'error: Xen $ver .* has no patch series: supported: 9.99' '$tmp/log'"
check "... before anything is patched or copied" \
    sh -c "! grep -q PATCHED '$tmp/src3/README' && [ ! -e '$tmp/src3/tools/misc/b.c' ]"
finish
