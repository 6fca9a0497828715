/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libxl_profile.c: the hypervisor sampling profiler (XEN_SYSCTL_profile_op).
 *
 * The profile's data crosses this API in plain C types (libxl.h), never in
 * libxc types.  The return contract of every function here is in libxl.h:
 * a libxl error code, and for ERROR_NI and ERROR_FAIL the errno that says
 * which failure it is (profile_error()).
 */
#include "libxl_osdeps.h"

#include "libxl_internal.h"

/*
 * libxl's constants are the hypervisor's (XEN_SYSCTL_profile_op, in
 * xen/include/public/sysctl.h): the values pass through unchanged, so they
 * must not drift apart.
 */
#define SAME(l, x) \
    _Static_assert(LIBXL_PROFILE_##l == XEN_SYSCTL_PROFILE_##x, \
                   "LIBXL_PROFILE_" #l " is XEN_SYSCTL_PROFILE_" #x)
SAME(SOURCE_AUTO, SOURCE_AUTO);
SAME(SOURCE_TIMER, SOURCE_TIMER);
SAME(SOURCE_PMU, SOURCE_PMU);
SAME(STATE_IDLE, STATE_IDLE);
SAME(STATE_STARTING, STATE_STARTING);
SAME(STATE_RUNNING, STATE_RUNNING);
SAME(STATE_STOPPED, STATE_STOPPED);
SAME(CPU_SAMPLED, CPU_SAMPLED);
SAME(CPU_RING, CPU_RING);
SAME(CPU_OFFLINED, CPU_OFFLINED);
SAME(CPU_LEFT_OUT, CPU_LEFT_OUT);
SAME(CPU_FAILED, CPU_FAILED);
SAME(REASON_NONE, REASON_NONE);
SAME(REASON_REQUESTED, REASON_REQUESTED);
SAME(REASON_NO_PMU, REASON_NO_PMU);
SAME(REASON_PMU_BUSY, REASON_PMU_BUSY);
SAME(REASON_NO_PMU_SRC, REASON_NO_PMU_SRC);
SAME(REASON_PMU_OK, REASON_PMU_OK);
SAME(REASON_VPMU, REASON_VPMU);
SAME(REASON_NO_EVENT, REASON_NO_EVENT);
SAME(REASON_NO_NMI, REASON_NO_NMI);
#undef SAME

/* Map a failed libxc call (errno set) to the contract above. */
static int profile_error(libxl__gc *gc, const char *what)
{
    int e = errno, rc;

    switch (e) {
    case EINVAL: rc = ERROR_INVAL; break;
    case ENOMEM: rc = ERROR_NOMEM; break;
    case EOPNOTSUPP:
    case ENODEV:
    case ENOSYS: rc = ERROR_NI; break;
    default: rc = ERROR_FAIL; break;
    }
    /* The caller explains the expected failures; log the others. */
    if (rc == ERROR_FAIL && e != EBUSY && e != ENODATA && e != EPERM &&
        e != EACCES && e != E2BIG && e != EIO && e != EAGAIN)
        LOGE(ERROR, "profile %s", what);
    errno = e;
    return rc;
}

int libxl_profile_start(libxl_ctx *ctx, const libxl_profile_params *params,
                        const libxl_bitmap *cpumap,
                        libxl_profile_reason *reason)
{
    GC_INIT(ctx);
    struct xen_sysctl_profile_start start;
    int r, rc = 0, e;

    memset(&start, 0, sizeof(start));
    start.source = params->source;
    start.frequency = params->frequency;
    start.period = params->period;
    start.max_depth = params->max_depth;
    start.ring_kib = params->ring_kib;
    start.event = params->event;

    r = xc_profile_start(ctx->xch, &start,
                         cpumap && cpumap->size ? cpumap->map : NULL,
                         cpumap ? cpumap->size * 8 : 0);
    if (r < 0)
        rc = profile_error(gc, "start");
    if (reason)
        *reason = start.reason;

    e = errno;
    GC_FREE;
    errno = e;
    return rc;
}

static int profile_simple(libxl_ctx *ctx, bool stop)
{
    GC_INIT(ctx);
    int r, rc = 0, e;

    r = stop ? xc_profile_stop(ctx->xch) : xc_profile_release(ctx->xch);
    if (r < 0)
        rc = profile_error(gc, stop ? "stop" : "release");

    e = errno;
    GC_FREE;
    errno = e;
    return rc;
}

int libxl_profile_stop(libxl_ctx *ctx)
{
    return profile_simple(ctx, true);
}

int libxl_profile_release(libxl_ctx *ctx)
{
    return profile_simple(ctx, false);
}

int libxl_profile_get_limits(libxl_ctx *ctx, libxl_profile_limits *limits)
{
    GC_INIT(ctx);
    struct xen_sysctl_profile_limits lim;
    int rc = 0;

    libxl_profile_limits_init(limits);
    if (xc_profile_limits(ctx->xch, &lim)) {
        rc = profile_error(gc, "limits");
        goto out;
    }
    limits->max_depth = lim.max_depth;
    limits->ring_kib_min = lim.ring_kib_min;
    limits->ring_kib_max = lim.ring_kib_max;
    limits->ring_kib_default = lim.ring_kib_default;
    limits->total_kib_max = lim.total_kib_max;
    limits->timer_period_min = lim.timer_period_min;
    limits->timer_period_max = lim.timer_period_max;
    limits->timer_hz_max = lim.timer_hz_max;
    limits->pmu_period_min = lim.pmu_period_min;
    limits->pmu_hz_max = lim.pmu_hz_max;
    limits->sample_hz_max = lim.sample_hz_max;
    limits->read_max = lim.read_max;
 out:
    GC_FREE;
    return rc;
}

int libxl_profile_get_status(libxl_ctx *ctx, libxl_profile_status *status)
{
    GC_INIT(ctx);
    struct xen_sysctl_profile_status st;
    xen_sysctl_profile_cpu_t *cpus = NULL;
    unsigned int n = 0, i;
    int r, rc;

    libxl_profile_status_init(status);
    /* Ask for the number of pCPUs first, then for their entries. */
    r = xc_profile_status(ctx->xch, &st, NULL, &n);
    if (!r) {
        cpus = libxl__calloc(gc, n ? n : 1, sizeof(*cpus));
        r = xc_profile_status(ctx->xch, &st, cpus, &n);
    }
    if (r < 0) {
        rc = profile_error(gc, "status");
        goto out;
    }

    status->state = st.state;
    status->source = st.source;
    status->reason = st.reason;
    status->max_depth = st.max_depth;
    status->frequency = st.frequency;
    status->ring_kib = st.ring_kib;
    status->record_version = st.record_version;
    status->period = st.period;
    status->start_timestamp = st.start_timestamp;
    status->stop_timestamp = st.stop_timestamp;
    status->timestamp_khz = st.timestamp_khz;
    /*
     * Limits unknown (all 0, as get_limits leaves them on failure) if they
     * cannot be had: Xen checks anyway.
     */
    (void)libxl_profile_get_limits(ctx, &status->limits);
    status->num_cpus = n;
    status->cpus = libxl__calloc(NOGC, n ? n : 1, sizeof(*status->cpus));
    for (i = 0; i < n; i++) {
        libxl_profile_cpu *c = &status->cpus[i];

        c->taken = cpus[i].taken;
        c->lost = cpus[i].lost;
        c->read = cpus[i].read;
        c->pending = cpus[i].pending;
        c->pending_bytes = cpus[i].pending_bytes;
        c->cost_min = cpus[i].cost_min;
        c->cost_max = cpus[i].cost_max;
        c->cost_sum = cpus[i].cost_sum;
        c->no_stack = cpus[i].no_stack;
        c->throttled = cpus[i].throttled;
        c->flags = cpus[i].flags;
    }
    rc = 0;

 out:
    GC_FREE;
    return rc;
}

/*
 * Size of one read: many records, at least the largest one, and no more
 * than Xen copies in one call (its limits' read_max, 64 KiB).
 */
#define PROFILE_READ_CHUNK (64 * 1024)

/* Size of one symbols buffer: thousands of entries. */
#define PROFILE_SYMBOLS_CHUNK (256 * 1024)

/*
 * Append the records of cpu's ring, consumed (with peek only copied), to
 * *buf: malloc'd, *size bytes of which the first *len hold records, grown
 * as needed.  A running ring is read up to what it held at the first
 * read: a producer as fast as the reads must not keep the drain going.
 */
static int profile_drain_cpu(libxl__gc *gc, uint32_t cpu, bool peek,
                             void **buf, size_t *len, size_t *size)
{
    uint32_t bytes, records;
    uint64_t pending, offset = 0, left = UINT64_MAX;
    uint32_t flags = peek ? XEN_SYSCTL_PROFILE_READ_PEEK : 0;
    int r;

    for (;;) {
        if (*size - *len < PROFILE_READ_CHUNK) {
            /*
             * Room for one read, then, once the first read said how much
             * the ring held, for all of the rest: no buffer regrown per
             * read, and none much larger than what it holds.
             */
            size_t room = PROFILE_READ_CHUNK;

            if (left != UINT64_MAX && left > room)
                room = left;
            *size = *len + room;
            *buf = libxl__realloc(NOGC, *buf, *size);
        }
        r = xc_profile_read(CTX->xch, cpu, flags, &offset,
                            (uint8_t *)*buf + *len, PROFILE_READ_CHUNK,
                            &bytes, &records, &pending);
        /* Records copied before a failure were consumed: keep them. */
        *len += bytes;
        if (r < 0)
            return profile_error(gc, "read");
        if (!bytes)
            return 0;
        if (left == UINT64_MAX)
            left = bytes + pending;
        if (left <= bytes)
            return 0;
        left -= bytes;
    }
}

int libxl_profile_read_all(libxl_ctx *ctx, bool peek, void **buf,
                           size_t *len)
{
    GC_INIT(ctx);
    libxl_profile_status st;
    size_t size = 0;
    int cpu, rc;

    *buf = NULL;
    *len = 0;
    rc = libxl_profile_get_status(ctx, &st);
    if (rc) goto out;
    if (st.state == LIBXL_PROFILE_STATE_IDLE) {
        errno = ENODATA;
        rc = ERROR_FAIL;
        goto out;
    }

    for (cpu = 0; cpu < st.num_cpus; cpu++) {
        if (!(st.cpus[cpu].flags & LIBXL_PROFILE_CPU_RING))
            continue;
        rc = profile_drain_cpu(gc, cpu, peek, buf, len, &size);
        if (rc) goto out;
    }
    rc = 0;

 out:
    libxl_profile_status_dispose(&st);
    GC_FREE;
    return rc;
}

/* Decode the entries of one symbols buffer into (*syms)[*nr...]. */
static int profile_add_symbols(libxl__gc *gc, const uint8_t *buf,
                               uint32_t bytes, uint32_t count,
                               libxl_profile_symbol **syms, int *nr)
{
    uint32_t off = 0, i;

    *syms = libxl__realloc(NOGC, *syms, (*nr + count) * sizeof(**syms));
    for (i = 0; i < count; i++) {
        struct xen_sysctl_profile_symbol e;

        if (off + sizeof(e) > bytes) goto bad;
        memcpy(&e, buf + off, sizeof(e));
        if (e.size < sizeof(e) + e.len + 1 || off + e.size > bytes)
            goto bad;
        (*syms)[*nr].address = e.address;
        (*syms)[*nr].type = e.type;
        (*syms)[*nr].name = libxl__strndup(NOGC,
                                           (const char *)buf + off + sizeof(e),
                                           e.len);
        (*nr)++;
        off += e.size;
    }
    return 0;

 bad:
    LOG(ERROR, "profile symbols: malformed entry at offset %u", off);
    return ERROR_FAIL;
}

int libxl_profile_symbols(libxl_ctx *ctx, libxl_profile_symbol **syms,
                          int *nr)
{
    GC_INIT(ctx);
    uint8_t *buf = libxl__malloc(gc, PROFILE_SYMBOLS_CHUNK);
    uint32_t index = 0, bytes, count;
    int rc;

    *syms = NULL;
    *nr = 0;
    for (;;) {
        if (xc_profile_symbols(ctx->xch, &index, buf, PROFILE_SYMBOLS_CHUNK,
                               &bytes, &count) < 0) {
            rc = profile_error(gc, "symbols");
            goto out;
        }
        if (!count)
            break;
        rc = profile_add_symbols(gc, buf, bytes, count, syms, nr);
        if (rc) goto out;
    }
    rc = 0;

 out:
    if (rc) {
        libxl_profile_symbols_free(*syms, *nr);
        *syms = NULL;
        *nr = 0;
    }
    GC_FREE;
    return rc;
}

void libxl_profile_symbols_free(libxl_profile_symbol *syms, int nr)
{
    int i;

    for (i = 0; i < nr; i++)
        libxl_profile_symbol_dispose(&syms[i]);
    free(syms);
}

/*
 * Local variables:
 * mode: C
 * c-basic-offset: 4
 * indent-tabs-mode: nil
 * End:
 */
