/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz-sysctl: throw random XEN_SYSCTL_profile_op calls at the running
 * hypervisor, raw, through libxencall (no libxc checks in between), in
 * every state of the profiler, and check that Xen answers each one with
 * an errno that sysctl.h documents for that sub-op.  Then run start,
 * read, stop, read, release cycles with samples in the rings, and compare
 * Xen's free pages before and after.  Run in dom0 as root; prints TAP.
 *
 *   fuzz-sysctl [CALLS [CYCLES [SEED]]]     (defaults 100000 1000 1)
 *
 * Guest handles are chosen among: a valid buffer (a hypercall buffer,
 * large enough for anything Xen may write through it), null, an address
 * past the end of our mappings (unmapped), a buffer that runs into an
 * unmapped page (short and overrunning), a non-canonical address, and
 * an address in Xen's own range.  Never an address in dom0's kernel: Xen
 * would write there on our behalf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xencall.h>
#include <xen/xen.h>
#include <xen/sysctl.h>

#define BUF_SIZE        (2u << 20)      /* > any read or symbols answer */
#define NR_CMDS         9               /* 0..8: 1..7 exist */
#define NR_ERRNOS       256

static xencall_handle *xc;
static struct xen_sysctl *sc;
static uint8_t *buf;                    /* hypercall buffer, BUF_SIZE */
static uint8_t *edge;                   /* a page followed by a hole */
static unsigned int nr_cpus;
static uint32_t most_read;              /* the largest read's bytes */

/* calls[cmd][errno]; errno 0 is success. */
static unsigned long calls[NR_CMDS][NR_ERRNOS];
static unsigned long undocumented;

static uint64_t rng = 1;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static uint64_t below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

static const char *const cmd_names[NR_CMDS] = {
    "0 (none)", "start", "stop", "status", "read", "release", "limits",
    "symbols", "8 (none)",
};

/*
 * The errnos sysctl.h documents for each sub-op of XEN_SYSCTL_profile_op
 * (0: success).
 */
static const int documented[NR_CMDS][12] = {
    [0] = { EINVAL, EOPNOTSUPP, -1 },
    [XEN_SYSCTL_PROFILE_start] = { 0, EINVAL, EBUSY, ENODEV, E2BIG, ENOMEM,
                                   EIO, EFAULT, -1 },
    [XEN_SYSCTL_PROFILE_stop] = { 0, EINVAL, ENODATA, EBUSY, -1 },
    [XEN_SYSCTL_PROFILE_status] = { 0, EINVAL, EFAULT, -1 },
    [XEN_SYSCTL_PROFILE_read] = { 0, EINVAL, ENODATA, EBUSY, ENOBUFS, EFAULT,
                                  -1 },
    [XEN_SYSCTL_PROFILE_release] = { 0, EINVAL, ENODATA, EBUSY, -1 },
    [XEN_SYSCTL_PROFILE_limits] = { 0, EINVAL, -1 },
    [XEN_SYSCTL_PROFILE_symbols] = { 0, EINVAL, ENOBUFS, EFAULT, -1 },
    [8] = { EINVAL, EOPNOTSUPP, -1 },
};

static void *handle(size_t size, int *kind)
{
    *kind = below(10);
    switch ( *kind )
    {
    case 0: return NULL;
    case 1: return edge + 4096 - (below(size + 1) & ~7UL);   /* overruns */
    case 2: return edge + 4096 + 4096 * below(16);           /* unmapped */
    case 3: return (void *)0x8000000000000000ULL;            /* non-canon. */
    case 4: return (void *)(0xffff830000000000ULL + 8 * below(1 << 20));
    default: return buf;
    }
}

/* Issue the sysctl in sc; its errno (0 on success). */
static int issue(void)
{
    int r;

    sc->cmd = XEN_SYSCTL_profile_op;
    sc->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    r = xencall1(xc, __HYPERVISOR_sysctl, (uint64_t)(uintptr_t)sc);
    return r < 0 ? errno : 0;
}

/* Count the answer e to sub-op cmd, flag an undocumented one. */
static void account(unsigned int cmd, int e)
{
    unsigned int c = cmd < NR_CMDS ? cmd : NR_CMDS - 1, i;

    calls[c][e < NR_ERRNOS ? e : NR_ERRNOS - 1]++;
    for ( i = 0; documented[c][i] >= 0; i++ )
        if ( documented[c][i] == e )
            return;
    if ( undocumented++ < 10 )
        printf("# undocumented: %s -> %s (%d)\n", cmd_names[c],
               strerror(e), e);
}

static int op(unsigned int cmd)
{
    int e;

    sc->u.profile_op.cmd = cmd;
    e = issue();
    account(cmd, e);
    return e;
}

/* A start request: mostly sane, sometimes anything. */
static void random_start(struct xen_sysctl_profile_start *s, bool sane)
{
    int kind;
    void *p;

    memset(s, 0, sizeof(*s));
    s->source = sane ? below(2) : below(4);
    if ( below(2) )
        s->frequency = sane ? 97 + below(1900) : rnd();
    else
        s->period = sane ? 100000 + below(1000000) : rnd();
    s->max_depth = sane ? 1 + below(127) : below(300);
    /* Rings: mostly small, now and then the largest. */
    s->ring_kib = sane ? (below(200) ? 16u << below(7) : 65536)
                       : (below(2) ? rnd() : below(70000));
    s->event = sane ? 0 : below(8);
    if ( !sane && !below(8) )
        s->flags = rnd();
    if ( !sane && !below(8) )
        s->nr_failed = rnd();           /* OUT only: ignored */
    if ( below(3) )
    {
        /* A pCPU mask: valid bits, or any bits, in any kind of buffer. */
        unsigned int bits = sane ? nr_cpus : below(2) ? below(64)
                                                      : rnd() % (1u << 20);

        p = sane ? buf : handle((bits + 7) / 8, &kind);
        if ( p == buf )
        {
            memset(buf, 0, (bits + 7) / 8 < 65536 ? (bits + 7) / 8 : 65536);
            if ( sane )
                buf[0] = 1 | (below(256) & ((1u << (nr_cpus > 7 ? 8 :
                                                   nr_cpus)) - 1));
            else
                buf[below(8)] = rnd();
        }
        s->cpumap.nr_bits = bits;
        set_xen_guest_handle(s->cpumap.bitmap, p);
    }
}

static void random_call(void)
{
    struct xen_sysctl_profile_op *p = &sc->u.profile_op;
    unsigned int cmd = below(21), i;
    int kind;

    memset(p, 0, sizeof(*p));
    /* Raw garbage in the whole argument, now and then. */
    if ( !below(20) )
        for ( i = 0; i < sizeof(p->u); i++ )
            ((uint8_t *)&p->u)[i] = rnd();
    if ( !below(50) )
        p->flags = rnd();

    switch ( cmd )
    {
    case 0 ... 1:
        random_start(&p->u.start, below(2));
        op(XEN_SYSCTL_PROFILE_start);
        break;
    case 2 ... 3:
        op(XEN_SYSCTL_PROFILE_stop);
        break;
    case 4 ... 6:
        p->u.status.nr_cpus = below(2) ? nr_cpus : rnd();
        if ( !below(16) )
            p->u.status.flags = rnd();
        set_xen_guest_handle(p->u.status.cpus,
                             handle(p->u.status.nr_cpus * 96, &kind));
        op(XEN_SYSCTL_PROFILE_status);
        break;
    case 7 ... 12:
        p->u.read.cpu = below(4) ? below(nr_cpus) : rnd();
        p->u.read.size = below(2) ? below(BUF_SIZE / 2) : rnd();
        set_xen_guest_handle(p->u.read.buffer,
                             handle(p->u.read.size, &kind));
        p->u.read.flags = below(2) ? XEN_SYSCTL_PROFILE_READ_PEEK
                                   : below(8) ? 0 : rnd();
        p->u.read.offset = below(3) ? below(2) ? 8 * below(4096) : below(256)
                                    : rnd();
        if ( !(p->u.read.flags & XEN_SYSCTL_PROFILE_READ_PEEK) && below(4) )
            p->u.read.offset = 0;
        if ( !below(16) )
            p->u.read.pad = rnd();
        op(XEN_SYSCTL_PROFILE_read);
        break;
    case 13 ... 14:
        op(XEN_SYSCTL_PROFILE_release);
        break;
    case 15 ... 16:
        p->u.symbols.index = below(2) ? below(10000) : rnd();
        p->u.symbols.size = below(2) ? below(65536) : rnd() % BUF_SIZE;
        set_xen_guest_handle(p->u.symbols.buffer,
                             handle(p->u.symbols.size, &kind));
        if ( !below(16) )
            p->u.symbols.flags = rnd();
        op(XEN_SYSCTL_PROFILE_symbols);
        break;
    case 17:
        if ( !below(4) )
            p->u.limits.flags = rnd();
        op(XEN_SYSCTL_PROFILE_limits);
        break;
    default:
        op(below(2) ? 0 : NR_CMDS - 1 + below(1000));
        break;
    }
}

/* XEN_SYSCTL_physinfo's free_pages, or 0. */
static uint64_t free_pages(void)
{
    memset(&sc->u, 0, sizeof(sc->u));
    sc->cmd = XEN_SYSCTL_physinfo;
    sc->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    if ( xencall1(xc, __HYPERVISOR_sysctl, (uint64_t)(uintptr_t)sc) < 0 )
        return 0;
    nr_cpus = sc->u.physinfo.nr_cpus;
    return sc->u.physinfo.free_pages;
}

/* Back to IDLE, whatever the state. */
static void reset(void)
{
    memset(&sc->u, 0, sizeof(sc->u));
    sc->u.profile_op.cmd = XEN_SYSCTL_PROFILE_stop;
    issue();
    memset(&sc->u, 0, sizeof(sc->u));
    sc->u.profile_op.cmd = XEN_SYSCTL_PROFILE_release;
    issue();
}

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

    nanosleep(&ts, NULL);
}

/* Read cpu's ring (peek or consume) at offset; the errno. */
static int read_ring(unsigned int cpu, bool peek, uint64_t *offset,
                     uint32_t *records)
{
    struct xen_sysctl_profile_read *r = &sc->u.profile_op.u.read;
    int e;

    memset(&sc->u, 0, sizeof(sc->u));
    r->cpu = cpu;
    r->size = BUF_SIZE;
    r->flags = peek ? XEN_SYSCTL_PROFILE_READ_PEEK : 0;
    r->offset = peek ? *offset : 0;
    set_xen_guest_handle(r->buffer, buf);
    e = op(XEN_SYSCTL_PROFILE_read);
    *offset = r->offset;
    *records = r->records;
    if ( r->bytes > most_read )
        most_read = r->bytes;
    return e;
}

/*
 * A ring holding more than limits.read_max: a read with a larger buffer
 * copies at most read_max, and nearly all of it (whole records).  Prints
 * TAP check t; true if it passed.
 */
static bool big_read(unsigned int t)
{
    struct xen_sysctl_profile_start *s = &sc->u.profile_op.u.start;
    uint32_t max, records;
    uint64_t off = 0, pending = 0;
    unsigned int i;
    bool ok;

    memset(&sc->u, 0, sizeof(sc->u));
    sc->u.profile_op.cmd = XEN_SYSCTL_PROFILE_limits;
    max = issue() ? 0 : sc->u.profile_op.u.limits.read_max;
    memset(&sc->u, 0, sizeof(sc->u));
    s->source = XEN_SYSCTL_PROFILE_SOURCE_TIMER;
    s->frequency = 10000;
    s->max_depth = 127;
    s->ring_kib = 4096;
    s->cpumap.nr_bits = 1;
    buf[0] = 1;                                 /* pCPU 0 */
    set_xen_guest_handle(s->cpumap.bitmap, buf);
    ok = max && !op(XEN_SYSCTL_PROFILE_start);
    /* Until pCPU 0's ring holds more than one read copies (30 s at most). */
    for ( i = 0; ok && i < 300 && pending <= 2ULL * max; i++ )
    {
        sleep_us(100000);
        memset(&sc->u, 0, sizeof(sc->u));
        sc->u.profile_op.u.status.nr_cpus = 1;
        set_xen_guest_handle(sc->u.profile_op.u.status.cpus,
                             (xen_sysctl_profile_cpu_t *)buf);
        ok = !op(XEN_SYSCTL_PROFILE_status);
        pending = ((struct xen_sysctl_profile_cpu *)buf)->pending_bytes;
    }
    most_read = 0;
    ok = ok && pending > max && read_ring(0, false, &off, &records) == 0 &&
         most_read <= max &&
         most_read + XEN_SYSCTL_PROFILE_MAX_RECORD > max;
    printf("%s %u - a read of %u KiB from a ring holding %" PRIu64
           " bytes copies at most limits.read_max, whole records (%u of %u"
           " bytes)\n", ok ? "ok" : "not ok", t, BUF_SIZE >> 10, pending,
           most_read, max);
    reset();
    return ok;
}

/* start, consume some, stop, peek at random offsets, release. */
static bool cycle(unsigned long *samples)
{
    struct xen_sysctl_profile_start *s = &sc->u.profile_op.u.start;
    uint64_t off;
    uint32_t n;
    unsigned int cpu, i;
    int e;

    memset(&sc->u, 0, sizeof(sc->u));
    s->source = XEN_SYSCTL_PROFILE_SOURCE_TIMER;
    s->frequency = 1000 + below(9000);
    s->max_depth = 1 + below(127);
    s->ring_kib = 16 << below(3);
    if ( (e = op(XEN_SYSCTL_PROFILE_start)) )
    {
        printf("# cycle: start: %s\n", strerror(e));
        return false;
    }
    sleep_us(2000 + below(5000));
    cpu = below(nr_cpus);
    off = 0;
    if ( read_ring(cpu, false, &off, &n) == 0 )
        *samples += n;
    /* stop takes no argument: what the read left there must go. */
    memset(&sc->u, 0, sizeof(sc->u));
    if ( (e = op(XEN_SYSCTL_PROFILE_stop)) )
        return false;
    for ( i = 0; i < 4; i++ )
    {
        off = below(2) ? 0 : below(4) ? 8 * below(512) : below(4096);
        if ( read_ring(below(nr_cpus), true, &off, &n) == 0 )
            *samples += n;
    }
    memset(&sc->u, 0, sizeof(sc->u));
    return op(XEN_SYSCTL_PROFILE_release) == 0;
}

/* The session's state (status), or -1. */
static int state_now(void)
{
    memset(&sc->u, 0, sizeof(sc->u));
    if ( op(XEN_SYSCTL_PROFILE_status) )
        return -1;
    return sc->u.profile_op.u.status.state;
}

/* Issue sub-op cmd, which takes no argument, with a non-zero one. */
static int with_junk(unsigned int cmd)
{
    memset(&sc->u, 0, sizeof(sc->u));
    sc->u.profile_op.u.pad[sizeof(sc->u.profile_op.u.pad) - 1] = 1;
    return op(cmd);
}

/*
 * stop and release take no argument and must refuse a non-zero one
 * (-EINVAL), changing nothing; with it zero they work.  Test number t.
 */
static bool junk_argument(unsigned int t)
{
    int stop_junk, running, stop, release_junk, stopped, release;

    reset();
    memset(&sc->u, 0, sizeof(sc->u));
    sc->u.profile_op.u.start.frequency = 97;
    sc->u.profile_op.u.start.max_depth = 8;
    if ( op(XEN_SYSCTL_PROFILE_start) )
    {
        printf("not ok %u - stop and release refuse an argument # cannot "
               "start\n", t);
        return false;
    }
    stop_junk = with_junk(XEN_SYSCTL_PROFILE_stop);
    running = state_now() == XEN_SYSCTL_PROFILE_STATE_RUNNING;
    memset(&sc->u, 0, sizeof(sc->u));
    stop = op(XEN_SYSCTL_PROFILE_stop);
    release_junk = with_junk(XEN_SYSCTL_PROFILE_release);
    stopped = state_now() == XEN_SYSCTL_PROFILE_STATE_STOPPED;
    memset(&sc->u, 0, sizeof(sc->u));
    release = op(XEN_SYSCTL_PROFILE_release);
    reset();
    if ( stop_junk == EINVAL && running && !stop && release_junk == EINVAL &&
         stopped && !release )
    {
        printf("ok %u - stop and release refuse a non-zero argument "
               "(EINVAL, state unchanged), and work without\n", t);
        return true;
    }
    printf("not ok %u - stop and release refuse an argument: stop %d, "
           "running %d, stop %d, release %d, stopped %d, release %d\n", t,
           stop_junk, running, stop, release_junk, stopped, release);
    return false;
}

int main(int argc, char **argv)
{
    unsigned long ncalls = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
    unsigned long ncycles = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
    unsigned long i, good = 0, samples = 0;
    uint64_t before, after;
    unsigned int c, e, t = 0;
    bool ok, good_reads, no_arg;

    rng = argc > 3 ? strtoull(argv[3], NULL, 0) | 1 : 1;
    xc = xencall_open(NULL, 0);
    if ( !xc )
    {
        printf("Bail out! xencall_open: %s\n", strerror(errno));
        return 1;
    }
    sc = xencall_alloc_buffer(xc, sizeof(*sc));
    buf = xencall_alloc_buffer(xc, BUF_SIZE);
    edge = mmap(NULL, 2 * 4096 + 16 * 4096, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if ( !sc || !buf || edge == MAP_FAILED ||
         munmap(edge + 4096, 17 * 4096) )
    {
        printf("Bail out! cannot allocate buffers\n");
        return 1;
    }
    memset(edge, 0, 4096);

    /* Warm up: the first start allocates state Xen keeps. */
    reset();
    free_pages();
    memset(&sc->u, 0, sizeof(sc->u));
    sc->u.profile_op.u.start.frequency = 97;
    sc->u.profile_op.u.start.max_depth = 8;
    sc->u.profile_op.cmd = XEN_SYSCTL_PROFILE_start;
    issue();
    reset();
    before = free_pages();

    for ( i = 0; i < ncalls; i++ )
        random_call();
    reset();
    printf("%s %u - %lu random calls, every answer documented (%lu not)\n",
           undocumented ? "not ok" : "ok", ++t, ncalls, undocumented);

    for ( i = 0; i < ncycles; i++ )
        good += cycle(&samples);
    reset();
    printf("%s %u - %lu of %lu start/read/stop/peek/release cycles, %lu "
           "samples read\n", good == ncycles ? "ok" : "not ok", ++t, good,
           ncycles, samples);
    printf("%s %u - samples were read in the cycles\n",
           samples ? "ok" : "not ok", ++t);
    good_reads = big_read(++t);
    no_arg = junk_argument(++t);

    /* Freed pages are back at once; allow a moment anyway. */
    for ( i = 0; i < 50 && (after = free_pages()) != before; i++ )
        sleep_us(100000);
    ok = before && after == before;
    printf("%s %u - Xen's free pages before and after: %" PRIu64 " and %"
           PRIu64 "\n", ok ? "ok" : "not ok", ++t, before, after);

    printf("# answers (sub-op: errno count ...):\n");
    for ( c = 0; c < NR_CMDS; c++ )
    {
        char line[1024];
        int len = snprintf(line, sizeof(line), "#   %-9s", cmd_names[c]);

        for ( e = 0; e < NR_ERRNOS; e++ )
            if ( calls[c][e] )
                len += snprintf(line + len, sizeof(line) - len, " %s %lu",
                                e ? strerrorname_np(e) ?: "?" : "0",
                                calls[c][e]);
        puts(line);
    }
    printf("1..%u\n", t);
    return !(undocumented == 0 && good == ncycles && samples && ok &&
             good_reads && no_arg);
}
