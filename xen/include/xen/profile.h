/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile.h: what the rest of Xen sees of the sampling profiler
 * (xen/common/profile/): the sysctl, the timer hook, and the interface
 * between the common code and the architecture's sample sources.
 * Without CONFIG_XEN_PROFILER the sysctl answers -EOPNOTSUPP and the
 * hooks compile to nothing.
 */
#ifndef __XEN_PROFILE_H__
#define __XEN_PROFILE_H__

#include <xen/errno.h>
#include <xen/types.h>
#include <public/sysctl.h>

struct cpu_user_regs;

/* What profile_pmu_nmi() made of an NMI. */
#define PROFILE_NMI_NONE    0   /* not the profiler's: Xen's handling */
#define PROFILE_NMI_OURS    1   /* the profiler's alone: nothing else to do */
#define PROFILE_NMI_PASS    2   /* the profiler's, and maybe the watchdog's:
                                   Xen's handling, but never unknown */

#ifdef CONFIG_XEN_PROFILER

int profile_sysctl(struct xen_sysctl_profile_op *op);

/*
 * Hook in the local APIC timer interrupt: maybe take a timer sample of
 * the interrupted context (get_irq_regs()).
 */
void profile_timer_interrupt(void);

/*
 * Hook in do_nmi(), ahead of the NMI callback: claim, count and re-arm an
 * overflow of the profiler's PMU counter (x86, PMU source).  slot_held:
 * an NMI callback is installed (then no sample is taken, only counted).
 */
unsigned int profile_pmu_nmi(const struct cpu_user_regs *regs,
                             bool slot_held);

/* A validated start request. */
struct profile_config {
    unsigned int source;            /* XEN_PROFILE_SOURCE_TIMER / _PMU */
    unsigned int reason;            /* XEN_PROFILE_REASON_* */
    unsigned int frequency;         /* Hz as asked, 0 if period given */
    uint64_t period;                /* ns (timer) / events (pmu) */
    unsigned int max_depth;         /* 1..XEN_PROFILE_MAX_DEPTH */
    unsigned int ring_kib;
    unsigned int event;
};

/*
 * A sample source.  start() and stop() run in the sysctl or the CPU
 * notifier, IRQs on, the CPU maps held, for one pCPU at a time.
 */
struct profile_source {
    unsigned int id;                /* XEN_PROFILE_SOURCE_* */
    /*
     * Can this host run cfg?  0, or -EOPNOTSUPP / -EBUSY (with *reason, a
     * XEN_PROFILE_REASON_*, saying why) / -EINVAL.
     */
    int (*check)(const struct profile_config *cfg, unsigned int *reason);
    /* Start sampling cpu into its ring.  0 or -errno. */
    int (*start)(const struct profile_config *cfg, unsigned int cpu);
    /*
     * Stop sampling cpu.  A sample may still be in progress on return:
     * the caller waits for it before freeing anything.
     */
    void (*stop)(unsigned int cpu);
};

/* Take one sample of regs on this pCPU (IRQ or NMI context). */
void profile_sample(const struct cpu_user_regs *regs);
/* Count one sample of this pCPU as lost, without taking it. */
void profile_sample_lost(void);

/* The PMU source of this architecture, or NULL when it has none. */
const struct profile_source *arch_profile_pmu_source(void);

/*
 * Before a session starts sampling (sysctl context): let the architecture
 * prepare what its sample path reads, e.g. where stack walks end.
 */
void arch_profile_prepare(void);

/*
 * Fill rec from the interrupted context regs of this pCPU: domain, vCPU,
 * mode, the interrupted IP and, in Xen context, up to max_depth return
 * addresses.  Returns the record size.  Runs in IRQ or NMI context.
 */
unsigned int arch_profile_record(struct xen_profile_record *rec,
                                 const struct cpu_user_regs *regs,
                                 unsigned int max_depth);

#else

static inline int profile_sysctl(void *op)
{
    return -EOPNOTSUPP;
}

static inline void profile_timer_interrupt(void)
{
}

static inline unsigned int profile_pmu_nmi(const struct cpu_user_regs *regs,
                                           bool slot_held)
{
    return PROFILE_NMI_NONE;
}

#endif /* CONFIG_XEN_PROFILER */

#endif /* __XEN_PROFILE_H__ */
