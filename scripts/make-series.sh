#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make-series.sh SOURCE OUT: the upstream patch series for the Xen tree in
# SOURCE (a source archive, or a checkout with XEN_SRC) as git commits on
# its pristine copy in OUT.git, one per patch of its series (with the new
# files patches/<series>/files assigns to it, as they were before later
# patches grew them: scripts/patch-part.py) plus a CHANGELOG entry for
# that tree, written by `git format-patch --cover-letter --rfc` into OUT.
# The fixes of upstream Xen that patches/<series>/local posts on their own
# ("own") go to OUT/own/, each on the pristine tree; the project's own
# patches there ("project") are left out, unless SERIES_LOCAL=1 (the
# Debian package) makes them commits after the series.
# scripts/check-series.sh builds each commit in turn.
#
# The sender is the author of every commit and signs each off:
# SERIES_AUTHOR="Name <address>", else git's user.name and user.email.
# Without one, or with a subject over 72 columns or a body line over 75,
# it stops with one line saying so.
set -euo pipefail
. "$(dirname "$0")/env.sh"

source=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
work=$out.git
author=${SERIES_AUTHOR:-}
if [ -z "$author" ]; then
    name=$(git -C "$top" config user.name || true)
    email=$(git -C "$top" config user.email || true)
    [ -z "$name" ] || [ -z "$email" ] || author="$name <$email>"
fi
if ! [[ $author =~ ^([^<>]*[^<> ])\ \<([^<>@ ]+@[^<>@ ]+)\>$ ]]; then
    echo "error: make series needs its sender (author and sign-off): set git config user.name and user.email, or SERIES_AUTHOR='Name <address>'${author:+ (not: $author)}" >&2
    exit 1
fi
name=${BASH_REMATCH[1]} email=${BASH_REMATCH[2]}
# Commits dated as this repository's last one (or SOURCE_DATE_EPOCH), so
# that the same tree gives the same series.
when=$(source_date)
export GIT_AUTHOR_DATE="@$when" GIT_COMMITTER_DATE="@$when"
g() { git -C "$work" -c user.name="$name" -c user.email="$email" "$@"; }
# msg PATCH: its message as Xen's, signed off by the sender, into
# $out/msg: the Subject (without "[PATCH] "), a blank line, the body.
msg() {
    local subject
    subject=$(sed -n 's/^Subject: \[PATCH\] //p' "$1" | head -n 1)
    { echo "$subject"; echo
      sed -n '/^Subject: /,/^---$/p' "$1" | sed '1d;$d' | sed '/./,$!d'
      echo; echo "Signed-off-by: $author"; } > "$out/msg"
    check_msg "$out/msg" "$1"
}
# check_msg FILE WHAT: a subject of at most 72 columns, body lines of at
# most 75 (tags such as Fixes: and Signed-off-by: may be longer).
check_msg() {
    awk -v what="$2" 'NR == 1 && length($0) > 72 {
                          printf "error: %s: subject of %d columns (at most 72)\n", what, length($0); exit 1 }
                      NR > 1 && length($0) > 75 && !/^(Fixes|Signed-off-by): / {
                          printf "error: %s: body line %d of %d columns (at most 75)\n", what, NR, length($0); exit 1 }' \
        "$1" >&2
}

rm -rf "$work" "$out"
mkdir -p "$work" "$out"
if [ -d "$source" ]; then
    tar -C "$source" --exclude=.git -cf - . | tar -C "$work" -xf -
else
    tar -C "$work" --strip-components=1 -xf "$source"
fi
ver=$("$top/scripts/xen-version.sh" "$work")
dir=$(awk -v v="$ver" '$1 == v { print $2 }' "$top/patches/bases")
[ -n "$dir" ] || { echo "error: Xen $ver has no patch series (patches/bases)" >&2; exit 1; }
g init -q
g add -A
g commit -q -m "Xen $ver, as given"
g tag series-base

cd "$top"
# What is committed: the series, or with SERIES_LOCAL=1 the local patches
# after it too (scripts/patch-list.sh).
plist() { scripts/patch-list.sh "patches/$dir" "$1"; }
# The overlay's files, for scripts/patch-part.py: a later patch's hunks
# on them grow a file an earlier patch added.
git ls-files -- xen tools docs > "$out/overlay"
mapfile -t all < <(plist "$([ "${SERIES_LOCAL:-0}" = 1 ] && echo applied || echo series)")
n=0
for p in "${all[@]}"; do
    msg "patches/$dir/$p"
    # A patch that only adds new files has no hunk.
    if grep -q '^--- ' "patches/$dir/$p"; then
        patch -d "$work" -p1 -s --batch --forward --fuzz=0 < "patches/$dir/$p"
    fi
    # The new files that go with it, as they are before the later patches
    # of the series grow them: the overlay's copy, each later patch's
    # hunks on them reversed, last patch first.
    files=$(awk -v p="$p" '$1 == p { $1 = ""; print }' "patches/$dir/files")
    added=()
    [ -z "$files" ] || mapfile -t added < <(set -f; git ls-files -- $files)
    for f in "${added[@]}"; do
        mkdir -p "$work/$(dirname "$f")"
        cp "$f" "$work/$f"
    done
    for ((i = ${#all[@]} - 1; i > n && ${#added[@]}; i--)); do
        scripts/patch-part.py overlay "patches/$dir/${all[$i]}" "$out/overlay" \
            "${added[@]}" > "$out/grow"
        [ -s "$out/grow" ] || continue
        if ! patch -d "$work" -p1 -R -s --batch --fuzz=0 --no-backup-if-mismatch \
                < "$out/grow" > "$out/grow.log" 2>&1; then
            echo "error: ${all[$i]}: its hunks on the files of $p do not reverse on the overlay's copies:" >&2
            cat "$out/grow.log" >&2
            exit 1
        fi
    done
    g add -A
    g commit -q -F "$out/msg"
    n=$((n + 1))
done
rm -f "$out/overlay" "$out/grow" "$out/grow.log"

# Every new file must have gone into some commit, but those the files
# list says this series does not use ("unused <paths>"), and those of
# the local patches left out.
unused=$(awk '$1 == "unused" { $1 = ""; print }' "patches/$dir/files")
if [ "${SERIES_LOCAL:-0}" != 1 ]; then
    unused="$unused $(for p in $(plist local); do
                          awk -v p="$p" '$1 == p { $1 = ""; print }' "patches/$dir/files"; done)"
fi
skip=$(set -f; git ls-files -- ${unused:-/dev/null} 2>/dev/null || true)
left=$(git ls-files -- xen tools docs | while read -r f; do
           [ -e "$work/$f" ] || grep -qxF -- "$f" <<<"$skip" || echo "$f"; done)
[ -z "$left" ] || { echo "error: not in any commit (patches/$dir/files): $left" >&2; exit 1; }

# The CHANGELOG entry, under "### Added" of the unreleased version (a
# staging tree's first section), or of a new "Unreleased" section above a
# release's first one, unless a patch of the series wrote one (the 4.17
# series does).
if g diff --quiet series-base HEAD -- CHANGELOG.md; then
    awk 'function entry() {
             print " - On x86 and Arm64, a sampling profiler of the hypervisor itself"
             print "   (CONFIG_XEN_PROFILER): per-pCPU samples on a timer interrupt or on PMU"
             print "   counter overflows (NMIs on x86), with frame-pointer stacks, driven by"
             print "   `xl profile` (start, stop, status, discard, record, report) and read"
             print "   offline by libxenprofile and `xenprofile` (reports, flame graphs, pprof)."
         }
         !done && /^## / && !/UNRELEASED/ {
             print "## [Unreleased]"; print ""; print "### Added"; entry(); print ""
             done = 1 }
         !done && /^### Added/ { print; entry(); done = 1; next }
         { print }' "$work/CHANGELOG.md" > "$out/CHANGELOG.md"
    mv "$out/CHANGELOG.md" "$work/CHANGELOG.md"
    printf '%s\n\n%s\n\nSigned-off-by: %s\n' \
        "CHANGELOG: the hypervisor sampling profiler" \
        "Record \`xl profile\`, libxenprofile and the xenprofile command." \
        "$author" > "$out/msg"
    g add -A
    g commit -q -F "$out/msg"
    n=$((n + 1))
fi
g tag series-head

# The fixes posted on their own, each on the pristine tree.
own=0
for p in $(plist own); do
    msg "patches/$dir/$p"
    g checkout -q --detach series-base
    patch -d "$work" -p1 -s --batch --forward --fuzz=0 < "patches/$dir/$p"
    g add -A
    g commit -q -F "$out/msg"
    g format-patch -q -o "$out/own" --start-number $((own + 1)) -1 HEAD
    own=$((own + 1))
done
g checkout -q --detach series-head
rm -f "$out/msg"

g format-patch -q --rfc --cover-letter -o "$out" series-base..series-head
cover=$(ls "$out"/0000-cover-letter.patch)
python3 - "$cover" "$ver" <<'EOF'
import sys
path, ver = sys.argv[1], sys.argv[2]
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', 'xl profile: a sampling profiler of the hypervisor')
s = s.replace('*** BLURB HERE ***', '''Xen has no working way to see where the hypervisor itself spends its
time: perf in dom0 sees no Xen stacks, and xenoprof is gone.  This
series puts a sampling profiler inside Xen (x86 and Arm64):

 - per pCPU, samples on a timer interrupt, or on a PMU counter overflow
   (an NMI on x86, an interrupt on Arm) where a usable PMU exists; each
   sample is the time, pCPU, domain, vCPU, guest mode, IP and a bounded
   frame-pointer walk of Xen's stack, taken only within this pCPU's own
   stacks (never from a guest %rsp);
 - per-pCPU lock-free rings owned by Xen with exact lost counts, drained
   by a new sysctl (XEN_SYSCTL_profile_op), control domain only (FLASK:
   xen2:profile_op);
 - the PMU source does not use the NMI callback slot: do_nmi() gives it
   its overflows after the callback, so the crash and livepatch paths
   run nothing of it, and a livepatch apply is refused while it runs;
   vPMU and the profiler exclude each other;
 - toolstack: xc_profile_*, libxl_profile_* (LIBXL_HAVE_PROFILE),
   `xl profile start|stop|status|record|report`, and libxenprofile with
   the `xenprofile` command for offline reports, flame graphs and pprof.

Without CONFIG_XEN_PROFILER nothing of it is built and the sysctl
answers -ENOSYS.  Tested on Xen @VER@ in QEMU (TCG) only, x86_64 and
Arm64: by the unit tests of this series (the sample path in userspace,
a simulated x86 PMU, the library) and, outside it, by a sysctl fuzzer
and end-to-end jobs in dom0; the x86 PMU source has not run on Intel
or AMD hardware, hence Experimental in SUPPORT.md.  `xl profile` takes
verbs (start, stop, status, record, report, discard) rather than
adding six flat commands.

No MAINTAINERS entry is proposed: who looks after these files is for the
sender and the maintainers to agree on.

Questions for reviewers:
 - libxenprofile (patches 27-46) writes flame graph SVGs and pprof's
   gzipped protocol buffers itself (about 1,950 lines; the gzip is of
   stored deflate blocks, 240 lines with the protobuf encoder), so that
   a profile can be read on any machine, with no Xen and no library
   beyond libc.  Would you rather keep these writers out of tree, or
   have the gzip part use zlib, which the tools' configure requires
   already?
 - xl keeps what it needs between `xl profile start` and `stop` in
   XEN_RUN_DIR/xenprofile.state (start time, the names of domains that
   may be gone when the samples are saved): the hypervisor keeps only
   the samples.  Is a state file acceptable for xl, or should libxl or
   xenstore hold it?

This is the first posting of this series.  It follows the RFC "Xen
flamegraph (hypervisor stacktrace profile) support" (Edwin Török, 25 Jul
2025, <cover.1753372928.git.edwin.torok@cloud.com>), which had dom0's
perf take the samples through vPMU and needed Linux patches.  Here Xen
takes and keeps them, with no guest change, on a timer where no PMU can
be used, and on Arm64 too; docs/designs/profiler.md ("Alternatives
considered") gives the reasons and the figures.

What each patch does:
'''.replace('@VER@', ver))
# The blurb is UTF-8 (a name): say so, as format-patch would have.
if 'Content-Type:' not in s.split('\n\n', 1)[0]:
    s = s.replace('\n\n', '\nMIME-Version: 1.0\nContent-Type: text/plain; '
                  'charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n', 1)
open(path, 'w').write(s)
EOF
# What each patch does: its subject and the first sentence of its body.
g log --reverse --format='%s%x00%b%x01' series-base..HEAD |
python3 -c '
import sys, textwrap
for i, c in enumerate(sys.stdin.read().split("\x01")[:-1], 1):
    subj, body = c.strip("\n").split("\x00", 1)
    para = " ".join(body.strip().split("\n\n")[0].split())
    first = para.split(". ")[0].rstrip(".") + "."
    print(textwrap.fill("%2d. %s: %s" % (i, subj, first), 72,
                        subsequent_indent="    "))
' > "$out/list"
sed -i "/^What each patch does:$/r $out/list" "$cover"
rm -f "$out/list"
echo "series: $n patches and a cover letter for Xen $ver in $out (commits in $work)"
