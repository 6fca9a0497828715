#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-misra.sh SRC OUT: Xen's own MISRA C check on the prepared tree SRC
# (4.22 or staging with the series) with the profiler built in:
# xen/scripts/xen-analysis.py --run-cppcheck --cppcheck-misra (cppcheck's
# MISRA addon, the rules of docs/misra/rules.rst), as Xen's CI runs it,
# on a clean copy in OUT/src.  Then the findings in the profiler's own
# files (the overlay's xen/ files) by rule, each marked clean when Xen's
# ECLAIR configuration tags the guideline clean (a new violation fails
# its CI job: automation/eclair_analysis/ECLAIR/tagging.ecl).  Writes
# OUT/misra.md (the table, and what cppcheck could not preprocess: files
# including that got no analysis) and OUT/findings.txt (ours, one a line).
# Exit status: 0 when no finding of ours is in a clean rule and cppcheck
# analysed every C file of ours that this configuration builds.
#   ARCH=x86_64 (default) or arm64.
set -uo pipefail
. "$(dirname "$0")/env.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
arch=${ARCH:-x86_64}

tree=$out/src
rm -rf "$tree"
mkdir -p "$tree"
cp -a "$src/xen" "$src/config" "$src/Config.mk" "$src/docs" "$src/automation" "$tree/"
ln -s "$src/tools" "$tree/tools"
make -s -C "$tree/xen" distclean > /dev/null
# x86's generated asm/asm-macros.h, which every x86 file includes, is read
# by cpp and by gas: "#if 0" / ".if 0" hide each one's part from the
# other.  cppcheck 2.10 stops at "#if 0" followed by an assembler line
# ("Syntax error in #if"), so no x86 file would be analysed.  "#if (0)"
# means the same to cpp, and gas reads it as a comment as it does "#if 0":
# the analysis copy's rule writes that.
sed -i "s/echo '#if 0'/echo '#if (0)'/" "$tree/xen/arch/x86/Makefile"
# x86's cmpxchg() casts its result to __typeof__(*(ptr)), which breaks
# cppcheck 2.10's AST ("AST broken, 'v' doesn't have a parent" in
# asm/atomic.h): it gives up on every file that includes it.  For cppcheck
# alone (xen-analysis.py defines CPPCHECK for it, not for the compiler),
# the copy's cmpxchg() goes without that cast; no file of ours calls it.
cat >> "$tree/xen/arch/x86/include/asm/x86_64/system.h" <<'EOF2'
#ifdef CPPCHECK /* check-misra.sh: cppcheck 2.10 cannot parse the cast */
#undef cmpxchg
#define cmpxchg(ptr, o, n) \
    __cmpxchg(ptr, (unsigned long)(o), (unsigned long)(n), sizeof(*(ptr)))
#endif
EOF2
# Likewise alternative_call()/alternative_vcall() (asm/hvm/hvm.h: "AST
# broken, 'hvm_funcs' doesn't have a parent"): for cppcheck, the call
# they are patched into.
cat >> "$tree/xen/arch/x86/include/asm/alternative-call.h" <<'EOF2'
#ifdef CPPCHECK /* check-misra.sh: cppcheck 2.10 cannot parse these */
#undef alternative_call
#undef alternative_vcall
#define alternative_call(func, args...) ((func)(args))
#define alternative_vcall(func, args...) ((void)(func)(args))
#endif
EOF2

cross=
[ "$arch" != arm64 ] || cross=aarch64-linux-gnu-
mk=(XEN_TARGET_ARCH="$arch")
[ -z "$cross" ] || mk+=(CROSS_COMPILE="$cross")
(cd "$tree" &&
 make -s -C xen "${mk[@]}" defconfig &&
 printf 'CONFIG_XEN_PROFILER=y\n' >> xen/.config &&
 make -s -C xen "${mk[@]}" olddefconfig) > "$out/config.log" 2>&1 ||
    { echo "check-misra: configuring failed: $out/config.log" >&2; exit 1; }
grep -qx 'CONFIG_XEN_PROFILER=y' "$tree/xen/.config" ||
    { echo "check-misra: the profiler is not in the configuration" >&2; exit 1; }

# Xen's scripts run "python" (convert_misra_doc.py, the cppcheck addon
# driver); Debian has python3 alone.
mkdir -p "$out/bin"
ln -sf /usr/bin/python3 "$out/bin/python"
export PATH="$out/bin:$PATH"

start=$(date +%s)
# --no-clean keeps each object's own report (OBJ.cppcheck.txt), which says
# whether cppcheck could analyse that file; the copy is thrown away.
(cd "$tree" && export "${mk[@]}" &&
 xen/scripts/xen-analysis.py --run-cppcheck --cppcheck-misra --no-clean -- -j"$JOBS") \
    > "$out/analysis.log" 2>&1
rc=$?
report=$tree/xen/cppcheck-report/xen-cppcheck.txt
if [ ! -f "$report" ]; then
    echo "check-misra: xen-analysis.py failed ($rc), no report: $out/analysis.log" >&2
    tail -n 20 "$out/analysis.log" >&2
    exit 1
fi

# Ours: the overlay's files under xen/ (their paths in the report are
# relative to the tree, e.g. xen/common/profile/ring.c).
git -C "$top" ls-files -- xen > "$out/ours.txt"
awk -F'(' 'NR == FNR { ours[$0] = 1; next }
           /:misra-c2012-/ { f = $1; sub(/^\.\//, "", f); if (f in ours) print }' \
    "$out/ours.txt" "$report" | sort -u > "$out/findings.txt"

# The clean guidelines: MC3A2.R7.2 -> 7.2, MC3A2.D4.7 -> D4.7.
sed -n 's/^MC3A2\.\([RD]\)\([0-9.]*\).*/\1\2/p' \
    "$tree/automation/eclair_analysis/ECLAIR/tagging.ecl" |
    sed 's/^R//' | sort -u > "$out/clean.txt"

{
    echo "| rule | clean (ECLAIR) | findings in the profiler's files |"
    echo "|---|---|---|"
    sed -n 's/.*:misra-c2012-\([0-9.]*\):.*/\1/p' "$out/findings.txt" |
        sort -V | uniq -c | while read -r n rule; do
            c=no
            grep -qxF "$rule" "$out/clean.txt" && c=yes
            echo "| $rule | $c | $n |"
        done
} > "$out/misra.md"
# deviated RULE FILE TEXT: does scripts/misra-deviations cover it?
deviated() {
    local r df dt
    while read -r r df dt; do
        [ "$r" = "$1" ] || continue
        [ "$df" = "*" ] && return 0       # the whole rule, for our files
        [ "$df" = "$2" ] && [ "${3#*"$dt"}" != "$3" ] && return 0
    done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$top/scripts/misra-deviations")
    return 1
}

# Findings in clean rules: deviated (scripts/misra-deviations: Xen's own
# deviations, the line checked by hand), or bad.
: > "$out/deviated.txt"
: > "$out/bad.txt"
grep -F -f <(sed 's/^/:misra-c2012-/; s/$/:/' "$out/clean.txt") "$out/findings.txt" |
while IFS= read -r finding; do
    f=${finding%%(*}
    line=${finding#*(}; line=${line%%,*}
    rule=${finding#*:misra-c2012-}; rule=${rule%%:*}
    text=$(sed -n "${line}p" "$tree/$f" | sed 's/^[[:space:]]*//')
    if deviated "$rule" "$f" "$text"; then
        echo "$finding" >> "$out/deviated.txt"
    else
        echo "$finding" >> "$out/bad.txt"
    fi
done
bad=$(wc -l < "$out/bad.txt")
# What cppcheck could not preprocess: no file that includes it was
# analysed at all.  Each of our C files built in this configuration must
# have been analysed: its object's report has no such error.
unparsed=':(preprocessorErrorDirective|syntaxError|internalError|internalAstError|unknownMacro|cppcheckError):'
grep -E "$unparsed" "$report" > "$out/unanalysed.txt"
: > "$out/ours-unanalysed.txt"
built=0
for f in $(grep '\.c$' "$out/ours.txt"); do
    # The wrapper's report is named after the object it was asked for
    # (4.22 compiles DIR/.NAME.o.tmp, then checks it into DIR/NAME.o).
    frag=$(dirname "$tree/$f")/.$(basename "${f%.c}").o.tmp.cppcheck.txt
    [ -f "$frag" ] || frag=$tree/${f%.c}.o.cppcheck.txt
    [ -f "$frag" ] || continue
    built=$((built + 1))
    grep -qE "$unparsed" "$frag" && echo "$f" >> "$out/ours-unanalysed.txt"
done
hidden=$(wc -l < "$out/ours-unanalysed.txt")
if [ -s "$out/unanalysed.txt" ]; then
    {
        echo
        echo "Not analysed: cppcheck could not preprocess these, so no file"
        echo "that includes them has any finding:"
        sed 's/^/    /' "$out/unanalysed.txt"
    } >> "$out/misra.md"
fi
{
    echo
    echo "Of the profiler's $built C files in this build, not analysed: $hidden"
    sed 's/^/    /' "$out/ours-unanalysed.txt"
} >> "$out/misra.md"
cat "$out/misra.md"
echo "check-misra: $(wc -l < "$out/findings.txt") findings in the profiler's files" \
     "($(wc -l < "$out/ours.txt") files); in clean rules: $(wc -l < "$out/deviated.txt")" \
     "under Xen's deviations (scripts/misra-deviations), $bad not;" \
     "cppcheck $(cppcheck --version | cut -d' ' -f2), $(( $(date +%s) - start )) s"
rc=0
if [ "$bad" -gt 0 ]; then
    cat "$out/bad.txt"
    rc=1
fi
if [ "$built" -eq 0 ] || [ "$hidden" -gt 0 ]; then
    echo "check-misra: cppcheck analysed $((built - hidden)) of the profiler's $built" \
         "C files in this build (see $out/misra.md)" >&2
    rc=1
fi
exit $rc
