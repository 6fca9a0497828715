/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-owner.c: who owns the performance counters (xen/pmu-owner.h): nobody,
 * HVM guests' vPMU (reference counted), or the sampling profiler.
 *
 * From xen/common/xenoprof.c (Copyright (C) 2005 Hewlett-Packard Co.,
 * Aravind Menon & Jose Renato Santos), so that the arbitration exists
 * without xenoprof; a release that was not granted is now ignored.
 */
#include <xen/spinlock.h>
#include <xen/pmu-owner.h>

static DEFINE_SPINLOCK(pmu_owner_lock);
static int pmu_owner = PMU_OWNER_NONE;
static unsigned int pmu_hvm_refcount;

int acquire_pmu_ownership(int pmu_ownership)
{
    spin_lock(&pmu_owner_lock);
    if ( pmu_owner == PMU_OWNER_NONE )
    {
        pmu_owner = pmu_ownership;
        goto out;
    }

    if ( pmu_owner == pmu_ownership )
        goto out;

    spin_unlock(&pmu_owner_lock);
    return 0;
 out:
    if ( pmu_owner == PMU_OWNER_HVM )
        pmu_hvm_refcount++;
    spin_unlock(&pmu_owner_lock);
    return 1;
}

bool pmu_owned_by(int pmu_ownership)
{
    bool owned;

    /* The lock orders this read after the caller's earlier writes. */
    spin_lock(&pmu_owner_lock);
    owned = pmu_owner == pmu_ownership;
    spin_unlock(&pmu_owner_lock);

    return owned;
}

/*
 * Give back what acquire_pmu_ownership() granted.  A release by whoever
 * does not own the counters changes nothing (xenoprof's, or vPMU's, cannot
 * take them from the profiler), and the HVM count never goes below zero,
 * so that no owner is left behind that nobody would release.  The count
 * cannot tell one vCPU's reference from another's: vPMU must release
 * exactly what it acquired.
 */
void release_pmu_ownership(int pmu_ownership)
{
    spin_lock(&pmu_owner_lock);
    if ( pmu_owner == pmu_ownership )
    {
        /* HVM owns the counters exactly while its count is not zero. */
        if ( pmu_ownership == PMU_OWNER_HVM )
            pmu_hvm_refcount--;
        if ( !pmu_hvm_refcount )
            pmu_owner = PMU_OWNER_NONE;
    }
    spin_unlock(&pmu_owner_lock);
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
