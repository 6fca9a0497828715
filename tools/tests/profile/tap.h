/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h: TAP output of the profiler's hypervisor unit tests (tap.c).
 */
#ifndef TEST_PROFILE_TAP_H
#define TEST_PROFILE_TAP_H

#include <stdbool.h>

/* "ok N - desc" or "not ok N - desc"; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "# msg" (a diagnostic line). */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan "1..N"; returns the exit status (0: all passed). */
int tap_done(void);

#endif /* TEST_PROFILE_TAP_H */
