/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-timer.c: the timer sample source (xen/common/profile/timer.c) on
 * a clock and timers of this file's: what a start request may ask, the
 * count of sampled pCPUs the timer interrupt's hook tests, when a sample
 * is due, how the deadline catches up after interrupts were off, and the
 * order of the accesses another pCPU's interrupt depends on: the
 * deadline written before the flag that publishes it (smp_wmb()), the
 * flag read before the deadline (smp_rmb()).
 */
#include "emul-timer.h"
#include "test.h"

#define PERIOD  MICROSECS(1000)
#define SLOP    MICROSECS(100)      /* PROFILE_TIMER_SLOP */

unsigned int test_cpu;
struct timer_trace test_timer_trace;
static s_time_t clock_now;
static unsigned int starting;       /* the pCPU start() starts */

s_time_t NOW(void)
{
    test_timer_trace.now_wmb = test_timer_trace.wmb;
    test_timer_trace.now_rmb = test_timer_trace.rmb;
    return clock_now;
}

/* Xen's init_timer() of a timer still set corrupts the timer heap. */
void init_timer(struct timer *t, void (*fn)(void *data), void *data,
                unsigned int cpu)
{
    if ( t->active )
        test_timer_trace.misuse++;
    t->fn = fn;
    t->data = data;
    t->cpu = cpu;
    t->active = false;
}

void set_timer(struct timer *t, s_time_t expires)
{
    t->expires = expires;
    t->active = true;
}

/* And its kill_timer() of a timer never initialised follows NULL. */
void kill_timer(struct timer *t)
{
    if ( !t->fn )
        test_timer_trace.misuse++;
    t->active = false;
}

bool test_flag_read(const bool *p)
{
    test_timer_trace.read_rmb = test_timer_trace.rmb;
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void test_flag_write(bool *p, bool v)
{
    if ( v )
    {
        test_timer_trace.set_wmb = test_timer_trace.wmb;
        test_timer_trace.set_next = profile_cpus[starting].next;
    }
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static void test_timer_check(void)
{
    struct profile_config cfg = { .period = PERIOD };
    unsigned int reason = 0;
    const struct profile_source *s = &profile_timer_source;

    tap_ok(s->check(&cfg, &reason) == 0, "timer: 1 kHz accepted");
    cfg.event = 1;
    tap_ok(s->check(&cfg, &reason) == -EINVAL,
           "timer: an event is -EINVAL (PMU only)");
    cfg.event = 0;
    cfg.period = PROFILE_TIMER_NS_MIN;
    tap_ok(s->check(&cfg, &reason) == 0, "timer: the shortest period");
    cfg.period = PROFILE_TIMER_NS_MIN - 1;
    tap_ok(s->check(&cfg, &reason) == -EINVAL,
           "timer: a period under it is -EINVAL");
    cfg.period = PROFILE_TIMER_NS_MAX;
    tap_ok(s->check(&cfg, &reason) == 0, "timer: the longest period");
    cfg.period = PROFILE_TIMER_NS_MAX + 1;
    tap_ok(s->check(&cfg, &reason) == -EINVAL,
           "timer: a period over it is -EINVAL");
}

/* A start of cpu, and whether it published the deadline it armed. */
static void start(const struct profile_config *cfg, unsigned int cpu)
{
    struct profile_cpu *pc = &profile_cpus[cpu];
    unsigned int reason = 0;

    starting = cpu;
    tap_ok(profile_timer_source.start(cfg, cpu, &reason) == 0 &&
           pc->timer.active && pc->timer.cpu == cpu &&
           pc->timer.expires == clock_now + PERIOD &&
           pc->next == clock_now + PERIOD,
           "timer: pCPU %u started, its timer due in one period", cpu);
}

static void test_timer_counts(const struct profile_config *cfg)
{
    const struct profile_source *s = &profile_timer_source;

    tap_ok(!atomic_read(&profile_timer_cpus),
           "timer: no pCPU counted before a start");
    s->stop(3);
    tap_ok(!atomic_read(&profile_timer_cpus) && !test_timer_trace.misuse,
           "timer: a stop of a pCPU never started does nothing");
    clock_now = SECONDS(5);
    start(cfg, 1);
    tap_ok(test_timer_trace.set_wmb > test_timer_trace.now_wmb &&
           test_timer_trace.set_next == clock_now + PERIOD,
           "timer: the deadline written, then smp_wmb(), then the flag");
    tap_ok(atomic_read(&profile_timer_cpus) == 1, "timer: 1 pCPU counted");
    s->stop(1);
    clock_now += PERIOD / 3;
    start(cfg, 1);
    tap_ok(atomic_read(&profile_timer_cpus) == 1 &&
           test_timer_trace.set_next == clock_now + PERIOD,
           "timer: a stop then a start counts the pCPU once, anew");
    start(cfg, 2);
    tap_ok(atomic_read(&profile_timer_cpus) == 2, "timer: 2 pCPUs counted");
    s->stop(2);
    tap_ok(atomic_read(&profile_timer_cpus) == 1 &&
           !profile_cpus[2].timer.active,
           "timer: a stop uncounts the pCPU and kills its timer");
    s->stop(2);
    s->stop(3);
    tap_ok(atomic_read(&profile_timer_cpus) == 1,
           "timer: a stop of a pCPU not sampled counts nothing");
}

static void test_timer_due(void)
{
    struct profile_cpu *pc = &profile_cpus[1];
    s_time_t next = pc->next;
    unsigned int rmb = test_timer_trace.rmb;

    test_cpu = 0;
    tap_ok(!profile_timer_due() && test_timer_trace.rmb == rmb,
           "timer: not due where the pCPU is not sampled, no barrier");
    test_cpu = 1;
    clock_now = next - SLOP - 1;
    tap_ok(!profile_timer_due() && pc->next == next,
           "timer: not due before the deadline's slop");
    tap_ok(test_timer_trace.now_rmb > test_timer_trace.read_rmb,
           "timer: smp_rmb() between the flag and the deadline read");
    clock_now = next - SLOP;
    tap_ok(profile_timer_due() && pc->next == next + PERIOD,
           "timer: due within the slop, the deadline one period on");
    clock_now = pc->next + 10 * PERIOD;
    tap_ok(profile_timer_due() && pc->next == clock_now + PERIOD,
           "timer: after interrupts were off, due once, one period on");
    tap_ok(!profile_timer_due(), "timer: and not again at once");
}

/*
 * At the shortest period the slop must stay below it: an interrupt just
 * after a sample (another timer's, an IPI) is not the next sample's.
 */
static void test_timer_due_fastest(void)
{
    struct profile_cpu *pc = &profile_cpus[1];
    uint64_t saved = profile_session.period;
    s_time_t fast = PROFILE_TIMER_NS_MIN;

    profile_session.period = fast;
    test_cpu = 1;
    clock_now = pc->next;
    tap_ok(profile_timer_due() && pc->next == clock_now + fast,
           "timer: at the shortest period, due at the deadline");
    clock_now += MICROSECS(1);
    tap_ok(!profile_timer_due(),
           "timer: at the shortest period, not due again 1 us after a sample");
    clock_now = pc->next - fast / 2 - 1;
    tap_ok(!profile_timer_due(),
           "timer: at the shortest period, the slop is at most half a period");
    clock_now = pc->next - fast / 2;
    tap_ok(profile_timer_due() && pc->next == clock_now + fast / 2 + fast,
           "timer: at the shortest period, due half a period early");
    profile_session.period = saved;
    pc->next = clock_now + PERIOD;
}

static void test_timer_fn(void)
{
    struct profile_cpu *pc = &profile_cpus[1];
    s_time_t next = pc->next;

    pc->timer.fn(pc->timer.data);
    tap_ok(pc->next == next && pc->timer.expires == next,
           "timer: the softirq re-arms at the deadline the interrupt set");
    clock_now = next + 2 * PERIOD + PERIOD / 2;
    pc->timer.fn(pc->timer.data);
    tap_ok(pc->next == next + 3 * PERIOD && pc->timer.expires == pc->next,
           "timer: a deadline past skips to the next one in phase");
    clock_now = pc->next;
    pc->timer.fn(pc->timer.data);
    tap_ok(pc->next == clock_now + PERIOD,
           "timer: a deadline now is past: never armed in the past");
}

void test_timer(void)
{
    struct profile_cpu *saved_cpus = profile_cpus;
    struct profile_config saved_session = profile_session;
    static struct profile_cpu cpus[4];
    struct profile_config cfg = {
        .source = XEN_SYSCTL_PROFILE_SOURCE_TIMER, .period = PERIOD,
    };

    profile_cpus = cpus;
    profile_session = cfg;
    test_timer_check();
    test_timer_counts(&cfg);
    test_timer_due();
    test_timer_due_fastest();
    test_timer_fn();
    profile_timer_source.stop(1);
    tap_ok(!atomic_read(&profile_timer_cpus),
           "timer: no pCPU counted after the last stop");
    tap_ok(!test_timer_trace.misuse,
           "timer: no timer re-initialised while set, none killed unset");
    profile_cpus = saved_cpus;
    profile_session = saved_session;
}
