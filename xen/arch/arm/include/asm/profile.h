/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * asm/profile.h: what Arm's context switch takes from the sampling
 * profiler (xen/arch/arm/profile/pmu.c).
 */
#ifndef ARM_PROFILE_H
#define ARM_PROFILE_H

#include <xen/percpu.h>
#include <xen/types.h>

#ifdef CONFIG_XEN_PROFILER
/*
 * Bits this pCPU's MDCR_EL2 needs on top of the vCPU's while the profiler
 * samples an event counter here (HPME: Xen's HPMN of 0 reserves every
 * event counter to EL2, and HPME enables them), 0 otherwise.
 */
DECLARE_PER_CPU(register_t, profile_mdcr_el2);
#define profile_mdcr_el2() this_cpu(profile_mdcr_el2)
#else
#define profile_mdcr_el2() ((register_t)0)
#endif

#endif /* ARM_PROFILE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
