/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drain-bench: what draining the profiler's rings costs the rest of the
 * host.  Every sysctl takes Xen's sysctl_lock, so while one read of
 * XEN_SYSCTL_profile_op copies samples out, any other sysctl (xl info,
 * xl dmesg, every toolstack poll) waits.  One thread drains a running
 * session (timer source, HZ per pCPU, DEPTH frames, every pCPU, 4 MiB
 * rings) every INTERVAL ms, each ring to empty in reads of CHUNK KiB;
 * another issues XEN_SYSCTL_physinfo every 200 us and times each call.
 * Prints, as TAP comments: the drain's throughput, the time of a full
 * read (one that copied at least 90 % of CHUNK, or of what Xen copies in
 * one read if that is less: the time it holds sysctl_lock) as median and
 * longest, and the physinfo calls' median,
 * 99th, 99.9th percentile and longest time.  Run in dom0 as root; TCG
 * figures are relative only.
 *
 *   drain-bench SECONDS CHUNK_KIB [INTERVAL_MS [HZ [DEPTH]]]
 *                                 (INTERVAL_MS 2000, HZ 10000, DEPTH 127)
 *
 * Exit status: 0, 1 when the profiler cannot be started or read (the
 * message says why), 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xencall.h>
#include <xen/xen.h>
#include <xen/sysctl.h>

#define MAX_WAITS       (1u << 20)
#define MAX_FULL        (1u << 16)

static volatile bool done;
static uint64_t waits[MAX_WAITS];       /* ns of each physinfo call */
static unsigned int nr_waits;
static uint64_t full[MAX_FULL];         /* ns of each full read */
static unsigned int nr_full;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One sysctl through h with sc; its errno (0 on success). */
static int sysctl(xencall_handle *h, struct xen_sysctl *sc)
{
    sc->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    return xencall1(h, __HYPERVISOR_sysctl, (uint64_t)(uintptr_t)sc) < 0
           ? errno : 0;
}

static int profile(xencall_handle *h, struct xen_sysctl *sc, uint32_t cmd)
{
    sc->cmd = XEN_SYSCTL_profile_op;
    sc->u.profile_op.cmd = cmd;
    return sysctl(h, sc);
}

/* The other sysctl user: physinfo every 200 us, each call timed. */
static void *waiter(void *arg)
{
    xencall_handle *h = xencall_open(NULL, 0);
    struct xen_sysctl *sc = h ? xencall_alloc_buffer(h, sizeof(*sc)) : NULL;
    struct timespec pause = { 0, 200000 };
    uint64_t t;

    (void)arg;
    if ( !sc )
    {
        printf("Bail out! waiter: no hypercall buffer\n");
        exit(1);
    }
    while ( !done && nr_waits < MAX_WAITS )
    {
        memset(sc, 0, sizeof(*sc));
        sc->cmd = XEN_SYSCTL_physinfo;
        t = now_ns();
        if ( sysctl(h, sc) )
        {
            printf("Bail out! physinfo: %s\n", strerror(errno));
            exit(1);
        }
        waits[nr_waits++] = now_ns() - t;
        nanosleep(&pause, NULL);
    }
    xencall_free_buffer(h, sc);
    xencall_close(h);
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static bool number(const char *s, unsigned long min, unsigned long max,
                   unsigned long *v)
{
    char *end;

    errno = 0;
    *v = strtoul(s, &end, 10);
    return !errno && *s && !*end && *v >= min && *v <= max;
}

int main(int argc, char **argv)
{
    unsigned long secs, kib, interval = 2000, hz = 10000, depth = 127;
    xencall_handle *h;
    struct xen_sysctl *sc;
    uint8_t *buf;
    uint64_t t, t0, bytes = 0, reads = 0, longest = 0, chunk;
    unsigned int cpu, nr_cpus;
    pthread_t thr;
    bool got;
    int e;

    if ( argc < 3 || argc > 6 || !number(argv[1], 1, 3600, &secs) ||
         !number(argv[2], 1, 1u << 20, &kib) ||
         (argc > 3 && !number(argv[3], 0, 60000, &interval)) ||
         (argc > 4 && !number(argv[4], 1, 100000, &hz)) ||
         (argc > 5 && !number(argv[5], 1, 255, &depth)) )
    {
        fprintf(stderr, "usage: drain-bench SECONDS(1-3600) "
                "CHUNK_KIB(1-1048576) [INTERVAL_MS(0-60000) [HZ [DEPTH]]]\n");
        return 2;
    }
    h = xencall_open(NULL, 0);
    sc = h ? xencall_alloc_buffer(h, sizeof(*sc)) : NULL;
    buf = h ? xencall_alloc_buffer(h, kib << 10) : NULL;
    if ( !sc || !buf )
    {
        printf("Bail out! no hypercall buffers: %s\n", strerror(errno));
        return 1;
    }

    memset(sc, 0, sizeof(*sc));
    profile(h, sc, XEN_SYSCTL_PROFILE_stop);
    memset(sc, 0, sizeof(*sc));
    profile(h, sc, XEN_SYSCTL_PROFILE_release);
    memset(sc, 0, sizeof(*sc));
    sc->u.profile_op.u.start.source = XEN_SYSCTL_PROFILE_SOURCE_TIMER;
    sc->u.profile_op.u.start.frequency = hz;
    sc->u.profile_op.u.start.max_depth = depth;
    sc->u.profile_op.u.start.ring_kib = 4096;
    if ( (e = profile(h, sc, XEN_SYSCTL_PROFILE_start)) )
    {
        printf("Bail out! start at %lu Hz, depth %lu: %s\n", hz, depth,
               strerror(e));
        return 1;
    }
    memset(sc, 0, sizeof(*sc));
    profile(h, sc, XEN_SYSCTL_PROFILE_status);
    nr_cpus = sc->u.profile_op.u.status.nr_cpus;
    /* What one read copies at most. */
    chunk = kib << 10;
    memset(sc, 0, sizeof(*sc));
    if ( !profile(h, sc, XEN_SYSCTL_PROFILE_limits) &&
         sc->u.profile_op.u.limits.read_max < chunk )
        chunk = sc->u.profile_op.u.limits.read_max;

    if ( pthread_create(&thr, NULL, waiter, NULL) )
    {
        printf("Bail out! pthread_create\n");
        return 1;
    }
    t0 = now_ns();
    while ( now_ns() - t0 < secs * 1000000000ULL )
    {
        got = false;
        for ( cpu = 0; cpu < nr_cpus; cpu++ )
        {
            memset(sc, 0, sizeof(*sc));
            sc->u.profile_op.u.read.cpu = cpu;
            sc->u.profile_op.u.read.size = kib << 10;
            set_xen_guest_handle(sc->u.profile_op.u.read.buffer, buf);
            t = now_ns();
            e = profile(h, sc, XEN_SYSCTL_PROFILE_read);
            t = now_ns() - t;
            if ( e == EINVAL )          /* a pCPU without a ring */
                continue;
            if ( e )
            {
                printf("Bail out! read pCPU %u: %s\n", cpu, strerror(e));
                return 1;
            }
            reads++;
            bytes += sc->u.profile_op.u.read.bytes;
            if ( t > longest )
                longest = t;
            if ( sc->u.profile_op.u.read.bytes * 10ULL >= chunk * 9 &&
                 nr_full < MAX_FULL )
                full[nr_full++] = t;
            /* This ring to empty, then the next. */
            if ( sc->u.profile_op.u.read.pending_bytes )
            {
                cpu--;
                got = true;
            }
        }
        if ( !got )
            usleep(interval * 1000);
    }
    t = now_ns() - t0;
    done = true;
    pthread_join(thr, NULL);
    memset(sc, 0, sizeof(*sc));
    profile(h, sc, XEN_SYSCTL_PROFILE_stop);
    memset(sc, 0, sizeof(*sc));
    profile(h, sc, XEN_SYSCTL_PROFILE_release);

    qsort(waits, nr_waits, sizeof(waits[0]), cmp_u64);
    qsort(full, nr_full, sizeof(full[0]), cmp_u64);
    printf("# drain in %lu KiB reads (Xen copies %" PRIu64 ") every %lu "
           "ms, %lu Hz x %lu frames on %u pCPUs: %.2f MB/s, %" PRIu64
           " reads (longest %.0f us); %u full reads: median %.0f us, "
           "longest %.0f us\n", kib, chunk >> 10, interval, hz, depth,
           nr_cpus, bytes * 1e3 / t, reads, longest / 1e3, nr_full,
           nr_full ? full[nr_full / 2] / 1e3 : 0,
           nr_full ? full[nr_full - 1] / 1e3 : 0);
    if ( nr_waits )
        printf("# physinfo meanwhile: %u calls, median %.0f us, p99 %.0f us,"
               " p99.9 %.0f us, longest %.0f us\n", nr_waits,
               waits[nr_waits / 2] / 1e3, waits[nr_waits * 99 / 100] / 1e3,
               waits[nr_waits * 999 / 1000] / 1e3,
               waits[nr_waits - 1] / 1e3);
    return 0;
}
