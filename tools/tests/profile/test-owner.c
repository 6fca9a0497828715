/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-owner.c: the PMU's owner (xen/common/pmu-owner.c) under the calls
 * of its users: the profiler, and HVM vPMU as vpmu_amd.c makes them.
 * A release by whoever does not own the counters, or an HVM release with
 * none granted, must change nothing: before, the HVM count went below
 * zero and the owner stuck for good (vPMU never again, or every profiler
 * session refused), and a release by HVM took the counters from the
 * profiler.
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

/* One AMD vCPU's vPMU, as vpmu_amd.c drives the owner: running or not. */
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

    /* While the profiler owns them, a guest enabling a counter waits. */
    tap_ok(acquire_pmu_ownership(PMU_OWNER_PROFILER),
           "owner: the profiler takes the counters again");
    guest_wrmsr(&b, true);
    tap_ok(!b.running && pmu_owned_by(PMU_OWNER_PROFILER),
           "owner: a guest enabling a counter meanwhile is ignored");
    guest_wrmsr(&b, false);
    tap_ok(pmu_owned_by(PMU_OWNER_PROFILER),
           "owner: ... and its disable releases nothing");
    release_pmu_ownership(PMU_OWNER_PROFILER);
    tap_ok(free_for_all(), "owner: free at the end");
}
