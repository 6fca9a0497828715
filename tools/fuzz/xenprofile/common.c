/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * common.c: what the harnesses share: the writers run on whatever an
 * input produced, so that every input reaches them.  Errors are expected
 * (corrupt data): only crashes and sanitizer reports count.
 */
#include <stdlib.h>

#include "fuzz.h"

FILE *fuzz_null(void)
{
    static FILE *null;

    if ( !null )
        null = fopen("/dev/null", "w");
    if ( !null )
        abort();
    return null;
}

void fuzz_stackset(const struct xenprof_stackset *s)
{
    struct xenprof_svg_opts o = { .title = "fuzz", .inverted = 1 };
    FILE *out = fuzz_null();

    xenprof_write_folded(s, out);
    xenprof_write_pprof(s, NULL, out, NULL, 0);
    xenprof_write_flamegraph(s, out, NULL, NULL, 0);
    xenprof_write_flamegraph(s, out, &o, NULL, 0);
    xenprof_write_diff_folded(s, s, out);
    xenprof_write_flamegraph_diff(s, s, out, NULL, NULL, 0);
}

void fuzz_profile(const struct xenprof_data *d, uint8_t sel)
{
    uint8_t cpus[2] = { sel, (uint8_t)~sel };
    struct xenprof_filter f = {
        .cpus = cpus, .nr_cpu_bits = 1 + sel % 16,
        .has_domid = sel & 1, .domid = sel >> 4,
        .has_time = sel & 2, .time_from_ns = sel, .time_to_ns = sel * 1000,
        .no_guest = sel & 4,
    };
    struct xenprof_stackset *s = NULL;
    char err[256];
    FILE *out = fuzz_null();

    xenprof_write_script(d, &f, NULL, out, err, sizeof(err));
    if ( !xenprof_stackset_from_data(d, NULL, NULL, &s, err, sizeof(err)) )
    {
        xenprof_write_folded(s, out);
        xenprof_write_pprof(s, d, out, err, sizeof(err));
        fuzz_stackset(s);
        xenprof_stackset_free(s);
        s = NULL;
    }
    if ( !xenprof_stackset_from_data(d, &f, NULL, &s, err, sizeof(err)) )
    {
        xenprof_write_pprof(s, d, out, err, sizeof(err));
        xenprof_stackset_free(s);
    }
}
