/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-race.c: the timing the other tests leave out.  Each pmu_hw_*()
 * access now takes cycles (msr_cost), during which the counters count,
 * so that an overflow can fall anywhere in the driver's sequences:
 *  - stop at every phase of the period: an overflow while stopping must
 *    not become an unknown NMI (or a spurious watchdog tick);
 *  - frequency mode on a rare event (period down to 1) with the handler's
 *    own events: an overflow inside the NMI handler must not be lost;
 *  - the watchdog's counter wrapping inside our NMI handler, and ours
 *    inside a watchdog NMI: neither stops for good;
 *  - both overflows handled in one NMI: the NMI after it, which finds
 *    nothing, is not unknown; an NMI from elsewhere with ours wrapping
 *    in it still is;
 *  - a handler longer than the period: throttled, not an NMI storm.
 */
#include "test.h"

#define KHZ     3000000ULL
#define SEC     (KHZ * 1000)

static const struct profile_source *src;

static bool start(unsigned int cpu, unsigned int event, uint64_t period,
                  unsigned int freq)
{
    struct profile_config cfg = test_cfg(event, period, freq);
    unsigned int reason;

    return !src->check(&cfg, &reason) && !src->start(&cfg, cpu, &reason);
}

/* Stop after every number of cycles across one period. */
static void stop_sweep(const struct sim_model *m, bool watchdog,
                       unsigned int latency)
{
    const uint64_t period = 10000;
    struct sim_msr a[SIM_MAX_MSRS], b[SIM_MAX_MSRS];
    unsigned int n, off, runs = 0, bad_regs = 0;
    uint64_t samples, pmis;
    static const uint32_t wd_skip[] = { 0xc1, 0x38e, 0xc0010004, 0 };

    test_setup(m, 1, KHZ);
    if ( watchdog )
        xen_watchdog_setup();
    sim_cpu(0)->msr_cost = 150;
    sim_cpu(0)->pmi_latency = latency;
    for ( off = 0; off < period + 1000; off += 7, runs++ )
    {
        n = sim_snapshot(0, a);
        if ( !start(0, XEN_SYSCTL_PROFILE_EVENT_CYCLES, period, 0) )
            break;
        sim_run(off, off, off, 0, 0);
        src->stop(0);
        /* Anything on its way arrives. */
        sim_run(2000, 1000, 2000, 0, 0);
        sim_snapshot(0, b);
        if ( !test_same_msrs(0, a, b, n, watchdog ? wd_skip : NULL) )
            bad_regs++;
        if ( bad_regs > 3 )
            break;
    }
    samples = xen_stats[0].samples;
    pmis = sim_cpu(0)->pmis;
    /*
     * With a PMI latency, an overflow just before the stop is still in
     * flight when the counter is disabled: profile_pmu_cpu_stop() waits for it.
     */
    tap_ok(runs > 1000 && !bad_regs && samples > 0,
           "stop sweep %s%s, PMI latency %u: %u stops at every phase, "
           "registers restored (%u not), %llu samples, %llu PMIs", m->name,
           watchdog ? ", watchdog" : "", latency, runs, bad_regs,
           (unsigned long long)samples, (unsigned long long)pmis);
    tap_ok(!xen_stats[0].unknown && !xen_stats[0].wd_spurious &&
           !xen_stats[0].ours_passed,
           "stop sweep %s%s, PMI latency %u: no unknown NMI (%llu), no "
           "spurious watchdog tick (%llu), none of ours passed on (%llu)",
           m->name, watchdog ? ", watchdog" : "", latency,
           (unsigned long long)xen_stats[0].unknown,
           (unsigned long long)xen_stats[0].wd_spurious,
           (unsigned long long)xen_stats[0].ours_passed);
}

/* seconds of a workload with these many misses a second (both kinds). */
static void run_rate(unsigned int tenths, uint64_t misses)
{
    unsigned int i;

    for ( i = 0; i < tenths; i++ )
        sim_run(SEC / 10, SEC / 10, SEC / 10, misses / 10, misses / 10);
}

/*
 * Frequency mode on LLC or branch misses: frequent, then rarer and rarer
 * (the period follows down to its floor, PROFILE_PMU_MIN_PERIOD), then frequent
 * again.  Each pmu_hw_*() access also misses once: the handler's own
 * events, which an armed counter with a small period could overflow on.
 */
static void rare_event(const struct sim_model *m, unsigned int event)
{
    unsigned int s;
    uint64_t before, last = 0, low;

    test_setup(m, 1, KHZ);
    sim_cpu(0)->msr_cost = 100;
    sim_cpu(0)->cost_misses = 1;
    if ( !tap_ok(start(0, event, 0, 1000), "rare event %s, event %u, "
                 "1000 Hz: started", m->name, event) )
        return;
    run_rate(10, 30000000);
    run_rate(100, 30000);
    run_rate(30, 300);
    low = glue_state(0)->period;
    for ( s = 0; s < 5; s++ )
    {
        before = xen_stats[0].samples;
        run_rate(10, 3000000);
        last = xen_stats[0].samples - before;
    }
    /* At the floor, 3e6 events a second give 300 samples, not 1000. */
    tap_ok(low == PROFILE_PMU_MIN_PERIOD && last >= 285 && last <= 315 &&
           !xen_stats[0].unknown,
           "rare event %s: period down to %llu (the floor) at 300 a "
           "second; then at 3e6 a second, %llu samples in the 5th second "
           "(3e6 / the floor; none lost in the handler)", m->name,
           (unsigned long long)low, (unsigned long long)last);
    src->stop(0);
}

/* One pCPU of model m, slow MSR accesses, the watchdog running. */
static void wd_setup(const struct sim_model *m, bool force)
{
    test_setup(m, 1, KHZ);
    sim_cpu(0)->msr_cost = 150;
    xen_watchdog_setup();
    watchdog_force = force;
}

/*
 * Ours (period P) and the watchdog (1000 P) armed d cycles apart, for d
 * across our NMI handler: the watchdog wraps inside it, or ours inside
 * the watchdog's.
 */
static void wd_overlap(const struct sim_model *m, bool force)
{
    const uint64_t period = 1500000;
    unsigned int d, runs = 0, bad_wd = 0, bad_ours = 0, unknown = 0;
    uint64_t samples;

    for ( d = 0; d <= 3000; d += 20, runs++ )
    {
        wd_setup(m, force);
        if ( !start(0, XEN_SYSCTL_PROFILE_EVENT_CYCLES, period, 0) )
            break;
        /* Ours first, the watchdog d cycles later... */
        sim_run(d, d, d, 0, 0);
        xen_watchdog_rearm();
        sim_run_ticks(2 * SEC, 100, 0, 0);
        samples = xen_stats[0].samples;
        if ( xen_stats[0].wd_ticks < 3 || xen_stats[0].wd_stuck )
            bad_wd++;
        if ( samples < 3000 )
            bad_ours++;
        unknown += xen_stats[0].unknown;
        src->stop(0);

        /* ... and the watchdog first, ours d cycles later. */
        wd_setup(m, force);
        if ( !start(0, XEN_SYSCTL_PROFILE_EVENT_CYCLES, period, 0) )
            break;
        src->stop(0);
        xen_watchdog_rearm();
        sim_run(d, d, d, 0, 0);
        start(0, XEN_SYSCTL_PROFILE_EVENT_CYCLES, period, 0);
        sim_run_ticks(2 * SEC, 100, 0, 0);
        if ( xen_stats[0].wd_ticks < 3 || xen_stats[0].wd_stuck )
            bad_wd++;
        if ( xen_stats[0].samples < 3000 )
            bad_ours++;
        unknown += xen_stats[0].unknown;
        src->stop(0);
    }
    tap_ok(runs > 100 && !bad_wd && !unknown,
           "overlap %s%s: the watchdog wrapping in or near our NMI keeps "
           "ticking (%u of %u runs did not), no unknown NMI (%u)", m->name,
           force ? ", watchdog=force" : "", bad_wd, 2 * runs, unknown);
    tap_ok(runs > 100 && !bad_ours,
           "overlap %s%s: ours wrapping in or near a watchdog NMI keeps "
           "sampling (%u of %u runs did not)", m->name,
           force ? ", watchdog=force" : "", bad_ours, 2 * runs);
}

/*
 * The watchdog's counter set to wrap d cycles after ours, for d from
 * before our NMI to after it: both overflows may be handled in one NMI
 * (ours claimed and passed on, the watchdog ticks), and the second
 * PMI, raised inside that NMI, arrives after it with nothing left to
 * handle.  That NMI must not be unknown, with watchdog=force too.
 */
static void wd_same_nmi(const struct sim_model *m, bool force)
{
    const uint64_t period = 1500000;
    const struct pmu_counter *k;
    unsigned int runs = 0, unknown = 0, empty = 0, bad = 0;
    uint64_t v, left, wd_ticks, samples;
    int d;

    for ( d = -500; d <= 3000; d += 5, runs++ )
    {
        wd_setup(m, force);
        if ( !start(0, XEN_SYSCTL_PROFILE_EVENT_CYCLES, period, 0) )
            break;
        sim_run(1000, 1000, 1000, 0, 0);
        k = &glue_state(0)->ctr;
        sim_rdmsr(k->ctr_msr, &v);
        left = (1ULL << k->width) - (v & ((1ULL << k->width) - 1));
        xen_watchdog_wrap_in(left + d);
        wd_ticks = xen_stats[0].wd_ticks;
        samples = xen_stats[0].samples;
        sim_run(left + 10000, left + 10000, left + 10000, 0, 0);
        if ( xen_stats[0].wd_ticks != wd_ticks + 1 ||
             xen_stats[0].samples != samples + 1 )
            bad++;
        unknown += xen_stats[0].unknown;
        empty += xen_stats[0].wd_spurious;
        src->stop(0);
    }
    tap_ok(runs > 500 && !bad,
           "one NMI for two %s%s: the watchdog wrapping from before to "
           "after ours, each overflow handled once (%u of %u runs not)",
           m->name, force ? ", watchdog=force" : "", bad, runs);
    tap_ok(runs > 500 && empty && !unknown,
           "one NMI for two %s%s: the NMI after it finds nothing (%u "
           "runs), and is not unknown (%u)", m->name,
           force ? ", watchdog=force" : "", empty, unknown);
}

/*
 * An NMI from elsewhere (no watchdog) with ours wrapping d cycles into
 * it, for d across the handler: ours raises its own PMI, held until this
 * NMI returns, and this one must still be reported unknown (once per run,
 * whichever of the two carries it), ours sampled once.
 */
static void foreign_and_ours(const struct sim_model *m)
{
    const uint64_t period = 1500000;
    const struct pmu_counter *k;
    unsigned int runs = 0, bad = 0;
    uint64_t samples, unknown;
    int d;

    for ( d = 0; d <= 2000; d += 5, runs++ )
    {
        test_setup(m, 1, KHZ);
        sim_cpu(0)->msr_cost = 150;
        if ( !start(0, XEN_SYSCTL_PROFILE_EVENT_CYCLES, period, 0) )
            break;
        sim_run(1000, 1000, 1000, 0, 0);
        k = &glue_state(0)->ctr;
        sim_wrmsr(k->wr_msr, ((1ULL << k->width) - 1 - d) &
                             ((1ULL << k->width) - 1));
        samples = xen_stats[0].samples;
        unknown = xen_stats[0].unknown;
        sim_external_nmi();
        sim_run(10000, 10000, 10000, 0, 0);
        if ( xen_stats[0].unknown != unknown + 1 ||
             xen_stats[0].samples != samples + 1 )
            bad++;
        src->stop(0);
    }
    tap_ok(runs > 300 && !bad,
           "foreign NMI %s, ours wrapping inside it: one unknown NMI, one "
           "sample (%u of %u runs not)", m->name, bad, runs);
}

#define RUN 100000ULL

/*
 * Slow MSR accesses (each as long as a period): the counter overflows
 * in the first access after the one that enables it.  Its NMI must find
 * the pCPU armed, not come as an unknown NMI (watchdog=force: neither
 * the watchdog nor the profiler claims it).
 */
static void start_window(const struct sim_model *m)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 10000, 0);
    unsigned int reason;
    uint64_t samples, access, busy, cycles;
    int rc;

    test_setup(m, 1, KHZ);
    xen_watchdog_setup();
    watchdog_force = true;
    rc = src->check(&cfg, &reason);
    sim_cpu(0)->msr_cost = 12000;
    rc = rc ?: src->start(&cfg, 0, &reason);
    sim_run(RUN, RUN, RUN, 0, 0);
    tap_ok(!rc && !xen_stats[0].unknown && xen_stats[0].samples,
           "start %s, MSR accesses as long as the period: the first "
           "overflow's NMI finds the pCPU armed (%llu samples), no "
           "unknown NMI (%llu)", m->name,
           (unsigned long long)xen_stats[0].samples,
           (unsigned long long)xen_stats[0].unknown);
    /*
     * The handler (a dozen accesses) is longer than the period: without
     * a throttle each NMI's overflow comes inside it, and the pCPU would
     * run nothing else (or, with the PMI lost to a masked LVTPC, stop
     * sampling).  Throttled: at most half of the time in the accesses,
     * and samples keep coming.
     */
    samples = xen_stats[0].samples;
    access = sim_cpu(0)->hw_access;
    cycles = sim_cpu(0)->events[SIM_EV_CYCLES];
    sim_run(100 * RUN, 100 * RUN, 100 * RUN, 0, 0);
    busy = (sim_cpu(0)->hw_access - access) * sim_cpu(0)->msr_cost;
    cycles = sim_cpu(0)->events[SIM_EV_CYCLES] - cycles;
    tap_ok(!rc && busy * 2 <= cycles && xen_stats[0].samples - samples >= 10,
           "start %s, MSR accesses as long as the period: throttled, "
           "%llu%% of the time in the handler's accesses, %llu samples",
           m->name, (unsigned long long)(busy * 100 / cycles),
           (unsigned long long)(xen_stats[0].samples - samples));
    sim_cpu(0)->msr_cost = 0;
    src->stop(0);
}

void test_race(void)
{
    src = arch_profile_pmu_source();
    stop_sweep(&m_intel_v3_fw, false, 0);
    stop_sweep(&m_intel_v2, true, 0);
    stop_sweep(&m_amd_17h, false, 0);
    stop_sweep(&m_amd_10h, true, 0);
    stop_sweep(&m_intel_v3_fw, false, 300);
    stop_sweep(&m_amd_17h, false, 300);
    rare_event(&m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES);
    rare_event(&m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES);
    rare_event(&m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES);
    wd_overlap(&m_intel_v3_fw, false);
    wd_overlap(&m_amd_17h, false);
    wd_overlap(&m_intel_v3_fw, true);
    wd_overlap(&m_amd_17h, true);
    wd_overlap(&m_amd_10h, true);
    wd_same_nmi(&m_intel_v3_fw, true);
    wd_same_nmi(&m_amd_17h, true);
    wd_same_nmi(&m_amd_17h, false);
    foreign_and_ours(&m_intel_v3_fw);
    foreign_and_ours(&m_amd_17h);
    start_window(&m_intel_v3_fw);
    start_window(&m_amd_17h);
}
