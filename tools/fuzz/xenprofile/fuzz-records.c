/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * fuzz-records.c: the record decoder, xenprof_decode_next(), on any
 * bytes; a stream it accepts whole then goes, as the records of a
 * profile with a small symbol table, through everything a profile feeds.
 */
#include <stdlib.h>

#include "fuzz.h"

/* Xen text at 0x1000.. and the guest domains 1 and 2. */
static struct xenprof_data *profile(void)
{
    static const char *const names[] = {
        "idle_loop", "common/sched/core.c#do_schedule", "do_softirq",
        "arch/x86/traps.c#handle", "x.c#handle", "data_thing",
    };
    struct xenprof_data *d = xenprof_data_new();
    unsigned int i;
    int rc = !d;

    for ( i = 0; i < 6 && !rc; i++ )
        rc = xenprof_data_add_symbol(d, 0x1000 + 0x100 * i,
                                     i == 5 ? 'D' : "TtTtt"[i], names[i]);
    rc = rc ?: xenprof_data_add_domain(d, 1, "web", NULL);
    rc = rc ?: xenprof_data_add_domain(d, 2, "", NULL);
    if ( rc )
        abort();
    d->meta.source = XENPROF_SOURCE_TIMER;
    d->meta.period = 10000000;
    d->meta.timestamp_khz = 1000;
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xenprof_sample s;
    struct xenprof_data *d;
    size_t off = 0;
    uint64_t sum = 0;
    unsigned int i;
    int rc;

    while ( (rc = xenprof_decode_next(data, size, &off, &s, NULL, 0)) > 0 )
        for ( i = 0; i < s.nr_frames; i++ )
            sum += xenprof_sample_ip(&s, i);
    if ( rc < 0 || off != size )
        return 0;
    d = profile();
    if ( !xenprof_data_add_records(d, data, size) )
        fuzz_profile(d, (uint8_t)sum);
    xenprof_data_free(d);
    return 0;
}
