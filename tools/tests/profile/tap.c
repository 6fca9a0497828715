/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.c: TAP output of the profiler's hypervisor unit tests (this folder
 * and tools/tests/profile-pmu): the plan line comes last, once the number
 * of checks is known.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "tap.h"

static unsigned int tap_n, tap_failed;

bool tap_ok(bool cond, const char *fmt, ...)
{
    char buf[256], *p;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    /* One line, no "#" that TAP would take as a directive. */
    for ( p = buf; *p; p++ )
        if ( *p == '\n' || *p == '#' )
            *p = ' ';

    tap_n++;
    if ( !cond )
        tap_failed++;
    printf("%sok %u - %s\n", cond ? "" : "not ", tap_n, buf);
    fflush(stdout);

    return cond;
}

void tap_diag(const char *fmt, ...)
{
    va_list ap;

    fputs("# ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

int tap_done(void)
{
    printf("1..%u\n", tap_n);
    if ( tap_failed )
        printf("# %u of %u checks failed\n", tap_failed, tap_n);
    fflush(stdout);

    return tap_failed ? 1 : 0;
}
