/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * report.c: the report of `xenprofile` / `xl profile report`: the
 * profile's header, the Self/Children table of the functions (perf report
 * --children), optionally each function's callees, and the splits of the
 * samples by domain and by pCPU, as text (here) or JSON (report-json.c).
 *
 * The functions come from the call tree of the stack set (tree.c); the
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
    size_t i;

    for ( i = 0; i < d->nr_doms; i++ )
        if ( d->doms[i].domid == domid )
            return d->doms[i].name;
    return "";
}

/* Text without control characters (as '?'). */
static void put_text(FILE *out, const char *s)
{
    for ( ; *s; s++ )
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
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
    if ( m->tsc_khz && m->start_tsc && m->stop_tsc >= m->start_tsc )
        return (m->stop_tsc - m->start_tsc) / (m->tsc_khz * 1e3);
    return -1;
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

static void text_header(const struct rep *r)
{
    const struct xenprof_meta *m = &r->d->meta;
    double secs = xenprof_priv_rep_duration(m);
    size_t sampled;
    uint64_t nlost = xenprof_priv_rep_lost(r->d, &sampled);

    fprintf(r->out, "# Profile:  ");
    put_text(r->out, r->o->input);
    fprintf(r->out, "\n# Host:     ");
    put_text(r->out, m->hostname[0] ? m->hostname : "?");
    fprintf(r->out, ", Xen ");
    put_text(r->out, m->xen_version[0] ? m->xen_version : "?");
    fprintf(r->out, ", build-id ");
    put_text(r->out, m->build_id[0] ? m->build_id : "?");
    fprintf(r->out, "\n# Source:   %s", xenprof_priv_rep_source(m->source));
    if ( m->source_reason[0] )
    {
        fprintf(r->out, " (");
        put_text(r->out, m->source_reason);
        fprintf(r->out, ")");
    }
    if ( m->frequency )
        fprintf(r->out, ", %" PRIu32 " Hz\n", m->frequency);
    else
        fprintf(r->out, ", period %" PRIu64 " %s\n", m->period,
                m->source == XENPROF_SOURCE_PMU ? "events" : "ns");
    if ( secs >= 0 )
        fprintf(r->out, "# Duration: %.3f s", secs);
    else
        fprintf(r->out, "# Duration: unknown");
    fprintf(r->out, ", pCPUs sampled: %zu of %" PRIu32 "\n", sampled,
            m->nr_host_cpus);
    fprintf(r->out, "# Samples:  %" PRIu64 ", lost: %" PRIu64 "\n",
            r->sp.all, nlost);
}

/* A callee, indented under its function's row by its depth. */
static int text_callee(const struct xenprof_tree_node *n, bool leave,
                       void *arg)
{
    const struct rep *r = arg;

    if ( leave || !n->depth )
        return 0;
    fprintf(r->out, "%*s%6.2f%% %7" PRIu64 "  ", (int)(10 + 2 * n->depth),
            "", rep_pct(n->total, r->total), n->total);
    put_text(r->out, n->name);
    fputc('\n', r->out);
    return 0;
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

static int text_funcs(struct rep *r)
{
    const struct xenprof_func *f;
    size_t i;
    int rc;

    fprintf(r->out, "\n# Functions by %s: %zu of %zu.  Children: samples "
            "whose stack contains\n# the function, Self: samples where it "
            "is the leaf.\n", r->o->by_self ? "self" : "children",
            r->shown, r->nr_fn);
    if ( r->o->callgraph )
        fprintf(r->out, "# Under each function its callees (%% of all "
                "samples, below 0.%u%% left out).\n",
                XENPROF_CALLGRAPH_MIN_PERMILLE);
    fprintf(r->out, "#\n#%10s %10s %10s %10s  %s\n", "Children", "Self",
            "Children", "Self", "Function");
    for ( i = 0; i < r->shown; i++ )
    {
        f = &r->fn[i];
        fprintf(r->out, "%10.2f%% %9.2f%% %10" PRIu64 " %10" PRIu64 "  ",
                rep_pct(f->total, r->total), rep_pct(f->self, r->total),
                f->total, f->self);
        put_text(r->out, f->name);
        fputc('\n', r->out);
        if ( !r->o->callgraph )
            continue;
        rc = xenprof_priv_rep_callees(r, f, text_callee, r);
        if ( rc )
            return rc;
        fputc('\n', r->out);
    }
    return 0;
}

/* "  count  pct%" columns of a split row. */
static void text_cells(const struct rep *r, const uint64_t *v, size_t n)
{
    size_t i;

    for ( i = 0; i < n; i++ )
        fprintf(r->out, " %8" PRIu64 " %6.2f%%", v[i],
                rep_pct(v[i], r->total));
    fputc('\n', r->out);
}

/* "d<domid> <name>", without control characters. */
static void dom_label(const struct rep *r, uint32_t domid, char *buf,
                      size_t size)
{
    size_t i;

    snprintf(buf, size, "d%" PRIu32 " %s", domid,
             xenprof_priv_rep_dom_name(r->d, domid));
    for ( i = 0; buf[i]; i++ )
        if ( (unsigned char)buf[i] < 0x20 || buf[i] == 0x7f )
            buf[i] = '?';
}

static void text_domains(const struct rep *r)
{
    const struct dom_row *dr;
    uint64_t v[3], sum[3] = { 0 };
    char label[96];
    size_t i;

    fprintf(r->out, "\n# Samples by domain.  Xen: in Xen on behalf of the "
            "domain (idle: on an\n# idle vCPU), Guest: in the guest.\n#\n"
            "# %-17s%17s%17s%17s\n", "Domain", "Xen", "Guest", "Total");
    for ( i = 0; i < r->sp.nr_dom; i++ )
    {
        dr = &r->sp.dom[i];
        v[0] = dr->xen;
        v[1] = dr->kernel + dr->user;
        v[2] = v[0] + v[1];
        dom_label(r, dr->domid, label, sizeof(label));
        fprintf(r->out, "  %-17s", label);
        text_cells(r, v, 3);
        sum[0] += v[0], sum[1] += v[1], sum[2] += v[2];
    }
    v[0] = v[2] = r->sp.idle;
    v[1] = 0;
    fprintf(r->out, "  %-17s", "idle");
    text_cells(r, v, 3);
    sum[0] += v[0], sum[2] += v[2];
    fprintf(r->out, "  %-17s", "total");
    text_cells(r, sum, 3);
}

static void text_cpus(const struct rep *r)
{
    const struct cpu_row *cr;
    uint64_t v[4], sum[4] = { 0 };
    size_t i, k;

    fprintf(r->out, "\n# Samples by pCPU.  Xen: in Xen on a domain's vCPU,"
            " Idle: on an idle vCPU.\n#\n"
            "# pCPU%17s%17s%17s%17s\n", "Xen", "Idle", "Guest", "Total");
    for ( i = 0; i < r->sp.nr_cpu; i++ )
    {
        cr = &r->sp.cpu[i];
        v[0] = cr->xen;
        v[1] = cr->idle;
        v[2] = cr->guest;
        v[3] = v[0] + v[1] + v[2];
        if ( !v[3] )
            continue;
        fprintf(r->out, " %5zu", i);
        text_cells(r, v, 4);
        for ( k = 0; k < 4; k++ )
            sum[k] += v[k];
    }
    fprintf(r->out, " total");
    text_cells(r, sum, 4);
}

static int report_text(struct rep *r)
{
    int rc;

    if ( r->d )
        text_header(r);
    else
    {
        fprintf(r->out, "# Profile:  ");
        put_text(r->out, r->o->input);
        fprintf(r->out, " (folded stacks: no header, no splits)\n");
        if ( r->o->bad_lines )
            fprintf(r->out, "# Skipped:  %zu malformed lines\n",
                    r->o->bad_lines);
    }
    fprintf(r->out, "# Shown:    %" PRIu64 " samples", r->total);
    if ( r->o->filter_desc && r->o->filter_desc[0] )
    {
        fprintf(r->out, " (");
        put_text(r->out, r->o->filter_desc);
        fputc(')', r->out);
    }
    fputc('\n', r->out);
    rc = text_funcs(r);
    if ( !rc && r->d && (r->o->by & XENPROF_BY_DOMAIN) )
        text_domains(r);
    if ( !rc && r->d && (r->o->by & XENPROF_BY_CPU) )
        text_cpus(r);
    return rc;
}

int xenprof_priv_report(const struct xenprof_data *d,
                        const struct xenprof_filter *f,
                        const struct xenprof_stackset *s,
                        const struct xenprof_report_opts *o, FILE *out,
                        char *err, size_t errlen)
{
    struct rep r = { .d = d, .o = o, .out = out };
    int rc = xenprof_priv_tree_build(s, &r.t);

    rc = rc ?: xenprof_priv_tree_funcs(r.t, o->by_self, &r.fn, &r.nr_fn);
    if ( rc )
        xenprof_priv_err(err, errlen, rc, "report: out of memory");
    if ( !rc && d )
        rc = count_splits(&r.sp, d, f, err, errlen);
    if ( !rc )
    {
        r.total = xenprof_priv_tree_total(r.t);
        r.shown = o->top && o->top < r.nr_fn ? o->top : r.nr_fn;
        rc = o->json ? xenprof_priv_rep_json(&r) : report_text(&r);
        if ( rc )
            xenprof_priv_err(err, errlen, rc, "report: out of memory");
    }
    if ( !rc && (fflush(out) || ferror(out)) )
        rc = xenprof_priv_err(err, errlen, -EIO, "report: write error");
    free(r.sp.dom);
    free(r.sp.cpu);
    free(r.fn);
    xenprof_priv_tree_free(r.t);
    return rc;
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
