#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make debball's package (scripts/make-debball.sh, Xen's mkdeb) holds what
# a host needs: its contents are checked, then it is unpacked and the
# virtual host is booted from it alone (its /boot/xen-VERSION.gz, its
# toolstack as dom0's), and dom0 runs the host job as installed by the
# package, /usr/lib/xen/profile/profile-timer.sh, no checkout around.
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/tests/debball
rm -rf "$out"
mkdir -p "$out"
deb=$("$top/scripts/make-debball.sh" "$BUILD/xen" "$BUILD/dist" "$out" 2> "$out/make.log")
rc=$?
sed 's/^/# /' "$out/make.log" | tail -n 5
check "make-debball.sh builds the package ($(basename "${deb:-none}"))" \
    sh -c "[ $rc -eq 0 ] && [ -f '$deb' ]"
[ -f "$deb" ] || { finish; }
ver=$(dpkg-deb -f "$deb" Version)
check "its version is Xen's with +profile1 ($ver)" \
    sh -c "echo '$ver' | grep -q -E '^[0-9]+\.[0-9]+\.[0-9]+(-rc|-unstable)?[^+]*\+profile1\$'"
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's#^\./##' > "$out/contents.txt"
missing=
for f in usr/sbin/xl usr/bin/xenprofile usr/lib/libxenprofile.so.1 \
         usr/share/man/man1/xl.1.gz usr/share/man/man1/xenprofile.1.gz \
         usr/lib/xen/profile/profile-timer.sh usr/lib/xen/profile/tap.sh \
         usr/lib/xen/profile/pty-run usr/lib/xen/profile/hypercall-loop; do
    grep -q -x -F "$f" "$out/contents.txt" || missing="$missing $f"
done
grep -q -x -E 'boot/xen-[0-9].*\.gz' "$out/contents.txt" || missing="$missing boot/xen-*.gz"
grep -q -x -E 'usr/lib/debug/xen-syms-[0-9].*' "$out/contents.txt" || missing="$missing xen-syms"
check "it holds xl, xenprofile, the libraries, the man pages, the hypervisor, its xen-syms and the host jobs${missing:+ (missing:$missing)}" \
    test -z "$missing"
pkg=$out/pkg
dpkg-deb -x "$deb" "$pkg"
check "xl(1) in it documents xl profile" \
    sh -c "zcat '$pkg/usr/share/man/man1/xl.1.gz' | grep -q 'profile'"

# A build folder made of the package alone.
fake=$out/fake
mkdir -p "$fake"
ln -s "$pkg" "$fake/dist"
zcat "$pkg"/boot/xen-*.gz > "$out/xen"
cat > "$out/job.sh" <<'JOB'
#!/bin/sh
exec /usr/lib/xen/profile/profile-timer.sh "$@"
JOB
vm=$BUILD/vhost/debball
KERNEL_DIR=${KERNEL_DIR:-$BUILD/kernel} XEN_IMAGE=$out/xen BUILD=$fake WITH_DOMU=1 \
    "$top/test/vhost/vhost.sh" --quiet \
    --timeout 400 "$vm" "$out/job.sh"
rc=$?
job=$(sed -n '/VHOST: job start/,/VHOST: job end/p' "$vm/console.log" |
      sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//')
planned=$(echo "$job" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
seen=$(echo "$job" | grep -c -E '^(ok|not ok) ')
failed=$(echo "$job" | grep -c -E '^not ok ')
echo "$job" | grep -E '^not ok ' | sed 's/^/# /'
check "booted from the package, the installed profile job exits 0 (status $rc)" test $rc -eq 0
check "and reports all ${planned:-?} planned results, none failed ($seen, $failed failed)" \
    sh -c "[ '$seen' = '${planned:-x}' ] && [ $failed -eq 0 ]"
finish
