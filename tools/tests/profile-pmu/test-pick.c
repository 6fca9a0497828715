/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-pick.c: profile_pmu_pick_counter(): Intel fixed counters for cycles,
 * instructions and ref-cycles, GP counters for LLC and branch misses,
 * never GP counter 0 while the watchdog runs, events the CPU lacks
 * refused (no substitute), the largest period per write width.
 */
#include "test.h"

#define ALL     (PMU_EVNTSEL_USR | PMU_EVNTSEL_OS | PMU_EVNTSEL_INT | \
                 PMU_EVNTSEL_EN)
#define LEGACY  0x7fffffffULL
#define FULL47  ((1ULL << 47) - 1)

static const struct {
    const struct sim_model *m;
    unsigned int event;
    bool watchdog;
    int rc;
    bool fixed;
    unsigned int idx, ctl_msr, ctr_msr, wr_msr;
    uint64_t ctl, max_period;
} pick[] = {
    /* Intel, legacy writes */
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_DEFAULT, true, 0, true, 1, 0, 0x30a,
      0x30a, 0, LEGACY },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_CYCLES, false, 0, true, 1, 0, 0x30a,
      0x30a, 0, LEGACY },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, true, 0, true, 0, 0,
      0x309, 0x309, 0, LEGACY },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES, true, 0, true, 2, 0, 0x30b,
      0x30b, 0, LEGACY },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, 0, false, 1, 0x187,
      0xc2, 0xc2, 0x412e | ALL, LEGACY },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, false, 0, false, 0, 0x186,
      0xc1, 0xc1, 0x412e | ALL, LEGACY },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, true, 0, false, 1, 0x187,
      0xc2, 0xc2, 0xc5 | ALL, LEGACY },
    /* Intel, full-width writes */
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_CYCLES, true, 0, true, 1, 0, 0x30a,
      0x30a, 0, FULL47 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, 0, false, 1, 0x187,
      0xc2, 0x4c2, 0x412e | ALL, FULL47 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, false, 0, false, 0,
      0x186, 0xc1, 0x4c1, 0xc5 | ALL, FULL47 },
    /* Intel, PERF_CAPABILITIES unreadable: legacy */
    { &m_intel_v4_nocaps, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, 0, false, 1,
      0x187, 0xc2, 0xc2, 0x412e | ALL, LEGACY },
    /* Intel without branch-misses */
    { &m_intel_v4_nobrmiss, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, true,
      -EOPNOTSUPP },
    { &m_intel_v4_nobrmiss, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, false,
      -EOPNOTSUPP },
    { &m_intel_v4_nobrmiss, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, 0, false, 1,
      0x187, 0xc2, 0x4c2, 0x412e | ALL, FULL47 },
    { &m_intel_short_ebx, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, true,
      -EOPNOTSUPP },
    { &m_intel_short_ebx, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, 0, false, 1,
      0x187, 0xc2, 0xc2, 0x412e | ALL, LEGACY },
    /* AMD family 0x10: the legacy bank */
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, true, 0, false, 1, 0xc0010001,
      0xc0010005, 0xc0010005, 0x76 | ALL, FULL47 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, false, 0, false, 0, 0xc0010000,
      0xc0010004, 0xc0010004, 0x76 | ALL, FULL47 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, true, 0, false, 1,
      0xc0010001, 0xc0010005, 0xc0010005, 0xc0 | ALL, FULL47 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, true, 0, false, 1,
      0xc0010001, 0xc0010005, 0xc0010005, 0xc3 | ALL, FULL47 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES, true, -EOPNOTSUPP },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, false, -EOPNOTSUPP },
    /* AMD family 0x17, Hygon: PerfCtrExtCore */
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, true, 0, false, 1, 0xc0010202,
      0xc0010203, 0xc0010203, 0x76 | ALL, FULL47 },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_DEFAULT, false, 0, false, 0, 0xc0010200,
      0xc0010201, 0xc0010201, 0x76 | ALL, FULL47 },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES, false, -EOPNOTSUPP },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, true, -EOPNOTSUPP },
    { &m_hygon_18h, XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES, true, 0, false, 1,
      0xc0010202, 0xc0010203, 0xc0010203, 0xc3 | ALL, FULL47 },
    /* AMD family 0x15, PerfCtrExtCore hidden by levelling: the extended bank */
    { &m_amd_noext, XEN_SYSCTL_PROFILE_EVENT_CYCLES, true, 0, false, 1, 0xc0010202,
      0xc0010203, 0xc0010203, 0x76 | ALL, FULL47 },
};

static const struct sim_model *const usable[] = {
    &m_intel_v2, &m_intel_v3_fw, &m_intel_v4, &m_intel_v4_nocaps,
    &m_intel_v4_nobrmiss, &m_intel_short_ebx, &m_amd_10h, &m_amd_17h,
    &m_amd_noext, &m_hygon_18h,
};

static void pick_table(void)
{
    struct pmu_caps c;
    struct pmu_counter k;
    unsigned int i;
    int rc;

    for ( i = 0; i < ARRAY_SIZE(pick); i++ )
    {
        test_setup(pick[i].m, 1, 3000000);
        profile_pmu_detect(&c);
        memset(&k, 0xa5, sizeof(k));
        rc = profile_pmu_pick_counter(&c, pick[i].event, pick[i].watchdog, &k);
        if ( pick[i].rc )
        {
            tap_ok(rc == pick[i].rc, "pick %s, event %u, watchdog %d: "
                   "refused (%d)", pick[i].m->name, pick[i].event,
                   pick[i].watchdog, rc);
            continue;
        }
        tap_ok(!rc && k.fixed == pick[i].fixed && k.idx == pick[i].idx &&
               (k.fixed || k.ctl_msr == pick[i].ctl_msr) &&
               k.ctr_msr == pick[i].ctr_msr && k.wr_msr == pick[i].wr_msr &&
               (k.fixed || k.ctl == pick[i].ctl) &&
               k.max_period == pick[i].max_period && k.width == 48,
               "pick %s, event %u, watchdog %d: %s %u, ctl %#x=%#llx, ctr "
               "%#x, write %#x, max %#llx", pick[i].m->name, pick[i].event,
               pick[i].watchdog, k.fixed ? "fixed" : "GP", k.idx, k.ctl_msr,
               (unsigned long long)k.ctl, k.ctr_msr, k.wr_msr,
               (unsigned long long)k.max_period);
    }
}

/* Every usable model, every event: GP 0 is the watchdog's. */
static void pick_never_gp0(void)
{
    struct pmu_caps c;
    struct pmu_counter k;
    unsigned int i, ev, bad = 0, picked = 0;

    for ( i = 0; i < ARRAY_SIZE(usable); i++ )
    {
        test_setup(usable[i], 1, 3000000);
        profile_pmu_detect(&c);
        for ( ev = 0; ev <= XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES; ev++ )
        {
            if ( profile_pmu_pick_counter(&c, ev, true, &k) )
                continue;
            picked++;
            if ( !k.fixed && k.idx == 0 )
            {
                tap_diag("%s event %u: GP 0", usable[i]->name, ev);
                bad++;
            }
        }
    }
    tap_ok(!bad && picked > 30, "pick: never GP counter 0 with the watchdog "
           "(%u picks)", picked);
}

static void pick_out_of_range(void)
{
    static const unsigned int evs[] = { 6, 7, 255, 0x80000000u, ~0u };
    struct pmu_caps c;
    struct pmu_counter k;
    unsigned int i, j, bad = 0;

    for ( i = 0; i < ARRAY_SIZE(usable); i++ )
    {
        test_setup(usable[i], 1, 3000000);
        profile_pmu_detect(&c);
        for ( j = 0; j < ARRAY_SIZE(evs); j++ )
            if ( profile_pmu_pick_counter(&c, evs[j], j & 1, &k) != -EOPNOTSUPP )
                bad++;
    }
    tap_ok(!bad, "pick: events beyond branch-misses refused on every model");
}

/* Without usable fixed counters, cycles fall back to a GP counter. */
static void pick_no_fixed(void)
{
    struct sim_model m = m_intel_v2;
    struct pmu_caps c;
    struct pmu_counter k;
    int rc;

    m.nr_fixed = 0;
    test_setup(&m, 1, 3000000);
    profile_pmu_detect(&c);
    rc = profile_pmu_pick_counter(&c, XEN_SYSCTL_PROFILE_EVENT_CYCLES, true, &k);
    tap_ok(!rc && !k.fixed && k.idx == 1 && k.ctl == (0x3c | ALL),
           "pick: no fixed counters: cycles on GP 1");
    rc = profile_pmu_pick_counter(&c, XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES, false, &k);
    tap_ok(!rc && !k.fixed && k.idx == 0 && k.ctl == (0x13c | ALL),
           "pick: no fixed counters: ref-cycles on GP 0 without watchdog");

    m = m_intel_v2;
    m.nr_gp = 2;
    m.nr_fixed = 0;
    m.unavailable = 1u << 0;
    test_setup(&m, 1, 3000000);
    profile_pmu_detect(&c);
    tap_ok(profile_pmu_pick_counter(&c, XEN_SYSCTL_PROFILE_EVENT_CYCLES, true, &k) ==
           -EOPNOTSUPP, "pick: no fixed counter, cycles unavailable: refused");
}

void test_pick(void)
{
    pick_table();
    pick_never_gp0();
    pick_out_of_range();
    pick_no_fixed();
}
