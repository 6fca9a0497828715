/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-owner.h: who owns the performance counters (common/pmu-owner.c):
 * nobody, HVM guests' vPMU (reference counted), or the sampling
 * profiler.  Whoever cannot acquire them must not touch them.
 */
#ifndef XEN_PMU_OWNER_H
#define XEN_PMU_OWNER_H

#include <xen/types.h>

#define PMU_OWNER_NONE          0
#define PMU_OWNER_HVM           1
#define PMU_OWNER_PROFILER      2

#ifdef CONFIG_XEN_PROFILER
/* 1 when granted (HVM is reference counted), else 0. */
int acquire_pmu_ownership(int pmu_ownership);
void release_pmu_ownership(int pmu_ownership);
/* Does pmu_ownership own the counters now?  Ordered after earlier writes. */
bool pmu_owned_by(int pmu_ownership);
#else
static inline int acquire_pmu_ownership(int pmu_ownership)
{
    return 1;
}

static inline void release_pmu_ownership(int pmu_ownership)
{
}

static inline bool pmu_owned_by(int pmu_ownership)
{
    return false;
}
#endif

#endif /* XEN_PMU_OWNER_H */
