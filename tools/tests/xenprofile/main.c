/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * main.c: the libxenprofile unit tests, one TAP stream.
 */
#include "test.h"

int main(void)
{
    test_abi();
    test_lost_records();
    test_decode();
    test_data();
    test_datafile();
    test_crafted();
    test_write();
    test_symbols();
    test_folded();
    test_stackset();
    test_flamegraph();
    test_report();
    test_pprof();
    test_xensyms();
    tmpdir_done();
    return tap_done();
}
