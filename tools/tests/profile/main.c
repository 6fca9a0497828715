/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c: the profiler's hypervisor unit tests (ring, unwinder, symbols), one TAP
 * stream (tools/tests/common/tap.c).
 */
#include "test.h"

int main(void)
{
    test_ring();
    test_lost();
    test_unwind();
    test_stack();
    test_race();
    test_symbols();

    return tap_done();
}
