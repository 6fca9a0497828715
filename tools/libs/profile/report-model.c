/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * report-model.c: the report of a profile: the
 * profile's header, the Self/Children table of the functions (perf report
 * --children), optionally each function's callees, and the splits of the
 * samples by domain and by pCPU: the model, which report.c renders as
 * text (report-text.c) or JSON (report-json.c).
 *
 * The functions come from the call tree of the stack set (calltree.c); the
 * splits from a second pass over the records with the same filter, so
 * the rows of every split add up to the samples shown.  Xen samples are
 * charged to the domain on whose behalf Xen ran (the running vCPU's), or
 * to "idle" on an idle vCPU; guest samples to their domain.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Samples below this are left out of the call graphs. */
static uint64_t cg_min(uint64_t total)
{
    uint64_t div = 1000 / XENPROF_CALLGRAPH_MIN_PERMILLE;

    return total / div + (total % div != 0);
}

/* The row of domid, inserted (sorted) if new; NULL when out of memory. */
static struct dom_row *dom_row(struct splits *sp, uint32_t domid)
{
    size_t lo = 0, hi = sp->nr_dom, mid;

    while ( lo < hi )
    {
        mid = (lo + hi) / 2;
        if ( sp->dom[mid].domid == domid )
            return &sp->dom[mid];
        if ( sp->dom[mid].domid < domid )
            lo = mid + 1;
        else
            hi = mid;
    }
    if ( xenprof_priv_reserve((void **)&sp->dom, sp->nr_dom, 1,
                              sizeof(*sp->dom)) )
        return NULL;
    memmove(&sp->dom[lo + 1], &sp->dom[lo],
            (sp->nr_dom - lo) * sizeof(*sp->dom));
    sp->nr_dom++;
    memset(&sp->dom[lo], 0, sizeof(*sp->dom));
    sp->dom[lo].domid = domid;
    return &sp->dom[lo];
}

/* The row of pCPU cpu, the table grown if needed; NULL: out of memory. */
static struct cpu_row *cpu_row(struct splits *sp, uint32_t cpu)
{
    size_t n = (size_t)cpu + 1;
    struct cpu_row *p;

    if ( n > sp->nr_cpu )
    {
        p = realloc(sp->cpu, n * sizeof(*p));
        if ( !p )
            return NULL;
        memset(p + sp->nr_cpu, 0, (n - sp->nr_cpu) * sizeof(*p));
        sp->cpu = p;
        sp->nr_cpu = n;
    }
    return &sp->cpu[cpu];
}

/* Charge one sample; 0 or -ENOMEM. */
static int split_add(struct splits *sp, const struct xenprof_sample *s)
{
    bool idle = s->mode == XENPROF_MODE_XEN &&
                (s->domid == XENPROF_DOMID_IDLE || (s->flags &
                                                    XENPROF_F_IDLE));
    struct dom_row *dr = idle ? NULL : dom_row(sp, s->domid);
    struct cpu_row *cr = cpu_row(sp, s->cpu);

    if ( (!idle && !dr) || !cr )
        return -ENOMEM;
    if ( idle )
    {
        sp->idle++;
        cr->idle++;
    }
    else if ( s->mode == XENPROF_MODE_XEN )
    {
        dr->xen++;
        cr->xen++;
    }
    else
    {
        if ( s->mode == XENPROF_MODE_GUEST_KERNEL )
            dr->kernel++;
        else
            dr->user++;
        cr->guest++;
    }
    return 0;
}

static int count_splits(struct splits *sp, const struct xenprof_data *d,
                        const struct xenprof_filter *f, char *err,
                        size_t errlen)
{
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    while ( (rc = xenprof_decode_next(d->records, d->records_len, &off, &s,
                                      err, errlen)) > 0 )
    {
        sp->all++;
        if ( f && !xenprof_filter_match(d, f, &s) )
            continue;
        if ( split_add(sp, &s) )
            return xenprof_priv_err(err, errlen, -ENOMEM,
                                    "report: out of memory");
    }
    return rc;
}

/* The name of domain domid in d's table, or "". */
const char *xenprof_priv_rep_dom_name(const struct xenprof_data *d,
                                      uint32_t domid)
{
    const struct xenprof_domain *dom = xenprof_priv_domain(d, domid);

    return dom ? dom->name : "";
}


const char *xenprof_priv_rep_source(uint32_t source)
{
    switch ( source )
    {
    case XENPROF_SOURCE_TIMER:
        return "timer";
    case XENPROF_SOURCE_PMU:
        return "pmu";
    default:
        return "unknown";
    }
}

/* The profile's duration in seconds, or -1 when unknown. */
double xenprof_priv_rep_duration(const struct xenprof_meta *m)
{
    if ( m->start_time_ns && m->stop_time_ns >= m->start_time_ns )
        return (m->stop_time_ns - m->start_time_ns) / 1e9;
    if ( m->timestamp_khz && m->start_timestamp &&
         m->stop_timestamp >= m->start_timestamp )
        return (m->stop_timestamp - m->start_timestamp) /
               (m->timestamp_khz * 1e3);
    return -1;
}

uint64_t xenprof_priv_rep_throttled(const struct xenprof_data *d)
{
    uint64_t n = 0;
    size_t i;

    for ( i = 0; i < d->nr_cpus; i++ )
        n += d->cpus[i].throttled;
    return n;
}

uint64_t xenprof_priv_rep_lost(const struct xenprof_data *d,
                               size_t *sampled)
{
    uint64_t n = 0;
    size_t i;

    *sampled = 0;
    for ( i = 0; i < d->nr_cpus; i++ )
    {
        n += d->cpus[i].lost;
        *sampled += !!(d->cpus[i].flags & (XENPROF_CPU_SAMPLED |
                                           XENPROF_CPU_RING));
    }
    return n;
}


int xenprof_priv_rep_callees(const struct rep *r,
                             const struct xenprof_func *f,
                             xenprof_tree_visit_t fn, void *arg)
{
    struct xenprof_tree *c;
    int rc = xenprof_priv_tree_callees(r->t, f->name, &c);

    if ( !rc )
        rc = xenprof_priv_tree_walk(c, cg_min(r->total), fn, arg);
    xenprof_priv_tree_free(c);
    return rc;
}

int xenprof_priv_rep_each_func(struct rep *r, const struct rep_func_ops *ops)
{
    const struct xenprof_func *f;
    size_t i;
    int rc;

    for ( i = 0; i < r->shown; i++ )
    {
        f = &r->fn[i];
        ops->row(r, f, i);
        if ( r->o->callgraph )
        {
            rc = xenprof_priv_rep_callees(r, f, ops->callee, r);
            if ( rc )
                return rc;
        }
        ops->row_end(r);
    }
    return 0;
}

int xenprof_priv_rep_build(struct rep *r, const struct xenprof_filter *f,
                           const struct xenprof_stackset *s, char *err,
                           size_t errlen)
{
    const struct xenprof_report_opts *o = r->o;
    int rc = xenprof_priv_tree_build(s, &r->t);

    rc = rc ?: xenprof_priv_tree_funcs(r->t, o->by_self, &r->fn, &r->nr_fn);
    if ( rc )
        return xenprof_priv_err(err, errlen, rc, "report: out of memory");
    if ( r->d )
    {
        rc = count_splits(&r->sp, r->d, f, err, errlen);
        if ( rc )
            return rc;
        r->secs = xenprof_priv_rep_duration(&r->d->meta);
        r->nlost = xenprof_priv_rep_lost(r->d, &r->sampled);
        r->nthrottled = xenprof_priv_rep_throttled(r->d);
    }
    r->total = xenprof_priv_tree_total(r->t);
    r->shown = o->top && o->top < r->nr_fn ? o->top : r->nr_fn;
    return 0;
}

void xenprof_priv_rep_free(struct rep *r)
{
    free(r->sp.dom);
    free(r->sp.cpu);
    free(r->fn);
    xenprof_priv_tree_free(r->t);
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
