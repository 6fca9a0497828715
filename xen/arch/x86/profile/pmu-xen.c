/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-xen.c: the PMU sample source in Xen.
 *
 * The hardware interface of pmu.c (MSRs, CPUID, LVTPC, TSC), and the
 * source's life cycle: refuse while vPMU is enabled or xenoprof owns the
 * PMU, take the PMU through Xen's ownership arbitration, install the NMI
 * callback (the slot must be free; its previous value is put back), check
 * once that an overflow NMI really arrives, program each pCPU on that pCPU
 * (an IPI), and give everything back on stop and CPU offline.
 *
 * The NMI watchdog keeps working: it owns GP counter 0, which the driver
 * never uses, and an NMI in which its counter overflowed too is passed on
 * to Xen's handler (nmi_watchdog_tick()).
 */
#include <xen/cpumask.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/profile.h>
#include <xen/smp.h>
#include <xen/time.h>
#include <xen/xenoprof.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/vpmu.h>
#include <public/pmu.h>

#include "pmu.h"

/* Smallest period (events) the PMU source accepts: no NMI storms. */
#define PMU_MIN_PERIOD     10000
#define PMU_MAX_HZ         10000
#define PMU_PROBE_PERIOD   10000
#define PMU_PROBE_TIME     MILLISECS(20)

int pmu_hw_rdmsr(unsigned int msr, uint64_t *val)
{
    return rdmsr_safe(msr, *val) ? -EIO : 0;
}

int pmu_hw_wrmsr(unsigned int msr, uint64_t val)
{
    return wrmsr_safe(msr, val) ? -EIO : 0;
}

uint32_t pmu_hw_lvtpc_read(void)
{
    return apic_read(APIC_LVTPC);
}

void pmu_hw_lvtpc_write(uint32_t val)
{
    apic_write(APIC_LVTPC, val);
}

void pmu_hw_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    cpuid_count(leaf, subleaf, &r[0], &r[1], &r[2], &r[3]);
}

uint64_t pmu_hw_tsc(void)
{
    return rdtsc();
}

static struct pmu_caps caps;
static struct pmu_counter counter;
static DEFINE_PER_CPU(struct pmu_cpu, pmu_state);
static unsigned int nr_started;     /* pCPUs armed; under the CPU maps */
static nmi_callback_t *saved_callback;
static bool probing;
static unsigned int probe_nmis;
static int probe_result = 1;        /* 1: not probed yet */

static int cf_check pmu_nmi(const struct cpu_user_regs *regs, int cpu)
{
    bool others;

    if ( !pmu_cpu_nmi(&this_cpu(pmu_state), &caps, &others) )
        return 0;                   /* Not ours: Xen's handling. */
    if ( ACCESS_ONCE(probing) )
        probe_nmis++;
    else
        profile_sample(regs);

    /* The watchdog's counter overflowed too: let Xen see this NMI. */
    return !others;
}

/* Install pmu_nmi(); -EBUSY when another callback holds the slot. */
static int take_nmi(void)
{
    nmi_callback_t *prev = set_nmi_callback(pmu_nmi);

    if ( prev && prev != pmu_nmi )
    {
        set_nmi_callback(prev);
        return -EBUSY;
    }
    saved_callback = NULL;
    return 0;
}

static void give_nmi(void)
{
    set_nmi_callback(saved_callback);
}

/* Does an overflow of our counter reach us as an NMI?  On this pCPU. */
static int probe_nmi(void)
{
    struct pmu_counter cycles;
    s_time_t deadline;
    int rc;

    if ( pmu_pick_counter(&caps, XEN_PROFILE_EVENT_CYCLES,
                          nmi_watchdog != NMI_NONE, &cycles) )
        cycles = counter;
    rc = take_nmi();
    if ( rc )
        return rc;
    probe_nmis = 0;
    write_atomic(&probing, true);
    pmu_cpu_start(&this_cpu(pmu_state), &caps, &cycles, PMU_PROBE_PERIOD,
                  0, cpu_khz);
    deadline = NOW() + PMU_PROBE_TIME;
    while ( !ACCESS_ONCE(probe_nmis) && NOW() < deadline )
        cpu_relax();
    pmu_cpu_stop(&this_cpu(pmu_state), &caps);
    write_atomic(&probing, false);
    give_nmi();

    return ACCESS_ONCE(probe_nmis) ? 0 : -EOPNOTSUPP;
}

static int cf_check pmu_check(const struct profile_config *cfg,
                              unsigned int *reason)
{
    int rc;

    if ( vpmu_mode != XENPMU_MODE_OFF )
    {
        *reason = XEN_PROFILE_REASON_VPMU;
        return -EBUSY;
    }
    if ( pmu_detect(&caps) )
    {
        printk_once(XENLOG_WARNING "profiler: no usable PMU: %s\n",
                    caps.why);
        *reason = XEN_PROFILE_REASON_NO_PMU;
        return -EOPNOTSUPP;
    }
    if ( pmu_pick_counter(&caps, cfg->event, nmi_watchdog != NMI_NONE,
                          &counter) )
    {
        *reason = XEN_PROFILE_REASON_NO_EVENT;
        return -EOPNOTSUPP;
    }
    if ( cfg->frequency ? cfg->frequency > PMU_MAX_HZ
                        : cfg->period < PMU_MIN_PERIOD ||
                          cfg->period > counter.max_period )
        return -EINVAL;
    if ( !acquire_pmu_ownership(PMU_OWNER_PROFILER) )
    {
        *reason = XEN_PROFILE_REASON_XENOPROF;
        return -EBUSY;
    }

    /* Probe once; a busy NMI slot is only a passing state. */
    rc = probe_result;
    if ( rc == 1 )
    {
        rc = probe_nmi();
        if ( rc != -EBUSY )
            probe_result = rc;
    }
    if ( !nr_started )
        release_pmu_ownership(PMU_OWNER_PROFILER);
    if ( rc == -EBUSY )
        *reason = XEN_PROFILE_REASON_NMI_BUSY;
    else if ( rc )
    {
        printk_once(XENLOG_WARNING "profiler: no PMU overflow NMI within "
                    "%u ms: PMU source disabled\n",
                    (unsigned int)(PMU_PROBE_TIME / MILLISECS(1)));
        *reason = XEN_PROFILE_REASON_NO_NMI;
    }

    return rc;
}

static void cf_check start_here(void *data)
{
    const struct profile_config *cfg = data;
    /* In frequency mode, start from a cycles-based guess. */
    uint64_t period = cfg->frequency ? cpu_khz * 1000ULL / cfg->frequency
                                     : cfg->period;

    pmu_cpu_start(&this_cpu(pmu_state), &caps, &counter, period,
                  cfg->frequency, cpu_khz);
}

static void cf_check stop_here(void *data)
{
    pmu_cpu_stop(&this_cpu(pmu_state), &caps);
}

static int cf_check pmu_start(const struct profile_config *cfg,
                              unsigned int cpu)
{
    int rc;

    if ( !nr_started )
    {
        if ( !acquire_pmu_ownership(PMU_OWNER_PROFILER) )
            return -EBUSY;
        rc = take_nmi();
        if ( rc )
        {
            release_pmu_ownership(PMU_OWNER_PROFILER);
            return rc;
        }
    }
    nr_started++;
    on_selected_cpus(cpumask_of(cpu), start_here, (void *)cfg, 1);

    return 0;
}

static void cf_check pmu_stop(unsigned int cpu)
{
    on_selected_cpus(cpumask_of(cpu), stop_here, NULL, 1);
    if ( --nr_started )
        return;
    give_nmi();
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
