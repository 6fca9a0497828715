/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-watchdog.c: the profile beside Xen's NMI watchdog (GP counter 0,
 * cycles, nmi_hz = cpu_khz >> 20 a second, its GLOBAL_STATUS bit never
 * cleared by Xen).  An NMI for our counter alone is claimed; one for the
 * watchdog alone is not; one for both is passed on so that the watchdog
 * ticks; the watchdog ticks at its rate during and after the profile;
 * no NMI is unknown, the watchdog never thinks the pCPU is stuck.
 */
#include "test.h"

#define KHZ         3000000ULL          /* nmi_hz 2: a tick per 1.5e9 */
#define SEC         (KHZ * 1000)

static const struct {
    const struct sim_model *m;
    unsigned int event;
    uint64_t period;
    bool aligned;                       /* every 1000th NMI is for both */
    unsigned int llc, br;               /* per million cycles */
} wds[] = {
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1500000, true },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1500000, true },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 1234567, false },
    { &m_intel_v4, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 10007, false, 0, 5000 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 100003, false, 20000 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1500000, true },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1500000, true },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 10007, false, 0, 5000 },
    { &m_hygon_18h, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 1234567, false },
};

static void run_all(unsigned int seconds, unsigned int llc, unsigned int br)
{
    unsigned int cpu, i;

    /* 100 ms at a time on each pCPU in turn. */
    for ( i = 0; i < 10 * seconds; i++ )
        for ( cpu = 0; cpu < sim_nr_cpus(); cpu++ )
        {
            sim_set_cpu(cpu);
            sim_run_ticks(SEC / 10, 100, llc, br);
        }
    sim_set_cpu(0);
}

static uint64_t near(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

static void wd_case(unsigned int i)
{
    const struct profile_source *src = arch_profile_pmu_source();
    const char *name = wds[i].m->name;
    struct profile_config cfg = test_cfg(wds[i].event, wds[i].period, 0);
    struct xen_nmi_stats before[2];
    unsigned int cpu, reason = ~0u, bad;
    uint64_t ticks, samples, status;
    int rc;

    test_setup(wds[i].m, 2, KHZ);
    for ( cpu = 0; cpu < 2; cpu++ )
    {
        sim_set_cpu(cpu);
        xen_watchdog_setup();
    }
    sim_set_cpu(0);
    /* Up for 2 s: the watchdog ticked (on Intel its status bit stays). */
    run_all(2, 0, 0);
    status = 0;
    sim_rdmsr(0x38e, &status);
    tap_ok(xen_nmi_hz == 2 && xen_stats[0].wd_ticks == 4 &&
           xen_stats[1].wd_ticks == 4 && !xen_stats[0].unknown,
           "watchdog %s: 2 ticks a second before the profile "
           "(GLOBAL_STATUS %#llx)", name, (unsigned long long)status);

    rc = src->check(&cfg, &reason);
    tap_ok(!rc && !xen_stats[0].unknown && !xen_stats[0].wd_spurious &&
           !xen_stats[0].wd_swallowed, "watchdog %s, event %u: check and "
           "probe: %d, nothing lost or unknown", name, wds[i].event, rc);
    if ( rc )
        return;
    for ( cpu = 0; cpu < 2; cpu++ )
    {
        sim_set_cpu(cpu);
        /* Re-armed now, the watchdog overflows with our 1000th NMI. */
        if ( wds[i].aligned )
            xen_watchdog_rearm();
        src->start(&cfg, cpu, &reason);
    }
    sim_set_cpu(0);
    memcpy(before, xen_stats, sizeof(before));

    run_all(5, wds[i].llc, wds[i].br);

    bad = 0;
    for ( cpu = 0; cpu < 2; cpu++ )
    {
        const struct xen_nmi_stats *s = &xen_stats[cpu], *b = &before[cpu];

        ticks = s->wd_ticks - b->wd_ticks;
        samples = s->samples - b->samples;
        tap_ok(s->ours_passed == b->ours_passed &&
               s->wd_swallowed == b->wd_swallowed,
               "watchdog %s, cpu%u: NMIs for us alone claimed (%llu not), "
               "for the watchdog never claimed (%llu were)", name, cpu,
               (unsigned long long)(s->ours_passed - b->ours_passed),
               (unsigned long long)(s->wd_swallowed - b->wd_swallowed));
        tap_ok(near(ticks, 10) <= 1 && s->wd_spurious == b->wd_spurious &&
               !s->wd_stuck && !s->unknown,
               "watchdog %s, cpu%u: %llu ticks in 5 s during the profile, "
               "%llu for nothing, alerts up to %llu, stuck %llu, unknown "
               "%llu", name, cpu, (unsigned long long)ticks,
               (unsigned long long)(s->wd_spurious - b->wd_spurious),
               (unsigned long long)s->wd_alert_max,
               (unsigned long long)s->wd_stuck,
               (unsigned long long)s->unknown);
        if ( wds[i].aligned )
            tap_ok(samples == 10000 && s->passed - b->passed == 10,
                   "watchdog %s, cpu%u: %llu samples, %llu NMIs for both "
                   "passed on", name, cpu, (unsigned long long)samples,
                   (unsigned long long)(s->passed - b->passed));
        else
            bad += !samples;
    }
    if ( !wds[i].aligned )
        tap_ok(!bad, "watchdog %s: samples on both pCPUs (%llu, %llu)",
               name, (unsigned long long)(xen_stats[0].samples -
                                          before[0].samples),
               (unsigned long long)(xen_stats[1].samples -
                                    before[1].samples));

    for ( cpu = 0; cpu < 2; cpu++ )
        src->stop(cpu);
    memcpy(before, xen_stats, sizeof(before));
    run_all(3, wds[i].llc, wds[i].br);
    for ( cpu = 0; cpu < 2; cpu++ )
    {
        const struct xen_nmi_stats *s = &xen_stats[cpu], *b = &before[cpu];

        ticks = s->wd_ticks - b->wd_ticks;
        tap_ok(near(ticks, 6) <= 1 && s->samples == b->samples &&
               !s->unknown && !s->wd_stuck && s->wd_spurious == b->wd_spurious,
               "watchdog %s, cpu%u: after the profile, %llu ticks in 3 s, "
               "no sample", name, cpu, (unsigned long long)ticks);
    }
}

void test_watchdog(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(wds); i++ )
        wd_case(i);
}
