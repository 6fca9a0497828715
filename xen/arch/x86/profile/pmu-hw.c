/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-hw.c: the hardware port of the PMU driver (pmu.h): MSRs, CPUID, the
 * local APIC's LVTPC and the TSC.  Userspace tests link a port of their
 * own, over a simulated PMU, in place of this file.
 *
 * The driver probes every MSR it uses with the _safe accessors when it
 * arms a counter (profile_pmu_cpu_start()); the overflow NMI and the stop use
 * the plain ones, on those MSRs alone: no fault and no exception fixup
 * in NMI context, whose IRET would unblock NMIs.
 */
#include <xen/errno.h>
#include <xen/types.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "pmu.h"

int profile_pmu_hw_rdmsr_safe(unsigned int msr, uint64_t *val)
{
    return rdmsr_safe(msr, val) ? -EIO : 0;
}

int profile_pmu_hw_wrmsr_safe(unsigned int msr, uint64_t val)
{
    return wrmsr_safe(msr, val) ? -EIO : 0;
}

uint64_t profile_pmu_hw_rdmsr(unsigned int msr)
{
    uint64_t val;

    rdmsrl(msr, val);

    return val;
}

void profile_pmu_hw_wrmsr(unsigned int msr, uint64_t val)
{
    wrmsrl(msr, val);
}

uint32_t profile_pmu_hw_lvtpc_read(void)
{
    return apic_read(APIC_LVTPC);
}

void profile_pmu_hw_lvtpc_write(uint32_t val)
{
    apic_write(APIC_LVTPC, val);
}

void profile_pmu_hw_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    cpuid_count(leaf, subleaf, &r[0], &r[1], &r[2], &r[3]);
}

uint64_t profile_pmu_hw_tsc(void)
{
    return rdtsc();
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
