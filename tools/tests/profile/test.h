/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test.h: TAP output shared by the profiler's hypervisor unit tests.
 */
#ifndef TEST_PROFILE_TEST_H
#define TEST_PROFILE_TEST_H

#include <stdio.h>

#include "emul.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


/* A profile_ring_copy_fn: memcpy() to ctx + off. */
int test_copy(void *ctx, unsigned int off, const void *src, unsigned int len);

void test_ring(void);
void test_race(void);
void test_unwind(void);
void test_stack(void);

#endif /* TEST_PROFILE_TEST_H */
