/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-script.c: every sample as `perf script` prints a profile recorded
 * with call chains (perf record -g), so that what reads perf's text reads
 * ours: FlameGraph's stackcollapse-perf.pl, inferno-collapse-perf,
 * speedscope, the Firefox Profiler.  Per sample, a header line, one line
 * per frame (leaf first) and an empty line:
 *
 *     Domain-0 0/1 [003] 12.345678: 10309278 cpu-clock:
 *     <tab>ffff82d040212345 do_softirq+0x45 ([xen])
 *     <tab>ffff82d0402a0010 idle_loop+0x70 ([xen])
 *
 * The header is perf's: comm (the domain's name, ';' as '_'; "idle" for
 * the idle domain, "d<domid>" when it has no name), pid/tid (domid/vCPU),
 * [pCPU], the time in seconds since the profile started (from the
 * timestamps), the period (ns of CPU time for the timer source, events for
 * the PMU; none when unknown) and the event: cpu-clock for the timer, the
 * PMU's event name (cycles, instructions, ...) otherwise.
 *
 * A frame is "<addr> <name>+0x<offset> (<dso>)": the dso is [xen] for Xen
 * (the xen-syms path given with --xen-syms, if it has no blank), and the
 * name [unknown] with dso [unknown] for an address without a symbol, as
 * perf prints it.  A return address (every frame but the first) is looked
 * up at addr - 1, as in the folded output.  A guest sample's one IP is
 * "[guest kernel] ([guest.kernel])" or "[guest user] ([guest.user])".
 * What the folded output marks with a frame of its own is a frame here
 * too, at address 0 with dso [xen], after the real ones (outermost):
 * [truncated], [bad frame], and [pv entry] or [no stack] for a sample
 * taken off Xen's stacks.  Functions inlined at an address (--xen-syms
 * with --inline) are frames "<name> [inlined]" at that address, before
 * the function that holds them.
 *
 * With file:line information (--xen-syms of a Xen with debug
 * information), every frame line is followed by its source line, as
 * `perf script -F+srcline` prints it ("  file.c:123", "  ??:0" when
 * unknown), which stackcollapse-perf.pl --srcline reads.
 *
 * Samples a pCPU lost (its ring was full) are a comment where the stream
 * says so, which perf's readers skip:
 *
 *     # lost 12 samples on cpu 3 at 12.345678
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
    const char *dso;                    /* of Xen frames */
    const char *event;
    uint64_t period;                    /* 0: unknown */
    FILE *out;
};

/* perf's event names of XENPROF_EVENT_*. */
static const char *const pmu_events[] = {
    [XENPROF_EVENT_DEFAULT] = "cycles",
    [XENPROF_EVENT_CYCLES] = "cycles",
    [XENPROF_EVENT_INSTRUCTIONS] = "instructions",
    [XENPROF_EVENT_REF_CYCLES] = "ref-cycles",
    [XENPROF_EVENT_LLC_MISSES] = "LLC-load-misses",
    [XENPROF_EVENT_BRANCH_MISSES] = "branch-misses",
};

/* The event name and period of d's samples. */
static void set_event(struct dump *p)
{
    const struct xenprof_meta *m = &p->d->meta;
    size_t n = sizeof(pmu_events) / sizeof(pmu_events[0]);

    p->period = xenprof_priv_period(m);
    if ( m->source != XENPROF_SOURCE_PMU )
        p->event = "cpu-clock";
    else
        p->event = m->event < n ? pmu_events[m->event] : "raw";
}

/* Text without control characters (as '?'). */
static void put_text(FILE *out, const char *s)
{
    xenprof_priv_put_text(out, s, false);
}

/* "secs.usecs" of s since the start (ticks / 1e9 without a timestamp rate). */
static void put_time(const struct dump *p, const struct xenprof_sample *s)
{
    const struct xenprof_meta *m = &p->d->meta;
    uint64_t t = s->timestamp - m->start_timestamp, us;

    if ( (int64_t)t < 0 )
        t = 0;
    us = m->timestamp_khz
         ? (uint64_t)((double)t * 1e3 / (double)m->timestamp_khz)
         : t / 1000;
    fprintf(p->out, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
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
    fprintf(p->out, "# lost %" PRIu64 " samples on cpu %" PRIu32 " at ",
            count, s->cpu);
    put_time(p, s);
    fputs("\n\n", p->out);
}

static void sample_head(const struct dump *p, const struct xenprof_sample *s)
{
    const struct xenprof_domain *dom = xenprof_priv_domain(p->d, s->domid);

    if ( s->domid == XENPROF_DOMID_IDLE )
        fputs("idle", p->out);
    else if ( dom && dom->name[0] )
        /* Without ';', which would split stackcollapse-perf.pl's root. */
        xenprof_priv_put_text(p->out, dom->name, true);
    else
        fprintf(p->out, "d%" PRIu32, s->domid);
    fprintf(p->out, " %" PRIu32 "/%" PRIu32 " [%03" PRIu32 "] ",
            s->domid, s->vcpu, s->cpu);
    put_time(p, s);
    fputs(": ", p->out);
    if ( p->period )
        fprintf(p->out, "%" PRIu64 " ", p->period);
    fprintf(p->out, "%s:\n", p->event);
}

/* The source line of frame f, when the script has source lines. */
static void put_srcline(const struct dump *p,
                        const struct xenprof_a2l_frame *f)
{
    if ( !p->src || !p->src->a2l )
        return;
    fputs("  ", p->out);
    if ( f && f->file )
    {
        put_text(p->out, f->file);
        fprintf(p->out, ":%lu\n", f->line);
    }
    else
        fputs("??:0\n", p->out);
}

static void put_frame(const struct dump *p, uint64_t a, const char *name,
                      const char *suffix, const char *dso)
{
    fprintf(p->out, "\t%16" PRIx64 " ", a);
    put_text(p->out, name);
    fprintf(p->out, "%s (%s)\n", suffix, dso);
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
        put_frame(p, a, f[i].func, XENPROF_INLINED_SUFFIX, p->dso);
        put_srcline(p, &f[i]);
    }
    return &f[n - 1];
}

static void xen_frame(const struct dump *p, uint64_t a, unsigned int i)
{
    const struct xenprof_a2l_frame *loc;
    uint64_t look = i && a ? a - 1 : a, start;
    const char *name = xenprof_priv_symtab_find(p->t, look, &start);
    char off[24];

    if ( !name )
    {
        put_frame(p, a, "[unknown]", "", "[unknown]");
        put_srcline(p, NULL);
        return;
    }
    loc = inlined(p, a, look);
    snprintf(off, sizeof(off), "+0x%" PRIx64, a - start);
    put_frame(p, a, name, off, p->dso);
    put_srcline(p, loc);
}

/* The frames the folded output adds for s's flags, outermost last. */
static void marker_frames(const struct dump *p,
                          const struct xenprof_sample *s)
{
    static const struct {
        unsigned int flag;
        const char *name;
    } marks[] = {
        { XENPROF_F_BAD_FRAME, "[bad frame]" },
        { XENPROF_F_TRUNCATED, "[truncated]" },
        { XENPROF_F_NO_STACK, NULL },
    };
    const char *name;
    size_t i;

    for ( i = 0; i < sizeof(marks) / sizeof(marks[0]); i++ )
    {
        if ( !(s->flags & marks[i].flag) )
            continue;
        name = marks[i].name;
        if ( !name )
            name = s->flags & (XENPROF_F_HVM | XENPROF_F_IDLE) ?
                   "[no stack]" : "[pv entry]";
        put_frame(p, 0, name, "", p->dso);
        put_srcline(p, NULL);
    }
}

static void sample_frames(const struct dump *p,
                          const struct xenprof_sample *s)
{
    char name[32];
    unsigned int i;

    if ( s->mode == XENPROF_MODE_GUEST_KERNEL )
        put_frame(p, xenprof_sample_ip(s, 0), "[guest kernel]", "",
                  "[guest.kernel]");
    else if ( s->mode == XENPROF_MODE_GUEST_USER )
        put_frame(p, xenprof_sample_ip(s, 0), "[guest user]", "",
                  "[guest.user]");
    else if ( s->mode != XENPROF_MODE_XEN )
    {
        snprintf(name, sizeof(name), "[guest mode %u]", s->mode);
        put_frame(p, xenprof_sample_ip(s, 0), name, "", "[guest]");
    }
    if ( s->mode != XENPROF_MODE_XEN )
    {
        put_srcline(p, NULL);
        fputc('\n', p->out);
        return;
    }
    for ( i = 0; i < s->nr_frames; i++ )
        xen_frame(p, xenprof_sample_ip(s, i), i);
    marker_frames(p, s);
    fputc('\n', p->out);
}

/* Also -EINVAL when d or out is NULL; f NULL keeps every sample. */
int xenprof_write_script(const struct xenprof_data *d,
                         const struct xenprof_filter *f,
                         const struct xenprof_symsrc *src, FILE *out,
                         char *err, size_t errlen)
{
    struct dump p = { .d = d, .src = src, .out = out, .dso = "[xen]" };
    struct xenprof_symtab *own = NULL;
    struct xenprof_sample s;
    uint64_t lost;
    size_t off = 0;
    int rc = 0;

    if ( !d || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_write_script: no data or output");
    set_event(&p);
    if ( src && src->path && src->path[0] && !strpbrk(src->path, " \t\n()") )
        p.dso = src->path;
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
