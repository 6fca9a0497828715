/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * tap.c: TAP output (Test Anything Protocol) for the C unit test suites
 * under tools/tests (tap.h).  The plan line comes last, once the number
 * of checks is known.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

static unsigned int tap_n, tap_failed;

/* Print the description: one line, no "#" that TAP would take as a note. */
static void tap_desc(const char *fmt, va_list ap)
{
    char buf[512];
    char *p;

    vsnprintf(buf, sizeof(buf), fmt, ap);
    for ( p = buf; *p; p++ )
        if ( *p == '\n' || *p == '#' )
            *p = ' ';
    fputs(buf, stdout);
}

bool tap_ok(bool cond, const char *fmt, ...)
{
    va_list ap;

    tap_n++;
    if ( !cond )
        tap_failed++;
    printf("%sok %u - ", cond ? "" : "not ", tap_n);
    va_start(ap, fmt);
    tap_desc(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    return cond;
}

void tap_skip(const char *why, const char *fmt, ...)
{
    va_list ap;

    tap_n++;
    printf("ok %u - ", tap_n);
    va_start(ap, fmt);
    tap_desc(fmt, ap);
    va_end(ap);
    printf(" # SKIP %s\n", why);
    fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    char *p, *line;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    for ( line = buf; line; line = p )
    {
        p = strchr(line, '\n');
        if ( p )
            *p++ = '\0';
        printf("# %s\n", line);
    }
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
