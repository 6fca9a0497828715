/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test.h: TAP output shared by the profiler's hypervisor unit tests.
 */
#ifndef TEST_PROFILE_TEST_H
#define TEST_PROFILE_TEST_H

#include <stdio.h>

#include "emul.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* "ok N - desc" or "not ok N - desc"; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "# msg" (a diagnostic line). */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan "1..N"; returns the exit status (0: all passed). */
int tap_done(void);

/* A ring_copy_fn: memcpy() to ctx + off. */
int test_copy(void *ctx, unsigned int off, const void *src, unsigned int len);

void test_ring(void);
void test_race(void);
void test_unwind(void);

#endif /* TEST_PROFILE_TEST_H */
