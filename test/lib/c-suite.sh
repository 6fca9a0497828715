# SPDX-License-Identifier: GPL-2.0-only
# c-suite.sh: run one C unit test suite of tools/tests from a test/unit
# wrapper (bash).  Source it, then
#   c_suite SUITE DESC [TARGET]
# builds tools/tests/SUITE into $BUILD/tests/SUITE and passes the TAP
# output of `make TARGET` (default run) through; returns its status.  A
# build that fails is one failed check, "build DESC", with the compiler
# output as "# " comments.  $c_suite_out is the build folder, and
# $c_suite_built is 1 once the build succeeded.
: "${top:?c-suite.sh: set top to the repository}"
: "${BUILD:=$top/build}"

c_suite_make() {
    make -s --no-print-directory -C "$top/tools/tests/$c_suite_name" \
        O="$c_suite_out" XEN_PUBLIC_INC="$c_suite_public" "$@"
}

c_suite() {
    c_suite_name=$1
    c_suite_built=0
    # Xen's public headers with the series' ABI (scripts/public-headers.sh).
    mkdir -p "$BUILD/tests"
    if ! c_suite_public=$("$top/scripts/public-headers.sh" "$BUILD/tests/public" 2> "$BUILD/tests/public.log"); then
        echo "1..1"
        echo "not ok 1 - build $2: no public headers"
        sed 's/^/# /' "$BUILD/tests/public.log"
        return 1
    fi
    mkdir -p "$BUILD/tests/$1" &&
        c_suite_out=$(cd "$BUILD/tests/$1" && pwd) ||
        { echo "Bail out! cannot create $BUILD/tests/$1"; exit 1; }
    if ! c_suite_make all > "$c_suite_out/build.log" 2>&1; then
        echo "1..1"
        echo "not ok 1 - build $2"
        sed 's/^/# /' "$c_suite_out/build.log"
        return 1
    fi
    c_suite_built=1
    c_suite_make "${3:-run}" 2>&1 | sed 's/^make: /# make: /'
    return "${PIPESTATUS[0]}"
}
