/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * control.c: XEN_SYSCTL_profile_op and the session life cycle.
 *
 *   IDLE --start--> RUNNING --stop--> STOPPED --release--> IDLE
 *
 * (STARTING while a start allocates its rings and starts its pCPUs, or
 * undoes that when it fails, across continuations.)
 *
 * Every sub-op validates its whole argument before changing anything.
 * start, stop and release hold the CPU maps, which excludes CPU hotplug
 * (the CPU notifier below runs with them held for writing); the sysctl
 * itself is serialised by sysctl_lock, so the rings have one consumer.
 *
 * Memory: profile_cpus (a small struct per possible pCPU) is allocated at
 * the first start and kept, so that the lock-free sample path can never
 * see it freed; rings and scratch buffers exist from start to release.
 * Validating a start request is request.c's.
 */
#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/nospec.h>
#include <xen/notifier.h>
#include <xen/param.h>
#include <xen/profile.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <xen/xmalloc.h>
#include <xen/xvmalloc.h>
#include <asm/atomic.h>
#include <asm/event.h>

#include "private.h"

static unsigned int state = XEN_SYSCTL_PROFILE_STATE_IDLE;
static const struct profile_source *source;
static uint64_t start_stamp, stop_stamp;   /* get_cycles() */

/*
 * Largest read per call: every sysctl waits for sysctl_lock while a read
 * copies.  64 KiB takes about 6 % of the time of 1 MiB, and drains as
 * fast.
 */
#define PROFILE_READ_MAX (64u << 10)

/*
 * A ring is made of chunks of at most 2^PROFILE_CHUNK_ORDER pages (64 KiB
 * with 4 KiB pages), allocated one by one: no large contiguous allocation,
 * and a start can yield between two chunks.
 */
#define PROFILE_CHUNK_ORDER 4U

/* The order of the pages of a ring of kib KiB. */
static unsigned int ring_order(unsigned int kib)
{
    return get_order_from_bytes((unsigned long)kib << 10);
}

/*
 * Allocate cpu's ring of kib KiB (node-local chunks, cleared) and its
 * scratch record.  -ERESTART when it should yield: the chunks allocated so
 * far are kept, and the next call goes on from there.  -ENOMEM: the
 * caller frees what was allocated (abort_start()).
 */
static int alloc_ring(unsigned int cpu, unsigned int kib)
{
    struct profile_cpu *pc = &profile_cpus[cpu];
    unsigned int order = ring_order(kib);
    unsigned int chunk_order = min(order, PROFILE_CHUNK_ORDER);
    unsigned int nr = 1u << (order - chunk_order);

    if ( !pc->chunks )
    {
        pc->chunks = xzalloc_array(uint8_t *, nr);
        pc->scratch = xmalloc_bytes(XEN_SYSCTL_PROFILE_MAX_RECORD);
        if ( !pc->chunks || !pc->scratch )
            return -ENOMEM;
        pc->chunk_order = chunk_order;
    }
    while ( pc->nr_chunks < nr )
    {
        /* Cleared below: no need to scrub. */
        void *p = alloc_xenheap_pages(chunk_order,
                                      MEMF_node(cpu_to_node(cpu)) |
                                      MEMF_no_scrub);

        if ( !p )
            return -ENOMEM;
        memset(p, 0, PAGE_SIZE << chunk_order);
        pc->chunks[pc->nr_chunks++] = p;
        if ( pc->nr_chunks < nr && hypercall_preempt_check() )
            return -ERESTART;
    }
    profile_ring_init(&pc->ring, pc->chunks, PAGE_SHIFT + chunk_order,
                      PAGE_SIZE << order);
    pc->cost_min = pc->cost_max = pc->cost_sum = pc->no_stack = 0;
    pc->throttled = 0;
    pc->flags = XEN_SYSCTL_PROFILE_CPU_RING;

    return 0;
}

/*
 * Let no new sample start on pc's pCPU, and wait until none is in
 * progress there: the sample path sets in_sample, then tests sampling,
 * with full barriers on both sides, so either it sees sampling clear or
 * we see it running.
 */
static void end_sampling(struct profile_cpu *pc)
{
    write_atomic(&pc->sampling, false);
    smp_mb();
    while ( read_atomic(&pc->in_sample) )
        cpu_relax();
    /* What the last sample wrote, before anything reads the ring here. */
    smp_rmb();
    pc->flags &= ~XEN_SYSCTL_PROFILE_CPU_SAMPLED;
}

/* Stop sampling cpu, and wait until no sample is in progress there. */
static void quiesce_cpu(unsigned int cpu)
{
    struct profile_cpu *pc = &profile_cpus[cpu];

    if ( !(pc->flags & XEN_SYSCTL_PROFILE_CPU_SAMPLED) )
        return;
    source->stop(cpu);
    end_sampling(pc);
}

/*
 * Stop sampling every pCPU and free the rings, chunk by chunk: -ERESTART
 * when the caller should yield (the next call goes on where this one
 * stopped), 0 once all is freed.  A pCPU's ring is flagged unreadable
 * before its first chunk goes.
 */
static int free_rings(void)
{
    unsigned int cpu, n = 0;

    for ( cpu = 0; cpu < nr_cpu_ids; cpu++ )
    {
        struct profile_cpu *pc = &profile_cpus[cpu];

        quiesce_cpu(cpu);
        pc->flags = 0;
        while ( pc->nr_chunks )
        {
            free_xenheap_pages(pc->chunks[--pc->nr_chunks], pc->chunk_order);
            if ( !(++n % 64) && hypercall_preempt_check() )
                return -ERESTART;
        }
        XFREE(pc->chunks);
        XFREE(pc->scratch);
        memset(&pc->ring, 0, sizeof(pc->ring));
    }

    return 0;
}

/* 0, or -errno; with -EBUSY, *reason says who holds the PMU. */
static int start_cpu(unsigned int cpu, unsigned int *reason)
{
    struct profile_cpu *pc = &profile_cpus[cpu];
    int rc;

    write_atomic(&pc->sampling, true);
    pc->flags |= XEN_SYSCTL_PROFILE_CPU_SAMPLED;
    *reason = XEN_SYSCTL_PROFILE_REASON_PMU_BUSY;
    rc = source->start(&profile_session, cpu, reason);
    /* A sample of an overflow armed before the failure may be running. */
    if ( rc )
        end_sampling(pc);

    return rc;
}

/* Free everything and go back to IDLE: 0, or -ERESTART to go on later. */
static int release_all(void)
{
    int rc = free_rings();

    if ( rc )
        return rc;
    state = XEN_SYSCTL_PROFILE_STATE_IDLE;
    source = NULL;

    return 0;
}

/*
 * A start in progress: the rings are allocated one pCPU at a time, each
 * chunk by chunk, then the pCPUs are started one at a time (a source may
 * start a pCPU with an IPI it waits for), and the hypercall continues
 * itself in between when it should yield, so that a large start never
 * holds sysctl_lock for long.  The request is kept to recognise its
 * continuation.
 */
static struct {
    struct xen_sysctl_profile_start req;   /* as asked */
    struct profile_config cfg;
    const struct profile_source *src;
    cpumask_t mask;                 /* the pCPUs, as the first call saw them */
    bool sampling;                  /* rings allocated: starting pCPUs */
    unsigned int next;              /* first pCPU id not done yet */
    unsigned int started, failed;   /* pCPUs started, and not */
    int first_rc;                   /* the first start that failed */
    unsigned int first_reason;      /*   and why */
    bool hotplug;                   /* pCPUs went or came: fail */
    int abort_rc;                   /* aborted with it: freeing */
    unsigned int abort_reason;      /*   and this reason */
} starting;

/*
 * The pCPUs a start call names, parsed before they are compared with
 * starting.mask: static rather than on the stack (a cpumask_t is 512 bytes
 * at NR_CPUS=4096), as sysctl_lock serialises the calls.
 */
static cpumask_t request_mask;

/* Is op the request a start in progress was made with (IN fields)? */
static bool same_request(const struct xen_sysctl_profile_start *a,
                         const struct xen_sysctl_profile_start *b)
{
    return a->source == b->source && a->flags == b->flags &&
           a->frequency == b->frequency && a->max_depth == b->max_depth &&
           a->period == b->period && a->ring_kib == b->ring_kib &&
           a->event == b->event && a->cpumap.nr_bits == b->cpumap.nr_bits &&
           a->cpumap.bitmap.p == b->cpumap.bitmap.p;
}

/* profile-mem=<size>: the most memory the rings of a session may take. */
static uint64_t __ro_after_init opt_profile_mem =
    MB(CONFIG_XEN_PROFILER_MEM);
size_param("profile-mem", opt_profile_mem);

/*
 * The pages the rings of a session may take now: at most profile-mem= in
 * all, and at most 1 / PROFILE_FREE_FRACTION of the free memory.
 */
static unsigned long cap_pages(void)
{
    uint64_t free, claimed;

    /* What XEN_SYSCTL_physinfo reports as free. */
    get_outstanding_claims(&free, &claimed);

    return min_t(uint64_t, opt_profile_mem >> PAGE_SHIFT,
                 free / PROFILE_FREE_FRACTION);
}

/* The KiB a ring of kib takes: a power of two of pages. */
static unsigned int ring_kib_allocated(unsigned int kib)
{
    return (PAGE_SIZE >> 10) << ring_order(kib);
}

/* Are the rings of n pCPUs of kib each within the cap? */
static bool within_cap(unsigned int n, unsigned int kib)
{
    uint64_t pages = (uint64_t)ring_kib_allocated(kib) << 10 >> PAGE_SHIFT;

    return pages * n <= cap_pages();
}

/*
 * Abort the start in progress with rc: free what it allocated and go back
 * to IDLE, then return rc; or return -ERESTART, with the start still in
 * STARTING, for the continuation (or a release) to go on freeing.
 */
static int abort_start(int rc)
{
    int ret;

    starting.abort_rc = rc;
    ret = release_all();
    if ( ret )
        return ret;
    memset(&starting, 0, sizeof(starting));

    return rc;
}

/*
 * Start sampling the pCPUs of the start in progress, one at a time from
 * starting.next: 0 once all were tried, or -ERESTART when the caller
 * should yield (the next call goes on from there).  A pCPU its source
 * cannot start is flagged XEN_SYSCTL_PROFILE_CPU_FAILED and counted.
 */
static int start_sampling(void)
{
    unsigned int cpu, why = XEN_SYSCTL_PROFILE_REASON_NONE;
    int rc;

    if ( !starting.sampling )
    {
        arch_profile_prepare();
        profile_session = starting.cfg;
        source = starting.src;
        start_stamp = get_cycles();
        stop_stamp = 0;
        smp_wmb();
        starting.sampling = true;
        starting.next = 0;
    }

    for_each_cpu ( cpu, &starting.mask )
    {
        struct profile_cpu *pc = &profile_cpus[cpu];
        /* Only a pCPU with its ring and scratch record may sample. */
        bool ready = (pc->flags & XEN_SYSCTL_PROFILE_CPU_RING) && pc->scratch;

        if ( cpu < starting.next )
            continue;
        rc = ready ? start_cpu(cpu, &why) : -EIO;
        starting.next = cpu + 1;
        if ( !rc )
            starting.started++;
        else
        {
            pc->flags |= XEN_SYSCTL_PROFILE_CPU_FAILED;
            starting.failed++;
            if ( ready && !starting.first_rc )
            {
                starting.first_rc = rc;
                starting.first_reason = why;
            }
        }
        if ( cpumask_next(cpu, &starting.mask) < nr_cpu_ids &&
             hypercall_preempt_check() )
            return -ERESTART;
    }

    return 0;
}

/*
 * All pCPUs were tried: the session runs if one of them samples.  If none
 * does, -EBUSY when the PMU was taken since the source was checked
 * (*reason says by whom), else -EIO.
 */
static int end_start(unsigned int *reason)
{
    if ( starting.started )
    {
        state = XEN_SYSCTL_PROFILE_STATE_RUNNING;
        return 0;
    }

    printk(XENLOG_G_WARNING "profiler: no pCPU could be started (%d)\n",
           starting.first_rc);
    if ( starting.first_rc != -EBUSY )
        return -EIO;

    /* The PMU was taken since the check: by vPMU, or another owner. */
    *reason = starting.first_reason;

    return -EBUSY;
}

static int profile_start(struct xen_sysctl_profile_start *op)
{
    struct profile_config cfg;
    unsigned int cpu;
    int rc;

    rc = profile_get_config(op, &cfg);
    if ( rc )
        return rc;

    if ( state == XEN_SYSCTL_PROFILE_STATE_STARTING )
    {
        /* Only the continuation of the start in progress goes on. */
        if ( !same_request(op, &starting.req) )
            return -EBUSY;
        if ( starting.abort_rc )
        {
            /* Aborted: go on freeing, then fail as the abort did. */
            if ( !get_cpu_maps() )
                return -ERESTART;
            op->reason = starting.abort_reason;
            op->nr_failed = 0;
            rc = abort_start(starting.abort_rc);
            put_cpu_maps();
            return rc;
        }
    }
    else if ( state != XEN_SYSCTL_PROFILE_STATE_IDLE )
        return -EBUSY;
    else
    {
        const struct profile_source *src = profile_pick_source(&cfg, &rc);

        op->reason = cfg.reason;
        if ( !src )
            return rc;
        if ( !profile_cpus )
        {
            profile_cpus = xvzalloc_array(struct profile_cpu, nr_cpu_ids);
            if ( !profile_cpus )
                return -ENOMEM;
        }
        memset(&starting, 0, sizeof(starting));
        starting.req = *op;
        starting.cfg = cfg;
        starting.src = src;
    }
    op->reason = starting.cfg.reason;

    if ( !get_cpu_maps() )
        return -ERESTART;
    rc = profile_get_cpumask(&op->cpumap, &request_mask);
    if ( state == XEN_SYSCTL_PROFILE_STATE_IDLE )
    {
        if ( !rc && !within_cap(cpumask_weight(&request_mask),
                                 cfg.ring_kib) )
            rc = -E2BIG;
        if ( rc )
            goto out;
        cpumask_copy(&starting.mask, &request_mask);
        state = XEN_SYSCTL_PROFILE_STATE_STARTING;
    }
    else if ( starting.hotplug || rc ||
              !cpumask_equal(&request_mask, &starting.mask) )
    {
        /*
         * The pCPUs are not those of the first call any more: CPU hotplug
         * ran in between (-EAGAIN: the caller may start again), or the
         * caller changed its bitmap.
         */
        starting.abort_reason = op->reason;
        rc = abort_start(starting.hotplug ? -EAGAIN : rc ?: -EINVAL);
        goto out;
    }

    for_each_cpu ( cpu, &starting.mask )
    {
        if ( starting.sampling || cpu < starting.next )
            continue;
        rc = alloc_ring(cpu, starting.cfg.ring_kib);
        if ( rc == -ERESTART )
            goto out;
        if ( rc )
        {
            starting.abort_reason = op->reason;
            rc = abort_start(rc);
            goto out;
        }
        starting.next = cpu + 1;
        if ( cpumask_next(cpu, &starting.mask) < nr_cpu_ids &&
             hypercall_preempt_check() )
        {
            rc = -ERESTART;
            goto out;
        }
    }

    rc = start_sampling();
    if ( rc == -ERESTART )
        goto out;
    rc = end_start(&op->reason);
    op->nr_failed = rc ? 0 : starting.failed;
    if ( rc )
    {
        starting.abort_reason = op->reason;
        rc = abort_start(rc);
    }
    else
        memset(&starting, 0, sizeof(starting));

 out:
    put_cpu_maps();
    return rc;
}

/* Is a pCPU from first on still sampled? */
static bool still_sampled(unsigned int first)
{
    unsigned int cpu;

    for ( cpu = first; cpu < nr_cpu_ids; cpu++ )
        if ( profile_cpus[cpu].flags & XEN_SYSCTL_PROFILE_CPU_SAMPLED )
            return true;

    return false;
}

static int profile_stop(void)
{
    unsigned int cpu;

    if ( state == XEN_SYSCTL_PROFILE_STATE_IDLE )
        return -ENODATA;
    if ( state == XEN_SYSCTL_PROFILE_STATE_STOPPED )
        return 0;
    if ( state == XEN_SYSCTL_PROFILE_STATE_STARTING )
        return -EBUSY;
    if ( !get_cpu_maps() )
        return -ERESTART;

    /*
     * A source may stop a pCPU with an IPI it waits for: yield between
     * two pCPUs when asked to, as a start does.  The continuation skips
     * the pCPUs already quiescent; the session is RUNNING until all are.
     */
    for ( cpu = 0; cpu < nr_cpu_ids; cpu++ )
    {
        if ( !(profile_cpus[cpu].flags & XEN_SYSCTL_PROFILE_CPU_SAMPLED) )
            continue;
        quiesce_cpu(cpu);
        if ( hypercall_preempt_check() && still_sampled(cpu + 1) )
        {
            put_cpu_maps();
            return -ERESTART;
        }
    }
    state = XEN_SYSCTL_PROFILE_STATE_STOPPED;
    stop_stamp = get_cycles();
    /*
     * Every producer is quiescent: announce the samples each ring lost
     * last (offlined pCPUs' too).  Commits left room for this record.
     */
    for ( cpu = 0; cpu < nr_cpu_ids; cpu++ )
        if ( profile_cpus[cpu].flags & XEN_SYSCTL_PROFILE_CPU_RING )
            profile_ring_write_lost(&profile_cpus[cpu].ring, cpu, stop_stamp);

    put_cpu_maps();
    return 0;
}

static int profile_release(void)
{
    int rc;

    if ( state == XEN_SYSCTL_PROFILE_STATE_IDLE )
        return -ENODATA;
    if ( state == XEN_SYSCTL_PROFILE_STATE_RUNNING )
        return -EBUSY;
    if ( !get_cpu_maps() )
        return -ERESTART;

    /*
     * STOPPED, or a start left unfinished (its caller went away) or being
     * aborted; freeing may take several continuations.
     */
    if ( state == XEN_SYSCTL_PROFILE_STATE_STARTING )
    {
        rc = abort_start(starting.abort_rc ?: -EBUSY);
        if ( rc != -ERESTART )
            rc = 0;
    }
    else
        rc = release_all();

    put_cpu_maps();
    return rc;
}

static void cpu_status(unsigned int cpu, struct xen_sysctl_profile_cpu *e)
{
    const struct profile_cpu *pc = &profile_cpus[cpu];
    const struct profile_ring *r = &pc->ring;

    memset(e, 0, sizeof(*e));
    e->flags = ACCESS_ONCE(pc->flags);
    if ( !(e->flags & XEN_SYSCTL_PROFILE_CPU_RING) )
        return;
    e->read = ACCESS_ONCE(r->read);
    e->lost = ACCESS_ONCE(r->lost);
    e->taken = ACCESS_ONCE(r->written) + e->lost;
    e->pending = e->taken - e->lost - e->read;
    e->pending_bytes = profile_ring_pending_bytes(r);
    e->cost_min = pc->cost_min;
    e->cost_max = pc->cost_max;
    e->cost_sum = pc->cost_sum;
    e->no_stack = pc->no_stack;
    e->throttled = ACCESS_ONCE(pc->throttled);
}

static int profile_limits(struct xen_sysctl_profile_limits *l)
{
    if ( l->flags )
        return -EINVAL;

    l->max_depth = XEN_SYSCTL_PROFILE_MAX_DEPTH;
    l->ring_kib_min = PROFILE_RING_KIB_MIN;
    l->ring_kib_max = PROFILE_RING_KIB_MAX;
    l->ring_kib_default = PROFILE_RING_KIB_DEFAULT;
    l->timer_hz_max = PROFILE_TIMER_HZ_MAX;
    l->total_kib_max = (uint64_t)cap_pages() << (PAGE_SHIFT - 10);
    l->timer_period_min = PROFILE_TIMER_NS_MIN;
    l->timer_period_max = PROFILE_TIMER_NS_MAX;
    l->pmu_period_min = PROFILE_PMU_MIN_PERIOD;
    l->pmu_hz_max = PROFILE_PMU_MAX_HZ;
    l->sample_hz_max = PROFILE_MAX_SAMPLE_HZ;
    l->read_max = PROFILE_READ_MAX;
    l->pad = 0;

    return 0;
}

static int profile_status(struct xen_sysctl_profile_status *op)
{
    struct xen_sysctl_profile_cpu e;
    unsigned int cpu, n = min(op->nr_cpus, nr_cpu_ids);
    bool live = state == XEN_SYSCTL_PROFILE_STATE_RUNNING ||
                state == XEN_SYSCTL_PROFILE_STATE_STOPPED;

    if ( op->flags )
        return -EINVAL;

    op->state = state;
    op->source = live ? profile_session.source : 0;
    op->reason = live ? profile_session.reason
                      : XEN_SYSCTL_PROFILE_REASON_NONE;
    op->max_depth = live ? profile_session.max_depth : 0;
    op->frequency = live ? profile_session.frequency : 0;
    op->ring_kib = live ? ring_kib_allocated(profile_session.ring_kib) : 0;
    op->period = live ? profile_session.period : 0;
    op->start_timestamp = live ? start_stamp : 0;
    op->stop_timestamp = live ? stop_stamp : 0;
    op->timestamp_khz = cpu_khz;
    op->record_version = XEN_SYSCTL_PROFILE_RECORD_VERSION;
    op->nr_cpus = nr_cpu_ids;

    if ( guest_handle_is_null(op->cpus) )
        return 0;
    for ( cpu = 0; cpu < n; cpu++ )
    {
        if ( state != XEN_SYSCTL_PROFILE_STATE_IDLE )
            cpu_status(cpu, &e);
        else
            memset(&e, 0, sizeof(e));
        if ( copy_to_guest_offset(op->cpus, cpu, &e, 1) )
            return -EFAULT;
    }

    return 0;
}

static int cf_check copy_record(void *ctx, unsigned int off,
                                const void *src, unsigned int len)
{
    XEN_GUEST_HANDLE_64(uint8) *buf = ctx;

    return copy_to_guest_offset(*buf, off, (const uint8_t *)src, len) ?
           -EFAULT : 0;
}

static int profile_read(struct xen_sysctl_profile_read *op)
{
    struct profile_cpu *pc;
    bool peek = op->flags & XEN_SYSCTL_PROFILE_READ_PEEK;
    unsigned int bytes, records;
    uint64_t pending;
    int rc;

    if ( (op->flags & ~XEN_SYSCTL_PROFILE_READ_PEEK) || op->pad ||
         (!peek && op->offset) )
        return -EINVAL;
    if ( state == XEN_SYSCTL_PROFILE_STATE_IDLE )
        return -ENODATA;
    if ( state == XEN_SYSCTL_PROFILE_STATE_STARTING ||
         (peek && state != XEN_SYSCTL_PROFILE_STATE_STOPPED) )
        return -EBUSY;
    if ( op->cpu >= nr_cpu_ids )
        return -EINVAL;
    pc = &profile_cpus[array_index_nospec(op->cpu, nr_cpu_ids)];
    if ( !(pc->flags & XEN_SYSCTL_PROFILE_CPU_RING) )
        return -EINVAL;

    rc = profile_ring_read(&pc->ring, copy_record, &op->buffer,
                           min(op->size, PROFILE_READ_MAX),
                           peek ? &op->offset : NULL, &bytes, &records);
    op->bytes = bytes;
    op->records = records;
    pending = profile_ring_pending_bytes(&pc->ring);
    /* op->offset is where this peek ended, or as given when refused. */
    op->pending_bytes = !peek ? pending
                              : op->offset <= pending ? pending - op->offset
                                                      : 0;

    return rc;
}

/* Is the argument of a sub-op that takes none all zero, for later use? */
static bool no_argument(const struct xen_sysctl_profile_op *op)
{
    return !memchr_inv(op->u.pad, 0, sizeof(op->u.pad));
}

int profile_sysctl(struct xen_sysctl_profile_op *op)
{
    /* The op must fit in the 128 bytes of struct xen_sysctl's union. */
    BUILD_BUG_ON(sizeof(*op) > sizeof_field(struct xen_sysctl, u.pad));
    /* A read of read_max bytes always holds the next record. */
    BUILD_BUG_ON(PROFILE_READ_MAX < XEN_SYSCTL_PROFILE_MAX_RECORD);

    if ( op->flags )
        return -EINVAL;

    switch ( op->cmd )
    {
    case XEN_SYSCTL_PROFILE_start:
        return profile_start(&op->u.start);

    case XEN_SYSCTL_PROFILE_stop:
        return no_argument(op) ? profile_stop() : -EINVAL;

    case XEN_SYSCTL_PROFILE_status:
        return profile_status(&op->u.status);

    case XEN_SYSCTL_PROFILE_read:
        return profile_read(&op->u.read);

    case XEN_SYSCTL_PROFILE_release:
        return no_argument(op) ? profile_release() : -EINVAL;

    case XEN_SYSCTL_PROFILE_limits:
        return profile_limits(&op->u.limits);

    case XEN_SYSCTL_PROFILE_symbols:
        return profile_symbols(&op->u.symbols);

    default:
        return -EOPNOTSUPP;
    }
}

/*
 * CPU hotplug during a session: a pCPU going offline stops being sampled
 * and keeps its ring, readable until release; a pCPU coming online is left
 * out of the running session, for good.  status says which.  During a
 * start, a pCPU it has started stops before it goes offline, and any
 * change fails the start at its next continuation.
 */
static int cf_check cpu_callback(struct notifier_block *nfb,
                                 unsigned long action, void *hcpu)
{
    unsigned int cpu = (unsigned long)hcpu;
    unsigned int why;
    struct profile_cpu *pc;

    if ( state == XEN_SYSCTL_PROFILE_STATE_STARTING )
    {
        if ( action == CPU_DOWN_PREPARE )
            quiesce_cpu(cpu);
        if ( action == CPU_DOWN_PREPARE || action == CPU_ONLINE )
            starting.hotplug = true;
        return NOTIFY_DONE;
    }
    if ( state != XEN_SYSCTL_PROFILE_STATE_RUNNING )
        return NOTIFY_DONE;
    pc = &profile_cpus[cpu];

    switch ( action )
    {
    case CPU_DOWN_PREPARE:
        if ( pc->flags & XEN_SYSCTL_PROFILE_CPU_SAMPLED )
        {
            quiesce_cpu(cpu);
            pc->flags |= XEN_SYSCTL_PROFILE_CPU_OFFLINED;
        }
        break;

    case CPU_DOWN_FAILED:
        /* Sampled until CPU_DOWN_PREPARE, and not left out since? */
        if ( (pc->flags & (XEN_SYSCTL_PROFILE_CPU_OFFLINED |
                           XEN_SYSCTL_PROFILE_CPU_LEFT_OUT)) !=
             XEN_SYSCTL_PROFILE_CPU_OFFLINED )
            break;
        pc->flags &= ~XEN_SYSCTL_PROFILE_CPU_OFFLINED;
        if ( start_cpu(cpu, &why) )
            pc->flags |= XEN_SYSCTL_PROFILE_CPU_FAILED;
        break;

    case CPU_ONLINE:
        pc->flags |= XEN_SYSCTL_PROFILE_CPU_LEFT_OUT;
        break;

    default:
        break;
    }

    return NOTIFY_DONE;
}

static struct notifier_block cpu_nfb = {
    .notifier_call = cpu_callback,
};

static int __init cf_check profile_init(void)
{
    /* The ring tells LOST records from samples by the public type. */
    BUILD_BUG_ON(PROFILE_REC_LOST != XEN_SYSCTL_PROFILE_REC_LOST);
    BUILD_BUG_ON(PROFILE_REC_PAD == XEN_SYSCTL_PROFILE_REC_SAMPLE);
    BUILD_BUG_ON(sizeof(struct profile_ring_lost) !=
                 sizeof(struct xen_sysctl_profile_lost));
    BUILD_BUG_ON(offsetof(struct profile_ring_lost, cpu) !=
                 offsetof(struct xen_sysctl_profile_lost, hdr.cpu));
    BUILD_BUG_ON(offsetof(struct profile_ring_lost, timestamp) !=
                 offsetof(struct xen_sysctl_profile_lost, hdr.timestamp));
    BUILD_BUG_ON(offsetof(struct profile_ring_lost, count) !=
                 offsetof(struct xen_sysctl_profile_lost, count));
    /* A chunk holds the largest record, the smallest ring two. */
    BUILD_BUG_ON((PAGE_SIZE << PROFILE_CHUNK_ORDER) <
                 XEN_SYSCTL_PROFILE_MAX_RECORD);
    BUILD_BUG_ON((PROFILE_RING_KIB_MIN << 10) <
                 2 * XEN_SYSCTL_PROFILE_MAX_RECORD);
    register_cpu_notifier(&cpu_nfb);
    return 0;
}
__initcall(profile_init);

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
