/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test.h: the Arm profiler's hypervisor unit tests, one TAP stream.
 */
#ifndef TEST_PROFILE_ARM64_TEST_H
#define TEST_PROFILE_ARM64_TEST_H

#include <stdio.h>

#include "emul.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void test_unwind(void);
void test_stack(void);
void test_mode(void);
void test_pmu(void);

#endif /* TEST_PROFILE_ARM64_TEST_H */
