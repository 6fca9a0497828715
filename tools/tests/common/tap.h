/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * tap.h: TAP output (Test Anything Protocol) of every C unit test suite
 * under tools/tests (tap.c).  The plan line comes last, once the number
 * of checks is known.
 */
#ifndef TOOLS_TESTS_TAP_H
#define TOOLS_TESTS_TAP_H

#include <stdbool.h>

/* "ok N - desc" or "not ok N - desc"; returns cond. */
bool tap_ok(bool cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "ok N - desc # SKIP why". */
void tap_skip(const char *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "# msg" (a diagnostic line each). */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan "1..N"; returns the exit status (0: all passed). */
int tap_done(void);

#endif /* TOOLS_TESTS_TAP_H */
