/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.c: the profiler's PMU driver: it arms the counter that
 * profile_pmu_pick_counter() chose (pmu-detect.c), handles its overflows
 * and adapts its period.
 *
 * One counter per pCPU counts the chosen event in all rings; it is armed
 * with -period and raises a PMI, delivered as an NMI through LVTPC, when
 * it overflows.  GP counter 0 is left to the NMI watchdog.  Everything
 * this file does to the hardware goes through profile_pmu_hw_*() (pmu.h),
 * so that it can run against a simulated PMU.  It takes no lock, never
 * prints and never allocates: profile_pmu_cpu_nmi() runs in NMI context.
 */
#include <xen/errno.h>
#include <xen/kernel.h>
#include <xen/lib.h>
#include <xen/profile-source.h>
#include <xen/types.h>
#include <asm/apicdef.h>
#include <asm/processor.h>
#include <public/sysctl.h>

#include "pmu.h"

#define FIXED_CTRL_ALL_RINGS_PMI 0xbULL /* OS, USR, PMI */

/* The overflow bit of our counter in GLOBAL_STATUS / GLOBAL_CTRL. */
static uint64_t global_bit(const struct pmu_counter *ctr)
{
    return 1ULL << (ctr->fixed ? 32 + ctr->idx : ctr->idx);
}

/* What the counter is armed with: it overflows after period events. */
static uint64_t armed_value(const struct pmu_cpu *pc)
{
    return (~pc->period + 1) & pmu_width_mask(pc->ctr.width);
}

/*
 * Can every MSR profile_pmu_cpu_nmi() reads for counter k be read?  0 or
 * -EIO.  The NMI reads them with plain accesses.
 */
static int nmi_msrs_readable(const struct pmu_caps *c,
                             const struct pmu_counter *k)
{
    uint64_t v;
    int rc = profile_pmu_hw_rdmsr_safe(k->ctr_msr, &v);

    if ( c->vendor == PMU_VENDOR_INTEL )
    {
        rc |= profile_pmu_hw_rdmsr_safe(MSR_CORE_PERF_GLOBAL_STATUS, &v);
        if ( k->fixed || k->idx )
        {
            rc |= profile_pmu_hw_rdmsr_safe(MSR_P6_EVNTSEL(0), &v);
            rc |= profile_pmu_hw_rdmsr_safe(MSR_P6_PERFCTR(0), &v);
        }
    }
    else if ( k->idx )
        rc |= profile_pmu_hw_rdmsr_safe(c->amd_ext ? PMU_MSR_F15H_PERFCTR(0)
                                                   : PMU_MSR_K7_PERFCTR(0),
                                        &v);
    return rc ? -EIO : 0;
}

/*
 * Write an MSR that profile_pmu_cpu_start() read: plainly once the start
 * succeeded (every one was written then), else as far as it can be.
 */
static void put_msr(unsigned int msr, uint64_t val, bool started)
{
    if ( started )
        profile_pmu_hw_wrmsr(msr, val);
    else
        (void)profile_pmu_hw_wrmsr_safe(msr, val);
}

/*
 * Put back what profile_pmu_cpu_start() found (counter disabled first),
 * after a stop or a start that failed part way (started false).
 */
static void restore(const struct pmu_cpu *pc, const struct pmu_caps *c,
                    bool started)
{
    const struct pmu_counter *k = &pc->ctr;

    if ( c->vendor == PMU_VENDOR_INTEL )
    {
        if ( k->fixed )
            put_msr(MSR_CORE_PERF_FIXED_CTR_CTRL, pc->saved_fixed_ctrl,
                    started);
        else
            put_msr(k->ctl_msr, pc->saved_ctl, started);
        put_msr(k->wr_msr, pc->saved_ctr, started);
        put_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, global_bit(k), started);
        put_msr(MSR_CORE_PERF_GLOBAL_CTRL, pc->saved_global_ctrl, started);
    }
    else
    {
        put_msr(k->wr_msr, pc->saved_ctr, started);
        put_msr(k->ctl_msr, pc->saved_ctl, started);
    }
}

int profile_pmu_cpu_start(struct pmu_cpu *pc, const struct pmu_caps *c,
                          const struct pmu_counter *ctr, uint64_t period,
                          unsigned int frequency, uint64_t tsc_khz)
{
    const struct pmu_counter *k = &pc->ctr;
    uint64_t v, enable;
    unsigned int enable_msr;
    int rc = 0;

    /* An NMI still due from the last session stays expected (late). */
    memset(pc, 0, offsetof(struct pmu_cpu, late));
    pc->ctr = *ctr;
    /* Frequency mode's first period is a guess: within its bounds too. */
    if ( frequency && period < PROFILE_PMU_MIN_PERIOD )
        period = PROFILE_PMU_MIN_PERIOD;
    pc->period = period < 1 ? 1 : min(period, ctr->max_period);
    pc->asked = pc->period;
    pc->frequency = frequency;
    pc->tsc_khz = tsc_khz;
    pc->min_ticks = tsc_khz * 1000 / PROFILE_MAX_SAMPLE_HZ;

    pc->saved_lvtpc = profile_pmu_hw_lvtpc_read();
    rc |= profile_pmu_hw_rdmsr_safe(k->ctr_msr, &pc->saved_ctr);
    if ( !k->fixed )
        rc |= profile_pmu_hw_rdmsr_safe(k->ctl_msr, &pc->saved_ctl);
    /*
     * Every MSR the NMI handler reads must exist: it reads them plainly
     * (a fault there, even recovered, would IRET and unblock NMIs inside
     * the NMI handler).  Those it writes are written here first.
     */
    rc |= nmi_msrs_readable(c, k);

    if ( c->vendor == PMU_VENDOR_INTEL )
    {
        rc |= profile_pmu_hw_rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL,
                                        &pc->saved_global_ctrl);
        rc |= profile_pmu_hw_rdmsr_safe(MSR_CORE_PERF_FIXED_CTR_CTRL,
                                        &pc->saved_fixed_ctrl);
        if ( rc )
            return -EIO;            /* Nothing written yet. */
        rc |= profile_pmu_hw_wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL,
                                        pc->saved_global_ctrl &
                                        ~global_bit(k));
        rc |= profile_pmu_hw_wrmsr_safe(k->wr_msr, armed_value(pc));
        if ( k->fixed )
        {
            v = pc->saved_fixed_ctrl & ~(0xfULL << (4 * k->idx));
            v |= FIXED_CTRL_ALL_RINGS_PMI << (4 * k->idx);
            rc |= profile_pmu_hw_wrmsr_safe(MSR_CORE_PERF_FIXED_CTR_CTRL, v);
        }
        else
            rc |= profile_pmu_hw_wrmsr_safe(k->ctl_msr, k->ctl);
        rc |= profile_pmu_hw_wrmsr_safe(MSR_CORE_PERF_GLOBAL_OVF_CTRL,
                                        global_bit(k));
        enable_msr = MSR_CORE_PERF_GLOBAL_CTRL;
        enable = pc->saved_global_ctrl | global_bit(k);
    }
    else
    {
        if ( rc )
            return -EIO;
        rc |= profile_pmu_hw_wrmsr_safe(k->ctl_msr,
                                        k->ctl & ~PMU_EVNTSEL_EN);
        rc |= profile_pmu_hw_wrmsr_safe(k->wr_msr, armed_value(pc));
        enable_msr = k->ctl_msr;
        enable = k->ctl;
    }
    if ( !rc )
    {
        /*
         * From the write that enables the counter on, an overflow's NMI
         * must find the pCPU armed: claimed, never unknown.
         */
        profile_pmu_hw_lvtpc_write(APIC_DM_NMI);
        pc->last_tsc = profile_pmu_hw_tsc();
        pc->end_tsc = pc->last_tsc;
        barrier();
        pc->active = true;
        barrier();
        rc = profile_pmu_hw_wrmsr_safe(enable_msr, enable);
        if ( rc )
        {
            barrier();
            pc->active = false;
            barrier();
            profile_pmu_hw_lvtpc_write(pc->saved_lvtpc);
        }
    }
    if ( rc )
    {
        /* A counter that cannot be programmed: leave it as it was. */
        restore(pc, c, false);
        return -EIO;
    }

    return 0;
}

/*
 * Has the counter at msr overflowed?  An armed counter's top bit clears
 * when it wraps (AMD has no global status; Xen's watchdog asks the same).
 */
static bool top_bit_clear(unsigned int msr, unsigned int width)
{
    return !(profile_pmu_hw_rdmsr(msr) & (1ULL << (width - 1)));
}

/*
 * Wait for the NMI of an overflow before a stop for at most this many
 * status reads (each an MSR read: about a millisecond in all).
 */
#define PMU_LATE_NMI_READS 10000

/*
 * How long after a stop the NMI of a pending overflow may still come: its
 * PMI was raised before the stop's wait of about a millisecond began, and
 * arrives within microseconds on hardware.  Ten times that wait; any NMI
 * in it that is not otherwise claimed is taken for that one (nothing in
 * the counters, given back by then, tells them apart).  The same window
 * serves the NMI of an overflow handled in an earlier NMI (expect_nmi()).
 */
#define PMU_LATE_NMI_MS 10

/*
 * How long after an NMI that handled an overflow it did not carry the
 * NMI of that overflow may come (expect_nmi()): its PMI is held while an
 * NMI is handled and arrives as it returns.
 */
#define PMU_EXPECT_NMI_US 100

/* Did our counter overflow without its NMI having been taken yet? */
static bool overflow_pending(const struct pmu_cpu *pc,
                             const struct pmu_caps *c)
{
    if ( c->vendor == PMU_VENDOR_INTEL )
        return profile_pmu_hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS) &
               global_bit(&pc->ctr);
    return top_bit_clear(pc->ctr.ctr_msr, pc->ctr.width);
}

/*
 * The counter is disabled; an overflow it had just before may still be on
 * its way as an NMI.  Wait for it (bounded) while the counter is still
 * ours, so that it is claimed rather than reaching Xen as an unknown NMI:
 * the NMI re-arms the counter, which ends the wait.
 */
static bool wait_late_nmi(const struct pmu_cpu *pc, const struct pmu_caps *c)
{
    unsigned int n = PMU_LATE_NMI_READS;

    while ( n-- && overflow_pending(pc, c) )
        barrier();
    return overflow_pending(pc, c);
}

void profile_pmu_cpu_stop(struct pmu_cpu *pc, const struct pmu_caps *c)
{
    const struct pmu_counter *k = &pc->ctr;
    bool pending;

    if ( !pc->active )
        return;

    /*
     * Disable the counter first: until then its overflow NMI is ours, or
     * it would reach Xen as an unknown NMI.
     */
    if ( c->vendor == PMU_VENDOR_INTEL )
        profile_pmu_hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL,
                             pc->saved_global_ctrl & ~global_bit(k));
    else
        profile_pmu_hw_wrmsr(k->ctl_msr, pc->saved_ctl & ~PMU_EVNTSEL_EN);
    pending = wait_late_nmi(pc, c);
    /*
     * Still pending: its NMI is still on its way and will arrive after
     * the counter is given back.  The first NMI within PMU_LATE_NMI_MS
     * that is not otherwise ours is that one (profile_pmu_cpu_nmi()).
     * Remembered before the pCPU is disarmed, so that the NMI finds one
     * or the other whenever it comes (armed, it is claimed as ours).
     */
    if ( pending )
    {
        pc->late_until = profile_pmu_hw_tsc() +
                         pc->tsc_khz * PMU_LATE_NMI_MS;
        barrier();
        pc->late = true;
    }
    barrier();
    pc->active = false;
    barrier();
    restore(pc, c, true);
    profile_pmu_hw_lvtpc_write(pc->saved_lvtpc);
}

/*
 * Intel: did the NMI watchdog's counter (GP 0, armed with an interrupt,
 * when not ours) overflow?  Asked as nmi_watchdog_tick() asks, by its top
 * bit: its GLOBAL_STATUS bit stays set from its first overflow on, as
 * Xen's watchdog never clears it.
 */
static bool intel_watchdog_overflowed(const struct pmu_caps *c,
                                      const struct pmu_counter *k)
{
    uint64_t sel;

    if ( !k->fixed && !k->idx )
        return false;
    sel = profile_pmu_hw_rdmsr(MSR_P6_EVNTSEL(0));
    return (sel & PMU_EVNTSEL_EN) && (sel & PMU_EVNTSEL_INT) &&
           top_bit_clear(MSR_P6_PERFCTR(0), c->gp_width);
}

/*
 * No overflow of ours: is this the NMI of one already handled, one still
 * pending when the counter was stopped or one handled in an earlier NMI
 * (expect_nmi())?  Claimed once, within its time window.
 */
static enum pmu_nmi late_nmi(struct pmu_cpu *pc)
{
    if ( !pc->late )
        return PMU_NMI_NONE;
    pc->late = false;
    if ( (int64_t)(profile_pmu_hw_tsc() - pc->late_until) > 0 )
        return PMU_NMI_NONE;
    pc->late_nmis++;
    return PMU_NMI_LATE;
}

/*
 * The NMI of an overflow handled in this one may still come: PMIs raised
 * while an NMI is handled are held until it returns, and when two
 * counters overflow in one NMI the second's PMI finds nothing left.
 */
static void expect_nmi(struct pmu_cpu *pc)
{
    pc->late_until = profile_pmu_hw_tsc() +
                     pc->tsc_khz * PMU_EXPECT_NMI_US / 1000U;
    pc->late = true;
}

static bool ours_overflowed(const struct pmu_counter *k,
                            const struct pmu_caps *c)
{
    if ( c->vendor == PMU_VENDOR_INTEL )
        return (profile_pmu_hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS) &
                global_bit(k)) != 0;
    return top_bit_clear(k->ctr_msr, k->width);
}

/*
 * Did our counter overflow?  Intel: a PMI of another counter (the
 * watchdog's) masked LVTPC when it was delivered, and whoever takes this
 * NMI (a callback that swallows it) may not unmask it: ours must keep
 * coming.  In the watchdog's NMI, an overflow of ours after the first
 * look and before the unmask raised no PMI: look again after it
 * (*again: found so, its PMI may have been raised after the unmask and be
 * on its way).  In anyone else's NMI, LVTPC was not masked by it: such
 * an overflow's PMI is held until this NMI returns, and takes it.
 */
static bool overflowed(const struct pmu_counter *k, const struct pmu_caps *c,
                       bool *again)
{
    *again = false;
    if ( ours_overflowed(k, c) )
        return true;
    if ( c->vendor != PMU_VENDOR_INTEL )
        return false;
    profile_pmu_hw_lvtpc_write(APIC_DM_NMI);
    *again = intel_watchdog_overflowed(c, k) && ours_overflowed(k, c);
    return *again;
}

/*
 * Did the watchdog's counter (0, when it runs beside us) overflow too?
 * Asked after our re-arm has unmasked LVTPC: until then an overflow of
 * it raised no PMI on Intel, and its tick would be lost for good.
 */
static bool watchdog_overflowed(const struct pmu_counter *k,
                                const struct pmu_caps *c)
{
    if ( c->vendor == PMU_VENDOR_INTEL )
        return intel_watchdog_overflowed(c, k);
    return k->idx && top_bit_clear(c->amd_ext ? PMU_MSR_F15H_PERFCTR(0)
                                              : PMU_MSR_K7_PERFCTR(0),
                                   k->width);
}

/*
 * After an overflow of ours: the next period (for a frequency), then
 * acknowledge and re-arm.  An overflow right after the re-arm must not
 * have its status cleared (it would never be claimed).  Overflows are
 * throttled when they come faster than PROFILE_MAX_SAMPLE_HZ or than
 * twice the time the last of their NMIs took: where MSR accesses trap, a
 * period shorter than the handler would overflow inside it, again and
 * again, and the pCPU would do nothing else.  now: the TSC as this NMI
 * began.  LVTPC is unmasked before the counter is armed: an
 * overflow between the two would raise no PMI where delivery masks it.
 */
static void rearm(struct pmu_cpu *pc, const struct pmu_caps *c,
                  uint64_t now)
{
    const struct pmu_counter *k = &pc->ctr;
    uint64_t elapsed = now - pc->last_tsc;
    uint64_t busy = pc->end_tsc > pc->last_tsc ? pc->end_tsc - pc->last_tsc
                                               : 0;
    uint64_t min_elapsed = max(pc->min_ticks, 2U * busy);

    if ( pc->frequency )
        pc->period = profile_pmu_next_period(pc->period, elapsed,
                                             pc->tsc_khz, pc->frequency,
                                             k->max_period);
    /* Too soon after the last: fewer overflows, as perf throttles. */
    pc->period = profile_throttle_period(pc->period,
                                         pc->frequency ? 0 : pc->asked,
                                         elapsed, min_elapsed,
                                         k->max_period, &pc->throttle);
    pc->last_tsc = now;
    if ( c->vendor == PMU_VENDOR_INTEL )
        profile_pmu_hw_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, global_bit(k));
    /* Delivery masks LVTPC on some CPUs: unmask it for the next one. */
    profile_pmu_hw_lvtpc_write(APIC_DM_NMI);
    profile_pmu_hw_wrmsr(k->wr_msr, armed_value(pc));
}

enum pmu_nmi profile_pmu_cpu_nmi(struct pmu_cpu *pc,
                                 const struct pmu_caps *c, bool *others)
{
    uint64_t now;
    bool again;

    *others = false;
    if ( !pc->active )
        return late_nmi(pc);
    now = profile_pmu_hw_tsc();
    if ( !overflowed(&pc->ctr, c, &again) )
        return late_nmi(pc);

    pc->nmis++;
    /* An overflow of ours: an NMI expected before it merged with it. */
    pc->late = false;
    rearm(pc, c, now);
    /*
     * Two overflows handled in one NMI (Xen's handler ticks the watchdog):
     * the NMI of the second, if its PMI came after this one began, finds
     * nothing, and must not be unknown.
     */
    *others = watchdog_overflowed(&pc->ctr, c);
    if ( *others || again )
        expect_nmi(pc);

    return PMU_NMI_OURS;
}

void profile_pmu_cpu_nmi_end(struct pmu_cpu *pc)
{
    pc->end_tsc = profile_pmu_hw_tsc();
}

uint64_t profile_pmu_next_period(uint64_t period, uint64_t elapsed,
                                 uint64_t tsc_khz, unsigned int frequency,
                                 uint64_t max_period)
{
    return profile_next_period(period, elapsed, tsc_khz, frequency,
                               PROFILE_PMU_MIN_PERIOD, max_period);
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
