#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# libxenprofile unit tests (tools/tests/xenprofile), TAP passed through.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/c-suite.sh"
# The flame graph corpus (inferno's SVGs) is the one beside the checkout.
XENPROFILE_CORPUS=${XENPROFILE_CORPUS:-$(cd "$top/.." && pwd)/shared/corpus/flamegraph} \
    c_suite xenprofile "the libxenprofile unit tests"
