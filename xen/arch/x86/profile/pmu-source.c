/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-source.c: the PMU sample source in Xen, the life cycle of the
 * driver (pmu.c, over its hardware port pmu-hw.c): refuse while vPMU is
 * enabled or another owner has the PMU, check once that an overflow NMI
 * really arrives, and the architecture's part of the session that
 * common/profile/pmu-session.c runs: the PMU taken through Xen's
 * ownership arbitration for the whole session, each pCPU programmed on
 * itself.  Overflow NMIs come in through profile_pmu_nmi(), which
 * do_nmi() calls after the NMI callback: the profiler never takes the
 * callback slot.  A crash or a livepatch being applied swallows every NMI
 * there and runs none of the profiler's code; livepatching and this
 * source exclude each other (profile_nmi_get(), common/profile/nmi.c: a
 * livepatch would leave the counters unarmed and fail the probe), and
 * microcode loading's callback hands every NMI on.
 *
 * The NMI watchdog keeps working: it owns GP counter 0, which the driver
 * never uses, and an NMI in which its counter overflowed too is passed on
 * to Xen's handler (nmi_watchdog_tick()).
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/profile.h>
#include <xen/profile-source.h>
#include <xen/smp.h>
#include <xen/time.h>
#include <xen/pmu-owner.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/vpmu.h>
#include <public/pmu.h>
#include <public/sysctl.h>

#include "pmu.h"
#include "sample.h"

/*
 * The probe's period overflows within microseconds on hardware; it waits
 * at most a millisecond for the NMI, in the start sysctl (sysctl_lock
 * held).  Its verdict is kept for the boot: a probe that saw no NMI also
 * waits, at its stop, for an overflow's late NMI (wait_late_nmi()), which
 * costs far more where MSR reads trap, as on the nested hosts that have
 * no NMI to give.
 */
#define PMU_PROBE_PERIOD   10000
#define PMU_PROBE_TIME     MILLISECS(1)

static struct pmu_caps __read_mostly caps;
static struct pmu_counter __read_mostly counter;
static DEFINE_PER_CPU(struct pmu_cpu, pmu_state);
static bool __read_mostly probing;
static unsigned int probe_nmis;
static int probe_result = 1;        /* 1: not probed yet */
static uint64_t nmi_reason_next;    /* TSC: port 0x61 is read again */

/*
 * Called by do_nmi() for every NMI the NMI callback did not take, so that
 * a crash or a livepatch being applied runs none of this (livepatching is
 * refused while we probe or sample, profile_nmi_get(); microcode
 * loading's callback hands every NMI on).  Two loads and branches when
 * this pCPU has no counter armed.
 */
unsigned int profile_pmu_nmi(const struct cpu_user_regs *regs)
{
    struct pmu_cpu *pc = &this_cpu(pmu_state);
    bool others;

    if ( likely(!pc->active && !pc->late) )
        return PROFILE_NMI_NONE;

    switch ( profile_pmu_cpu_nmi(pc, &caps, &others) )
    {
    case PMU_NMI_NONE:
        return PROFILE_NMI_NONE;

    case PMU_NMI_LATE:
        /* Not unknown; the watchdog may look at it all the same. */
        return PROFILE_NMI_PASS;

    case PMU_NMI_OURS:
        if ( ACCESS_ONCE(probing) )
            probe_nmis++;
        else
        {
            if ( pc->throttle )
                profile_sample_throttled();
            x86_profile_sample(regs);
        }
        profile_pmu_cpu_nmi_end(pc);
        break;
    }

    /* The watchdog's counter overflowed too: let Xen see this NMI. */
    return others ? PROFILE_NMI_PASS : PROFILE_NMI_OURS;
}

/*
 * For do_nmi() on the pCPU that gets the platform's NMIs, after an NMI
 * that was the profiler's alone: is it time to read port 0x61 again?  At
 * most every 10 ms: overflows may be every NMI that pCPU gets, and the
 * read may trap to SMM.  A SERR or IOCHK NMI merged with an overflow is
 * reported on a later one.  Only that pCPU calls it, and NMIs do not
 * nest.
 */
bool profile_pmu_nmi_reason_due(void)
{
    uint64_t now = profile_pmu_hw_tsc();

    /* TSC ticks: NOW() may read a torn time stamp in NMI context. */
    if ( (int64_t)(now - nmi_reason_next) < 0 )
        return false;
    nmi_reason_next = now + cpu_khz * 10;

    return true;
}

/* Does an overflow of our counter reach us as an NMI?  On this pCPU. */
static int probe_nmi(void)
{
    struct pmu_counter cycles;
    s_time_t deadline;

    if ( profile_pmu_pick_counter(&caps, XEN_SYSCTL_PROFILE_EVENT_CYCLES,
                                  nmi_watchdog != NMI_NONE, &cycles) )
        cycles = counter;
    probe_nmis = 0;
    write_atomic(&probing, true);
    if ( profile_pmu_cpu_start(&this_cpu(pmu_state), &caps, &cycles,
                               PMU_PROBE_PERIOD, 0, cpu_khz) )
    {
        /* This pCPU's counter cannot be programmed: not a verdict. */
        write_atomic(&probing, false);
        return -EIO;
    }
    deadline = NOW() + PMU_PROBE_TIME;
    while ( !ACCESS_ONCE(probe_nmis) && NOW() < deadline )
        cpu_relax();
    profile_pmu_cpu_stop(&this_cpu(pmu_state), &caps);
    write_atomic(&probing, false);

    return ACCESS_ONCE(probe_nmis) ? 0 : -EOPNOTSUPP;
}

/*
 * Take the PMU for the profiler, then check that vPMU is off.  vPMU's
 * XENPMU_mode_set sets its mode first, then checks the owner (see
 * x86/cpu/vpmu.c): whichever comes second sees the other, so a session and
 * vPMU never run together.
 */
static int take_pmu(unsigned int *reason)
{
    if ( !acquire_pmu_ownership(PMU_OWNER_PROFILER) )
    {
        *reason = pmu_owned_by(PMU_OWNER_HVM)
                  ? XEN_SYSCTL_PROFILE_REASON_VPMU
                  : XEN_SYSCTL_PROFILE_REASON_PMU_BUSY;
        return -EBUSY;
    }
    smp_mb();
    if ( ACCESS_ONCE(vpmu_mode) != XENPMU_MODE_OFF )
    {
        release_pmu_ownership(PMU_OWNER_PROFILER);
        *reason = XEN_SYSCTL_PROFILE_REASON_VPMU;
        return -EBUSY;
    }
    return 0;
}

static int cf_check pmu_check(const struct profile_config *cfg,
                              unsigned int *reason)
{
    int rc;

    if ( vpmu_mode != XENPMU_MODE_OFF )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_VPMU;
        return -EBUSY;
    }
    if ( profile_pmu_detect(&caps) )
    {
        printk_once(XENLOG_WARNING "profiler: no usable PMU: %s\n",
                    caps.why);
        *reason = XEN_SYSCTL_PROFILE_REASON_NO_PMU;
        return -EOPNOTSUPP;
    }
    if ( profile_pmu_pick_counter(&caps, cfg->event,
                                  nmi_watchdog != NMI_NONE, &counter) )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_NO_EVENT;
        return -EOPNOTSUPP;
    }
    if ( profile_pmu_check_rate(cfg, counter.max_period) )
        return -EINVAL;
    if ( !profile_pmu_started() )
    {
        rc = take_pmu(reason);
        if ( rc )
            return rc;
    }

    /*
     * Probe once (but again after a pCPU that could not be programmed),
     * never while a livepatch swallows every NMI (profile_nmi_get()).
     */
    rc = probe_result;
    if ( rc == 1 )
    {
        rc = profile_nmi_get();
        if ( !rc )
        {
            rc = probe_nmi();
            profile_nmi_put();
            if ( rc != -EIO )
                probe_result = rc;
        }
    }
    if ( !profile_pmu_started() )
        release_pmu_ownership(PMU_OWNER_PROFILER);
    if ( rc == -EBUSY )
        *reason = XEN_SYSCTL_PROFILE_REASON_PMU_BUSY;
    else if ( rc == -EIO )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_NO_PMU;
        rc = -EOPNOTSUPP;
    }
    else if ( rc )
    {
        printk_once(XENLOG_WARNING
                    "profiler: no PMU overflow NMI within %u ms: PMU source disabled\n",
                    (unsigned int)(PMU_PROBE_TIME / MILLISECS(1)));
        *reason = XEN_SYSCTL_PROFILE_REASON_NO_NMI;
    }

    return rc;
}

/*
 * The first pCPU to start (common/profile/pmu-session.c): no livepatch
 * may mask NMIs until the last stops (profile_nmi_get()), and the PMU is
 * the profiler's.
 */
int arch_profile_pmu_take(unsigned int *reason)
{
    int rc = profile_nmi_get();

    if ( rc )
    {
        *reason = XEN_SYSCTL_PROFILE_REASON_PMU_BUSY;
        return rc;
    }
    rc = take_pmu(reason);
    if ( rc )
        profile_nmi_put();

    return rc;
}

void arch_profile_pmu_give(void)
{
    release_pmu_ownership(PMU_OWNER_PROFILER);
    profile_nmi_put();
}

/*
 * On the pCPU to start: the same counter must exist there (capabilities
 * were read on another pCPU), and every register must take its value.
 */
int arch_profile_pmu_start_here(const struct profile_config *cfg)
{
    /* In frequency mode, start from a cycles-based guess. */
    uint64_t period = cfg->frequency ? cpu_khz * 1000ULL / cfg->frequency
                                     : cfg->period;
    struct pmu_caps here;
    struct pmu_counter ctr;

    if ( profile_pmu_detect(&here) || here.vendor != caps.vendor ||
         profile_pmu_pick_counter(&here, cfg->event,
                                  nmi_watchdog != NMI_NONE, &ctr) ||
         ctr.fixed != counter.fixed || ctr.idx != counter.idx ||
         ctr.ctr_msr != counter.ctr_msr || ctr.wr_msr != counter.wr_msr ||
         ctr.width != counter.width )
        return -EOPNOTSUPP;

    return profile_pmu_cpu_start(&this_cpu(pmu_state), &caps, &counter,
                                 period, cfg->frequency, cpu_khz);
}

void arch_profile_pmu_stop_here(void)
{
    profile_pmu_cpu_stop(&this_cpu(pmu_state), &caps);
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
