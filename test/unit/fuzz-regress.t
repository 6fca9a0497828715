#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The libFuzzer harnesses of libxenprofile (clang, ASan + UBSan) run once
# on every input kept in tools/fuzz/xenprofile/regressions/ and on the
# seed corpus mkseeds writes at build time, without fuzzing: what was
# found and fixed stays fixed.  (make fuzz does the fuzzing.)  The
# archives oss-fuzz links (make all, as tools/fuzz/libelf's) build with
# the C compiler alone.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/tests/fuzz
mkdir -p "$out"
dir=$top/tools/fuzz/xenprofile

plan 7
if ! command -v clang > /dev/null; then
    echo "Bail out! clang is missing (make deps installs it)"
    exit 1
fi
make -s -C "$dir" O="$out/archives" CC=gcc all > "$out/archives.log" 2>&1
rc=$?
n=$(ls "$out"/archives/xenprofile-*-fuzzer.a 2>/dev/null | wc -l)
check "make all: an archive per harness for oss-fuzz, with gcc ($n of 4, status $rc)" \
    test $rc -eq 0 -a "$n" -eq 4
[ $rc -eq 0 ] || sed 's/^/# /' "$out/archives.log" | tail -n 10
if ! make -s -C "$dir" O="$out" libfuzzer seeds > "$out/build.log" 2>&1; then
    nok "the fuzz harnesses build (clang -fsanitize=fuzzer,address,undefined)"
    sed 's/^/# /' "$out/build.log" | tail -n 20
    finish
fi
ok "the fuzz harnesses build (clang -fsanitize=fuzzer,address,undefined)"
for h in data records folded elf; do
    set -- "$dir/regressions/$h"/* "$out/seeds/$h"/*
    files=()
    for f in "$@"; do [ -f "$f" ] && files+=("$f"); done
    "$out/fuzz-$h" "${files[@]}" > "$out/regress-$h.log" 2>&1
    check "fuzz-$h: ${#files[@]} regression and seed inputs run clean" test $? -eq 0
done
check "no seed corpus is kept in the tree (mkseeds writes it)" test ! -e "$dir/corpus"
finish
