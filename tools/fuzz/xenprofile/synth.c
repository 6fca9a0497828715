/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * synth.c: synthetic hypervisor profiles (see synth.h).
 *
 * Symbols: text functions laid out one after another from Xen's text base
 * (sizes 32 B to 2 KiB), 40% of them static ("path/file.c#name", as the
 * embedded table names them), a few with gcc suffixes; then data objects.
 * They are handed to the profile in a shuffled order.
 *
 * Stacks: each template is a root (an entry point such as idle_loop or
 * vmx_vmexit_handler) followed by callers-to-callees; most templates copy
 * a prefix of an earlier one and extend it, mostly through each
 * function's own few callees, so that templates share call paths as a
 * real profile does.  Depths are skewed to the short end (min + (max -
 * min) * u^3: mean about 14 for 5..40).  A return address is a fixed call
 * site per (caller, callee), the interrupted IP one of four per template.
 * Samples pick templates with a skewed popularity (N * u^2), and a few are
 * guest samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

#define TEXT_BASE   0xffff82d040200000ULL
#define NR_CALLEES  6
#define NR_CPUS     8
#define CHUNK       65536

struct rng {
    uint64_t s;
};

/* xorshift64*: small, fast and the same everywhere. */
static uint64_t rnd(struct rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dULL;
}

static size_t below(struct rng *r, size_t n)
{
    return n ? rnd(r) % n : 0;
}

/* Uniform in [0, 1). */
static double unit(struct rng *r)
{
    return (rnd(r) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    struct rng r = { (a * 0x9e3779b97f4a7c15ULL) ^
                     (b + 0x632be59bd9b4e019ULL) };

    return rnd(&r) ^ rnd(&r);
}

static const char *const files[] = {
    "common/sched/core.c", "common/sched/credit2.c", "common/event_channel.c",
    "common/grant_table.c", "common/memory.c", "common/page_alloc.c",
    "common/domain.c", "common/softirq.c", "common/timer.c",
    "common/rcupdate.c", "common/spinlock.c", "common/vmap.c",
    "common/xmalloc_tlsf.c", "arch/x86/traps.c", "arch/x86/mm.c",
    "arch/x86/mm/p2m.c", "arch/x86/mm/p2m-ept.c", "arch/x86/mm/hap/hap.c",
    "arch/x86/mm/shadow/common.c", "arch/x86/hvm/hvm.c",
    "arch/x86/hvm/emulate.c", "arch/x86/hvm/io.c", "arch/x86/hvm/vlapic.c",
    "arch/x86/hvm/vmx/vmx.c", "arch/x86/hvm/vmx/vmcs.c",
    "arch/x86/hvm/svm/svm.c", "arch/x86/pv/emul-priv-op.c",
    "arch/x86/pv/hypercall.c", "arch/x86/irq.c", "arch/x86/apic.c",
    "arch/x86/time.c", "arch/x86/smp.c", "arch/x86/domain.c",
    "arch/x86/x86_emulate/x86_emulate.c", "drivers/passthrough/iommu.c",
    "drivers/passthrough/vtd/iommu.c", "drivers/passthrough/amd/iommu_map.c",
    "drivers/char/console.c", "drivers/vpci/vpci.c", "xsm/flask/avc.c",
};
static const char *const verbs[] = {
    "do", "handle", "get", "put", "set", "update", "check", "alloc", "free",
    "map", "unmap", "flush", "send", "init", "read", "write", "sync",
    "queue", "wake", "try",
};
static const char *const nouns[] = {
    "page", "vcpu", "domain", "evtchn", "irq", "timer", "p2m", "ept",
    "iommu", "sched", "hypercall", "grant", "mmio", "msr", "cpuid", "lapic",
    "softirq", "tasklet", "rcu", "lock", "entry", "table", "port", "frame",
    "cr3", "tlb", "pte", "vmcs", "intr", "event",
};
static const char *const suffixes[] = {
    ".constprop.0", ".isra.0", ".part.0", ".cold",
};
/* The first text functions: the roots of the stacks. */
static const char *const roots[] = {
    "idle_loop", "handle_exception_saved", "do_softirq", "pv_hypercall",
    "vmx_vmexit_handler", "svm_vmexit_handler", "do_IRQ", "do_page_fault",
    "do_general_protection", "hvm_do_resume", "context_switch",
    "__do_softirq",
};
#define NR(a) (sizeof(a) / sizeof((a)[0]))
#define NR_ROOTS NR(roots)

/* Text function i (address order): address and size. */
struct fn {
    uint64_t addr;
    uint32_t size;
};

/* The generator's state. */
struct gen {
    const struct synth_opts *o;
    struct rng r;
    struct fn *fn;
    size_t nr_fn;
    uint32_t *frames;               /* templates' frames, root first */
    size_t *start;                  /* template t: frames[start[t]..] */
    uint8_t *depth, *flags;
    uint8_t *buf;                   /* records waiting to be added */
    size_t len;
};

/* The name of text function i (unique) into buf. */
static void text_name(struct gen *g, size_t i, char *buf, size_t len)
{
    size_t nv = NR(verbs), nn = NR(nouns);
    size_t k = (i * 7919 + 11) % (nv * nn * nn);
    size_t v = k % nv, n1 = k / nv % nn, n2 = k / (nv * nn);
    const char *suf = below(&g->r, 20) ? "" : suffixes[below(&g->r, 4)];

    if ( i < NR_ROOTS )
        snprintf(buf, len, "%s", roots[i]);
    else if ( n1 == n2 )
        snprintf(buf, len, "%s_%s%s", verbs[v], nouns[n1], suf);
    else
        snprintf(buf, len, "%s_%s_%s%s", verbs[v], nouns[n1], nouns[n2],
                 suf);
}

/* Add the symbols (shuffled); 0 or -ENOMEM. */
static int add_symbols(struct gen *g, struct xenprof_data *d)
{
    size_t n = g->o->nr_syms, nr_text = n - n / 5, i, j, tmp, *order;
    char name[128], full[192], type;
    uint64_t addr = TEXT_BASE;
    int rc = 0;

    g->fn = calloc(nr_text, sizeof(*g->fn));
    order = calloc(n, sizeof(*order));
    if ( !g->fn || !order )
    {
        free(order);
        return -ENOMEM;
    }
    g->nr_fn = nr_text;
    for ( i = 0; i < n; i++ )
        order[i] = i;
    for ( i = n; i > 1; i-- )
    {
        j = below(&g->r, i);
        tmp = order[j];
        order[j] = order[i - 1];
        order[i - 1] = tmp;
    }
    for ( i = 0; i < nr_text; i++ )
    {
        g->fn[i].addr = addr;
        g->fn[i].size = 32 + (below(&g->r, 2016) & ~15u);
        addr += g->fn[i].size;
    }
    addr = (addr + 0xfffff) & ~0xfffffULL;
    for ( i = 0; i < n && !rc; i++ )
    {
        j = order[i];
        if ( j < nr_text )
        {
            text_name(g, j, name, sizeof(name));
            type = j >= NR_ROOTS && below(&g->r, 10) < 4 ? 't' : 'T';
            snprintf(full, sizeof(full), "%s%s%s",
                     type == 't' ? files[j % NR(files)] : "",
                     type == 't' ? "#" : "", name);
            rc = xenprof_data_add_symbol(d, g->fn[j].addr, type, full);
        }
        else
        {
            snprintf(full, sizeof(full), "%s_%s_%zu",
                     nouns[j % NR(nouns)], nouns[j / 7 % NR(nouns)], j);
            rc = xenprof_data_add_symbol(d, addr + 64 * (j - nr_text),
                                         "DdbBrR"[j % 6], full);
        }
    }
    free(order);
    return rc;
}

/* Store v at p, little-endian, byte by byte. */
void synth_put_le(uint8_t *p, unsigned int bytes, uint64_t v)
{
    unsigned int i;

    for ( i = 0; i < bytes; i++ )
        p[i] = v >> (8 * i);
}

/* Callee k of text function f: one of its few, fixed callees. */
static uint32_t callee(const struct gen *g, uint32_t f, unsigned int k)
{
    return NR_ROOTS + mix(f, k) % (g->nr_fn - NR_ROOTS);
}

/* Make the stack templates; 0 or -ENOMEM. */
static int make_templates(struct gen *g)
{
    const struct synth_opts *o = g->o;
    size_t n = o->nr_stacks, t, p, len, keep, cap = n * 16;
    unsigned int span = o->max_depth - o->min_depth, depth;
    double u;
    uint32_t *f;

    g->frames = malloc(cap * sizeof(*g->frames));
    g->start = malloc(n * sizeof(*g->start));
    g->depth = malloc(n);
    g->flags = calloc(n, 1);
    if ( !g->frames || !g->start || !g->depth || !g->flags )
        return -ENOMEM;
    for ( t = 0, len = 0; t < n; t++ )
    {
        u = unit(&g->r);
        depth = o->min_depth + (unsigned int)(span * u * u * u + 0.5);
        if ( len + depth > cap )
        {
            cap *= 2;
            f = realloc(g->frames, cap * sizeof(*f));
            if ( !f )
                return -ENOMEM;
            g->frames = f;
        }
        f = g->frames + len;
        keep = 0;
        if ( t >= NR_ROOTS && below(&g->r, 10) )
        {
            p = t - 1 - below(&g->r, t < 2000 ? t : 2000);
            keep = 1 + below(&g->r, (g->depth[p] < depth ? g->depth[p]
                                                          : depth) - 1);
            memcpy(f, g->frames + g->start[p], keep * sizeof(*f));
        }
        else
            f[keep++] = below(&g->r, NR_ROOTS);
        for ( ; keep < depth; keep++ )
            f[keep] = below(&g->r, 5) ? callee(g, f[keep - 1],
                                               below(&g->r, NR_CALLEES))
                                      : NR_ROOTS + below(&g->r,
                                                 g->nr_fn - NR_ROOTS);
        if ( depth == o->max_depth && below(&g->r, 2) )
            g->flags[t] = XENPROF_F_TRUNCATED;
        else if ( !below(&g->r, 200) )
            g->flags[t] = XENPROF_F_BAD_FRAME;
        g->start[t] = len;
        g->depth[t] = depth;
        len += depth;
    }
    return 0;
}

/* Queue a record; full chunks go to the profile.  0 or -ENOMEM. */
static int put_record(struct gen *g, struct xenprof_data *d,
                      const uint8_t *rec, size_t size)
{
    if ( g->len + size > CHUNK )
    {
        if ( xenprof_data_add_records(d, g->buf, g->len) )
            return -ENOMEM;
        g->len = 0;
    }
    memcpy(g->buf + g->len, rec, size);
    g->len += size;
    return 0;
}

/* The record of a sample of template t at time timestamp, into rec. */
static size_t xen_record(struct gen *g, size_t t, uint64_t timestamp,
                         uint8_t *rec)
{
    const uint32_t *f = g->frames + g->start[t];
    unsigned int n = g->depth[t], i;
    const struct fn *fn;
    uint64_t ip;
    size_t size = XENPROF_REC_HDR_SIZE + 8 * n;

    memset(rec, 0, XENPROF_REC_HDR_SIZE);
    synth_put_le(rec + XENPROF_REC_OFF_SIZE, 2, size);
    rec[XENPROF_REC_OFF_TYPE] = XENPROF_REC_SAMPLE;
    rec[XENPROF_REC_OFF_FLAGS] = g->flags[t];
    if ( f[0] == 0 )
    {
        rec[XENPROF_REC_OFF_FLAGS] |= XENPROF_F_IDLE;
        synth_put_le(rec + XENPROF_REC_OFF_DOMID, 2, XENPROF_DOMID_IDLE);
    }
    else
        synth_put_le(rec + XENPROF_REC_OFF_DOMID, 2, below(&g->r, 5));
    synth_put_le(rec + XENPROF_REC_OFF_CPU, 2, below(&g->r, NR_CPUS));
    rec[XENPROF_REC_OFF_NR_FRAMES] = n;
    synth_put_le(rec + XENPROF_REC_OFF_TIMESTAMP, 8, timestamp);
    for ( i = 0; i < n; i++ )
    {
        /* Frame i is f[n - 1 - i]: innermost first. */
        fn = &g->fn[f[n - 1 - i]];
        if ( i == 0 )
            ip = fn->addr + mix(t, below(&g->r, 4)) % fn->size;
        else
            ip = fn->addr + 1 + mix(f[n - 1 - i], f[n - i]) %
                 (fn->size - 1);
        synth_put_le(rec + XENPROF_REC_HDR_SIZE + 8 * i, 8, ip);
    }
    return size;
}

/* A guest sample at time timestamp, into rec. */
static size_t guest_record(struct gen *g, uint64_t timestamp, uint8_t *rec)
{
    memset(rec, 0, XENPROF_REC_HDR_SIZE);
    synth_put_le(rec + XENPROF_REC_OFF_SIZE, 2, XENPROF_REC_HDR_SIZE + 8);
    rec[XENPROF_REC_OFF_TYPE] = XENPROF_REC_SAMPLE;
    synth_put_le(rec + XENPROF_REC_OFF_DOMID, 2, 1 + below(&g->r, 4));
    synth_put_le(rec + XENPROF_REC_OFF_VCPU, 2, below(&g->r, 4));
    synth_put_le(rec + XENPROF_REC_OFF_CPU, 2, below(&g->r, NR_CPUS));
    rec[XENPROF_REC_OFF_MODE] = below(&g->r, 10) < 7 ?
        XENPROF_MODE_GUEST_KERNEL : XENPROF_MODE_GUEST_USER;
    rec[XENPROF_REC_OFF_NR_FRAMES] = 1;
    synth_put_le(rec + XENPROF_REC_OFF_TIMESTAMP, 8, timestamp);
    synth_put_le(rec + XENPROF_REC_HDR_SIZE, 8,
           0xffffffff81000000ULL + below(&g->r, 1 << 24));
    return XENPROF_REC_HDR_SIZE + 8;
}

/* The metadata, domains and pCPUs of the profile; 0 or -ENOMEM. */
static int add_meta(struct xenprof_data *d, uint64_t timestamp,
                    const uint64_t taken[NR_CPUS])
{
    static const char *const names[] = { "Domain-0", "web", "db", "",
                                         "batch" };
    struct xenprof_meta *m = &d->meta;
    struct xenprof_cpu c = { .flags = XENPROF_CPU_SAMPLED |
                                      XENPROF_CPU_RING };
    unsigned int i;
    int rc = 0;

    for ( i = 0; i < NR(names) && !rc; i++ )
        rc = xenprof_data_add_domain(d, i, names[i], NULL);
    for ( i = 0; i < NR_CPUS && !rc; i++ )
    {
        c.cpu = i;
        c.taken = c.read = taken[i];
        c.cost_min = 900;
        c.cost_avg = 1400;
        c.cost_max = 9000;
        rc = xenprof_data_add_cpu(d, &c);
    }
    strcpy(m->xen_version, "4.22.0");
    strcpy(m->hostname, "synthetic");
    strcpy(m->source_reason, "synthetic profile");
    m->timestamp_khz = 2000000;
    m->nr_host_cpus = NR_CPUS;
    m->source = XENPROF_SOURCE_TIMER;
    m->frequency = 97;
    m->max_depth = 40;
    m->period = 1000000000u / 97;
    m->start_time_ns = 1700000000000000000ULL;
    m->stop_time_ns = m->start_time_ns + timestamp / 2;
    m->stop_timestamp = timestamp;
    return rc;
}

/* Draw the samples into d; 0 or -ENOMEM. */
static int add_samples(struct gen *g, struct xenprof_data *d)
{
    uint8_t rec[XENPROF_REC_HDR_SIZE + 8 * XENPROF_MAX_FRAMES];
    uint64_t timestamp = 0, taken[NR_CPUS] = { 0 };
    size_t i, t, size;
    double u;

    for ( i = 0; i < g->o->nr_samples; i++ )
    {
        timestamp += 1000 + below(&g->r, 1000);
        u = unit(&g->r);
        t = (size_t)(g->o->nr_stacks * u * u);
        if ( below(&g->r, 1000) < g->o->guest_permille )
            size = guest_record(g, timestamp, rec);
        else
            size = xen_record(g, t, timestamp, rec);
        taken[rec[XENPROF_REC_OFF_CPU]]++;
        if ( put_record(g, d, rec, size) )
            return -ENOMEM;
    }
    if ( g->len && xenprof_data_add_records(d, g->buf, g->len) )
        return -ENOMEM;
    return add_meta(d, timestamp, taken);
}

struct xenprof_data *synth_profile(const struct synth_opts *o)
{
    struct gen g = { .o = o, .r = { o->seed * 2 + 1 } };
    struct xenprof_data *d = xenprof_data_new();
    int rc = d ? 0 : -ENOMEM;

    if ( o->nr_syms < 5 * NR_ROOTS || !o->nr_stacks ||
         o->min_depth < 2 || o->max_depth < o->min_depth ||
         o->max_depth > XENPROF_MAX_FRAMES )
    {
        fprintf(stderr, "synth: bad sizes\n");
        xenprof_data_free(d);
        return NULL;
    }
    g.buf = malloc(CHUNK);
    rc = rc ?: g.buf ? 0 : -ENOMEM;
    rc = rc ?: add_symbols(&g, d);
    rc = rc ?: make_templates(&g);
    rc = rc ?: add_samples(&g, d);
    free(g.fn);
    free(g.frames);
    free(g.start);
    free(g.depth);
    free(g.flags);
    free(g.buf);
    if ( rc )
    {
        fprintf(stderr, "synth: out of memory\n");
        xenprof_data_free(d);
        return NULL;
    }
    return d;
}
