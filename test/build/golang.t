#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The libxl profile types are in libxl_types.idl, from which libxl
# generates its Go bindings (tools/golang/xenlight/gengotypes.py): in the
# built tree of this base ($BUILD/xen, configured --disable-golang), make
# the bindings again and build them with go, against the built libxl; the
# files the series carries (4.22, staging) are those the IDL makes.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
: "${BUILD:=$top/build}"
dir=$BUILD/xen/tools/golang/xenlight
if ! command -v go >/dev/null; then
    plan 1
    skip "the Go bindings build" "no go compiler (Debian: golang-go)"
    finish
fi
plan 4
mkdir -p "$BUILD/tests/golang"
log=$BUILD/tests/golang/build.log
# The files as the series left them, to compare with what the IDL makes.
cp "$dir/types.gen.go" "$dir/helpers.gen.go" "$BUILD/tests/golang/"
rm -f "$dir/types.gen.go" "$dir/helpers.gen.go"
GOCACHE=$BUILD/tests/golang/cache GOFLAGS=-mod=mod \
    make -C "$dir" build PYTHON=/usr/bin/python3 > "$log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 20 "$log" | sed 's/^/# /'
check "the Go bindings are generated again and build (go $(go env GOVERSION))" \
    test $rc -eq 0
check "they have the profiler's types (ProfileStatus, ProfileCpu, ProfileSource)" \
    sh -c "grep -q '^type ProfileStatus struct' '$dir/types.gen.go' &&
           grep -q '^type ProfileCpu struct' '$dir/types.gen.go' &&
           grep -q '^type ProfileSource int' '$dir/types.gen.go'"
check "and their C conversions" \
    grep -q 'func (x \*ProfileStatus) fromC' "$dir/helpers.gen.go"
if grep -q '^type ProfileStatus struct' "$BUILD/tests/golang/types.gen.go"; then
    check "the series' generated Go files are what the IDL makes" \
        sh -c "cmp -s '$BUILD/tests/golang/types.gen.go' '$dir/types.gen.go' &&
               cmp -s '$BUILD/tests/golang/helpers.gen.go' '$dir/helpers.gen.go'"
else
    skip "the series' generated Go files are what the IDL makes" \
        "this base's series does not carry them (Xen 4.17)"
fi
finish
