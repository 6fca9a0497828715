/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * fuzz.h: shared by the libFuzzer harnesses of libxenprofile.
 */
#ifndef XENPROFILE_FUZZ_H
#define XENPROFILE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../libs/profile/private.h"

/* The entry point libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* /dev/null for the writers, opened once; aborts when it cannot be. */
FILE *fuzz_null(void);

/*
 * Run every writer and analysis of a profile on d (its stack set with and
 * without a filter taken from sel, folded, pprof, script, flame graph):
 * anything a data file or record stream reaches.
 */
void fuzz_profile(const struct xenprof_data *d, uint8_t sel);

/* Run the writers of a stack set (folded, pprof, flame graphs). */
void fuzz_stackset(const struct xenprof_stackset *s);

#endif /* XENPROFILE_FUZZ_H */
