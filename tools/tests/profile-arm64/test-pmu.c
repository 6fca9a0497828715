/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-pmu.c: the PMUv3 source (xen/arch/arm/profile/pmu.c) over a
 * simulated PMU and GIC of two pCPUs: what start leaves in PMCR_EL0
 * whatever firmware or a vpmu guest set there (LP made event counter 0
 * overflow at 64 bits, and an event session recorded nothing), and the
 * PMU's PPI masked at the GIC wherever no session samples, a pCPU whose
 * start failed too (a later vpmu guest there would lose its overflows).
 */
#include <stdio.h>
#include <stdlib.h>

#include "emul-pmu.h"
#include "tap.h"

#define PMCR_E      (1U << 0)
#define PMCR_D      (1U << 3)
#define PMCR_X      (1U << 4)
#define PMCR_DP     (1U << 5)
#define PMCR_LC     (1U << 6)
#define PMCR_LP     (1U << 7)
#define PMCR_N6     (6U << 11)      /* six event counters */
#define MDCR_HPME   (1U << 7)
#define MDCR_HLP    (1U << 26)
#define PMU_PPI     23
#define EV_INST     0x08            /* INST_RETIRED, in PMCEID0 */

unsigned int sim_cpu_id, sim_printk;
bool sim_has_pmu = true;
unsigned long cpu_khz = 1000000;

/* A pCPU's PMU: plain registers, and the SET/CLR pairs' state. */
struct sim_pmu {
    uint64_t pmcr, pmccntr, pmevcntr0, pmccfiltr, pmevtyper0, mdcr;
    uint64_t pmceid0, pmceid1;
    uint64_t pmcnten, pminten, pmovs;
};
static struct sim_pmu pmu[SIM_NR_CPUS];
static struct irq_desc desc[SIM_NR_CPUS];
static uint64_t cycles;

static uint64_t *reg(const char *name)
{
    struct sim_pmu *p = &pmu[sim_cpu_id];
    static const struct { const char *name; size_t off; } map[] = {
        { "PMCR_EL0", offsetof(struct sim_pmu, pmcr) },
        { "PMCCNTR_EL0", offsetof(struct sim_pmu, pmccntr) },
        { "PMEVCNTR0_EL0", offsetof(struct sim_pmu, pmevcntr0) },
        { "PMCCFILTR_EL0", offsetof(struct sim_pmu, pmccfiltr) },
        { "PMEVTYPER0_EL0", offsetof(struct sim_pmu, pmevtyper0) },
        { "MDCR_EL2", offsetof(struct sim_pmu, mdcr) },
        { "PMCEID0_EL0", offsetof(struct sim_pmu, pmceid0) },
        { "PMCEID1_EL0", offsetof(struct sim_pmu, pmceid1) },
    };
    size_t i;

    for ( i = 0; i < sizeof(map) / sizeof(map[0]); i++ )
        if ( !strcmp(name, map[i].name) )
            return (uint64_t *)((char *)p + map[i].off);
    fprintf(stderr, "test-pmu: unknown system register %s\n", name);
    abort();
}

uint64_t sim_read_sysreg(const char *name)
{
    struct sim_pmu *p = &pmu[sim_cpu_id];

    if ( !strcmp(name, "PMOVSCLR_EL0") )
        return p->pmovs;
    return *reg(name);
}

void sim_write_sysreg(const char *name, uint64_t v)
{
    struct sim_pmu *p = &pmu[sim_cpu_id];

    if ( !strcmp(name, "PMCNTENSET_EL0") )
        p->pmcnten |= v;
    else if ( !strcmp(name, "PMCNTENCLR_EL0") )
        p->pmcnten &= ~v;
    else if ( !strcmp(name, "PMINTENSET_EL1") )
        p->pminten |= v;
    else if ( !strcmp(name, "PMINTENCLR_EL1") )
        p->pminten &= ~v;
    else if ( !strcmp(name, "PMOVSCLR_EL0") )
        p->pmovs &= ~v;
    else
        *reg(name) = v;
}

uint64_t get_cycles(void)
{
    return cycles += 1000;
}

const struct dt_device_node *dt_find_matching_node(
    const struct dt_device_node *from, const struct dt_device_match *m)
{
    return (const struct dt_device_node *)m;
}

int platform_get_irq(const struct dt_device_node *np, int index)
{
    return PMU_PPI;
}

static void gic_enable(struct irq_desc *d)
{
    d->enabled = true;
}

static void gic_disable(struct irq_desc *d)
{
    d->enabled = false;
}

static const struct hw_irq_controller gic = {
    .enable = gic_enable,
    .disable = gic_disable,
};

struct irq_desc *irq_to_desc(int irq)
{
    return &desc[sim_cpu_id];
}

int setup_irq(unsigned int irq, unsigned int flags, struct irqaction *a)
{
    struct irq_desc *d = irq_to_desc(irq);

    d->handler = &gic;
    d->action = a;
    d->enabled = true;
    return 0;
}

void on_selected_cpus(unsigned int cpu, void (*fn)(void *), void *data,
                      int wait)
{
    unsigned int me = sim_cpu_id;

    sim_cpu_id = cpu;
    fn(data);
    sim_cpu_id = me;
}

void arm_profile_sample(const struct cpu_user_regs *regs)
{
}

static uint64_t throttled;

void profile_sample_throttled(void)
{
    throttled++;
}

/* An overflow of event counter 0 on pCPU 0, ticks after the last. */
static void overflow(uint64_t ticks)
{
    cycles += ticks - 1000;         /* get_cycles() adds 1000 */
    pmu[0].pmovs |= 1;
    desc[0].action->handler(PMU_PPI, NULL);
}

/* Power on: what firmware or a past vpmu guest may leave. */
static void power_on(void)
{
    unsigned int cpu;

    memset(pmu, 0, sizeof(pmu));
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
    {
        pmu[cpu].pmcr = PMCR_N6 | PMCR_LP | PMCR_D | PMCR_X | PMCR_DP;
        pmu[cpu].pmceid0 = 1ULL << EV_INST;
        pmu[cpu].pmovs = 0x5;
        pmu[cpu].pminten = 0x3;
        pmu[cpu].mdcr = MDCR_HLP;
    }
}

static bool masked_everywhere(void)
{
    unsigned int cpu;

    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        if ( desc[cpu].enabled )
            return false;
    return true;
}

void test_pmu(void)
{
    const struct profile_source *src = arch_profile_pmu_source();
    struct profile_config cfg = {
        .source = XEN_SYSCTL_PROFILE_SOURCE_PMU,
        .event = XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS,
        .period = 100000,
    };
    unsigned int reason = 0, cpu, i;
    uint64_t pmcr;
    int rc;

    power_on();
    rc = src->check(&cfg, &reason);
    tap_ok(!rc, "pmu: an instructions session can run here (%d)", rc);
    for ( cpu = 0; !rc && cpu < SIM_NR_CPUS; cpu++ )
        rc = src->start(&cfg, cpu, &reason);
    tap_ok(!rc, "pmu: started on both pCPUs (%d)", rc);
    pmcr = pmu[0].pmcr;
    tap_ok((pmcr & (PMCR_E | PMCR_LC)) == (PMCR_E | PMCR_LC) &&
           !(pmcr & (PMCR_LP | PMCR_D | PMCR_X | PMCR_DP)),
           "pmu: PMCR_EL0 %#llx: enabled, event counters overflow at 32 "
           "bits (LP clear), no D, X or DP", (unsigned long long)pmcr);
    tap_ok((pmu[0].mdcr & MDCR_HPME) && !(pmu[0].mdcr & MDCR_HLP),
           "pmu: MDCR_EL2 %#llx: EL2's counter 0 on (HPME), overflowing at "
           "32 bits (HLP clear)", (unsigned long long)pmu[0].mdcr);
    tap_ok(pmu[0].pmevcntr0 == (uint32_t)-100000 && pmu[0].pmcnten == 1 &&
           pmu[0].pminten == 1 && !pmu[0].pmovs,
           "pmu: event counter 0 armed 100000 events before its 32-bit "
           "overflow, alone enabled and interrupting");
    tap_ok(desc[0].enabled && desc[1].enabled,
           "pmu: the PPI is unmasked on both pCPUs while they sample");
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        src->stop(cpu);
    tap_ok(pmu[0].pmcr == (PMCR_N6 | PMCR_LP | PMCR_D | PMCR_X | PMCR_DP) &&
           masked_everywhere(),
           "pmu: stopped: PMCR_EL0 as it was, the PPI masked everywhere");

    /* pCPU 1 lacks the event: its start fails after the PPI was routed. */
    pmu[1].pmceid0 = 0;
    rc = src->check(&cfg, &reason);
    if ( !rc )
        rc = src->start(&cfg, 0, &reason);
    tap_ok(!rc, "pmu: a second session starts on pCPU 0 (%d)", rc);
    rc = src->start(&cfg, 1, &reason);
    tap_ok(rc == -EOPNOTSUPP && !desc[1].enabled,
           "pmu: pCPU 1 cannot count the event: its start fails (%d) and "
           "its PPI stays masked", rc);
    src->stop(0);
    tap_ok(masked_everywhere(),
           "pmu: stopped: the PPI masked everywhere again");

    /* The same on a pCPU's first session, when the PPI is set up. */
    memset(desc, 0, sizeof(desc));
    power_on();
    pmu[1].pmceid0 = 0;
    rc = src->check(&cfg, &reason);
    if ( !rc )
        rc = src->start(&cfg, 0, &reason);
    rc = rc ?: (src->start(&cfg, 1, &reason) == -EOPNOTSUPP ? 0 : -1);
    tap_ok(!rc && desc[0].enabled && !desc[1].enabled,
           "pmu: a pCPU whose first start fails is left masked too");
    src->stop(0);
    tap_ok(masked_everywhere() && acquire_pmu_ownership(PMU_OWNER_HVM),
           "pmu: stopped: masked everywhere, the PMU free for vpmu");
    /* A vPMU domain took the PMU after the check: start says so. */
    reason = XEN_SYSCTL_PROFILE_REASON_NONE;
    rc = src->start(&cfg, 0, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_VPMU &&
           masked_everywhere(),
           "pmu: the PMU taken by vPMU since the check: start fails, "
           "-EBUSY (%d), VPMU (%u)", rc, reason);
    release_pmu_ownership(PMU_OWNER_HVM);

    /*
     * Throttling: 5 events a tick of the 1 GHz clock, a period of 10,000
     * (overflows at 500 kHz): the period doubles until they come no
     * faster than PROFILE_MAX_SAMPLE_HZ; slow ones bring it back.
     */
    power_on();
    cfg.period = 10000;
    rc = src->check(&cfg, &reason);
    if ( !rc )
        rc = src->start(&cfg, 0, &reason);
    for ( i = 0; !rc && i < 20; i++ )
        overflow((uint32_t)-pmu[0].pmevcntr0 / 5);
    tap_ok(!rc && throttled >= 3 && throttled <= 6 &&
           pmu[0].pmevcntr0 == (uint32_t)-(10000 << throttled),
           "pmu: overflows at 500 kHz: throttled %llu times, the period "
           "raised to %u", (unsigned long long)throttled,
           (uint32_t)-pmu[0].pmevcntr0);
    for ( i = 0; !rc && i < 20; i++ )
        overflow(1000000);
    tap_ok(pmu[0].pmevcntr0 == (uint32_t)-10000,
           "pmu: slow overflows: the period back to 10000 (%u)",
           (uint32_t)-pmu[0].pmevcntr0);
    src->stop(0);
}
