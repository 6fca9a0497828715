#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz.sh: build the libFuzzer harnesses of libxenprofile
# (tools/fuzz/xenprofile: data file reader, record decoder, folded
# parsers; clang with ASan and UBSan) in $BUILD/fuzz, run each on its saved
# regression inputs, then fuzz each for FUZZ_SECONDS (60) from the seed
# corpus.  Crashing inputs are left in $BUILD/fuzz/crash-*; the exit
# status is 1 when there is one.  clang's libFuzzer runtime comes from
# the Debian package libclang-rt-<version>-dev: as root it is installed
# when missing; otherwise the apt-get line is printed.
set -euo pipefail
. "$(dirname "$0")/env.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
: "${FUZZ_SECONDS:=60}"
mkdir -p "$BUILD/fuzz"
out=$(cd "$BUILD/fuzz" && pwd)

if ! command -v clang > /dev/null; then
    pkgs=clang
else
    ver=$(clang --version | sed -n 's/.*clang version \([0-9]*\)\..*/\1/p')
    pkgs=libclang-rt-${ver:-14}-dev
    echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
        clang -fsanitize=fuzzer -x c - -o "$out/probe" 2> /dev/null &&
        pkgs=
    rm -f "$out/probe"
fi
if [ -n "$pkgs" ]; then
    . "$(dirname "$0")/apt-install.sh"
    apt_install "clang's libFuzzer is" "$pkgs"
fi

mk() { make -s --no-print-directory -C "$top/tools/fuzz/xenprofile" \
       O="$out" "$@"; }
mk libfuzzer
mk regress
mk FUZZ_SECONDS="$FUZZ_SECONDS" fuzz
