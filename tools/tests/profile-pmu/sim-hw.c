/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim-hw.c: the simulator's port of pmu.h's hardware interface
 * (profile_pmu_hw_*(): MSRs, LVTPC, CPUID, TSC), linked in place of Xen's
 * pmu-hw.c, over the simulated PMU of sim.c.  Every access costs its
 * simulated cycles, a PMI it raises is delivered after it, a faulting
 * _safe access in NMI context is counted (the sample path must never
 * fault), and so is any faulting plain access (fatal in Xen).
 */
#include "emul.h"

/* An access takes msr_cost cycles; a PMI it raises comes after it. */
static struct sim_cpu *hw_enter(void)
{
    struct sim_cpu *c = sim_cpu(sim_cur());

    c->hw_access++;
    c->defer++;
    if ( c->msr_cost )
        sim_run(c->msr_cost, c->msr_cost / 2, c->msr_cost, c->cost_misses,
                c->cost_misses);
    return c;
}

static void hw_leave(struct sim_cpu *c)
{
    c->defer--;
    sim_deliver(c);
}

int profile_pmu_hw_rdmsr_safe(unsigned int msr, uint64_t *val)
{
    struct sim_cpu *c = hw_enter();
    int rc = sim_rdmsr(msr, val);

    /* A #GP recovered in an NMI would IRET and unblock NMIs. */
    if ( rc && c->in_nmi )
        sim_nmi_faults++;

    hw_leave(c);
    return rc;
}

static void touch(struct sim_cpu *c, unsigned int msr)
{
    unsigned int i;

    for ( i = 0; i < c->nr_touched && c->touched[i] != msr; i++ )
        ;
    if ( i == c->nr_touched && i < ARRAY_SIZE(c->touched) )
        c->touched[c->nr_touched++] = msr;
}

int profile_pmu_hw_wrmsr_safe(unsigned int msr, uint64_t val)
{
    struct sim_cpu *c = hw_enter();
    int rc = c->wrmsr_fail && msr == c->wrmsr_fail ? -EIO : sim_wrmsr(msr, val);

    if ( rc && c->in_nmi )
        sim_nmi_faults++;
    touch(c, msr);
    hw_leave(c);
    return rc;
}

/*
 * Plain accesses: in Xen a fault there is a fatal #GP, in or out of an
 * NMI.  Counted (sim_plain_faults), and the access does nothing.
 */
uint64_t profile_pmu_hw_rdmsr(unsigned int msr)
{
    struct sim_cpu *c = hw_enter();
    uint64_t val;

    if ( sim_rdmsr(msr, &val) )
    {
        sim_plain_faults++;
        val = 0;
    }
    hw_leave(c);
    return val;
}

void profile_pmu_hw_wrmsr(unsigned int msr, uint64_t val)
{
    struct sim_cpu *c = hw_enter();

    if ( (c->wrmsr_fail && msr == c->wrmsr_fail) || sim_wrmsr(msr, val) )
        sim_plain_faults++;
    touch(c, msr);
    hw_leave(c);
}

uint32_t profile_pmu_hw_lvtpc_read(void)
{
    struct sim_cpu *c = hw_enter();
    uint32_t val = sim_lvtpc_read();

    hw_leave(c);
    return val;
}

void profile_pmu_hw_lvtpc_write(uint32_t val)
{
    struct sim_cpu *c = hw_enter();

    sim_lvtpc_write(val);
    hw_leave(c);
}

void profile_pmu_hw_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    sim_cpuid(leaf, subleaf, r);
}

uint64_t profile_pmu_hw_tsc(void)
{
    return sim_tsc();
}
