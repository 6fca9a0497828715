/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * report-json.c: the report as one JSON object (--json): the same content
 * as the text report.  Strings are escaped and made valid UTF-8 (an
 * invalid byte becomes U+FFFD), numbers are printed in the C locale, and
 * the callees of --callgraph nest as "callees" arrays.
 */
#include <inttypes.h>
#include <string.h>

#include "report.h"

/* Bytes of the valid UTF-8 sequence at s (1-4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n, i;
    uint32_t c;

    if ( s[0] < 0x80 )
        return 1;
    if ( s[0] >= 0xc2 && s[0] <= 0xdf )
        n = 2, c = s[0] & 0x1f;
    else if ( s[0] >= 0xe0 && s[0] <= 0xef )
        n = 3, c = s[0] & 0x0f;
    else if ( s[0] >= 0xf0 && s[0] <= 0xf4 )
        n = 4, c = s[0] & 0x07;
    else
        return 0;
    for ( i = 1; i < n; i++ )
    {
        if ( (s[i] & 0xc0) != 0x80 )
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if ( (n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
         (n == 4 && (c < 0x10000 || c > 0x10ffff)) )
        return 0;
    return n;
}

static void json_string(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n;

    fputc('"', out);
    while ( *s )
    {
        n = utf8_len(s);
        if ( *s == '"' || *s == '\\' )
            fprintf(out, "\\%c", *s);
        else if ( *s < 0x20 )
            fprintf(out, "\\u%04x", *s);
        else if ( !n )
            fputs("\\ufffd", out);
        else
            fwrite(s, 1, n, out);
        s += n ? n : 1;
    }
    fputc('"', out);
}

static void json_key_str(FILE *out, const char *key, const char *val,
                         bool last)
{
    fprintf(out, "    \"%s\": ", key);
    json_string(out, val);
    fprintf(out, last ? "\n" : ",\n");
}

static void json_header(const struct rep *r)
{
    const struct xenprof_meta *m = &r->d->meta;

    fprintf(r->out, "  \"header\": {\n");
    if ( r->secs >= 0 )
        fprintf(r->out, "    \"duration_s\": %.6f,\n", r->secs);
    else
        fprintf(r->out, "    \"duration_s\": null,\n");
    fprintf(r->out, "    \"samples\": %" PRIu64 ",\n    \"lost\": %" PRIu64
            ",\n    \"throttled\": %" PRIu64 ",\n", r->sp.all, r->nlost,
            r->nthrottled);
    json_key_str(r->out, "source", xenprof_priv_rep_source(m->source), false);
    json_key_str(r->out, "source_reason", m->source_reason, false);
    fprintf(r->out, "    \"frequency_hz\": %" PRIu32 ",\n    \"period\": %"
            PRIu64 ",\n    \"period_unit\": \"%s\",\n", m->frequency,
            m->period, m->source == XENPROF_SOURCE_PMU ? "events" : "ns");
    fprintf(r->out, "    \"pcpus_sampled\": %zu,\n    \"pcpus_host\": %"
            PRIu32 ",\n", r->sampled, m->nr_host_cpus);
    json_key_str(r->out, "xen_version", m->xen_version, false);
    json_key_str(r->out, "build_id", m->build_id, false);
    json_key_str(r->out, "hostname", m->hostname, true);
    fprintf(r->out, "  },\n");
}

/* A callee as a JSON object; its callees nested in it. */
static int json_callee(const struct xenprof_tree_node *n, bool leave,
                       void *arg)
{
    struct rep *r = arg;

    if ( !n->depth )
        return 0;
    if ( leave )
    {
        fprintf(r->out, "]}");
        r->first = false;
        return 0;
    }
    fprintf(r->out, "%s{\"name\": ", r->first ? "" : ", ");
    json_string(r->out, n->name);
    fprintf(r->out, ", \"count\": %" PRIu64 ", \"pct\": %.2f, \"callees\": [",
            n->total, rep_pct(n->total, r->total));
    r->first = true;
    return 0;
}

/* A function's object, up to its callees (report-model.c's walk). */
static void json_row(struct rep *r, const struct xenprof_func *f, size_t i)
{
    fprintf(r->out, "%s\n    {\"name\": ", i ? "," : "");
    json_string(r->out, f->name);
    fprintf(r->out, ", \"children\": %" PRIu64 ", \"self\": %" PRIu64
            ", \"children_pct\": %.2f, \"self_pct\": %.2f", f->total,
            f->self, rep_pct(f->total, r->total),
            rep_pct(f->self, r->total));
    if ( r->o->callgraph )
    {
        fprintf(r->out, ", \"callees\": [");
        r->first = true;
    }
}

static void json_row_end(struct rep *r)
{
    fprintf(r->out, "%s}", r->o->callgraph ? "]" : "");
}

static int json_funcs(struct rep *r)
{
    static const struct rep_func_ops ops = {
        .row = json_row, .callee = json_callee, .row_end = json_row_end,
    };
    int rc;

    fprintf(r->out, "  \"sort\": \"%s\",\n  \"functions_total\": %zu,\n"
            "  \"functions\": [", r->o->by_self ? "self" : "total",
            r->nr_fn);
    rc = xenprof_priv_rep_each_func(r, &ops);
    if ( rc )
        return rc;
    fprintf(r->out, "%s]", r->shown ? "\n  " : "");
    return 0;
}

static void json_domains(const struct rep *r)
{
    const struct dom_row *dr;
    size_t i;

    fprintf(r->out, ",\n  \"by_domain\": [");
    for ( i = 0; i < r->sp.nr_dom; i++ )
    {
        dr = &r->sp.dom[i];
        fprintf(r->out, "\n    {\"domid\": %" PRIu32 ", \"name\": ",
                dr->domid);
        json_string(r->out, xenprof_priv_rep_dom_name(r->d, dr->domid));
        fprintf(r->out, ", \"xen\": %" PRIu64 ", \"guest\": %" PRIu64
                ", \"guest_kernel\": %" PRIu64 ", \"guest_user\": %" PRIu64
                ", \"total\": %" PRIu64 "},", dr->xen,
                dr->kernel + dr->user, dr->kernel, dr->user,
                dr->xen + dr->kernel + dr->user);
    }
    fprintf(r->out, "\n    {\"domid\": %u, \"name\": \"idle\", \"xen\": %"
            PRIu64 ", \"guest\": 0, \"guest_kernel\": 0, \"guest_user\": 0,"
            " \"total\": %" PRIu64 "}\n  ]", XENPROF_DOMID_IDLE,
            r->sp.idle, r->sp.idle);
}

static void json_cpus(const struct rep *r)
{
    const struct cpu_row *cr;
    bool first = true;
    size_t i;

    fprintf(r->out, ",\n  \"by_cpu\": [");
    for ( i = 0; i < r->sp.nr_cpu; i++ )
    {
        cr = &r->sp.cpu[i];
        if ( !cr->xen && !cr->idle && !cr->guest )
            continue;
        fprintf(r->out, "%s\n    {\"cpu\": %zu, \"xen\": %" PRIu64
                ", \"idle\": %" PRIu64 ", \"guest\": %" PRIu64
                ", \"total\": %" PRIu64 "}", first ? "" : ",", i, cr->xen,
                cr->idle, cr->guest, cr->xen + cr->idle + cr->guest);
        first = false;
    }
    fprintf(r->out, "%s]", first ? "" : "\n  ");
}

int xenprof_priv_rep_json(struct rep *r)
{
    int rc;

    fprintf(r->out, "{\n  \"input\": ");
    json_string(r->out, r->o->input);
    fprintf(r->out, ",\n  \"format\": \"%s\",\n", r->d ? "data" : "folded");
    if ( r->d )
        json_header(r);
    else
        fprintf(r->out, "  \"malformed_lines\": %zu,\n", r->o->bad_lines);
    fprintf(r->out, "  \"filter\": ");
    json_string(r->out, r->o->filter_desc ?: "");
    fprintf(r->out, ",\n  \"samples\": %" PRIu64 ",\n", r->total);
    rc = json_funcs(r);
    if ( !rc && r->d && (r->o->by & XENPROF_BY_DOMAIN) )
        json_domains(r);
    if ( !rc && r->d && (r->o->by & XENPROF_BY_CPU) )
        json_cpus(r);
    if ( !rc )
        fprintf(r->out, "\n}\n");
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
