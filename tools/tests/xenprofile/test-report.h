/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-report.h: helpers shared by the tests of the report
 * (test-report.c, test-report-cli.c; helpers in test-report-util.c).
 */
#ifndef XENPROFILE_TEST_REPORT_H
#define XENPROFILE_TEST_REPORT_H

#include <stdbool.h>

#include "test.h"

/* What xenprof_report_main() returned and printed. */
struct run {
    int rc;
    char *out, *err;                /* malloc()ed, NUL-terminated */
};

/*
 * Run xenprof_report_main() on args (NULL-terminated, args[0] the program
 * name).  In args, "@A" is the path of the data file of the hand-built
 * profile, "@B" of a copy of it as folded stacks, "@O" a fresh output
 * path.  0, or -1 when it could not be run.
 */
int run_report(struct run *r, const char *const *args);
void run_free(struct run *r);

/* Paths of the hand-built profile files (written on first use). */
const char *report_data_path(void);
const char *report_folded_path(void);

/* Is text one valid JSON value (objects, arrays, UTF-8 strings...)? */
bool json_valid(const char *text);

/* The number after the first `key` found after `from` in text, or -1. */
long long json_number(const char *text, const char *from, const char *key);

/* The sum of every `"total": N` in the array after `key`, or -1. */
long long json_sum_totals(const char *text, const char *key);


/* The suites: the report (test-report.c) and its CLI (test-report-cli.c). */
void test_report(void);
void test_report_cli(void);

#endif /* XENPROFILE_TEST_REPORT_H */
