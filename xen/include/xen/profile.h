/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile.h: what the rest of Xen sees of the sampling profiler: the
 * sysctl and the two hooks the architecture's interrupt code calls.  The
 * interface between the profiler's common code and its sample sources is
 * xen/profile-source.h.  Without CONFIG_XEN_PROFILER the sysctl answers
 * -ENOSYS, as for an op Xen does not know, and the hooks compile to
 * nothing.
 */
#ifndef XEN_PROFILE_H
#define XEN_PROFILE_H

#include <xen/compiler.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/types.h>
#include <asm/atomic.h>

struct cpu_user_regs;
struct xen_sysctl_profile_op;

/* What profile_pmu_nmi() made of an NMI. */
#define PROFILE_NMI_NONE    0   /* not the profiler's: Xen's handling */
#define PROFILE_NMI_OURS    1   /* the profiler's alone: nothing else to do */
/* The profiler's, and maybe the watchdog's: Xen's handling, never unknown. */
#define PROFILE_NMI_PASS    2

#ifdef CONFIG_XEN_PROFILER

int profile_sysctl(struct xen_sysctl_profile_op *op);

/* pCPUs the timer source samples now: 0 when no timer session runs. */
extern atomic_t profile_timer_cpus;

/*
 * Maybe take a timer sample of the interrupted context (get_irq_regs()),
 * when this pCPU's period is due.  The architecture's profiler code
 * defines it.
 */
void profile_timer_sample(void);

/*
 * Hook in the timer interrupt (x86: the local APIC's).  When no timer
 * session runs it costs one load and one branch predicted not taken.
 */
static always_inline void profile_timer_interrupt(void)
{
    if ( unlikely(atomic_read(&profile_timer_cpus)) )
        profile_timer_sample();
}

#ifdef CONFIG_HAS_XEN_PROFILER_NMI
/*
 * Hook in do_nmi(), after the NMI callback: claim, sample and re-arm an
 * overflow of the profiler's PMU counter (x86, PMU source).
 */
unsigned int profile_pmu_nmi(const struct cpu_user_regs *regs);

/*
 * do_nmi() on the pCPU that gets the platform's NMIs, after an NMI that
 * was the profiler's alone: read port 0x61 now?  (At most every 10 ms.)
 */
bool profile_pmu_nmi_reason_due(void);
#endif

#else

static inline int profile_sysctl(struct xen_sysctl_profile_op *op)
{
    return -ENOSYS;
}

static inline void profile_timer_interrupt(void)
{
}

#ifdef CONFIG_HAS_XEN_PROFILER_NMI
static inline unsigned int profile_pmu_nmi(const struct cpu_user_regs *regs)
{
    return PROFILE_NMI_NONE;
}

static inline bool profile_pmu_nmi_reason_due(void)
{
    return true;
}
#endif

#endif /* CONFIG_XEN_PROFILER */

#if defined(CONFIG_XEN_PROFILER) && defined(CONFIG_HAS_XEN_PROFILER_NMI)
/*
 * Sampling on NMIs and livepatching exclude each other (common/profile/
 * nmi.c).  A PMU source takes a reference while it probes or samples
 * (0, or -EBUSY while a livepatch is applied); the livepatch rendezvous
 * blocks them before it masks NMIs (false: a source holds a reference,
 * refuse) and unblocks after.  Nothing samples on NMIs elsewhere.
 */
int profile_nmi_get(void);
void profile_nmi_put(void);
bool profile_nmi_block(void);
void profile_nmi_unblock(void);
#else
static inline bool profile_nmi_block(void)
{
    return true;
}

static inline void profile_nmi_unblock(void)
{
}
#endif

#endif /* XEN_PROFILE_H */
