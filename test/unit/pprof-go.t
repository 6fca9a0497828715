#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `xenprofile --pprof` read by pprof itself (`go tool pprof`, Debian's
# golang-go): on the benchmark's synthetic profile with a build-id
# (tools/tests/xenprofile-bench/synth-data, 100k samples), pprof names the
# main binary (xen-syms, the build-id) instead of "Main binary filename
# not available"; its -top by samples is our report's top 10 by self;
# -raw lists the Xen mapping with the build-id and has_functions, and
# every Xen location has its address inside it; -symbolize=none keeps
# the names.  Folded input: a profile without mappings that pprof reads.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
. "$top/test/lib/tap.sh"
if ! command -v go > /dev/null; then
    plan 1; skip "go tool pprof reads --pprof" "no go (Debian: golang-go)"; finish
fi
mkdir -p "$BUILD/tests/pprof-go" &&
    out=$(cd "$BUILD/tests/pprof-go" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/pprof-go"; exit 1; }
make -s --no-print-directory -C "$top/tools/tests/xenprofile-bench" \
    O="$out" "$out/synth-data" "$out/xenprofile" > "$out/build.log" 2>&1 ||
    { echo "Bail out! build synth-data, xenprofile (log: $out/build.log)"; exit 1; }
id=5ca1ab1e0ddba11c0ffee0ddf00dcafe12345678
export GOCACHE=$out/gocache HOME=${HOME:-$out}
pprof() { go tool pprof "$@" 2>> "$out/pprof.err"; }

plan 9
"$out/synth-data" -n 100000 -k 20000 "$out/s.data" &&
    "$out/xenprofile" -i "$out/s.data" --pprof "$out/s.pb.gz" &&
    "$out/xenprofile" -i "$out/s.data" --folded "$out/s.folded" &&
    "$out/xenprofile" -i "$out/s.folded" --pprof "$out/f.pb.gz" &&
    "$out/xenprofile" -i "$out/s.data" --sort self --top 10 --json > "$out/report.json"
check "the synthetic profile, its pprof, folded stacks and report are written" test $? -eq 0
: > "$out/pprof.err"
top_opts="-top -nodecount=10 -nodefraction=0 -sample_index=samples"
pprof $top_opts "$out/s.pb.gz" > "$out/top.txt"
check "go tool pprof -top reads it ($(go env GOVERSION))" test -s "$out/top.txt"
check "and names the main binary: xen-syms, its build-id (no 'Main binary filename not available')" \
    sh -c "grep -qx 'File: xen-syms' '$out/top.txt' && grep -qx 'Build ID: $id' '$out/top.txt' &&
           ! grep -q 'Main binary filename not available' '$out/top.txt' '$out/pprof.err'"
# name self, one per line, from pprof's table and from our report.
table() { awk 'f && NF >= 6 { n = $6; for (i = 7; i <= NF; i++) n = n " " $i; print n, $1 }
               $1 == "flat" { f = 1 }' "$1"; }
ours=$(python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["functions"]: print(f["name"], f["self"])' "$out/report.json")
theirs=$(table "$out/top.txt")
if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
    ok "its -top by samples is our report's top 10 by self"
else
    nok "its -top by samples is our report's top 10 by self"
    diff <(echo "$ours") <(echo "$theirs") | sed 's/^/# /'
fi
pprof -raw "$out/s.pb.gz" > "$out/raw.txt"
check "-raw: mapping 1 is xen-syms with the build-id and functions ([FN])" \
    grep -q -E "^1: 0x[0-9a-f]+/0x[0-9a-f]+/0x0 xen-syms $id \[FN\]\$" "$out/raw.txt"
check "-raw: the guest frames have mappings of their own" \
    sh -c "grep -q -E '^[0-9]+: .* \[guest\.kernel\]  \[FN\]\$' '$out/raw.txt' &&
           grep -q -E '^[0-9]+: .* \[guest\.user\]  \[FN\]\$' '$out/raw.txt'"
check "-raw: every Xen location has an address inside the Xen mapping" \
    /usr/bin/python3 -c '
import re, sys
text = open(sys.argv[1]).read()
start, limit = (int(x, 16) for x in re.search(
    r"^1: 0x([0-9a-f]+)/0x([0-9a-f]+)/0x0 xen-syms", text, re.M).groups())
addrs = [int(a, 16) for a in re.findall(r"^ +\d+: 0x([0-9a-f]+) M=1 ", text, re.M)]
assert len(addrs) > 1000, len(addrs)
assert all(start <= a < limit for a in addrs)
' "$out/raw.txt"
pprof $top_opts -symbolize=none "$out/s.pb.gz" > "$out/top-nosym.txt"
check "-symbolize=none keeps the names" \
    test "$(table "$out/top-nosym.txt")" = "$theirs"
pprof $top_opts "$out/f.pb.gz" > "$out/top-folded.txt"
check "the pprof of folded stacks (no addresses, no mapping) gives the same top 10" \
    test "$(table "$out/top-folded.txt")" = "$theirs"
[ -s "$out/pprof.err" ] && sed 's/^/# pprof: /' "$out/pprof.err" | head -n 5
finish
