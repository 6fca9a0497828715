/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * script.c: a perf-script-like dump of every sample, for grep and for
 * scripts.  Per sample:
 *
 *     12.345678 cpu 3 d0 Domain-0 vcpu 1 xen
 *     <tab>ffff82d040212345 do_softirq+0x45
 *     <tab>ffff82d0402a0010 idle_loop+0x70
 *     <empty line>
 *
 * The time is in seconds since the profile started (TSC based; the raw
 * TSC "tsc <value>" when the TSC frequency is unknown).  Flags follow the
 * mode (hvm, idle, truncated, bad-frame).  Frames are leaf first; a
 * return address (every frame but the first) is looked up at addr - 1,
 * as in the folded output, and the offset is from that function's start.
 * Guest samples show their one IP as "[guest kernel]" or "[guest user]".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

struct dump {
    const struct xenprof_data *d;
    struct xenprof_symtab *t;
    uint64_t *addr;                     /* text symbols, sorted */
    size_t nr_addr;
    FILE *out;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* The sorted addresses of d's text symbols; 0 or -ENOMEM. */
static int text_addrs(struct dump *p)
{
    const struct xenprof_data *d = p->d;
    size_t i;

    p->addr = malloc((d->nr_syms ? d->nr_syms : 1) * sizeof(*p->addr));
    if ( !p->addr )
        return -ENOMEM;
    for ( i = 0; i < d->nr_syms; i++ )
        if ( d->syms[i].type && strchr("TtWw", d->syms[i].type) )
            p->addr[p->nr_addr++] = d->syms[i].addr;
    qsort(p->addr, p->nr_addr, sizeof(*p->addr), cmp_u64);
    return 0;
}

/* The highest text symbol address <= a (a itself when there is none). */
static uint64_t sym_start(const struct dump *p, uint64_t a)
{
    size_t lo = 0, hi = p->nr_addr, mid;

    while ( lo < hi )
    {
        mid = (lo + hi) / 2;
        if ( p->addr[mid] <= a )
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? p->addr[lo - 1] : a;
}

static const char *dom_name(const struct xenprof_data *d, uint32_t domid)
{
    size_t i;

    if ( domid == XENPROF_DOMID_IDLE )
        return "idle";
    for ( i = 0; i < d->nr_doms; i++ )
        if ( d->doms[i].domid == domid )
            return d->doms[i].name;
    return "";
}

static const char *mode_name(uint8_t mode)
{
    switch ( mode )
    {
    case XENPROF_MODE_XEN:
        return "xen";
    case XENPROF_MODE_GUEST_KERNEL:
        return "guest-kernel";
    case XENPROF_MODE_GUEST_USER:
        return "guest-user";
    default:
        return "guest-mode-?";
    }
}

/* Text without control characters (as '?'). */
static void put_text(FILE *out, const char *s)
{
    for ( ; *s; s++ )
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

static void sample_head(const struct dump *p, const struct xenprof_sample *s)
{
    const struct xenprof_meta *m = &p->d->meta;
    const char *name = dom_name(p->d, s->domid);

    if ( m->tsc_khz )
        fprintf(p->out, "%.6f", (double)(int64_t)(s->tsc - m->start_tsc) /
                                ((double)m->tsc_khz * 1e3));
    else
        fprintf(p->out, "tsc %" PRIu64, s->tsc);
    fprintf(p->out, " cpu %" PRIu32 " d%" PRIu32 "%s", s->cpu, s->domid,
            name[0] ? " " : "");
    put_text(p->out, name);
    fprintf(p->out, " vcpu %" PRIu32 " %s", s->vcpu, mode_name(s->mode));
    if ( s->mode > XENPROF_MODE_GUEST_USER )
        fprintf(p->out, "(%u)", s->mode);
    if ( s->flags & XENPROF_F_HVM )
        fprintf(p->out, " hvm");
    if ( s->flags & XENPROF_F_IDLE )
        fprintf(p->out, " idle");
    if ( s->flags & XENPROF_F_TRUNCATED )
        fprintf(p->out, " truncated");
    if ( s->flags & XENPROF_F_BAD_FRAME )
        fprintf(p->out, " bad-frame");
    fputc('\n', p->out);
}

static void sample_frames(const struct dump *p,
                          const struct xenprof_sample *s)
{
    const char *name;
    uint64_t a, look;
    unsigned int i;

    for ( i = 0; i < s->nr_frames; i++ )
    {
        a = xenprof_sample_ip(s, i);
        fprintf(p->out, "\t%016" PRIx64 " ", a);
        if ( s->mode != XENPROF_MODE_XEN )
        {
            fprintf(p->out, s->mode == XENPROF_MODE_GUEST_KERNEL ?
                    "[guest kernel]\n" : "[guest user]\n");
            continue;
        }
        look = i && a ? a - 1 : a;
        name = xenprof_symtab_lookup(p->t, look);
        if ( !name )
        {
            fprintf(p->out, "[unknown]\n");
            continue;
        }
        put_text(p->out, name);
        fprintf(p->out, "+0x%" PRIx64 "\n", a - sym_start(p, look));
    }
    fputc('\n', p->out);
}

/* Also -EINVAL when d or out is NULL; f NULL keeps every sample. */
int xenprof_write_script(const struct xenprof_data *d,
                         const struct xenprof_filter *f, FILE *out,
                         char *err, size_t errlen)
{
    struct dump p = { .d = d, .out = out };
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    if ( !d || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_write_script: no data or output");
    p.t = xenprof_symtab_new(d->syms, d->nr_syms);
    rc = p.t ? text_addrs(&p) : -ENOMEM;
    if ( rc )
        xenprof_priv_err(err, errlen, rc, "script output: out of memory");
    while ( !rc && (rc = xenprof_decode_next(d->records, d->records_len,
                                             &off, &s, err, errlen)) > 0 )
    {
        rc = 0;
        if ( f && !xenprof_filter_match(d, f, &s) )
            continue;
        sample_head(&p, &s);
        sample_frames(&p, &s);
        if ( ferror(out) )
            rc = -EIO;
    }
    if ( !rc && (fflush(out) || ferror(out)) )
        rc = -EIO;
    if ( rc == -EIO )
        xenprof_priv_err(err, errlen, rc, "script output: write error");
    free(p.addr);
    xenprof_symtab_free(p.t);
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
