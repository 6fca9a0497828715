/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * decode-summary.c: what a toolstack learns from the records of a profile
 * before it saves it: the domains they name (xenprof_data_add_domains())
 * and how many samples were taken and lost (xenprof_data_count()).
 */
#include <errno.h>
#include <string.h>

#include "private.h"

int xenprof_data_add_domains(struct xenprof_data *d,
                             xenprof_domain_lookup_t *lookup, void *arg,
                             char *err, size_t errlen)
{
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    if ( !d )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_data_add_domains: no data");
    while ( (rc = xenprof_decode_next(d->records, d->records_len, &off, &s,
                                      err, errlen)) > 0 )
    {
        char name[64] = "";
        uint8_t uuid[16] = { 0 };

        if ( s.domid == XENPROF_DOMID_IDLE ||
             xenprof_priv_domain(d, s.domid) )
            continue;
        if ( lookup && lookup(arg, s.domid, name, uuid) )
        {
            name[0] = '\0';
            memset(uuid, 0, sizeof(uuid));
        }
        name[sizeof(name) - 1] = '\0';
        if ( xenprof_data_add_domain(d, s.domid, name, uuid) )
            return xenprof_priv_err(err, errlen, -ENOMEM,
                                    "domain table: out of memory");
    }
    return rc;
}

int xenprof_data_count(const struct xenprof_data *d, uint64_t *samples,
                       uint64_t *lost, char *err, size_t errlen)
{
    struct xenprof_sample s;
    uint64_t n = 0, l = 0, in_stream = 0, count;
    size_t off = 0, i;
    int rc;

    if ( !d )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_data_count: no data");
    while ( (rc = xenprof_priv_decode_any(d->records, d->records_len, &off,
                                          &s, &count, 0, err, errlen)) > 0 )
    {
        if ( rc == 1 )
            n++;
        else
            in_stream += count;
    }
    if ( rc )
        return rc;
    for ( i = 0; i < d->nr_cpus; i++ )
        l += d->cpus[i].lost;
    if ( !d->nr_cpus )
        l = in_stream;
    if ( samples )
        *samples = n;
    if ( lost )
        *lost = l;
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
