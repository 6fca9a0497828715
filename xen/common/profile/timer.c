/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timer.c: the timer sample source.
 *
 * Each sampled pCPU has a Xen timer due at the next sample time.  Its
 * expiry makes the local APIC timer interrupt fire, and the sample is taken
 * in that interrupt, from the interrupted context's registers, as Linux
 * perf's cpu-clock event does: a sample taken in the timer softirq would
 * only ever show the timer code.  The softirq callback merely re-arms the
 * timer.
 *
 * The architecture's timer interrupt hook, profile_timer_interrupt(), asks
 * profile_timer_due() and takes the sample itself.
 *
 * Skid: the interrupt is delivered only where interrupts are enabled, so
 * time spent with IRQs off is charged to the place where they are enabled
 * again (typically local_irq_enable(), spin_unlock_irq*() or the return to
 * a guest).  The PMU source, which samples on NMIs, has no such blind spot.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/profile.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "private.h"

/*
 * An interrupt this early or later counts as the sample's own: the timer
 * code may fire a little ahead of the deadline to batch nearby timers.
 * At most half a period, so that at the shortest period an interrupt
 * just after a sample is not taken for the next one.
 */
#define PROFILE_TIMER_SLOP MICROSECS(100)

/*
 * Set by the pCPU that runs the sysctl, after the pCPU's deadline with a
 * write barrier in between and before its timer is armed; read first by
 * the pCPU's timer interrupt, with a read barrier after it: an interrupt
 * that sees it set sees the deadline it was set with.  An interrupt that
 * read it just before a stop may still advance the deadline: the next
 * start writes a new one before setting the flag again.
 */
static DEFINE_PER_CPU(bool, timer_sampling);

/* Read by the timer interrupt's hook (xen/profile.h) on every pCPU. */
atomic_t __read_mostly profile_timer_cpus;

bool profile_timer_due(void)
{
    struct profile_cpu *pc;
    s_time_t now, period, slop;

    if ( likely(!read_atomic(&this_cpu(timer_sampling))) )
        return false;

    smp_rmb();
    pc = &ACCESS_ONCE(profile_cpus)[smp_processor_id()];
    period = profile_session.period;
    slop = min_t(s_time_t, PROFILE_TIMER_SLOP, period / 2);
    now = NOW();
    if ( now + slop < pc->next )
        return false;

    pc->next += period;
    if ( pc->next <= now )      /* Interrupts were off for a long time. */
        pc->next = now + period;

    return true;
}

static void cf_check timer_fn(void *data)
{
    struct profile_cpu *pc = data;
    s_time_t now, next, period = profile_session.period;
    unsigned long flags;

    /*
     * The interrupt normally advanced next already.  If it did not (the
     * timer softirq can run without an interrupt when a deadline was
     * already past), that sample is skipped: a deadline in the past would
     * make this callback run again at once, forever.  The interrupt
     * updates next too: IRQs off, so that neither update is lost.
     */
    local_irq_save(flags);
    now = NOW();
    if ( pc->next <= now )
        pc->next += period * (1 + (now - pc->next) / period);
    next = pc->next;
    local_irq_restore(flags);
    set_timer(&pc->timer, next);
}

static int cf_check timer_check(const struct profile_config *cfg,
                                unsigned int *reason)
{
    if ( cfg->event )
        return -EINVAL;
    if ( cfg->period < PROFILE_TIMER_NS_MIN ||
         cfg->period > PROFILE_TIMER_NS_MAX )
        return -EINVAL;

    return 0;
}

static int cf_check timer_start(const struct profile_config *cfg,
                                unsigned int cpu, unsigned int *reason)
{
    struct profile_cpu *pc = &profile_cpus[cpu];

    /* The caller stops a pCPU before starting it again. */
    ASSERT(!per_cpu(timer_sampling, cpu));

    init_timer(&pc->timer, timer_fn, pc, cpu);
    pc->next = NOW() + cfg->period;
    smp_wmb();
    write_atomic(&per_cpu(timer_sampling, cpu), true);
    atomic_inc(&profile_timer_cpus);
    set_timer(&pc->timer, pc->next);

    return 0;
}

static void cf_check timer_stop(unsigned int cpu)
{
    /* A pCPU never started has no timer to kill. */
    if ( !per_cpu(timer_sampling, cpu) )
        return;

    write_atomic(&per_cpu(timer_sampling, cpu), false);
    atomic_dec(&profile_timer_cpus);
    kill_timer(&profile_cpus[cpu].timer);
}

const struct profile_source profile_timer_source = {
    .id = XEN_SYSCTL_PROFILE_SOURCE_TIMER,
    .check = timer_check,
    .start = timer_start,
    .stop = timer_stop,
};

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
