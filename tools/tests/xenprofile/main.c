/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * main.c: the libxenprofile unit tests, one TAP stream.
 */
#include "test.h"

/*
 * Suites of the analysis code, registered while they are being written
 * (weak until every one exists; see test.h).
 */
void test_stackset(void) __attribute__((weak));
void test_flamegraph(void) __attribute__((weak));
void test_report(void) __attribute__((weak));
void test_pprof(void) __attribute__((weak));

int main(void)
{
    test_decode();
    test_data();
    test_datafile();
    test_crafted();
    test_write();
    test_symbols();
    test_folded();
    if ( test_stackset )
        test_stackset();
    if ( test_flamegraph )
        test_flamegraph();
    if ( test_report )
        test_report();
    if ( test_pprof )
        test_pprof();
    tmpdir_done();
    return tap_done();
}
