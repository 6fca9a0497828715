/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * data.c: a profile in memory (struct xenprof_data): create, append, free.
 * Reading and writing the data file are in data-read.c and data-write.c.
 *
 * The arrays of a profile grow through xenprof_priv_reserve(), which
 * derives their capacity from their length; a caller that fills the
 * arrays itself must not mix that with the xenprof_data_add_*() calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

uint64_t xenprof_priv_period(const struct xenprof_meta *m)
{
    if ( !m->period && m->source != XENPROF_SOURCE_PMU && m->frequency )
        return 1000000000u / m->frequency;
    return m->period;
}

struct xenprof_data *xenprof_data_new(void)
{
    return calloc(1, sizeof(struct xenprof_data));
}

void xenprof_data_free(struct xenprof_data *d)
{
    size_t i;

    if ( !d )
        return;
    for ( i = 0; i < d->nr_syms; i++ )
        free(d->syms[i].name);
    free(d->syms);
    free(d->cpus);
    free(d->doms);
    free(d->records);
    free(d);
}

/* Returns 0, -EINVAL (d or buf is NULL) or -ENOMEM. */
int xenprof_data_add_records(struct xenprof_data *d, const void *buf,
                             size_t len)
{
    int rc;

    if ( !d || (!buf && len) )
        return -EINVAL;
    if ( !len )
        return 0;
    rc = XENPROF_RESERVE(d->records, d->records_len, len);
    if ( rc )
        return rc;
    memcpy(d->records + d->records_len, buf, len);
    d->records_len += len;
    return 0;
}

/*
 * Returns 0, -EINVAL (d or name is NULL, or the name is longer than the
 * 65535 bytes the data file can hold) or -ENOMEM.
 */
int xenprof_data_add_symbol(struct xenprof_data *d, uint64_t addr,
                            char type, const char *name)
{
    char *copy;
    int rc;

    if ( !d || !name || strlen(name) > UINT16_MAX )
        return -EINVAL;
    copy = strdup(name);
    if ( !copy )
        return -ENOMEM;
    rc = XENPROF_RESERVE(d->syms, d->nr_syms, 1);
    if ( rc )
    {
        free(copy);
        return rc;
    }
    d->syms[d->nr_syms].addr = addr;
    d->syms[d->nr_syms].type = type;
    d->syms[d->nr_syms].name = copy;
    d->nr_syms++;
    return 0;
}

/*
 * Returns 0, -EINVAL (d is NULL) or -ENOMEM.  A NULL name is "", a name
 * is cut to the 63 bytes struct xenprof_domain holds, a NULL uuid is all
 * zeros.
 */
int xenprof_data_add_domain(struct xenprof_data *d, uint32_t domid,
                            const char *name, const uint8_t uuid[16])
{
    struct xenprof_domain *dom;

    if ( !d )
        return -EINVAL;
    if ( XENPROF_RESERVE(d->doms, d->nr_doms, 1) )
        return -ENOMEM;
    dom = &d->doms[d->nr_doms];
    memset(dom, 0, sizeof(*dom));
    dom->domid = domid;
    if ( name )
        strncpy(dom->name, name, sizeof(dom->name) - 1);
    if ( uuid )
        memcpy(dom->uuid, uuid, sizeof(dom->uuid));
    d->nr_doms++;
    return 0;
}

const struct xenprof_domain *xenprof_priv_domain(const struct xenprof_data *d,
                                                 uint32_t domid)
{
    size_t i;

    for ( i = 0; i < d->nr_doms; i++ )
        if ( d->doms[i].domid == domid )
            return &d->doms[i];
    return NULL;
}

/* Returns 0, -EINVAL (d or cpu is NULL) or -ENOMEM. */
int xenprof_data_add_cpu(struct xenprof_data *d,
                         const struct xenprof_cpu *cpu)
{
    if ( !d || !cpu )
        return -EINVAL;
    if ( XENPROF_RESERVE(d->cpus, d->nr_cpus, 1) )
        return -ENOMEM;
    d->cpus[d->nr_cpus++] = *cpu;
    return 0;
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
