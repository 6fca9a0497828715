/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-source.c: the PMU source as the profiler core drives it
 * (arch_profile_pmu_source()->check/start/stop, one pCPU at a time):
 * refusals with their reasons, the NMI probe (and its timeout when no PMI
 * ever arrives), then start and stop on several pCPUs: every register
 * back as it was, the PMU given back, the NMI callback slot never used;
 * a pCPU going offline while the others keep sampling.
 */
#include "test.h"

#define KHZ     3000000ULL

static const struct profile_source *src;

static int check(unsigned int event, uint64_t period, unsigned int freq,
                 unsigned int *reason)
{
    struct profile_config cfg = test_cfg(event, period, freq);

    *reason = ~0u;
    return src->check(&cfg, reason);
}

static int cf_check other_nmi(const struct cpu_user_regs *regs, int cpu)
{
    return 0;
}

static void refusals(void)
{
    static const struct {
        const struct sim_model *m;
        unsigned int event;
    } no_event[] = {
        { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES },
        { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES },
        { &m_intel_v4_nobrmiss, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES },
    };
    static const struct sim_model *const no_pmu[] = {
        &m_intel_v1, &m_intel_noleaf, &m_amd_0fh, &m_centaur,
    };
    struct profile_config cfg;
    unsigned int reason, i;
    int rc;

    test_setup(&m_intel_v3_fw, 2, KHZ);
    vpmu_mode = XENPMU_MODE_SELF;
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_VPMU &&
           test_pmu_free() && !xen_nmi_callback(),
           "source: vPMU enabled: -EBUSY, VPMU (%d, %u)", rc, reason);
    vpmu_mode = XENPMU_MODE_OFF;

    tap_ok(acquire_pmu_ownership(PMU_OWNER_OTHER), "source: another "
           "owner takes the PMU");
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_PMU_BUSY &&
           !xen_nmi_callback() && glue_probe_result() == 1,
           "source: another owner has the PMU: -EBUSY, PMU_BUSY "
           "(%d, %u), nothing probed", rc, reason);
    release_pmu_ownership(PMU_OWNER_OTHER);
    tap_ok(acquire_pmu_ownership(PMU_OWNER_HVM), "source: an HVM vPMU "
           "takes the PMU");
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_VPMU,
           "source: a vPMU guest owns the PMU: -EBUSY, VPMU (%d, %u)", rc, reason);
    release_pmu_ownership(PMU_OWNER_HVM);

    /* The NMI callback slot is not the profiler's: held, nothing fails. */
    set_nmi_callback(other_nmi);
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    tap_ok(!rc && xen_nmi_callback() == other_nmi && test_pmu_free() &&
           glue_probe_result() == 0,
           "source: another NMI callback held: check passes (%d), the slot "
           "is left alone, the probe saw our NMI", rc);
    cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0);
    rc = src->start(&cfg, 0, &reason);
    tap_ok(!rc && xen_nmi_callback() == other_nmi && !test_pmu_free() &&
           glue_nr_started() == 1,
           "source: start with the slot held: started (%d), slot untouched",
           rc);
    src->stop(0);
    tap_ok(test_pmu_free() && xen_nmi_callback() == other_nmi &&
           !glue_nr_started(), "source: stop: PMU free, slot untouched");
    set_nmi_callback(NULL);

    for ( i = 0; i < ARRAY_SIZE(no_pmu); i++ )
    {
        test_setup(no_pmu[i], 1, KHZ);
        rc = check(XEN_SYSCTL_PROFILE_EVENT_DEFAULT, 100000, 0, &reason);
        tap_ok(rc == -EOPNOTSUPP && reason == XEN_SYSCTL_PROFILE_REASON_NO_PMU &&
               test_pmu_free(), "source %s: -EOPNOTSUPP, NO_PMU (%d, %u)",
               no_pmu[i]->name, rc, reason);
    }
    tap_ok(strstr(xen_log, "no usable PMU") != NULL,
           "source: no usable PMU is logged once (%u messages)",
           xen_log_count);

    for ( i = 0; i < ARRAY_SIZE(no_event); i++ )
    {
        test_setup(no_event[i].m, 1, KHZ);
        rc = check(no_event[i].event, 100000, 0, &reason);
        tap_ok(rc == -EOPNOTSUPP && reason == XEN_SYSCTL_PROFILE_REASON_NO_EVENT &&
               test_pmu_free(), "source %s, event %u: -EOPNOTSUPP, NO_EVENT "
               "(%d, %u)", no_event[i].m->name, no_event[i].event, rc,
               reason);
    }

    test_setup(&m_intel_v2, 1, KHZ);
    tap_ok(check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 9999, 0, &reason) == -EINVAL &&
           check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 0, &reason) == -EINVAL &&
           check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0x80000000, 0, &reason) ==
           -EINVAL &&
           check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 10001, &reason) == -EINVAL,
           "source: periods below 10000 or above 2^31 - 1 (legacy), "
           "10001 Hz: -EINVAL");
    tap_ok(!check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 10000, 0, &reason) &&
           !check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0x7fffffff, 0, &reason) &&
           !check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 10000, &reason) &&
           !check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 1, &reason) &&
           test_pmu_free(), "source: 10000, 2^31 - 1, 10000 Hz, 1 Hz "
           "accepted");
}

/*
 * No PMI ever arrives: the probe gives up after 1 ms (sysctl_lock is
 * held), leaves no trace, and is not run again.
 */
static void no_nmi(void)
{
    struct sim_msr a[SIM_MAX_MSRS], b[SIM_MAX_MSRS];
    unsigned int reason, n;
    s_time_t t0, t1;
    int rc;

    test_setup(&m_intel_v3_fw, 2, KHZ);
    sim_cpu(0)->pmi_lost = true;
    n = sim_snapshot(0, a);
    t0 = xen_time();
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    t1 = xen_time();
    sim_snapshot(0, b);
    tap_ok(rc == -EOPNOTSUPP && reason == XEN_SYSCTL_PROFILE_REASON_NO_NMI &&
           t1 - t0 >= MILLISECS(1) && t1 - t0 < MILLISECS(2),
           "source: PMIs lost: -EOPNOTSUPP, NO_NMI (%d, %u) after %lld us "
           "of simulated time", rc, reason, (long long)(t1 - t0) / 1000);
    tap_ok(sim_cpu(0)->pmis_lost >= 1 && !xen_stats[0].nmis,
           "source: ... the counter did overflow (%llu PMI lost)",
           (unsigned long long)sim_cpu(0)->pmis_lost);
    tap_ok(test_same_msrs(0, a, b, n, NULL) && test_pmu_free() &&
           !xen_nmi_callback() && strstr(xen_log, "no PMU overflow NMI"),
           "source: ... registers, PMU and NMI slot as before; logged");
    t0 = xen_time();
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    tap_ok(rc == -EOPNOTSUPP && reason == XEN_SYSCTL_PROFILE_REASON_NO_NMI &&
           xen_time() - t0 < MILLISECS(1),
           "source: ... the result is kept: no second probe");

    /* LVTPC that does not deliver NMIs (fixed vector): same. */
    test_setup(&m_amd_17h, 1, KHZ);
    sim_cpu(0)->pmi_lost = true;
    rc = check(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0, &reason);
    tap_ok(rc == -EOPNOTSUPP && reason == XEN_SYSCTL_PROFILE_REASON_NO_NMI &&
           test_pmu_free(), "source AMD: PMIs lost: NO_NMI (%d, %u)", rc,
           reason);
}

/* Values nobody would leave: each must come back. */
static void seed(unsigned int cpu)
{
    const struct sim_model *m = sim_model();
    unsigned int i, prev = sim_cur();

    sim_set_cpu(cpu);
    if ( m->vendor == SIM_INTEL )
    {
        for ( i = 0; i < m->nr_gp; i++ )
        {
            sim_wrmsr(0x186 + i, 0x0300c0 + i + (cpu << 8));
            sim_wrmsr(0xc1 + i, 0x1000 * (i + 1) + cpu);
        }
        for ( i = 0; i < m->nr_fixed; i++ )
            sim_wrmsr(0x309 + i, 0x777000 + 0x10 * i + cpu);
        /* Fixed 0 and 2 set up, all fixed counters off globally. */
        sim_wrmsr(0x38d, 0x302);
        sim_wrmsr(0x38f, (1ULL << m->nr_gp) - 1 - (cpu & 1));
    }
    else
        for ( i = 0; i < (m->ext_core ? 6 : 4); i++ )
        {
            sim_wrmsr(m->ext_core ? 0xc0010200 + 2 * i : 0xc0010000 + i,
                      0x0300c0 + i + (cpu << 8));
            sim_wrmsr(m->ext_core ? 0xc0010201 + 2 * i : 0xc0010004 + i,
                      0xabc000 + 0x10 * i + cpu);
        }
    sim_lvtpc_write(0x10000 | (0xf0 + cpu));
    sim_set_cpu(prev);
}

static const struct {
    const struct sim_model *m;
    unsigned int event;
    uint64_t period;
    unsigned int freq;
} lifecycles[] = {
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1000000, 0 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 10000, 0 },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 10000, 0 },
    { &m_intel_v4, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 0, 2000 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1000000, 0 },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, 20000, 0 },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 997 },
    { &m_hygon_18h, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 2000000, 0 },
};

/* 100 ms on each pCPU, with misses enough for every event. */
static void run_cpus(unsigned int tenths)
{
    unsigned int cpu, i;

    for ( i = 0; i < tenths; i++ )
        for ( cpu = 0; cpu < sim_nr_cpus(); cpu++ )
        {
            sim_set_cpu(cpu);
            sim_run_ticks(KHZ * 100, 150, 500, 2000);
        }
    sim_set_cpu(0);
}

static void lifecycle(unsigned int i, bool watchdog)
{
    static const uint32_t wd_skip[] = {
        0xc1, 0x38e, 0xc0010004, 0xc0010201, 0,
    };
    const char *name = lifecycles[i].m->name;
    struct profile_config cfg = test_cfg(lifecycles[i].event,
                                         lifecycles[i].period,
                                         lifecycles[i].freq);
    struct sim_msr before[SIM_NR_CPUS][SIM_MAX_MSRS], now[SIM_MAX_MSRS];
    const uint32_t *skip = watchdog ? wd_skip : NULL;
    uint64_t samples[SIM_NR_CPUS];
    unsigned int cpu, n = 0, reason, bad;
    int rc;

    test_setup(lifecycles[i].m, SIM_NR_CPUS, KHZ);
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
    {
        seed(cpu);
        if ( watchdog )
        {
            sim_set_cpu(cpu);
            xen_watchdog_setup();
        }
    }
    sim_set_cpu(0);
    run_cpus(3);
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        n = sim_snapshot(cpu, before[cpu]);

    rc = src->check(&cfg, &reason);
    sim_snapshot(0, now);
    tap_ok(!rc && test_same_msrs(0, before[0], now, n, skip) &&
           test_pmu_free() && !xen_nmi_callback(),
           "lifecycle %s, event %u%s: check (%d) leaves registers, PMU and "
           "NMI slot as they were", name, lifecycles[i].event,
           watchdog ? ", watchdog" : "", rc);
    if ( rc )
        return;
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        rc |= src->start(&cfg, cpu, &reason);
    tap_ok(!rc && !xen_nmi_callback() && !test_pmu_free(),
           "lifecycle %s: started on %u pCPUs, NMI callback slot unused, "
           "PMU owned", name, SIM_NR_CPUS);
    run_cpus(10);
    for ( bad = 0, cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
    {
        samples[cpu] = xen_stats[cpu].samples;
        bad += samples[cpu] < 100 || xen_stats[cpu].unknown ||
               xen_stats[cpu].ours_passed || xen_stats[cpu].wd_swallowed;
    }
    tap_ok(!bad, "lifecycle %s: every pCPU samples (%llu %llu %llu %llu), "
           "all claimed", name, (unsigned long long)samples[0],
           (unsigned long long)samples[1], (unsigned long long)samples[2],
           (unsigned long long)samples[3]);

    /* pCPU 2 goes offline; the others keep sampling. */
    src->stop(2);
    sim_snapshot(2, now);
    tap_ok(test_same_msrs(2, before[2], now, n, skip) && !test_pmu_free(),
           "lifecycle %s: pCPU 2 stopped: its registers as before, the "
           "others keep the PMU", name);
    run_cpus(10);
    tap_ok(xen_stats[2].samples == samples[2] &&
           xen_stats[0].samples > samples[0] + 100 &&
           xen_stats[1].samples > samples[1] + 100 &&
           xen_stats[3].samples > samples[3] + 100 && !xen_stats[2].unknown,
           "lifecycle %s: pCPU 2 no longer samples, 0, 1 and 3 do", name);
    /* Its offlining failed: back in. */
    rc = src->start(&cfg, 2, &reason);
    samples[2] = xen_stats[2].samples;
    run_cpus(5);
    tap_ok(!rc && xen_stats[2].samples > samples[2] + 50,
           "lifecycle %s: pCPU 2 restarted, samples again", name);

    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        src->stop(cpu);
    for ( bad = 0, cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
    {
        sim_snapshot(cpu, now);
        bad += !test_same_msrs(cpu, before[cpu], now, n, skip);
    }
    tap_ok(!bad, "lifecycle %s: stopped everywhere: every MSR and LVTPC of "
           "every pCPU as before start", name);
    tap_ok(test_pmu_free() && !xen_nmi_callback() && !glue_nr_started(),
           "lifecycle %s: PMU released (another owner can take it), NMI "
           "callback slot still free", name);
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        samples[cpu] = xen_stats[cpu].samples;
    run_cpus(5);
    for ( bad = 0, cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        bad += xen_stats[cpu].samples != samples[cpu] ||
               xen_stats[cpu].unknown || xen_stats[cpu].wd_stuck;
    tap_ok(!bad, "lifecycle %s: no sample, no unknown NMI afterwards", name);
}

void test_source(void)
{
    unsigned int i;

    src = arch_profile_pmu_source();
    tap_ok(src && src->id == XEN_SYSCTL_PROFILE_SOURCE_PMU && src->check &&
           src->start && src->stop, "source: the PMU source");
    refusals();
    no_nmi();
    for ( i = 0; i < ARRAY_SIZE(lifecycles); i++ )
        lifecycle(i, false);
    lifecycle(0, true);
    lifecycle(2, true);
    lifecycle(4, true);
    lifecycle(5, true);
    lifecycle(6, true);
}
