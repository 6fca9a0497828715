/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.c: the PMUv3 sample source of Xen on Arm (AArch64).
 *
 * The cycle counter (PMCCNTR_EL0, 64 bits with PMCR_EL0.LC) is armed to
 * overflow every period cycles, counting at EL2 as well as in guests
 * (PMCCFILTR_EL0.NSH), and its overflow interrupt, the PMU's PPI from the
 * device tree, takes the sample.  The cycle counter is outside
 * MDCR_EL2.HPMN, so Xen's per-vCPU MDCR_EL2 (HPMN 0: every event counter
 * reserved to EL2 but disabled, HPME 0) leaves it alone; event counters
 * would need HPME, so other events are refused (XEN_PROFILE_REASON_NO_EVENT).
 *
 * Arm Xen has no NMI: the overflow is an ordinary IRQ at Xen's IRQ
 * priority, so it waits wherever IRQs are masked or another IRQ handler
 * runs, the same skid as the timer source.
 *
 * Exclusion: the source owns the PMU for the whole session
 * (xen/pmu-owner.h).  A domain created with the vpmu option, which gives
 * its guest the real PMU registers, owns it as PMU_OWNER_HVM (patch:
 * arch/arm/domain.c) for its life: a session is then refused with
 * -EBUSY (XEN_PROFILE_REASON_VPMU), and such a domain cannot be created
 * while a session runs.  Dom0 never has vpmu, and Xen hides the PMU node
 * from it.
 *
 * The IRQ is set up on each pCPU (a PPI is banked) the first time that
 * pCPU samples, and never released: release_irq() waits for a handler in
 * progress, which an IPI (at a higher priority) could be interrupting.
 * Stopped, the counter's interrupt is disabled at the PMU, and a late
 * overflow interrupt finds nothing armed and returns.
 */
#include <xen/device_tree.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/irq.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/pmu-owner.h>
#include <xen/profile-source.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <asm/cpufeature.h>
#include <asm/sysregs.h>
#include <asm/time.h>
#include <public/profilectl.h>

#include "sample.h"

#define PMCR_E          (1U << 0)   /* enable */
#define PMCR_LC         (1U << 6)   /* 64-bit cycle counter overflow */
#define PMCCFILTR_NSH   (1U << 27)  /* count at (non-secure) EL2 */
#define PMU_CYCLE_BIT   (1U << 31)  /* the cycle counter's bit in PMxxx */

#define PMU_MIN_PERIOD  10000
#define PMU_MAX_PERIOD  (1ULL << 62)
#define PMU_MAX_HZ      10000
/* Frequency mode's first period: a guess of 1 GHz, adapted from there. */
#define PMU_GUESS_HZ    1000000000ULL

struct pmu_cpu {
    bool active;                    /* our counter is armed */
    uint64_t period;                /* cycles between overflows, now */
    unsigned int frequency;         /* Hz asked for; 0: fixed period */
    uint64_t last;                  /* get_cycles() at the last arm */
    uint64_t irqs;                  /* overflows of our counter */
    /* What start found, put back by stop. */
    register_t saved_pmcr, saved_filter;
};

static DEFINE_PER_CPU(struct pmu_cpu, pmu_state);
static DEFINE_PER_CPU(struct irqaction, pmu_action);
static DEFINE_PER_CPU(int, pmu_start_rc);
static int pmu_irq = -1;            /* the PMU's PPI, once probed */
static const char *pmu_why;         /* why there is none */
static unsigned int nr_started;     /* pCPUs armed; under the CPU maps */

static const struct dt_device_match pmu_dt_match[] = {
    DT_MATCH_COMPATIBLE("arm,armv8-pmuv3"),
    DT_MATCH_COMPATIBLE("arm,cortex-a53-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a57-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a72-pmu"),
    { /* sentinel */ },
};

/* The PMU and its PPI, once (sysctl context). */
static int pmu_probe(void)
{
    const struct dt_device_node *np;
    int irq;

    if ( pmu_irq >= 0 )
        return 0;
    if ( pmu_why )
        return -EOPNOTSUPP;
    if ( !cpu_has_pmu )
        pmu_why = "the CPU has no PMUv3 (ID_AA64DFR0_EL1.PMUVer)";
    else if ( !(np = dt_find_matching_node(NULL, pmu_dt_match)) )
        pmu_why = "no PMU node in the device tree";
    else if ( (irq = platform_get_irq(np, 0)) < 0 )
        pmu_why = "the PMU node has no usable interrupt";
    else if ( irq < NR_GIC_SGI || irq >= NR_GIC_LOCAL_IRQS )
        pmu_why = "the PMU interrupt is not a PPI";
    else
    {
        pmu_irq = irq;
        return 0;
    }
    printk(XENLOG_WARNING "profiler: no usable PMU: %s\n", pmu_why);
    return -EOPNOTSUPP;
}

static void arm_counter(struct pmu_cpu *pc)
{
    WRITE_SYSREG(-pc->period, PMCCNTR_EL0);
    pc->last = get_cycles();
}

/* The PMU's overflow interrupt, on this pCPU (IRQ context). */
static void pmu_interrupt(int irq, void *dev_id)
{
    struct pmu_cpu *pc = &this_cpu(pmu_state);
    uint64_t now;

    if ( !(READ_SYSREG(PMOVSCLR_EL0) & PMU_CYCLE_BIT) )
        return;
    /* Acknowledge before the level interrupt is ended. */
    WRITE_SYSREG(PMU_CYCLE_BIT, PMOVSCLR_EL0);
    isb();
    if ( !ACCESS_ONCE(pc->active) )
        return;                     /* an overflow pending at stop */

    pc->irqs++;
    if ( pc->frequency )
    {
        now = get_cycles();
        pc->period = profile_next_period(pc->period, now - pc->last,
                                         cpu_khz, pc->frequency,
                                         PMU_MIN_PERIOD, PMU_MAX_PERIOD);
    }
    arm_counter(pc);
    isb();
    arm_profile_sample(get_irq_regs());
}

/*
 * A domain with direct PMU access (vpmu) owns the PMU: is there one?
 * Sysctl context.
 */
static bool vpmu_domain_exists(void)
{
    const struct domain *d;
    bool found = false;

    rcu_read_lock(&domlist_read_lock);
    for_each_domain ( d )
        if ( d->options & XEN_DOMCTL_CDF_vpmu )
            found = true;
    rcu_read_unlock(&domlist_read_lock);

    return found;
}

/* Take the PMU for the profiler (arch/arm/domain.c takes it for vpmu). */
static int take_pmu(unsigned int *reason)
{
    if ( acquire_pmu_ownership(PMU_OWNER_PROFILER) )
        return 0;
    *reason = XEN_PROFILE_REASON_VPMU;
    return -EBUSY;
}

static int cf_check pmu_check(const struct profile_config *cfg,
                              unsigned int *reason)
{
    if ( pmu_probe() )
    {
        *reason = XEN_PROFILE_REASON_NO_PMU;
        return -EOPNOTSUPP;
    }
    if ( cfg->event != XEN_PROFILE_EVENT_DEFAULT &&
         cfg->event != XEN_PROFILE_EVENT_CYCLES )
    {
        *reason = XEN_PROFILE_REASON_NO_EVENT;
        return -EOPNOTSUPP;
    }
    if ( cfg->frequency ? cfg->frequency > PMU_MAX_HZ
                        : cfg->period < PMU_MIN_PERIOD ||
                          cfg->period > PMU_MAX_PERIOD )
        return -EINVAL;
    if ( !nr_started && (pmu_owned_by(PMU_OWNER_HVM) || vpmu_domain_exists()) )
    {
        *reason = XEN_PROFILE_REASON_VPMU;
        return -EBUSY;
    }

    return 0;
}

/*
 * On the pCPU to start (IPI): its PPI routed to Xen once, then the cycle
 * counter armed.
 */
static void cf_check start_here(void *data)
{
    const struct profile_config *cfg = data;
    struct pmu_cpu *pc = &this_cpu(pmu_state);
    struct irqaction *a = &this_cpu(pmu_action);
    int rc;

    if ( !cpu_has_pmu )
    {
        this_cpu(pmu_start_rc) = -EOPNOTSUPP;
        return;
    }
    if ( irq_to_desc(pmu_irq)->action != a )
    {
        a->name = "profiler-pmu";
        a->handler = pmu_interrupt;
        a->dev_id = NULL;
        a->free_on_release = 0;
        rc = setup_irq(pmu_irq, 0, a);
        if ( rc )
        {
            this_cpu(pmu_start_rc) = rc;
            return;
        }
    }

    pc->frequency = cfg->frequency;
    pc->period = cfg->frequency ? PMU_GUESS_HZ / cfg->frequency
                                : cfg->period;
    if ( pc->period < PMU_MIN_PERIOD )
        pc->period = PMU_MIN_PERIOD;
    pc->saved_pmcr = READ_SYSREG(PMCR_EL0);
    pc->saved_filter = READ_SYSREG(PMCCFILTR_EL0);

    WRITE_SYSREG(PMU_CYCLE_BIT, PMCNTENCLR_EL0);
    WRITE_SYSREG(PMU_CYCLE_BIT, PMOVSCLR_EL0);
    WRITE_SYSREG(PMCCFILTR_NSH, PMCCFILTR_EL0);
    WRITE_SYSREG(pc->saved_pmcr | PMCR_E | PMCR_LC, PMCR_EL0);
    arm_counter(pc);
    write_atomic(&pc->active, true);
    WRITE_SYSREG(PMU_CYCLE_BIT, PMINTENSET_EL1);
    WRITE_SYSREG(PMU_CYCLE_BIT, PMCNTENSET_EL0);
    isb();
    this_cpu(pmu_start_rc) = 0;
}

/* On the pCPU to stop (IPI): disarm it and put the registers back. */
static void cf_check stop_here(void *data)
{
    struct pmu_cpu *pc = &this_cpu(pmu_state);

    WRITE_SYSREG(PMU_CYCLE_BIT, PMINTENCLR_EL1);
    WRITE_SYSREG(PMU_CYCLE_BIT, PMCNTENCLR_EL0);
    isb();
    write_atomic(&pc->active, false);
    WRITE_SYSREG(PMU_CYCLE_BIT, PMOVSCLR_EL0);
    WRITE_SYSREG(pc->saved_filter, PMCCFILTR_EL0);
    WRITE_SYSREG(pc->saved_pmcr, PMCR_EL0);
    isb();
}

static int cf_check pmu_start(const struct profile_config *cfg,
                              unsigned int cpu)
{
    unsigned int reason;
    int rc;

    if ( !nr_started && (rc = take_pmu(&reason)) )
        return rc;
    per_cpu(pmu_start_rc, cpu) = -EIO;
    on_selected_cpus(cpumask_of(cpu), start_here, (void *)cfg, 1);
    rc = per_cpu(pmu_start_rc, cpu);
    if ( rc )
    {
        printk(XENLOG_WARNING "profiler: pCPU %u: PMU cannot be "
               "programmed (%d): not sampled\n", cpu, rc);
        if ( !nr_started )
            release_pmu_ownership(PMU_OWNER_PROFILER);
        return rc;
    }
    nr_started++;

    return 0;
}

static void cf_check pmu_stop(unsigned int cpu)
{
    on_selected_cpus(cpumask_of(cpu), stop_here, NULL, 1);
    if ( --nr_started )
        return;
    release_pmu_ownership(PMU_OWNER_PROFILER);
}

static const struct profile_source pmu_source = {
    .id = XEN_PROFILE_SOURCE_PMU,
    .check = pmu_check,
    .start = pmu_start,
    .stop = pmu_stop,
};

const struct profile_source *arch_profile_pmu_source(void)
{
    return &pmu_source;
}

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
