/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-script.c: a perf-script-like dump of every sample, for grep and for
 * scripts.  Per sample:
 *
 *     12.345678 cpu 3 d0 Domain-0 vcpu 1 xen
 *     <tab>ffff82d040212345 do_softirq+0x45
 *     <tab>ffff82d0402a0010 idle_loop+0x70
 *     <empty line>
 *
 * The time is in seconds since the profile started (TSC based; the raw
 * TSC "tsc <value>" when the TSC frequency is unknown).  Samples a pCPU
 * lost (its ring was full) show where the stream says so:
 *
 *     12.345678 cpu 3 lost 12 samples
 *     <empty line>
 *  Flags follow the
 * mode (hvm, idle, truncated, bad-frame).  Frames are leaf first; a
 * return address (every frame but the first) is looked up at addr - 1,
 * as in the folded output, and the offset is from that function's start.
 * Guest samples show their one IP as "[guest kernel]" or "[guest user]".
 *
 * With a symbol source (--xen-syms) the names come from its table; with
 * addr2line's answers a frame ends with " (file:line)", the line of the
 * instruction (inside the innermost inlined function), and with
 * inline_frames the functions inlined at the address come first, each
 * as a frame "name [inlined] (file:line)" at the same address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize-elf.h"

struct dump {
    const struct xenprof_data *d;
    const struct xenprof_symtab *t;
    const struct xenprof_symsrc *src;   /* NULL: the embedded table */
    FILE *out;
};

static const char *dom_name(const struct xenprof_data *d, uint32_t domid)
{
    const struct xenprof_domain *dom = xenprof_priv_domain(d, domid);

    if ( domid == XENPROF_DOMID_IDLE )
        return "idle";
    return dom ? dom->name : "";
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

/* The time of s, and its pCPU. */
static void put_when(const struct dump *p, const struct xenprof_sample *s)
{
    const struct xenprof_meta *m = &p->d->meta;

    if ( m->tsc_khz )
        fprintf(p->out, "%.6f", (double)(int64_t)(s->tsc - m->start_tsc) /
                                ((double)m->tsc_khz * 1e3));
    else
        fprintf(p->out, "tsc %" PRIu64, s->tsc);
    fprintf(p->out, " cpu %" PRIu32, s->cpu);
}

/*
 * A LOST record, unless f selects a domain (the lost samples have none)
 * or leaves out its pCPU or time.
 */
static void lost_line(const struct dump *p, const struct xenprof_filter *f,
                      const struct xenprof_sample *s, uint64_t count)
{
    if ( f && (f->has_domid || !xenprof_filter_match(p->d, f, s)) )
        return;
    put_when(p, s);
    fprintf(p->out, " lost %" PRIu64 " samples\n\n", count);
}

static void sample_head(const struct dump *p, const struct xenprof_sample *s)
{
    const char *name = dom_name(p->d, s->domid);

    put_when(p, s);
    fprintf(p->out, " d%" PRIu32 "%s", s->domid,
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
    if ( s->flags & XENPROF_F_NO_STACK )
        fprintf(p->out, " no-stack");
    fputc('\n', p->out);
}

/* " (file:line)" of frame f, nothing when its file is unknown. */
static void put_loc(FILE *out, const struct xenprof_a2l_frame *f)
{
    if ( !f || !f->file )
        return;
    fprintf(out, " (");
    put_text(out, f->file);
    if ( f->line )
        fprintf(out, ":%lu", f->line);
    fputc(')', out);
}

/*
 * The functions inlined at look (innermost first) as frames of address
 * a; the location to show for the function that holds them.
 */
static const struct xenprof_a2l_frame *inlined(const struct dump *p,
                                               uint64_t a, uint64_t look)
{
    const struct xenprof_a2l_frame *f;
    size_t i, n;

    if ( !p->src || !p->src->a2l )
        return NULL;
    n = xenprof_priv_a2l_get(p->src->a2l, look, &f);
    if ( !n || !p->src->inline_frames )
        return n ? &f[0] : NULL;
    for ( i = 0; i + 1 < n; i++ )
    {
        if ( !f[i].func )
            continue;
        fprintf(p->out, "\t%016" PRIx64 " ", a);
        put_text(p->out, f[i].func);
        fputs(XENPROF_INLINED_SUFFIX, p->out);
        put_loc(p->out, &f[i]);
        fputc('\n', p->out);
    }
    return &f[n - 1];
}

static void sample_frames(const struct dump *p,
                          const struct xenprof_sample *s)
{
    const struct xenprof_a2l_frame *loc;
    const char *name;
    uint64_t a, look, start;
    unsigned int i;

    for ( i = 0; i < s->nr_frames; i++ )
    {
        a = xenprof_sample_ip(s, i);
        look = i && a ? a - 1 : a;
        name = s->mode == XENPROF_MODE_XEN ?
               xenprof_priv_symtab_find(p->t, look, &start) : NULL;
        loc = name ? inlined(p, a, look) : NULL;
        fprintf(p->out, "\t%016" PRIx64 " ", a);
        if ( s->mode != XENPROF_MODE_XEN )
        {
            fprintf(p->out, s->mode == XENPROF_MODE_GUEST_KERNEL ?
                    "[guest kernel]\n" : "[guest user]\n");
            continue;
        }
        if ( !name )
        {
            fprintf(p->out, "[unknown]\n");
            continue;
        }
        put_text(p->out, name);
        fprintf(p->out, "+0x%" PRIx64, a - start);
        put_loc(p->out, loc);
        fputc('\n', p->out);
    }
    fputc('\n', p->out);
}

/* Also -EINVAL when d or out is NULL; f NULL keeps every sample. */
int xenprof_write_script(const struct xenprof_data *d,
                         const struct xenprof_filter *f,
                         const struct xenprof_symsrc *src, FILE *out,
                         char *err, size_t errlen)
{
    struct dump p = { .d = d, .src = src, .out = out };
    struct xenprof_symtab *own = NULL;
    struct xenprof_sample s;
    uint64_t lost;
    size_t off = 0;
    int rc = 0;

    if ( !d || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_write_script: no data or output");
    p.t = src ? src->t : NULL;
    if ( !p.t )
        p.t = own = xenprof_symtab_new(d->syms, d->nr_syms);
    if ( !p.t )
        rc = xenprof_priv_err(err, errlen, -ENOMEM,
                              "script output: out of memory");
    while ( !rc && (rc = xenprof_priv_decode_any(d->records, d->records_len,
                                                 &off, &s, &lost, 0, err,
                                                 errlen)) > 0 )
    {
        if ( rc == 2 )
            lost_line(&p, f, &s, lost);
        rc = 0;
        if ( s.nr_frames && (!f || xenprof_filter_match(d, f, &s)) )
        {
            sample_head(&p, &s);
            sample_frames(&p, &s);
        }
        if ( ferror(out) )
            rc = -EIO;
    }
    if ( !rc && (fflush(out) || ferror(out)) )
        rc = -EIO;
    if ( rc == -EIO )
        xenprof_priv_err(err, errlen, rc, "script output: write error");
    xenprof_symtab_free(own);
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
