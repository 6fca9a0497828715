/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.c: the PMUv3 sample source of Xen on Arm (AArch64).
 *
 * One counter is armed to overflow every period events, counting at EL2
 * as well as in guests (the NSH filter bit), and its overflow interrupt,
 * the PMU's PPI from the device tree, takes the sample:
 * - cycles (the default): the cycle counter, PMCCNTR_EL0, 64 bits with
 *   PMCR_EL0.LC.  It is outside MDCR_EL2.HPMN, so Xen's per-vCPU MDCR_EL2
 *   leaves it alone.
 * - instructions (INST_RETIRED), branch-misses (BR_MIS_PRED) and
 *   llc-misses (LL_CACHE_MISS_RD), when PMCEID0/1_EL0 list them: event
 *   counter 0 (32 bits).  Xen's HPMN of 0 makes every event counter one
 *   reserved to EL2, enabled by MDCR_EL2.HPME (with FEAT_HPMN0; without
 *   it HPMN 0 is CONSTRAINED UNPREDICTABLE and PMCR_EL0.E may enable it
 *   too): HPME is set while this pCPU samples, and the context switch
 *   keeps it (profile_mdcr_el2() in asm/profile.h, which ctxt_switch_to()
 *   ORs into MDCR_EL2).
 * ref-cycles has no PMUv3 event and is refused
 * (XEN_SYSCTL_PROFILE_REASON_NO_EVENT).
 *
 * Arm Xen has no NMI: the overflow is an ordinary IRQ at Xen's IRQ
 * priority, so it waits wherever IRQs are masked or another IRQ handler
 * runs, the same skid as the timer source.
 *
 * Exclusion: the source owns the PMU for the whole session
 * (xen/pmu-owner.h).  A domain created with the vpmu option, which gives
 * its guest the real PMU registers, owns it as PMU_OWNER_HVM (see
 * arch/arm/domain.c) for its life: a session is then refused with
 * -EBUSY (XEN_SYSCTL_PROFILE_REASON_VPMU), and such a domain cannot be created
 * while a session runs.  Dom0 never has vpmu (and Xen hides the
 * arm,armv8-pmuv3 node from it).
 *
 * The IRQ is set up on each pCPU (a PPI is banked) the first time that
 * pCPU samples, and never released: release_irq() waits for a handler in
 * progress, which an IPI (at a higher priority) could be interrupting.
 * Stopped, the counter's interrupt is disabled at the PMU and the PPI
 * masked at the GIC until the next session.
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
#include <xen/string.h>
#include <asm/cpufeature.h>
#include <asm/profile.h>
#include <asm/sysregs.h>
#include <asm/time.h>
#include <public/sysctl.h>

#include "sample.h"

#define PMCR_E          (1U << 0)   /* enable */
#define PMCR_D          (1U << 3)   /* cycle counter counts every 64 */
#define PMCR_X          (1U << 4)   /* export events */
#define PMCR_DP         (1U << 5)   /* cycle counter off where prohibited */
#define PMCR_LC         (1U << 6)   /* 64-bit cycle counter overflow */
#define PMCR_LP         (1U << 7)   /* 64-bit event counter overflow */
#define PMCR_N(r)       (((r) >> 11) & 0x1f)    /* event counters */
#define PMU_FILTER_NSH  (1U << 27)  /* PMxxFILTR/PMEVTYPER: count at EL2 */
#define PMU_CYCLE_BIT   (1U << 31)  /* the cycle counter's bit in PMxxx */
#define PMU_EVENT_BIT   (1U << 0)   /* event counter 0's */
#define MDCR_HPME       (1U << 7)   /* EL2-reserved event counters on */
#define MDCR_HLP        (1U << 26)  /* ... overflow at 64 bits */

/* PMUv3 common events. */
#define PMU_EV_INST_RETIRED     0x08
#define PMU_EV_BR_MIS_PRED      0x10
#define PMU_EV_LL_CACHE_MISS_RD 0x37

/* Frequency mode's first period: a guess of 1 GHz, adapted from there. */
#define PMU_GUESS_HZ    1000000000ULL

/* Where the session's event is counted. */
struct pmu_counter {
    bool cycle;                     /* the cycle counter, else counter 0 */
    unsigned int event;             /* PMUv3 event number (counter 0) */
    uint32_t bit;                   /* its bit in PMCNTEN, PMINTEN, PMOVS */
    uint64_t max_period;
};

struct pmu_cpu {
    bool active;                    /* our counter is armed */
    struct pmu_counter ctr;
    uint64_t period;                /* events between overflows, now */
    uint64_t asked;                 /* the period asked for (fixed) */
    unsigned int frequency;         /* Hz asked for; 0: fixed period */
    uint64_t last;                  /* get_cycles() at the last arm */
    /* get_cycles() ticks between overflows at PROFILE_MAX_SAMPLE_HZ. */
    uint64_t min_ticks;
    /* What start found, put back by stop. */
    register_t saved_pmcr, saved_filter;
};

DEFINE_PER_CPU(register_t, profile_mdcr_el2);
static DEFINE_PER_CPU(struct pmu_cpu, pmu_state);
static DEFINE_PER_CPU(struct irqaction, pmu_action);
static int __read_mostly pmu_irq = -1; /* the PMU's PPI, once probed */
static const char *pmu_why;         /* why there is none */
static struct pmu_counter __read_mostly counter; /* of the session started */

static const struct dt_device_match pmu_dt_match[] = {
    DT_MATCH_COMPATIBLE("arm,armv8-pmuv3"),
    DT_MATCH_COMPATIBLE("arm,cortex-a35-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a53-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a55-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a57-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a72-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a73-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a76-pmu"),
    DT_MATCH_COMPATIBLE("arm,cortex-a78-pmu"),
    DT_MATCH_COMPATIBLE("arm,neoverse-n1-pmu"),
    DT_MATCH_COMPATIBLE("arm,neoverse-v1-pmu"),
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
    printk(XENLOG_G_WARNING "profiler: no usable PMU: %s\n", pmu_why);
    return -EOPNOTSUPP;
}

/*
 * Map a XEN_SYSCTL_PROFILE_EVENT_* to a counter of this pCPU: 0, or
 * -EOPNOTSUPP when its PMU lacks the event (PMCEID0/1_EL0) or an event
 * counter.
 */
static int pick_counter(unsigned int event, struct pmu_counter *c)
{
    unsigned int num;
    uint64_t ceid;

    memset(c, 0, sizeof(*c));
    switch ( event )
    {
    case XEN_SYSCTL_PROFILE_EVENT_DEFAULT:
    case XEN_SYSCTL_PROFILE_EVENT_CYCLES:
        c->cycle = true;
        c->bit = PMU_CYCLE_BIT;
        c->max_period = 1ULL << 62;
        return 0;
    case XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS:
        num = PMU_EV_INST_RETIRED;
        break;
    case XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES:
        num = PMU_EV_BR_MIS_PRED;
        break;
    case XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES:
        num = PMU_EV_LL_CACHE_MISS_RD;
        break;
    default:                        /* ref-cycles: no PMUv3 event */
        return -EOPNOTSUPP;
    }
    /* Common events 0x00-0x1f in PMCEID0, 0x20-0x3f in PMCEID1. */
    ceid = num < 32 ? READ_SYSREG(PMCEID0_EL0) : READ_SYSREG(PMCEID1_EL0);
    if ( !PMCR_N(READ_SYSREG(PMCR_EL0)) || !((ceid >> (num & 31)) & 1) )
        return -EOPNOTSUPP;
    c->event = num;
    c->bit = PMU_EVENT_BIT;
    c->max_period = 1ULL << 31;     /* a 32-bit counter */
    return 0;
}

static void arm_counter(struct pmu_cpu *pc)
{
    if ( pc->ctr.cycle )
        WRITE_SYSREG(~pc->period + 1, PMCCNTR_EL0);
    else
        WRITE_SYSREG((uint32_t)(~pc->period + 1), PMEVCNTR0_EL0);
    pc->last = get_cycles();
}

/* The PMU's overflow interrupt, on this pCPU (IRQ context). */
static void cf_check pmu_interrupt(int irq, void *dev_id)
{
    struct pmu_cpu *pc = &this_cpu(pmu_state);
    uint64_t elapsed;
    bool throttled;
    uint32_t ovs = READ_SYSREG(PMOVSCLR_EL0);

    if ( !ovs )
        return;
    /*
     * Acknowledge every overflow (only ours can interrupt: start disabled
     * the others' interrupts), before the level interrupt is ended.
     */
    WRITE_SYSREG(ovs, PMOVSCLR_EL0);
    isb();
    if ( !ACCESS_ONCE(pc->active) || !(ovs & pc->ctr.bit) )
        return;                     /* an overflow pending at stop */

    elapsed = get_cycles() - pc->last;
    if ( pc->frequency )
        pc->period = profile_next_period(pc->period, elapsed, cpu_khz,
                                         pc->frequency, PROFILE_PMU_MIN_PERIOD,
                                         pc->ctr.max_period);
    /* Too soon after the last: fewer overflows, as perf throttles. */
    pc->period = profile_throttle_period(pc->period,
                                         pc->frequency ? 0 : pc->asked,
                                         elapsed, pc->min_ticks,
                                         pc->ctr.max_period, &throttled);
    arm_counter(pc);
    isb();
    if ( throttled )
        profile_sample_throttled();
    arm_profile_sample(get_irq_regs());
}

/*
 * The first pCPU to start (common/profile/pmu-session.c): take the PMU
 * for the profiler (arch/arm/domain.c takes it for vpmu).
 */
int arch_profile_pmu_take(unsigned int *reason)
{
    if ( acquire_pmu_ownership(PMU_OWNER_PROFILER) )
        return 0;
    *reason = XEN_SYSCTL_PROFILE_REASON_VPMU;
    return -EBUSY;
}

void arch_profile_pmu_give(void)
{
    release_pmu_ownership(PMU_OWNER_PROFILER);
}

static int cf_check pmu_check(const struct profile_config *cfg,
                              unsigned int *reason)
{
    if ( pmu_probe() )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_NO_PMU;
        return -EOPNOTSUPP;
    }
    if ( pick_counter(cfg->event, &counter) )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_NO_EVENT;
        return -EOPNOTSUPP;
    }
    if ( profile_pmu_check_rate(cfg, counter.max_period) )
        return -EINVAL;
    /* Every domain with vpmu owns the PMU as HVM (arch_domain_create()). */
    if ( !profile_pmu_started() && pmu_owned_by(PMU_OWNER_HVM) )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_VPMU;
        return -EBUSY;
    }

    return 0;
}

/*
 * Mask or unmask this pCPU's PMU interrupt at the GIC (IPI context).
 * Masked between sessions: a vpmu guest's overflows must not reach
 * pmu_interrupt(), which would leave them pending and storm.
 */
static void route_pmu_irq(bool on)
{
    struct irq_desc *desc = irq_to_desc(pmu_irq);
    unsigned long flags;

    spin_lock_irqsave(&desc->lock, flags);
    if ( on )
        desc->handler->enable(desc);
    else
        desc->handler->disable(desc);
    spin_unlock_irqrestore(&desc->lock, flags);
}

/*
 * On the pCPU to start (IPI): its PPI routed to Xen once (unmasked again
 * for later sessions), whatever was left in the PMU cleared, then our
 * counter armed.
 *
 * setup_irq() may run here, in the IPI: it takes the descriptor's lock
 * with interrupts off (the PPI's descriptor is this pCPU's own, banked)
 * and the GIC's lock under it, allocates nothing (the irqaction is this
 * pCPU's static one), and prints only for an IRQ routed to a guest,
 * which only SPIs can be (is_assignable_irq()).
 */
int arch_profile_pmu_start_here(const struct profile_config *cfg)
{
    struct pmu_cpu *pc = &this_cpu(pmu_state);
    struct irqaction *a = &this_cpu(pmu_action);
    int rc;

    if ( !cpu_has_pmu )
        return -EOPNOTSUPP;
    if ( irq_to_desc(pmu_irq)->action != a )
    {
        a->name = "profiler-pmu";
        a->handler = pmu_interrupt;
        a->dev_id = NULL;
        a->free_on_release = 0;
        rc = setup_irq(pmu_irq, 0, a);
        if ( rc )
            return rc;
    }
    else
        route_pmu_irq(true);

    /*
     * The same counter here (capabilities were read on another pCPU).  A
     * pCPU that cannot sample masks its PPI again, as a stop does: a
     * later vpmu guest's overflows must not reach pmu_interrupt().
     */
    if ( pick_counter(cfg->event, &pc->ctr) || pc->ctr.cycle != counter.cycle )
    {
        route_pmu_irq(false);
        return -EOPNOTSUPP;
    }
    pc->frequency = cfg->frequency;
    pc->period = cfg->frequency ? PMU_GUESS_HZ / cfg->frequency
                                : cfg->period;
    if ( pc->period < PROFILE_PMU_MIN_PERIOD )
        pc->period = PROFILE_PMU_MIN_PERIOD;
    if ( pc->period > pc->ctr.max_period )
        pc->period = pc->ctr.max_period;
    pc->asked = pc->period;
    pc->min_ticks = cpu_khz * 1000ULL / PROFILE_MAX_SAMPLE_HZ;
    pc->saved_pmcr = READ_SYSREG(PMCR_EL0);
    pc->saved_filter = pc->ctr.cycle ? READ_SYSREG(PMCCFILTR_EL0)
                                     : READ_SYSREG(PMEVTYPER0_EL0);

    /*
     * Nothing of what firmware or a past vpmu guest left may count or
     * interrupt: every counter off, every overflow and interrupt enable
     * cleared, and no cycle divider (D), export (X) or prohibition (DP);
     * event counters overflow at 32 bits (LP clear), as armed.
     */
    WRITE_SYSREG(~0U, PMINTENCLR_EL1);
    WRITE_SYSREG(~0U, PMCNTENCLR_EL0);
    WRITE_SYSREG(~0U, PMOVSCLR_EL0);
    if ( pc->ctr.cycle )
        WRITE_SYSREG(PMU_FILTER_NSH, PMCCFILTR_EL0);
    else
    {
        WRITE_SYSREG(PMU_FILTER_NSH | pc->ctr.event, PMEVTYPER0_EL0);
        /*
         * Enabled from now on, across context switches too.  Counter 0
         * is EL2's (HPMN 0): its overflow width is HLP's, not PMCR_EL0.LP's
         * (which applies where HPMN 0 is not honoured, without
         * FEAT_HPMN0); both 32 bits, as armed.
         */
        this_cpu(profile_mdcr_el2) = MDCR_HPME;
        WRITE_SYSREG((READ_SYSREG(MDCR_EL2) | MDCR_HPME) & ~MDCR_HLP,
                     MDCR_EL2);
    }
    WRITE_SYSREG((pc->saved_pmcr & ~(PMCR_D | PMCR_X | PMCR_DP | PMCR_LP)) |
                 PMCR_E | PMCR_LC, PMCR_EL0);
    arm_counter(pc);
    write_atomic(&pc->active, true);
    WRITE_SYSREG(pc->ctr.bit, PMINTENSET_EL1);
    WRITE_SYSREG(pc->ctr.bit, PMCNTENSET_EL0);
    isb();

    return 0;
}

/* On the pCPU to stop (IPI): disarm it and put the registers back. */
void arch_profile_pmu_stop_here(void)
{
    struct pmu_cpu *pc = &this_cpu(pmu_state);
    uint32_t bit = pc->ctr.bit;

    WRITE_SYSREG(bit, PMINTENCLR_EL1);
    WRITE_SYSREG(bit, PMCNTENCLR_EL0);
    isb();
    write_atomic(&pc->active, false);
    WRITE_SYSREG(bit, PMOVSCLR_EL0);
    if ( pc->ctr.cycle )
        WRITE_SYSREG(pc->saved_filter, PMCCFILTR_EL0);
    else
    {
        WRITE_SYSREG(pc->saved_filter, PMEVTYPER0_EL0);
        this_cpu(profile_mdcr_el2) = 0;
        WRITE_SYSREG(READ_SYSREG(MDCR_EL2) & ~MDCR_HPME, MDCR_EL2);
    }
    WRITE_SYSREG(pc->saved_pmcr, PMCR_EL0);
    isb();
    route_pmu_irq(false);
}

static const struct profile_source pmu_source = {
    .id = XEN_SYSCTL_PROFILE_SOURCE_PMU,
    .check = pmu_check,
    .start = profile_pmu_start,
    .stop = profile_pmu_stop,
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
