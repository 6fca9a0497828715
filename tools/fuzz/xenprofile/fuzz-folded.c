/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * fuzz-folded.c: the folded parsers, xenprof_stackset_read_folded() and
 * xenprof_stackset_read_diff_folded(), on any bytes (fmemopen), then the
 * writers of the stack sets they return.
 */
#include "fuzz.h"

/* A FILE reading data[0..size); /dev/null when size is 0. */
static FILE *input(const uint8_t *data, size_t size)
{
    return size ? fmemopen((void *)data, size, "r")
                : fopen("/dev/null", "r");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xenprof_stackset *s = NULL, *a = NULL, *b = NULL;
    size_t bad;
    char err[256];
    FILE *in = input(data, size);

    if ( !in )
        return 0;
    if ( !xenprof_stackset_read_folded(in, &s, &bad, err, sizeof(err)) )
    {
        fuzz_stackset(s);
        xenprof_stackset_free(s);
    }
    fclose(in);
    in = input(data, size);
    if ( !in )
        return 0;
    if ( !xenprof_stackset_read_diff_folded(in, &a, &b, &bad, err,
                                            sizeof(err)) )
    {
        xenprof_write_diff_folded(a, b, fuzz_null());
        xenprof_write_flamegraph_diff(a, b, fuzz_null(), NULL, NULL, 0);
        xenprof_stackset_free(a);
        xenprof_stackset_free(b);
    }
    fclose(in);
    return 0;
}
