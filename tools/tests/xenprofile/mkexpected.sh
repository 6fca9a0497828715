#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
#
# mkexpected.sh FILE...: the C source of the table of expected outputs
# (struct test_expected, test.h) holding each FILE's bytes, on stdout, so
# that the test program needs no data folder where it is installed.
set -e
echo "/* Made from data/expected/ by mkexpected.sh: do not edit. */"
echo "#include \"test.h\""
echo
n=0
for f in "$@"; do
    echo "static const unsigned char expected_$n[] = {"
    od -An -v -w12 -tx1 "$f" | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1, /g' \
        -e 's/^/   /' -e 's/, $/,/'
    echo "    0"
    echo "};"
    n=$((n + 1))
done
echo
echo "const struct test_expected test_expected[] = {"
n=0
for f in "$@"; do
    echo "    { \"$(basename "$f")\", expected_$n, sizeof(expected_$n) - 1 },"
    n=$((n + 1))
done
echo "    { NULL, NULL, 0 },"
echo "};"
