/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c: the profiler's hypervisor unit tests (ring, unwinder, symbols,
 * PMU owner, session life cycle, timer source), one TAP stream
 * (tools/tests/common/tap.c).
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
    test_owner();
    test_control();
    test_timer();

    return tap_done();
}
