#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make series (scripts/make-series.sh) on the staging snapshot
# (../shared/xen; 4.22.0 when it is absent), as xen-devel would get it:
#   - without a sender (git config user.name/user.email, SERIES_AUTHOR) it
#     stops with one line, before writing anything;
#   - every commit is the sender's and signed off by the sender, and no
#     message names the list address or has a subject over 72 columns or
#     a body line over 75;
#   - the series applies with `git am` to the pristine tree;
#   - the project's local content stays out, and no file the series adds
#     names it; the fix posted on its own
#     is in OUT/own/, with its Fixes: tag, and applies on its own;
#   - a file a later patch grows (its hunk on the overlay's file) is in
#     its earlier state in the commit that adds it, and in the overlay's
#     at the end; the PMU source is offered only after the NMI hook and
#     the vPMU exclusions, on x86 and on Arm;
#   - a growth hunk that no longer reverses on the overlay's file stops
#     it, naming the patch;
#   - a patch whose subject is over 72 columns stops it, naming the patch.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
. "$top/test/lib/series-repo.sh"
: "${SHARED_XEN:=$top/../shared/xen}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 21
tarball=$(ls "$SHARED_XEN"/xen-staging-*.tar.xz 2>/dev/null | head -n 1)
[ -f "$tarball" ] || tarball=$SHARED_XEN/xen-4.22.0.tar.xz
if [ ! -f "$tarball" ]; then
    for i in $(seq 21); do skip "make series" "no Xen 4.22 or staging source in $SHARED_XEN"; done
    exit 0
fi
diag "base: $(basename "$tarball")"

repo=$tmp/repo
series_repo "$top" "$repo"
series() { "$repo/scripts/make-series.sh" "$tarball" "$tmp/out" > "$tmp/log" 2>&1; }

unset SERIES_AUTHOR
series
rc=$?
check "without a sender it fails (status $rc)" test $rc -eq 1
check "... with one line naming git config user.name and SERIES_AUTHOR" \
    sh -c "test \$(wc -l < '$tmp/log') -eq 1 && grep -q 'git config user.name' '$tmp/log' &&
           grep -q SERIES_AUTHOR '$tmp/log'"
check "... before writing anything" test ! -e "$tmp/out" -a ! -e "$tmp/out.git"
SERIES_AUTHOR=nobody series
check "SERIES_AUTHOR without an address fails and says so" \
    sh -c "grep -q \"error: .*(not: nobody)\" '$tmp/log'"
SERIES_AUTHOR="A Sender Whose Name Is Long <a.sender.whose.name.is.long@a-long-domain.example.org>" series
check "a sign-off longer than 75 columns is no error" test $? -eq 0

git -C "$repo" config user.name "Jane Sender"
git -C "$repo" config user.email "jane@example.org"
series
rc=$?
sed 's/^/# /' "$tmp/log"
check "with git config's sender it writes the series (status $rc)" test $rc -eq 0
g() { git -C "$tmp/out.git" "$@"; }
n=$(g rev-list --count series-base..series-head 2>/dev/null || echo 0)
authors=$(g log --format='%an <%ae>|%cn <%ce>' series-base..series-head | sort -u)
check "every one of the $n commits is the sender's" test "$authors" = "Jane Sender <jane@example.org>|Jane Sender <jane@example.org>"
signed=$(g log --format='%(trailers:key=Signed-off-by,valueonly)' series-base..series-head | sed '/^$/d' | sort | uniq -c)
check "each is signed off by the sender alone" \
    test "$(echo $signed)" = "$n Jane Sender <jane@example.org>"
check "no message names the list address" \
    sh -c "! git -C '$tmp/out.git' log --format='%an %ae %B' series-base..series-head | grep -q -i 'xen-devel@\|xl profile developers'"
long=$(g log --format='%x00%B' series-base..series-head |
       awk -v RS='\0' 'NF { split($0, l, "\n"); if (length(l[1]) > 72) print "subject: " l[1]
                            for (i = 2; i in l; i++) if (length(l[i]) > 75 && l[i] !~ /^(Fixes|Signed-off-by): /) print "line: " l[i] }')
check "no subject over 72 columns, no body line over 75${long:+ ($long)}" test -z "$long"
check "the cover letter is an RFC of $n patches that leaves MAINTAINERS to the sender" \
    sh -c "grep -q '^Subject: \[RFC PATCH 00/$n\]' '$tmp/out/0000-cover-letter.patch' &&
           grep -q MAINTAINERS '$tmp/out/0000-cover-letter.patch'"

mkdir "$tmp/am"
tar -C "$tmp/am" --strip-components=1 -xf "$tarball"
(cd "$tmp/am" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m base &&
 git -c user.name=t -c user.email=t@t am -q $(ls "$tmp"/out/[0-9]*.patch | grep -v /0000-cover-letter)) \
    > "$tmp/am.log" 2>&1
rc=$?
[ $rc -ne 0 ] || [ "$(git -C "$tmp/am" rev-list --count HEAD)" = $((n + 1)) ] || rc=1
check "the $n patches apply with git am to $(basename "$tarball") (status $rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/am.log" | tail -n 5
check "the project's own content is in no commit (host jobs, build configurations)" \
    sh -c "test -z \"\$(git -C '$tmp/out.git' ls-tree -r --name-only series-head -- tools/profile-jobs \
                       xen/arch/x86/configs/profiler.config docs/misc/osstest.md)\""
# The files the series adds (documents, code, tests) speak of xen.git
# alone: no project target, script, test folder, patch number or
# virtual host.
added=$(git -C "$tmp/out.git" diff --name-only --diff-filter=A series-base series-head -- docs tools xen)
proj=$(cd "$tmp/out.git" && [ -n "$added" ] &&
       grep -n -E 'make (check|bench|fuzz|demo|series|debball)|test/(unit|vhost|browser|arm)/|scripts/|patches/|virtual host|patch 0[0-9]{3}|profile-jobs' \
           $added | head -n 3 | tr '\n' ' ')
check "the files the series adds name nothing of this project's${proj:+ ($proj)}" \
    test -n "$added" -a -z "$proj"
own=$(ls "$tmp"/out/own/*.patch 2>/dev/null)
check "the flask fix is posted on its own, with its Fixes: tag and the sender's sign-off" \
    sh -c "test \$(echo '$own' | wc -w) -eq 1 && grep -q '^Fixes: [0-9a-f]\{12\} (\"' $own &&
           grep -q '^Signed-off-by: Jane Sender <jane@example.org>' $own"
(cd "$tmp/am" && git checkout -q HEAD~$n && git apply --check $own) > "$tmp/own.log" 2>&1
rc=$?
check "... and applies to the pristine tree" test $rc -eq 0
[ $rc -eq 0 ] || sed "s/^/# /" "$tmp/own.log"

# Files that grow across patches: the ring's commit builds the ring
# alone, the end has the overlay's Makefile.
at() {  # at SUBJECT-PREFIX: the first commit whose subject starts so
    g log --reverse --format='%H %s' series-base..series-head | awk -v s="$1" 'index($0, s) == 42 { print $1; exit }'
}
ring=$(at 'xen/profile: add the per-pCPU sample ring')
check "the ring's commit builds the ring alone (its Makefile: $(g show "$ring:xen/common/profile/Makefile" 2>/dev/null | tr '\n' ' '))" \
    test "$(g show "$ring:xen/common/profile/Makefile" 2>/dev/null)" = "obj-y += ring.o"
check "at the end every new file is the overlay's" \
    sh -c "cd '$repo' && git ls-files -- xen tools docs | while read -r f; do
               git -C '$tmp/out.git' cat-file -e series-head:\"\$f\" 2>/dev/null || continue
               git -C '$tmp/out.git' show series-head:\"\$f\" | cmp -s - \"\$f\" || { echo \"\$f\"; exit 1; }
           done"
# The PMU source is offered (request.c calls arch_profile_pmu_source())
# only after what makes its NMIs and its counters safe: do_nmi()'s hook,
# the livepatch exclusion, vPMU's, and on Arm the vpmu domain's and the
# PMUv3 source with MDCR_EL2 kept across context switches.
offered=$(at 'xen/profile: offer the PMU source')
order=$(g log --reverse --format='%s' series-base.."$offered" |
        grep -n -E "^(x86/traps: claim|livepatch: refuse|x86/vpmu: refuse|xen/arm: a domain with vpmu|xen/arm: add the profiler's PMUv3|xen/profile: offer)" |
        cut -d: -f1 | tr '\n' ' ')
check "the PMU source is offered after the NMI hook, the livepatch and vPMU exclusions (x86, Arm)" \
    sh -c "test \$(echo '$order' | wc -w) -eq 6 &&
           ! git -C '$tmp/out.git' grep -q arch_profile_pmu_source '$offered^' -- xen/common/profile/request.c &&
           git -C '$tmp/out.git' grep -q arch_profile_pmu_source '$offered' -- xen/common/profile/request.c"

# A growth hunk whose context the overlay's file no longer has stops it.
cp -r "$repo" "$tmp/repo2"
sed -i 's/^obj-y += ring.o$/obj-y += ring.o  # edited/' "$tmp/repo2/xen/common/profile/Makefile"
"$tmp/repo2/scripts/make-series.sh" "$tarball" "$tmp/out2" > "$tmp/log2" 2>&1
rc=$?
check "a growth hunk that no longer reverses stops it (status $rc), naming the patch" \
    sh -c "test $rc -ne 0 && grep -q 'error: 0[0-9]*-.*: its hunks on the files of 0004-.* do not reverse' '$tmp/log2'"
sed 's/^/# /' "$tmp/log2" | head -n 3

# A subject over 72 columns stops it, naming the patch.
p=$(ls "$repo"/patches/4.22/0013-*.patch)
sed -i '1s/$/ and a subject far too long to be read in one line/' "$p"
series
check "a subject over 72 columns stops it, naming the patch" \
    sh -c "grep -q 'error: patches/4.22/0013-.*: subject of [0-9]* columns (at most 72)' '$tmp/log'"
finish
