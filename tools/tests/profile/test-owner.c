/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-owner.c: the PMU's owner (xen/common/pmu-owner.c) under the calls
 * of its users: the profiler, and HVM vPMU as vpmu_amd.c makes them.
 * A release that was never granted must change nothing: before, one
 * more release than acquisitions took the HVM count below zero, and the
 * owner stuck for good (vPMU never again, or every profiler session
 * refused).
 */
#include "emul-common.h"
#include "tap.h"

/* Nobody owns the counters: both users can take them in turn. */
static bool free_for_all(void)
{
    bool ok;

    ok = acquire_pmu_ownership(PMU_OWNER_PROFILER) &&
         pmu_owned_by(PMU_OWNER_PROFILER);
    release_pmu_ownership(PMU_OWNER_PROFILER);
    ok = ok && acquire_pmu_ownership(PMU_OWNER_HVM) &&
         pmu_owned_by(PMU_OWNER_HVM);
    release_pmu_ownership(PMU_OWNER_HVM);

    return ok && !pmu_owned_by(PMU_OWNER_HVM) &&
           !pmu_owned_by(PMU_OWNER_PROFILER);
}

/*
 * One AMD vCPU's vPMU, as vpmu_amd.c drives the owner: the running flag,
 * and whether the fixed XENPMU_flush path takes the counters when a
 * loaded context has a counter enabled.
 */
struct vcpu_model {
    bool running;
};

/* amd_vpmu_do_wrmsr(): a control MSR write enabling or disabling. */
static void guest_wrmsr(struct vcpu_model *v, bool enable)
{
    if ( enable && !v->running )
    {
        if ( !acquire_pmu_ownership(PMU_OWNER_HVM) )
            return;
        v->running = true;
    }
    else if ( !enable && v->running )
    {
        v->running = false;
        release_pmu_ownership(PMU_OWNER_HVM);
    }
}

/* amd_vpmu_load(v, true), the XENPMU_flush path: -EBUSY or 0. */
static int guest_flush(struct vcpu_model *v, bool enabled, bool takes)
{
    if ( enabled && !v->running )
    {
        if ( takes && !acquire_pmu_ownership(PMU_OWNER_HVM) )
            return -EBUSY;
        v->running = true;
    }
    else if ( !enabled && v->running )
    {
        v->running = false;
        release_pmu_ownership(PMU_OWNER_HVM);
    }
    return 0;
}

void test_owner(void)
{
    struct vcpu_model a = { false }, b = { false };

    tap_ok(free_for_all(), "owner: free at first, for either user");

    /* Balanced HVM use, two vCPUs. */
    guest_wrmsr(&a, true);
    guest_wrmsr(&b, true);
    tap_ok(!acquire_pmu_ownership(PMU_OWNER_PROFILER),
           "owner: the profiler is refused while two vCPUs run vPMU");
    guest_wrmsr(&a, false);
    tap_ok(pmu_owned_by(PMU_OWNER_HVM),
           "owner: HVM keeps the counters while one vCPU runs vPMU");
    guest_wrmsr(&b, false);
    tap_ok(free_for_all(), "owner: free when the last vCPU stops");

    /* A release with nothing granted: no count below zero. */
    release_pmu_ownership(PMU_OWNER_HVM);
    tap_ok(free_for_all(),
           "owner: an HVM release without an acquire changes nothing");

    /* A release by whoever does not own the counters. */
    tap_ok(acquire_pmu_ownership(PMU_OWNER_PROFILER),
           "owner: the profiler takes the counters");
    release_pmu_ownership(PMU_OWNER_HVM);
    tap_ok(pmu_owned_by(PMU_OWNER_PROFILER),
           "owner: an HVM release does not take them from the profiler");
    release_pmu_ownership(PMU_OWNER_PROFILER);
    tap_ok(free_for_all(),
           "owner: free after the profiler's own release");

    /*
     * XENPMU_flush with a counter enabled, then the guest disables it:
     * as vpmu_amd.c did before (running without an acquire, then a
     * release), and as it does now.
     */
    tap_ok(!guest_flush(&a, true, false), "owner: old flush path runs");
    guest_wrmsr(&a, false);
    tap_ok(free_for_all(),
           "owner: the old flush path's unbalanced release changes nothing");

    tap_ok(!guest_flush(&a, true, true) && pmu_owned_by(PMU_OWNER_HVM),
           "owner: the flush path takes the counters for HVM");
    tap_ok(!acquire_pmu_ownership(PMU_OWNER_PROFILER),
           "owner: ... and the profiler is then refused");
    guest_wrmsr(&a, false);
    tap_ok(free_for_all(), "owner: free when that vCPU stops");

    /* While the profiler owns them, the flush path is refused. */
    tap_ok(acquire_pmu_ownership(PMU_OWNER_PROFILER),
           "owner: the profiler takes the counters again");
    tap_ok(guest_flush(&b, true, true) == -EBUSY && !b.running,
           "owner: a flush enabling a counter is EBUSY while profiling");
    release_pmu_ownership(PMU_OWNER_PROFILER);
    tap_ok(free_for_all(), "owner: free at the end");
}
