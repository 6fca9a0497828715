/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-control.c: a session's life cycle (xen/common/profile/control.c)
 * driven through profile_sysctl() as the sysctl and its continuations
 * call it, with CPU hotplug notifications in between.  The pCPUs, the
 * heap, preemption and the sample source are this file's:
 *   - every call yields at the first preemption check when asked to, so a
 *     start or stop is seen between any two of its steps;
 *   - the source refuses a start or stop on an offline pCPU, a start of a
 *     pCPU already started or without its ring, and any call without the
 *     CPU maps held (counted as violations, which must stay 0);
 *   - the heap counts pages and blocks out, so a session that ends must
 *     give all of them back.
 */
#include <stdarg.h>

#include "emul-control.h"
#include "test.h"

#define NCPUS 4

unsigned int nr_cpu_ids = NCPUS;
unsigned long cpu_khz = 2000000;
struct profile_cpu *profile_cpus;
struct profile_config profile_session;

static uint64_t online = (1u << NCPUS) - 1;
static bool maps_held;
static bool preempt;                /* every preemption check says yield */
static unsigned int preempt_checks;
static long pages_out, blocks_out;
static uint64_t cycles;
static unsigned int violations;

/* The source: which pCPUs it samples, and what each call did. */
static bool started[NCPUS];
static unsigned int starts, stops, prepares;
static int refuse_rc[NCPUS];        /* start fails with it on that pCPU */
static struct notifier_block *notifier;

/* control.c's initcall (__initcall in emul-control.h). */
extern int (*const test_control_init)(void);

void test_printk(const char *fmt, ...)
{
}

const void *memchr_inv(const void *p, int c, size_t n)
{
    const uint8_t *b = p;

    for ( ; n; n--, b++ )
        if ( *b != (uint8_t)c )
            return b;
    return NULL;
}

unsigned int get_order_from_bytes(unsigned long size)
{
    unsigned int order = 0;

    while ( (PAGE_SIZE << order) < size )
        order++;
    return order;
}

void *alloc_xenheap_pages(unsigned int order, unsigned int memflags)
{
    void *p;

    if ( posix_memalign(&p, PAGE_SIZE, PAGE_SIZE << order) )
        p = NULL;
    else
    {
        memset(p, 0xa5, PAGE_SIZE << order);
        pages_out += 1L << order;
    }
    return p;
}

void free_xenheap_pages(void *p, unsigned int order)
{
    free(p);
    pages_out -= 1L << order;
}

void get_outstanding_claims(uint64_t *free_pages, uint64_t *outstanding_pages)
{
    *free_pages = 1u << 20;
    *outstanding_pages = 0;
}

void *test_malloc(size_t size, size_t align, bool zero)
{
    void *p;

    if ( align < sizeof(void *) )
        align = sizeof(void *);
    if ( posix_memalign(&p, align, size) )
        p = NULL;
    else if ( zero )
        memset(p, 0, size);
    blocks_out += !!p;
    return p;
}

void test_free(void *p)
{
    blocks_out -= !!p;
    free(p);
}

bool hypercall_preempt_check(void)
{
    preempt_checks++;
    return preempt;
}

uint64_t get_cycles(void)
{
    return ++cycles;
}

bool get_cpu_maps(void)
{
    maps_held = true;
    return true;
}

void put_cpu_maps(void)
{
    maps_held = false;
}

void register_cpu_notifier(struct notifier_block *nb)
{
    notifier = nb;
}

void arch_profile_prepare(void)
{
    prepares++;
}

static bool online_cpu(unsigned int cpu)
{
    return online & (1ULL << cpu);
}

static int cf_check fake_start(const struct profile_config *cfg,
                               unsigned int cpu, unsigned int *reason)
{
    if ( !maps_held || !online_cpu(cpu) || started[cpu] ||
         !(profile_cpus[cpu].flags & XEN_SYSCTL_PROFILE_CPU_RING) )
        violations++;
    starts++;
    if ( refuse_rc[cpu] )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_VPMU;
        return refuse_rc[cpu];
    }
    started[cpu] = true;
    return 0;
}

static void cf_check fake_stop(unsigned int cpu)
{
    if ( !maps_held || !online_cpu(cpu) || !started[cpu] )
        violations++;
    stops++;
    started[cpu] = false;
}

static const struct profile_source fake_source = {
    .id = XEN_SYSCTL_PROFILE_SOURCE_TIMER,
    .start = fake_start,
    .stop = fake_stop,
};

/* request.c's part, as it answers a valid request. */
int profile_get_config(const struct xen_sysctl_profile_start *s,
                       struct profile_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->source = s->source;
    cfg->frequency = s->frequency;
    cfg->max_depth = s->max_depth;
    cfg->ring_kib = s->ring_kib;
    return 0;
}

/* The request's pCPUs: all online ones; -EINVAL when none. */
int profile_get_cpumask(const struct xenctl_bitmap *map, cpumask_t *mask)
{
    mask->bits = online;
    return online ? 0 : -EINVAL;
}

const struct profile_source *profile_pick_source(struct profile_config *cfg,
                                                 int *rc)
{
    cfg->reason = XEN_SYSCTL_PROFILE_REASON_REQUESTED;
    *rc = 0;
    return &fake_source;
}

/* Take a pCPU down (or try to: fail), or bring it up, as cpu.c does. */
static void cpu_down(unsigned int cpu, bool fail)
{
    maps_held = true;
    notifier->notifier_call(notifier, CPU_DOWN_PREPARE,
                            (void *)(unsigned long)cpu);
    if ( fail )
        notifier->notifier_call(notifier, CPU_DOWN_FAILED,
                                (void *)(unsigned long)cpu);
    else
        online &= ~(1ULL << cpu);
    maps_held = false;
}

static void cpu_up(unsigned int cpu)
{
    maps_held = true;
    online |= 1ULL << cpu;
    notifier->notifier_call(notifier, CPU_ONLINE, (void *)(unsigned long)cpu);
    maps_held = false;
}

static uint8_t bitmap_bits;         /* the request's cpumap handle */

static void start_op(struct xen_sysctl_profile_op *op)
{
    memset(op, 0, sizeof(*op));
    op->cmd = XEN_SYSCTL_PROFILE_start;
    op->u.start.source = XEN_SYSCTL_PROFILE_SOURCE_TIMER;
    op->u.start.frequency = 997;
    op->u.start.max_depth = 16;
    op->u.start.ring_kib = 256;     /* four chunks of 64 KiB */
    op->u.start.cpumap.nr_bits = NCPUS;
    set_xen_guest_handle(op->u.start.cpumap.bitmap, &bitmap_bits);
}

/*
 * One hypercall of op (cmd with no argument when op is NULL), as its
 * caller sees it: each -ERESTART continued with the caller's own op again,
 * at most max calls.  *calls says how many there were; *op is the last
 * call's answer.
 */
static int call(struct xen_sysctl_profile_op *op, unsigned int cmd,
                unsigned int max, unsigned int *calls)
{
    struct xen_sysctl_profile_op asked, mine;
    int rc;

    if ( !op )
    {
        memset(&mine, 0, sizeof(mine));
        mine.cmd = cmd;
        op = &mine;
    }
    asked = *op;
    *calls = 0;
    do {
        *op = asked;
        rc = profile_sysctl(op);
        ++*calls;
    } while ( rc == -ERESTART && *calls < max );

    return rc;
}

static unsigned int state_now(void)
{
    struct xen_sysctl_profile_op op = { .cmd = XEN_SYSCTL_PROFILE_status };

    return profile_sysctl(&op) ? ~0u : op.u.status.state;
}

static unsigned int cpu_flags(unsigned int cpu)
{
    struct xen_sysctl_profile_cpu e[NCPUS];
    struct xen_sysctl_profile_op op = { .cmd = XEN_SYSCTL_PROFILE_status };

    op.u.status.nr_cpus = NCPUS;
    set_xen_guest_handle(op.u.status.cpus, e);
    return profile_sysctl(&op) ? ~0u : e[cpu].flags;
}

static unsigned int nr_started(void)
{
    unsigned int cpu, n = 0;

    for ( cpu = 0; cpu < NCPUS; cpu++ )
        n += started[cpu];
    return n;
}

/*
 * Nothing sampled, nothing held but profile_cpus (kept from the first
 * start on): a session ended as it should.
 */
static bool all_given_back(void)
{
    return state_now() == XEN_SYSCTL_PROFILE_STATE_IDLE && !nr_started() &&
           !pages_out && blocks_out == !!profile_cpus && !violations;
}

/* Stop and release the session, without preemption. */
static void end_session(void)
{
    unsigned int calls;

    preempt = false;
    call(NULL, XEN_SYSCTL_PROFILE_stop, 1, &calls);
    call(NULL, XEN_SYSCTL_PROFILE_release, 1, &calls);
}

/*
 * Each pCPU's sample path writes its own struct profile_cpu (ring index,
 * cost, counts) on every sample: no two pCPUs may share a cache line.
 */
static void test_cpu_state_lines(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int calls, cpu, shared = 0;
    int rc;

    start_op(&op);
    rc = call(&op, XEN_SYSCTL_PROFILE_start, 100, &calls);
    /* Each boundary once: pCPU cpu's first byte, its neighbour's last. */
    for ( cpu = 1; rc == 0 && cpu < NCPUS; cpu++ )
        if ( (uintptr_t)&profile_cpus[cpu] / SMP_CACHE_BYTES ==
             ((uintptr_t)&profile_cpus[cpu] - 1) / SMP_CACHE_BYTES )
            shared++;
    tap_ok(rc == 0 && !shared,
           "control: no two pCPUs' state shares a %u-byte cache line "
           "(%u shared, struct of %zu bytes)", SMP_CACHE_BYTES, shared,
           sizeof(*profile_cpus));
    end_session();
}

/* A start that yields at every step starts one pCPU per call at most. */
static void test_start_yields(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int calls = 0, most = 0, before, prepared = prepares;
    int rc;

    start_op(&op);
    preempt = true;
    do {
        struct xen_sysctl_profile_op again = op;

        before = starts;
        rc = profile_sysctl(&again);
        if ( starts - before > most )
            most = starts - before;
    } while ( rc == -ERESTART && ++calls < 100 );
    tap_ok(rc == 0 && state_now() == XEN_SYSCTL_PROFILE_STATE_RUNNING &&
           nr_started() == NCPUS,
           "control: a start that yields at every step ends RUNNING, all "
           "%u pCPUs sampled (rc %d)", NCPUS, rc);
    tap_ok(most == 1,
           "control: ... starting one pCPU per call at most (%u)", most);
    tap_ok(prepares - prepared == 1,
           "control: ... preparing the architecture once (%u)",
           prepares - prepared);

    /* A stop that yields quiesces one pCPU per call. */
    before = stops;
    rc = call(NULL, XEN_SYSCTL_PROFILE_stop, 100, &calls);
    tap_ok(rc == 0 && calls == NCPUS && stops - before == NCPUS &&
           state_now() == XEN_SYSCTL_PROFILE_STATE_STOPPED,
           "control: a stop that yields stops one pCPU per call, no call "
           "more (%u calls, %u stops)", calls, stops - before);
    rc = call(NULL, XEN_SYSCTL_PROFILE_release, 1000, &calls);
    tap_ok(rc == 0 && all_given_back(),
           "control: release frees the rings, every page back (%ld pages, "
           "%ld blocks out)", pages_out, blocks_out);
    preempt = false;
}

/*
 * Call a start that yields at every step until until() holds (at most 100
 * calls): its last rc.
 */
static int start_until(struct xen_sysctl_profile_op *op,
                       bool (*until)(void))
{
    unsigned int n = 0;
    int rc;

    preempt = true;
    do {
        struct xen_sysctl_profile_op again = *op;

        rc = profile_sysctl(&again);
    } while ( rc == -ERESTART && !until() && ++n < 100 );

    return rc;
}

static bool one_ring(void)
{
    return pages_out > 0;
}

static bool cpu1_started(void)
{
    return started[1];
}

static bool two_started(void)
{
    return nr_started() >= 2;
}

/*
 * A pCPU goes offline while a start is under way: the pCPUs already
 * started are stopped (the one going offline by the notifier, before it
 * goes), and the start fails with nothing kept.
 */
static void test_down_while_starting(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int calls;
    int rc;

    start_op(&op);
    rc = start_until(&op, two_started);
    tap_ok(rc == -ERESTART && nr_started() == 2 &&
           state_now() == XEN_SYSCTL_PROFILE_STATE_STARTING,
           "control: a start that yields is STARTING with 2 pCPUs sampled "
           "(rc %d, %u)", rc, nr_started());
    cpu_down(1, false);
    tap_ok(!started[1] && !violations,
           "control: a sampled pCPU going offline during a start is "
           "stopped before it goes (%u violations)", violations);
    rc = call(&op, 0, 1000, &calls);
    tap_ok(rc == -EAGAIN && all_given_back(),
           "control: ... and the start's continuation fails with -EAGAIN, "
           "nothing kept (rc %d, %ld pages, %ld blocks, %u violations)",
           rc, pages_out, blocks_out, violations);
    cpu_up(1);
    preempt = false;
}

/*
 * A pCPU goes offline and comes back between two calls of a start, which
 * then finds the same online pCPUs: it must fail all the same, for the
 * pCPU was left out (had a ring) or stopped (was started) meanwhile.
 * Likewise when its offlining fails: the start is not resumed on it.
 */
static void test_hotplug_while_starting(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int calls;
    int rc;

    start_op(&op);
    rc = start_until(&op, one_ring);
    cpu_down(1, false);
    cpu_up(1);
    rc = call(&op, 0, 1000, &calls);
    tap_ok(rc == -EAGAIN && all_given_back(),
           "control: a pCPU offlined and back while the rings are "
           "allocated: the start fails with -EAGAIN, nothing kept (rc %d, "
           "%u sampled)", rc, nr_started());

    start_op(&op);
    rc = start_until(&op, cpu1_started);
    cpu_down(1, false);
    cpu_up(1);
    rc = call(&op, 0, 1000, &calls);
    tap_ok(rc == -EAGAIN && all_given_back(),
           "control: a started pCPU offlined and back while the others "
           "start: the start fails with -EAGAIN, nothing kept (rc %d, %u "
           "sampled)", rc, nr_started());

    start_op(&op);
    rc = start_until(&op, cpu1_started);
    cpu_down(1, true);
    tap_ok(!started[1] && !violations,
           "control: a started pCPU whose offlining fails while the others "
           "start is not started again (%u violations)", violations);
    rc = call(&op, 0, 1000, &calls);
    tap_ok(rc == -EAGAIN && all_given_back(),
           "control: ... and the start fails with -EAGAIN, nothing kept "
           "(rc %d)", rc);
    preempt = false;
}

/* The caller gives up a start half-way: release undoes it. */
static void test_release_while_starting(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int calls;
    int rc;

    start_op(&op);
    rc = start_until(&op, two_started);
    rc = call(NULL, XEN_SYSCTL_PROFILE_stop, 1, &calls);
    tap_ok(rc == -EBUSY, "control: stop during a start: -EBUSY (%d)", rc);
    rc = call(NULL, XEN_SYSCTL_PROFILE_release, 1000, &calls);
    tap_ok(rc == 0 && all_given_back(),
           "control: release during a start stops the pCPUs it started and "
           "frees everything (rc %d, %u left sampled)", rc, nr_started());
    preempt = false;
}

/* No pCPU can start: the start fails as the first refusal says. */
static void test_none_starts(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int cpu, calls;
    int rc;

    for ( cpu = 0; cpu < NCPUS; cpu++ )
        refuse_rc[cpu] = -EBUSY;
    start_op(&op);
    rc = call(&op, 0, 1000, &calls);
    tap_ok(rc == -EBUSY &&
           op.u.start.reason == XEN_SYSCTL_PROFILE_REASON_VPMU &&
           all_given_back(),
           "control: no pCPU can start: -EBUSY, reason VPMU, nothing kept "
           "(rc %d, reason %u)", rc, op.u.start.reason);

    refuse_rc[2] = 0;
    preempt = true;
    start_op(&op);
    rc = call(&op, 0, 1000, &calls);
    tap_ok(rc == 0 && op.u.start.nr_failed == NCPUS - 1 &&
           nr_started() == 1 &&
           cpu_flags(0) == (XEN_SYSCTL_PROFILE_CPU_RING |
                            XEN_SYSCTL_PROFILE_CPU_FAILED) &&
           cpu_flags(2) == (XEN_SYSCTL_PROFILE_CPU_RING |
                            XEN_SYSCTL_PROFILE_CPU_SAMPLED),
           "control: one pCPU of %u starts, across continuations: the start "
           "succeeds, nr_failed %u", NCPUS, op.u.start.nr_failed);
    for ( cpu = 0; cpu < NCPUS; cpu++ )
        refuse_rc[cpu] = 0;
    end_session();
    tap_ok(all_given_back(), "control: ... and ends with everything back");
}

/*
 * CPU hotplug in a running session: a pCPU whose offlining fails samples
 * again; one that went offline and came back is left out, and stays out
 * when a later offlining of it fails.
 */
static void test_hotplug_running(void)
{
    struct xen_sysctl_profile_op op;
    unsigned int calls, before;
    int rc;

    starts = stops = 0;
    start_op(&op);
    rc = call(&op, 0, 1, &calls);
    cpu_down(1, true);
    tap_ok(rc == 0 && started[1] &&
           cpu_flags(1) == (XEN_SYSCTL_PROFILE_CPU_RING |
                            XEN_SYSCTL_PROFILE_CPU_SAMPLED),
           "control: a pCPU whose offlining fails samples again (flags %#x)",
           cpu_flags(1));
    cpu_down(1, false);
    tap_ok(!started[1] &&
           cpu_flags(1) == (XEN_SYSCTL_PROFILE_CPU_RING |
                            XEN_SYSCTL_PROFILE_CPU_OFFLINED),
           "control: an offlined pCPU keeps its ring (flags %#x)",
           cpu_flags(1));
    cpu_up(1);
    tap_ok(!started[1] &&
           (cpu_flags(1) & ~XEN_SYSCTL_PROFILE_CPU_OFFLINED) ==
           (XEN_SYSCTL_PROFILE_CPU_RING | XEN_SYSCTL_PROFILE_CPU_LEFT_OUT),
           "control: back online, it is left out (flags %#x)", cpu_flags(1));
    before = starts;
    cpu_down(1, true);
    tap_ok(!started[1] && starts == before && !violations,
           "control: ... and a failed offlining of it then does not start "
           "it again (%u starts)", starts - before);

    /* A pCPU whose source cannot start again after a failed offlining. */
    refuse_rc[2] = -EIO;
    cpu_down(2, true);
    refuse_rc[2] = 0;
    tap_ok(!started[2] &&
           cpu_flags(2) == (XEN_SYSCTL_PROFILE_CPU_RING |
                            XEN_SYSCTL_PROFILE_CPU_FAILED),
           "control: a pCPU that cannot be started again after a failed "
           "offlining is flagged failed, not offlined (flags %#x)",
           cpu_flags(2));
    end_session();
    tap_ok(all_given_back() && stops == starts - 1,
           "control: the session ends with everything back, a stop for "
           "each start that succeeded (%u, %u)", stops, starts);
}

void test_control(void)
{
    test_control_init();
    test_cpu_state_lines();
    test_start_yields();
    test_down_while_starting();
    test_hotplug_while_starting();
    test_release_while_starting();
    test_none_starts();
    test_hotplug_running();
}
