/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-sharing.c: the PMU source beside the rest of Xen in the middle of
 * a session: the NMI callback slot taken by microcode loading (its
 * callback returns 0 on the CPU handling the NMI) or by a crash
 * (do_nmi_crash() swallows every NMI), port 0x61 while every NMI is an
 * overflow, the NMI of an overflow that
 * arrives after stop, vPMU switched on, and a pCPU whose counter cannot
 * be programmed.  do_nmi() is Xen's, with the profiler's hook (xen-stub.c).
 */
#include "test.h"

#define KHZ     3000000ULL

static const struct profile_source *src;

/* microcode_nmi_callback() on the CPU that handles the NMI: Xen goes on. */
static int cf_check microcode_cb(const struct cpu_user_regs *regs, int cpu)
{
    return 0;
}

/*
 * do_nmi_crash() (a crash's shootdown) or livepatch's mask_nmi_callback():
 * every NMI swallowed.
 */
static int cf_check swallow_cb(const struct cpu_user_regs *regs, int cpu)
{
    return 1;
}

static void run_all(unsigned int nr, unsigned int tenths)
{
    unsigned int cpu, t;

    for ( t = 0; t < tenths; t++ )
        for ( cpu = 0; cpu < nr; cpu++ )
        {
            sim_set_cpu(cpu);
            sim_run_ticks(KHZ * 100, 150, 500, 2000);
        }
    sim_set_cpu(0);
}

static void snap_samples(unsigned int nr, uint64_t *s)
{
    unsigned int cpu;

    for ( cpu = 0; cpu < nr; cpu++ )
        s[cpu] = xen_stats[cpu].samples;
}

/* Did every pCPU take over min samples since s, with no unknown NMI? */
static bool all_sampling(unsigned int nr, const uint64_t *s, uint64_t min)
{
    unsigned int cpu;
    bool ok = true;

    for ( cpu = 0; cpu < nr; cpu++ )
        ok = ok && xen_stats[cpu].samples >= s[cpu] + min &&
             !xen_stats[cpu].unknown && !xen_stats[cpu].wd_stuck;
    return ok;
}

static void callbacks(const struct sim_model *m, bool watchdog)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 997);
    uint64_t s[SIM_NR_CPUS];
    unsigned int cpu, reason;
    const char *wd = watchdog ? ", watchdog" : "";
    int rc;

    test_setup(m, SIM_NR_CPUS, KHZ);
    if ( watchdog )
        for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        {
            sim_set_cpu(cpu);
            xen_watchdog_setup();
        }
    sim_set_cpu(0);
    rc = src->check(&cfg, &reason);
    for ( cpu = 0; !rc && cpu < SIM_NR_CPUS; cpu++ )
        rc = src->start(&cfg, cpu, &reason);
    if ( !tap_ok(!rc, "sharing %s%s: started on %u pCPUs", m->name, wd,
                 SIM_NR_CPUS) )
        return;
    snap_samples(SIM_NR_CPUS, s);
    run_all(SIM_NR_CPUS, 5);
    tap_ok(all_sampling(SIM_NR_CPUS, s, 300),
           "sharing %s%s: sampling, no unknown NMI", m->name, wd);

    /*
     * pCPU 0 gets the platform's NMIs: without the watchdog every NMI is
     * an overflow, and port 0x61 is still read, at most every 10 ms.
     */
    if ( !watchdog )
    {
        uint64_t p0 = xen_stats[0].port61, n0 = xen_stats[0].nmis;
        s_time_t t0 = xen_time(), ms;

        run_all(SIM_NR_CPUS, 5);
        ms = (xen_time() - t0) / MILLISECS(1);
        tap_ok(xen_stats[0].port61 > p0 &&
               xen_stats[0].port61 - p0 <= (uint64_t)ms / 10 + 1 &&
               xen_stats[0].port61 - p0 < xen_stats[0].nmis - n0,
               "sharing %s: every NMI an overflow: port 0x61 still read "
               "(%llu times in %lld ms, %llu NMIs), at most every 10 ms",
               m->name, (unsigned long long)(xen_stats[0].port61 - p0),
               (long long)ms,
               (unsigned long long)(xen_stats[0].nmis - n0));
    }

    /* Microcode loading takes the slot mid-session, and hands NMIs on. */
    set_nmi_callback(microcode_cb);
    snap_samples(SIM_NR_CPUS, s);
    run_all(SIM_NR_CPUS, 5);
    tap_ok(all_sampling(SIM_NR_CPUS, s, 300),
           "sharing %s%s: microcode's callback in the slot: every overflow "
           "claimed, sampled and re-armed, no unknown NMI", m->name, wd);

    set_nmi_callback(NULL);
    snap_samples(SIM_NR_CPUS, s);
    run_all(SIM_NR_CPUS, 5);
    if ( !tap_ok(all_sampling(SIM_NR_CPUS, s, 300),
                 "sharing %s%s: slot given back: still sampling", m->name,
                 wd) )
        for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
            tap_diag("pCPU %u: %llu samples, %llu unknown, %llu stuck, "
                     "pmis %llu masked %llu nmis %llu lvtpc %#x active %d",
                     cpu,
                     (unsigned long long)(xen_stats[cpu].samples - s[cpu]),
                     (unsigned long long)xen_stats[cpu].unknown,
                     (unsigned long long)xen_stats[cpu].wd_stuck,
                     (unsigned long long)sim_cpu(cpu)->pmis,
                     (unsigned long long)sim_cpu(cpu)->pmis_masked,
                     (unsigned long long)sim_cpu(cpu)->nmis,
                     sim_cpu(cpu)->lvtpc, glue_state(cpu)->active);

    /*
     * A crash's shootdown (or a livepatch, which is refused while we
     * sample) takes the slot and swallows every NMI: none of the
     * profiler's code runs, not one PMU register is touched.
     */
    set_nmi_callback(swallow_cb);
    {
        uint64_t hw[SIM_NR_CPUS], claimed = 0;
        bool quiet = true;

        for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        {
            hw[cpu] = sim_cpu(cpu)->hw_access;
            claimed -= xen_stats[cpu].claimed;
        }
        snap_samples(SIM_NR_CPUS, s);
        run_all(SIM_NR_CPUS, 5);
        for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        {
            quiet = quiet && sim_cpu(cpu)->hw_access == hw[cpu] &&
                    xen_stats[cpu].samples == s[cpu];
            claimed += xen_stats[cpu].claimed;
        }
        tap_ok(claimed && quiet,
               "sharing %s%s: a crash's callback swallowing NMIs (%llu): "
               "no profiler code ran, no PMU register touched", m->name,
               wd, (unsigned long long)claimed);
    }
    set_nmi_callback(NULL);

    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        src->stop(cpu);
    tap_ok(test_pmu_free() && !glue_nr_started(),
           "sharing %s%s: stopped, PMU free", m->name, wd);
}

/*
 * An overflow whose PMI takes longer to arrive than stop waits for it:
 * its NMI comes after the counter was given back, and must not be an
 * unknown NMI (fatal with nmi=fatal).
 */
static void late_pmi(const struct sim_model *m)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0);
    unsigned int reason;
    uint64_t samples;
    int rc;

    test_setup(m, 1, KHZ);
    rc = src->check(&cfg, &reason) ?: src->start(&cfg, 0, &reason);
    if ( !tap_ok(!rc, "late PMI %s: started", m->name) )
        return;
    run_all(1, 1);
    samples = xen_stats[0].samples;
    /* From now on a PMI takes 10^7 cycles (3.3 ms) to arrive. */
    sim_cpu(0)->pmi_latency = 10000000;
    sim_run(150000, 100000, 150000, 0, 0);
    tap_ok(sim_cpu(0)->pending && xen_stats[0].samples == samples,
           "late PMI %s: an overflow's NMI is on its way", m->name);
    src->stop(0);
    tap_ok(test_pmu_free() && glue_state(0)->late,
           "late PMI %s: stopped with it still pending: remembered",
           m->name);
    sim_cpu(0)->pmi_latency = 0;
    sim_run(200000000, 100000000, 200000000, 0, 0);
    tap_ok(!sim_cpu(0)->pending && !xen_stats[0].unknown &&
           glue_state(0)->late_nmis == 1 && !glue_state(0)->late &&
           xen_stats[0].samples == samples,
           "late PMI %s: it arrives after stop: claimed (%llu), not an "
           "unknown NMI (%llu), no sample", m->name,
           (unsigned long long)glue_state(0)->late_nmis,
           (unsigned long long)xen_stats[0].unknown);
}

/*
 * Stopped with an overflow pending whose NMI never comes (its PMI was
 * lost): a later NMI of someone else's is reported as unknown, unless it
 * comes within PMU_LATE_NMI_MS (10 ms, was 100), when it is taken for
 * that overflow's.
 */
static void late_foreign(const struct sim_model *m, uint64_t after_ms,
                         bool claimed)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100000, 0);
    unsigned int reason;
    uint64_t unknown;
    int rc;

    test_setup(m, 1, KHZ);
    rc = src->check(&cfg, &reason) ?: src->start(&cfg, 0, &reason);
    if ( !tap_ok(!rc, "late foreign %s: started", m->name) )
        return;
    run_all(1, 1);
    sim_cpu(0)->pmi_lost = true;
    sim_run(150000, 100000, 150000, 0, 0);
    src->stop(0);
    sim_cpu(0)->pmi_lost = false;
    sim_idle(after_ms * KHZ);
    unknown = xen_stats[0].unknown;
    sim_external_nmi();
    tap_ok(claimed ? xen_stats[0].unknown == unknown &&
                     glue_state(0)->late_nmis == 1
                   : xen_stats[0].unknown == unknown + 1 &&
                     !glue_state(0)->late_nmis,
           "late foreign %s: stopped with a pending overflow whose PMI "
           "was lost, an NMI from elsewhere %llu ms later: %s", m->name,
           (unsigned long long)after_ms,
           claimed ? "claimed (the counters cannot tell)"
                   : "reported as unknown");
}

/* vPMU switched on while a session runs, and the two orders of a race. */
static void vpmu(void)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 997);
    uint64_t s[2];
    unsigned int reason;
    int rc;

    test_setup(&m_intel_v3_fw, 2, KHZ);
    rc = src->check(&cfg, &reason) ?: src->start(&cfg, 0, &reason) ?:
         src->start(&cfg, 1, &reason);
    if ( !tap_ok(!rc, "vpmu: session started") )
        return;
    rc = xen_vpmu_mode_set(XENPMU_MODE_SELF);
    snap_samples(2, s);
    run_all(2, 5);
    tap_ok(rc == -EBUSY && vpmu_mode == XENPMU_MODE_OFF &&
           all_sampling(2, s, 300),
           "vpmu: XENPMU_mode_set mid-session: -EBUSY (%d), vPMU stays "
           "off, sampling goes on", rc);
    src->stop(0);
    src->stop(1);
    rc = xen_vpmu_mode_set(XENPMU_MODE_SELF);
    tap_ok(!rc && vpmu_mode == XENPMU_MODE_SELF,
           "vpmu: after the session, XENPMU_mode_set works (%d)", rc);
    rc = src->check(&cfg, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_VPMU,
           "vpmu: then a session is refused: -EBUSY, VPMU (%d, %u)", rc,
           reason);
    vpmu_mode = XENPMU_MODE_OFF;

    /* mode_set has written the mode, but not checked the owner yet. */
    rc = src->check(&cfg, &reason);
    vpmu_mode = XENPMU_MODE_SELF;
    reason = XEN_SYSCTL_PROFILE_REASON_NONE;
    rc = rc ?: src->start(&cfg, 0, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_VPMU &&
           test_pmu_free() && !glue_nr_started(),
           "vpmu: mode set between check and start: start sees it, -EBUSY "
           "(%d), VPMU (%u), PMU free", rc, reason);
    vpmu_mode = XENPMU_MODE_OFF;
}

/* One pCPU whose counter register cannot be written. */
static void failing_wrmsr(const struct sim_model *m)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 997);
    struct sim_msr before[SIM_MAX_MSRS], now[SIM_MAX_MSRS];
    uint64_t s[SIM_NR_CPUS];
    unsigned int cpu, reason, n;
    int rc, rcs[SIM_NR_CPUS];
    bool others = true;

    test_setup(m, SIM_NR_CPUS, KHZ);
    rc = src->check(&cfg, &reason);
    if ( !tap_ok(!rc, "wrmsr %s: check passes", m->name) )
        return;
    sim_cpu(1)->wrmsr_fail = glue_counter()->wr_msr;
    n = sim_snapshot(1, before);
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        rcs[cpu] = src->start(&cfg, cpu, &reason);
    sim_snapshot(1, now);
    tap_ok(rcs[1] == -EIO && !rcs[0] && !rcs[2] && !rcs[3] &&
           glue_nr_started() == SIM_NR_CPUS - 1,
           "wrmsr %s: the pCPU whose counter write fails: -EIO (%d), the "
           "others start", m->name, rcs[1]);
    tap_ok(test_same_msrs(1, before, now, n, NULL) && !glue_state(1)->active,
           "wrmsr %s: that pCPU's registers are as before, it is not armed",
           m->name);
    tap_ok(strstr(xen_log, "pCPU 1: PMU cannot be programmed") != NULL,
           "wrmsr %s: Xen says so in its log", m->name);
    snap_samples(SIM_NR_CPUS, s);
    run_all(SIM_NR_CPUS, 5);
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        if ( cpu != 1 )
            others = others && xen_stats[cpu].samples > s[cpu] + 300;
    tap_ok(others && xen_stats[1].samples == s[1] && !xen_stats[1].unknown,
           "wrmsr %s: the others sample, it does not", m->name);
    for ( cpu = 0; cpu < SIM_NR_CPUS; cpu++ )
        if ( cpu != 1 )
            src->stop(cpu);
    tap_ok(test_pmu_free() && !glue_nr_started(),
           "wrmsr %s: stopped, PMU free", m->name);
}

/*
 * A livepatch masks NMIs while it patches: the PMU source and the
 * livepatch rendezvous exclude each other (common/profile/nmi.c).  While
 * a livepatch holds the block, the probe and a start are refused (and the
 * probe's verdict is not spoilt); while the source probes or samples, the
 * livepatch is refused.
 */
static void livepatch(const struct sim_model *m)
{
    struct profile_config cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_CYCLES, 0, 997);
    unsigned int reason = 0, cpu;
    uint64_t s[SIM_NR_CPUS];
    int rc;

    test_setup(m, SIM_NR_CPUS, KHZ);
    tap_ok(profile_nmi_block(), "livepatch %s: no session: a livepatch "
           "may mask NMIs", m->name);
    rc = src->check(&cfg, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_PMU_BUSY &&
           glue_probe_result() == 1 && test_pmu_free(),
           "livepatch %s: meanwhile the probe is refused (%d, reason %u), "
           "its verdict still to come, the PMU free", m->name, rc, reason);
    reason = XEN_SYSCTL_PROFILE_REASON_NONE;
    rc = src->start(&cfg, 0, &reason);
    tap_ok(rc == -EBUSY && reason == XEN_SYSCTL_PROFILE_REASON_PMU_BUSY &&
           test_pmu_free() && !glue_nr_started(),
           "livepatch %s: ... and so is a start (%d, reason %u)", m->name,
           rc, reason);
    profile_nmi_unblock();

    rc = src->check(&cfg, &reason);
    for ( cpu = 0; !rc && cpu < SIM_NR_CPUS; cpu++ )
        rc = src->start(&cfg, cpu, &reason);
    tap_ok(!rc && glue_probe_result() == 0,
           "livepatch %s: after it, the probe passes and a session starts "
           "(%d)", m->name, rc);
    tap_ok(!profile_nmi_block(), "livepatch %s: while the session samples, "
           "a livepatch is refused", m->name);
    snap_samples(SIM_NR_CPUS, s);
    run_all(SIM_NR_CPUS, 5);
    tap_ok(all_sampling(SIM_NR_CPUS, s, 300),
           "livepatch %s: and the session samples on", m->name);
    for ( cpu = 0; cpu < SIM_NR_CPUS - 1; cpu++ )
        src->stop(cpu);
    tap_ok(!profile_nmi_block(), "livepatch %s: refused while one pCPU "
           "still samples", m->name);
    src->stop(SIM_NR_CPUS - 1);
    tap_ok(profile_nmi_block() && test_pmu_free(),
           "livepatch %s: all stopped: a livepatch may mask NMIs again",
           m->name);
    profile_nmi_unblock();
}

void test_sharing(void)
{
    src = arch_profile_pmu_source();
    callbacks(&m_intel_v3_fw, false);
    callbacks(&m_intel_v3_fw, true);
    callbacks(&m_amd_17h, false);
    callbacks(&m_amd_17h, true);
    late_pmi(&m_intel_v3_fw);
    late_pmi(&m_amd_17h);
    late_foreign(&m_intel_v3_fw, 5, true);
    late_foreign(&m_intel_v3_fw, 20, false);
    late_foreign(&m_amd_17h, 5, true);
    late_foreign(&m_amd_17h, 20, false);
    vpmu();
    failing_wrmsr(&m_intel_v3_fw);
    failing_wrmsr(&m_amd_17h);
    livepatch(&m_intel_v3_fw);
    livepatch(&m_amd_17h);
}
