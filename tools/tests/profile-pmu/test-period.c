/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-period.c: fixed-period sampling through the PMU source: N periods
 * of events give exactly N samples, each exactly one period after the
 * last; every NMI re-arms the counter to -period, acknowledges the
 * overflow and unmasks LVTPC (which the delivery masked); periods are
 * capped by the write width (2^31 - 1 for legacy writes).
 */
#include "test.h"

#define N_PERIODS   50

static struct {
    enum sim_event ev;
    uint64_t period, mask, base, status_bit;
    unsigned int ctr_msr, n, bad_arm, bad_lvtpc, bad_status, bad_when;
} h;

static void period_hook(unsigned int cpu)
{
    const struct sim_cpu *c = sim_cpu(cpu);
    uint64_t v = 0;

    h.n++;
    sim_rdmsr(h.ctr_msr, &v);
    if ( v != (-h.period & h.mask) )
    {
        if ( !h.bad_arm++ )
            tap_diag("sample %u: counter %#llx, expected %#llx", h.n,
                     (unsigned long long)v,
                     (unsigned long long)(-h.period & h.mask));
    }
    if ( sim_lvtpc_read() != 0x400 )
        h.bad_lvtpc++;
    if ( h.status_bit && !sim_rdmsr(0x38e, &v) && (v & h.status_bit) )
        h.bad_status++;
    if ( c->events[h.ev] - h.base != h.n * h.period )
    {
        if ( !h.bad_when++ )
            tap_diag("sample %u after %llu events, expected %llu", h.n,
                     (unsigned long long)(c->events[h.ev] - h.base),
                     (unsigned long long)(h.n * h.period));
    }
}

static enum sim_event sim_ev(unsigned int event)
{
    switch ( event )
    {
    case XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS: return SIM_EV_INSTRUCTIONS;
    case XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES: return SIM_EV_REF_CYCLES;
    case XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES: return SIM_EV_LLC_MISSES;
    case XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES: return SIM_EV_BRANCH_MISSES;
    }
    return SIM_EV_CYCLES;
}

/*
 * amount events of ev, a third as many of every other kind, and eight
 * cycles an event of another kind: overflows no faster than
 * PROFILE_MAX_SAMPLE_HZ, so that no period is throttled.
 */
static void run_event(enum sim_event ev, uint64_t amount)
{
    uint64_t t[SIM_EV_NR];
    unsigned int e;

    for ( e = 0; e < SIM_EV_NR; e++ )
        t[e] = e == ev ? amount : amount / 3 + 1;
    if ( ev != SIM_EV_CYCLES && ev != SIM_EV_REF_CYCLES )
        t[SIM_EV_CYCLES] = t[SIM_EV_REF_CYCLES] = amount * 8;
    sim_run(t[0], t[1], t[2], t[3], t[4]);
}

/* Check and start the PMU source on pCPU 0, hook its samples. */
static bool start0(unsigned int event, uint64_t period)
{
    const struct profile_source *src = arch_profile_pmu_source();
    struct profile_config cfg = test_cfg(event, period, 0);
    unsigned int reason = ~0u;
    int rc;

    rc = src->check(&cfg, &reason);
    if ( !rc )
        rc = src->start(&cfg, 0, &reason);
    if ( rc )
    {
        tap_diag("check/start: %d, reason %u", rc, reason);
        return false;
    }
    memset(&h, 0, sizeof(h));
    h.ev = sim_ev(event);
    h.period = period;
    h.mask = (1ULL << glue_counter()->width) - 1;
    h.ctr_msr = glue_counter()->ctr_msr;
    if ( sim_model()->vendor == SIM_INTEL )
        h.status_bit = 1ULL << (glue_counter()->fixed ?
                                32 + glue_counter()->idx :
                                glue_counter()->idx);
    h.base = sim_cpu(0)->events[h.ev];
    xen_sample_hook = period_hook;
    return true;
}

static const struct {
    const struct sim_model *m;
    unsigned int event;
    uint64_t period;
} periods[] = {
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000 },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 10000 },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 0x7fffffff },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 1000003 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 12345 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 1ULL << 40 },
    { &m_intel_v4, XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES, 300000 },
    { &m_intel_v4_nocaps, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 0x7fffffff },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 10007 },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 1ULL << 40 },
    { &m_hygon_18h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 65536 },
};

static void period_table(void)
{
    unsigned int i, n;
    uint64_t p, nmis, masked;

    for ( i = 0; i < ARRAY_SIZE(periods); i++ )
    {
        const char *name = periods[i].m->name;

        p = periods[i].period;
        n = p >= 1ULL << 31 ? 3 : N_PERIODS;
        test_setup(periods[i].m, 2, 3000000);
        if ( !tap_ok(start0(periods[i].event, p), "period %s, event %u, "
                     "%llu: started", name, periods[i].event,
                     (unsigned long long)p) )
            continue;
        nmis = sim_cpu(0)->nmis;
        masked = sim_cpu(0)->masked_on_delivery;
        /* Half in ring 0 (Xen), half in ring 3 (a PV guest). */
        run_event(h.ev, (n / 2) * p);
        sim_cpu(0)->ring = 3;
        run_event(h.ev, (n - n / 2) * p + p / 2);
        sim_cpu(0)->ring = 0;
        tap_ok(xen_stats[0].samples == n && h.n == n && !h.bad_when,
               "period %s, event %u: %u periods and a half: %llu samples, "
               "%u out of step", name, periods[i].event, n,
               (unsigned long long)xen_stats[0].samples, h.bad_when);
        tap_ok(!h.bad_arm && !h.bad_lvtpc && !h.bad_status,
               "period %s: each NMI re-armed to -period (%u not), "
               "acknowledged (%u not), unmasked LVTPC (%u not)", name,
               h.bad_arm, h.bad_status, h.bad_lvtpc);
        tap_ok(sim_model()->vendor != SIM_INTEL ||
               sim_cpu(0)->masked_on_delivery - masked ==
               sim_cpu(0)->nmis - nmis,
               "period %s: the delivery masked LVTPC each time (%llu of "
               "%llu)", name,
               (unsigned long long)(sim_cpu(0)->masked_on_delivery - masked),
               (unsigned long long)(sim_cpu(0)->nmis - nmis));
        run_event(h.ev, p - p / 2);
        tap_ok(xen_stats[0].samples == n + 1 && !h.bad_when &&
               !xen_stats[0].passed && !xen_stats[0].unknown &&
               !xen_stats[1].nmis,
               "period %s: the last half period completes one more; "
               "nothing passed to Xen, nothing on pCPU 1", name);
        arch_profile_pmu_source()->stop(0);
        run_event(h.ev, 3 * p);
        tap_ok(xen_stats[0].samples == n + 1 && !xen_stats[0].unknown,
               "period %s: no sample after stop", name);
    }
}

/* The largest periods per write width, through check and the driver. */
static void period_caps(void)
{
    const struct profile_source *src = arch_profile_pmu_source();
    struct profile_config cfg;
    struct pmu_caps c;
    struct pmu_counter k;
    struct pmu_cpu pc;
    unsigned int reason;
    uint64_t v;

    test_setup(&m_intel_v2, 1, 3000000);
    cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 0x80000000ULL, 0);
    tap_ok(src->check(&cfg, &reason) == -EINVAL,
           "period legacy: 2^31 refused by check");
    cfg.period = 0x7fffffff;
    tap_ok(src->check(&cfg, &reason) == 0,
           "period legacy: 2^31 - 1 accepted");

    profile_pmu_detect(&c);
    profile_pmu_pick_counter(&c, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, &k);
    profile_pmu_cpu_start(&pc, &c, &k, 1ULL << 40, 0, 3000000);
    sim_rdmsr(0xc2, &v);
    tap_ok(pc.period == 0x7fffffff && v == (1ULL << 48) - 0x7fffffff,
           "period legacy: the driver caps 2^40 at 2^31 - 1, armed as "
           "%#llx", (unsigned long long)v);
    profile_pmu_cpu_stop(&pc, &c);
    profile_pmu_cpu_start(&pc, &c, &k, 0, 0, 3000000);
    sim_rdmsr(0xc2, &v);
    tap_ok(pc.period == 1 && v == (1ULL << 48) - 1,
           "period: 0 becomes 1");
    profile_pmu_cpu_stop(&pc, &c);

    test_setup(&m_intel_v3_fw, 1, 3000000);
    profile_pmu_detect(&c);
    profile_pmu_pick_counter(&c, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, &k);
    profile_pmu_cpu_start(&pc, &c, &k, 1ULL << 50, 0, 3000000);
    sim_rdmsr(0xc2, &v);
    tap_ok(pc.period == (1ULL << 47) - 1 && v == (1ULL << 47) + 1,
           "period full-width: 2^50 capped at 2^47 - 1, armed as %#llx",
           (unsigned long long)v);
    profile_pmu_cpu_stop(&pc, &c);
    cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 1ULL << 47, 0);
    tap_ok(src->check(&cfg, &reason) == -EINVAL,
           "period full-width: 2^47 refused by check");
}

/*
 * Throttling: overflows of a period too small for the event's rate come
 * faster than PROFILE_MAX_SAMPLE_HZ; the period doubles until they do
 * not (each counted), and comes back down to the period asked for when
 * the events slow down.  Frequency mode's first period (a guess from the
 * clock) is within the smallest period too.
 */
static void period_throttle(void)
{
    uint64_t khz = 3000000, samples, nmis, t0, ticks, hz;
    struct pmu_caps c;
    struct pmu_counter k;
    struct pmu_cpu pc;
    unsigned int i;

    test_setup(&m_intel_v3_fw, 1, khz);
    if ( !tap_ok(start0(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 10000),
                 "throttle: cycles every 10000 started (300 kHz asked)") )
        return;
    xen_sample_hook = NULL;             /* periods change on purpose */
    /* A second of cycles: 300,000 overflows asked. */
    run_event(SIM_EV_CYCLES, khz * 1000);
    samples = xen_stats[0].samples;
    tap_ok(xen_stats[0].throttled >= 3 && xen_stats[0].throttled <= 8 &&
           glue_state(0)->period ==
           10000ULL << xen_stats[0].throttled,
           "throttle: the period doubled %llu times, to %llu, each counted "
           "for the session", (unsigned long long)xen_stats[0].throttled,
           (unsigned long long)glue_state(0)->period);
    /* Then a second at the rate it settled to. */
    nmis = sim_cpu(0)->nmis;
    t0 = sim_cpu(0)->tsc;
    run_event(SIM_EV_CYCLES, khz * 1000);
    ticks = sim_cpu(0)->tsc - t0;
    hz = (sim_cpu(0)->nmis - nmis) * khz * 1000 / ticks;
    tap_ok(hz <= PROFILE_MAX_SAMPLE_HZ &&
           hz >= PROFILE_MAX_SAMPLE_HZ / 4 &&
           xen_stats[0].samples > samples && !xen_stats[0].unknown,
           "throttle: then %llu overflows a second, at most %u, still "
           "sampled, no unknown NMI", (unsigned long long)hz,
           PROFILE_MAX_SAMPLE_HZ);
    arch_profile_pmu_source()->stop(0);

    /* LLC misses: a burst, then as slow as the period asked allows. */
    test_setup(&m_intel_v3_fw, 1, khz);
    if ( !tap_ok(start0(XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 10000),
                 "throttle: LLC misses every 10000 started") )
        return;
    xen_sample_hook = NULL;
    sim_run(100000000, 1000000, 100000000, 40000000, 0);
    tap_ok(xen_stats[0].throttled && glue_state(0)->period > 10000,
           "throttle: a burst of misses raised the period to %llu",
           (unsigned long long)glue_state(0)->period);
    for ( i = 0; i < 20; i++ )
        sim_run(3000000000ULL, 1000000, 3000000000ULL, 100000, 0);
    tap_ok(glue_state(0)->period == 10000,
           "throttle: slow misses bring it back to 10000 (%llu)",
           (unsigned long long)glue_state(0)->period);
    arch_profile_pmu_source()->stop(0);

    test_setup(&m_intel_v3_fw, 1, khz);
    profile_pmu_detect(&c);
    profile_pmu_pick_counter(&c, XEN_SYSCTL_PROFILE_EVENT_CYCLES, false, &k);
    profile_pmu_cpu_start(&pc, &c, &k, 1, 997, 1);
    tap_ok(pc.period == PROFILE_PMU_MIN_PERIOD,
           "frequency: a first period below the smallest starts at %u "
           "(%llu)", PROFILE_PMU_MIN_PERIOD, (unsigned long long)pc.period);
    profile_pmu_cpu_stop(&pc, &c);
}

void test_period(void)
{
    period_table();
    period_caps();
    period_throttle();
}
