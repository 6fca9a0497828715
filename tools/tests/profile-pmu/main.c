/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c: the PMU driver tests, one TAP stream whose plan line comes
 * last, once the number of checks is known; and the shared helpers.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

void test_setup(const struct sim_model *m, unsigned int nr_cpus,
                uint64_t khz)
{
    sim_init(m, nr_cpus, khz);
    xen_reset();
    glue_reset();
    /* Nobody owns the PMU (no HVM references are ever taken here). */
    release_pmu_ownership(PMU_OWNER_NONE);
}

struct profile_config test_cfg(unsigned int event, uint64_t period,
                               unsigned int frequency)
{
    struct profile_config cfg = {
        .source = XEN_SYSCTL_PROFILE_SOURCE_PMU,
        .frequency = frequency,
        .period = period,
        .max_depth = 16,
        .ring_kib = 64,
        .event = event,
    };

    return cfg;
}

bool test_pmu_free(void)
{
    if ( !acquire_pmu_ownership(PMU_OWNER_OTHER) )
        return false;
    release_pmu_ownership(PMU_OWNER_OTHER);
    return true;
}

bool test_same_msrs(unsigned int cpu, const struct sim_msr *a,
                    const struct sim_msr *b, unsigned int n,
                    const uint32_t *skip)
{
    unsigned int i, j;
    bool same = true;

    for ( i = 0; i < n; i++ )
    {
        for ( j = 0; skip && skip[j] && skip[j] != a[i].addr; j++ )
            ;
        if ( skip && skip[j] )
            continue;
        if ( a[i].addr == b[i].addr && a[i].val == b[i].val )
            continue;
        tap_diag("cpu%u MSR %#x: %#llx, now %#llx", cpu, a[i].addr,
                 (unsigned long long)a[i].val, (unsigned long long)b[i].val);
        same = false;
    }
    return same;
}

/*
 * Over every simulated boot above: the NMI path took no lock, printed
 * nothing and touched no MSR that faults (a recovered #GP would IRET and
 * unblock NMIs inside the NMI handler).
 */
static void rules_in_nmi(void)
{
    tap_ok(!xen_nmi_rule_breaks, "NMI context: no lock taken, nothing "
           "printed (%u times)", xen_nmi_rule_breaks);
    tap_ok(!sim_nmi_faults, "NMI context: no MSR access faulted (%llu)",
           (unsigned long long)sim_nmi_faults);
    tap_ok(!sim_plain_faults, "no plain MSR access faulted: the NMI and the "
           "stop touch only MSRs the start probed (%llu)",
           (unsigned long long)sim_plain_faults);
}

int main(void)
{
    /* A hang (a probe that never times out) is a failure, not a stall. */
    alarm(120);

    test_sim();
    test_detect();
    test_pick();
    test_period();
    test_freq();
    test_watchdog();
    test_source();
    test_race();
    test_sharing();
    rules_in_nmi();

    return tap_done();
}
