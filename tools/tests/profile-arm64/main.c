/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c: the Arm profiler's hypervisor unit tests (frame-record walk,
 * stack bounds, guest modes), one TAP stream (tools/tests/common/tap.c).
 */
#include "test.h"

int main(void)
{
    test_unwind();
    test_stack();
    test_mode();

    return tap_done();
}
