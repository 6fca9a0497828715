/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * decode-filter.c: which samples of a data file an analysis keeps (pCPUs,
 * domain, time window, guest samples).
 *
 * Time is measured from the records' timestamps (the TSC on x86, CNTPCT
 * on Arm): a sample taken at timestamp is (timestamp -
 * meta.start_timestamp) * 10^6 / meta.timestamp_khz ns after the profile
 * started (0 for a timestamp below start_timestamp: clocks of pCPUs may
 * differ by a little).  Without their frequency (timestamp_khz 0) no time
 * can be told, and a time filter keeps no sample.
 */
#include "private.h"

/* ns from the start of the profile to timestamp; 0 before it. */
static uint64_t elapsed_ns(const struct xenprof_meta *m, uint64_t timestamp)
{
    uint64_t ticks, whole, part;

    if ( timestamp <= m->start_timestamp )
        return 0;
    ticks = timestamp - m->start_timestamp;
    whole = ticks / m->timestamp_khz;
    part = ticks % m->timestamp_khz;
    if ( whole > UINT64_MAX / 1000000 )
        return UINT64_MAX;
    return whole * 1000000 + part * 1000000 / m->timestamp_khz;
}

static int cpu_match(const struct xenprof_filter *f, uint32_t cpu)
{
    if ( !f->cpus )
        return 1;
    if ( cpu >= f->nr_cpu_bits )
        return 0;
    return (f->cpus[cpu / 8] >> (cpu % 8)) & 1;
}

/*
 * A NULL filter keeps everything; a NULL d fails only a time filter.
 * Never fails otherwise.
 */
int xenprof_filter_match(const struct xenprof_data *d,
                         const struct xenprof_filter *f,
                         const struct xenprof_sample *s)
{
    uint64_t t;

    if ( !f )
        return 1;
    if ( !s || !cpu_match(f, s->cpu) )
        return 0;
    if ( f->has_domid && s->domid != f->domid )
        return 0;
    if ( f->no_guest && s->mode != XENPROF_MODE_XEN )
        return 0;
    if ( f->has_time )
    {
        if ( !d || !d->meta.timestamp_khz )
            return 0;
        t = elapsed_ns(&d->meta, s->timestamp);
        if ( t < f->time_from_ns || t >= f->time_to_ns )
            return 0;
    }
    return 1;
}

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
