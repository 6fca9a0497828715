#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The libFuzzer harnesses of libxenprofile (clang, ASan + UBSan) run once
# on every input kept in tools/tests/xenprofile-fuzz/regressions/ and on
# the seed corpus, without fuzzing: what was found and fixed stays fixed.
# (make fuzz does the fuzzing.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
out=$BUILD/tests/fuzz
mkdir -p "$out"
dir=$top/tools/tests/xenprofile-fuzz

plan 5
if ! command -v clang > /dev/null; then
    echo "Bail out! clang is missing (make deps installs it)"
    exit 1
fi
if ! make -s -C "$dir" O="$out" all > "$out/build.log" 2>&1; then
    nok "the fuzz harnesses build (clang -fsanitize=fuzzer,address,undefined)"
    sed 's/^/# /' "$out/build.log" | tail -n 20
    finish
fi
ok "the fuzz harnesses build (clang -fsanitize=fuzzer,address,undefined)"
for h in data records folded elf; do
    set -- "$dir/regressions/$h"/* "$dir/corpus/$h"/*
    files=()
    for f in "$@"; do [ -f "$f" ] && files+=("$f"); done
    "$out/fuzz-$h" "${files[@]}" > "$out/regress-$h.log" 2>&1
    check "fuzz-$h: ${#files[@]} regression and seed inputs run clean" test $? -eq 0
done
finish
