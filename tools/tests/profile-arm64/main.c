/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c: the Arm profiler's hypervisor unit tests (frame-record walk,
 * stack bounds, guest modes, the PMUv3 source), one TAP stream
 * (tools/tests/common/tap.c).
 */
#include "test.h"

int main(void)
{
    test_unwind();
    test_stack();
    test_mode();
    test_pmu();

    return tap_done();
}
