/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * report-text.c: the report as text (the report command's default
 * output), printed from the model of report-model.c: the
 * header, the Self/Children table, the callees, the domain and pCPU
 * splits.  Names are printed without control characters.
 */
#include <inttypes.h>
#include <stdio.h>

#include "report.h"

/* Text without control characters (as '?'). */
static void put_text(FILE *out, const char *s)
{
    xenprof_priv_put_text(out, s, false);
}

static void text_header(const struct rep *r)
{
    const struct xenprof_meta *m = &r->d->meta;

    fprintf(r->out, "# Profile:  ");
    put_text(r->out, r->o->input);
    fprintf(r->out, "\n# Host:     ");
    put_text(r->out, m->hostname[0] ? m->hostname : "?");
    fprintf(r->out, ", Xen ");
    put_text(r->out, m->xen_version[0] ? m->xen_version : "?");
    if ( m->arch[0] )
    {
        fprintf(r->out, " on ");
        put_text(r->out, m->arch);
    }
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
    if ( r->secs >= 0 )
        fprintf(r->out, "# Duration: %.3f s", r->secs);
    else
        fprintf(r->out, "# Duration: unknown");
    fprintf(r->out, ", pCPUs sampled: %zu of %" PRIu32 "\n",
            r->sampled, m->nr_host_cpus);
    fprintf(r->out, "# Samples:  %" PRIu64 ", lost: %" PRIu64 "\n",
            r->sp.all, r->nlost);
    /* As perf's THROTTLE records: only when there were some. */
    if ( r->nthrottled )
        fprintf(r->out, "# Throttled: %" PRIu64 " times (PMU overflows "
                "too fast: the period was raised)\n", r->nthrottled);
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
/* A function's row of the table (report-model.c's walk). */
static void text_row(struct rep *r, const struct xenprof_func *f,
                     size_t i xenprof_unused)
{
    fprintf(r->out, "%10.2f%% %9.2f%% %10" PRIu64 " %10" PRIu64 "  ",
            rep_pct(f->total, r->total), rep_pct(f->self, r->total),
            f->total, f->self);
    put_text(r->out, f->name);
    fputc('\n', r->out);
}

/* A blank line after a function's callees. */
static void text_row_end(struct rep *r)
{
    if ( r->o->callgraph )
        fputc('\n', r->out);
}

static int text_funcs(struct rep *r)
{
    static const struct rep_func_ops ops = {
        .row = text_row, .callee = text_callee, .row_end = text_row_end,
    };

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
    return xenprof_priv_rep_each_func(r, &ops);
}

/* "  count  pct%" columns of a split row, added to sum (if not NULL). */
static void text_cells(const struct rep *r, const uint64_t *v, size_t n,
                       uint64_t *sum)
{
    size_t i;

    for ( i = 0; i < n; i++ )
    {
        fprintf(r->out, " %8" PRIu64 " %6.2f%%", v[i],
                rep_pct(v[i], r->total));
        if ( sum )
            sum[i] += v[i];
    }
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
        text_cells(r, v, 3, sum);
    }
    v[0] = v[2] = r->sp.idle;
    v[1] = 0;
    fprintf(r->out, "  %-17s", "idle");
    text_cells(r, v, 3, sum);
    fprintf(r->out, "  %-17s", "total");
    text_cells(r, sum, 3, NULL);
}

static void text_cpus(const struct rep *r)
{
    const struct cpu_row *cr;
    uint64_t v[4], sum[4] = { 0 };
    size_t i;

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
        text_cells(r, v, 4, sum);
    }
    fprintf(r->out, " total");
    text_cells(r, sum, 4, NULL);
}

int xenprof_priv_rep_text(struct rep *r)
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

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
