/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-detect.c: what the profiler's PMU driver finds before it programs
 * anything: whether this CPU's PMU can sample (Intel architectural
 * perfmon version 2 or later, AMD core counters of family 0x10 or later,
 * and the extended PERF_CTL/PERF_CTR bank where present), and which
 * counter counts an event.  CPUID and PERF_CAPABILITIES are read through
 * profile_pmu_hw_*() (pmu.h).
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/types.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/x86-vendors.h>
#include <public/sysctl.h>

#include "pmu.h"

struct event_map {
    uint8_t intel_fixed;            /* fixed counter + 1, 0: none */
    uint8_t intel_bit;              /* CPUID.0xA.EBX bit, 0xff: none */
    uint16_t intel_event;           /* event | umask << 8, 0: none */
    uint16_t amd_event;             /* event code, 0: none */
};

/* Indexed by XEN_SYSCTL_PROFILE_EVENT_*; 0 (the default) is cycles. */
static const struct event_map events[] = {
    [0] = { 2, 0, 0x003c, 0x76 },
    [XEN_SYSCTL_PROFILE_EVENT_CYCLES] = { 2, 0, 0x003c, 0x76 },
    [XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS] = { 1, 1, 0x00c0, 0xc0 },
    [XEN_SYSCTL_PROFILE_EVENT_REF_CYCLES] = { 3, 2, 0x013c, 0 },
    [XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES] = { 0, 4, 0x412e, 0 },
    [XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES] = { 0, 6, 0x00c5, 0xc3 },
};

static int detect_intel(struct pmu_caps *c)
{
    uint32_t r[4];

    profile_pmu_hw_cpuid(0, 0, r);
    if ( r[0] < 0xa )
    {
        c->why = "no CPUID leaf 0xa (architectural perfmon)";
        return -EOPNOTSUPP;
    }
    profile_pmu_hw_cpuid(0xa, 0, r);
    c->version = r[0] & 0xff;
    c->nr_gp = (r[0] >> 8) & 0xff;
    c->gp_width = (r[0] >> 16) & 0xff;
    /* Only the bits within the EBX length are meaningful. */
    c->unavailable = r[1] | ~(uint32_t)pmu_width_mask((r[0] >> 24) & 0xff);
    c->nr_fixed = r[3] & 0x1f;
    c->fixed_width = (r[3] >> 5) & 0xff;
    if ( c->version < 2 )
    {
        c->why = "architectural perfmon version below 2";
        return -EOPNOTSUPP;
    }
    if ( c->nr_gp < 2 || c->gp_width < 32 )
    {
        c->why = "fewer than 2 usable general-purpose counters";
        return -EOPNOTSUPP;
    }

    /*
     * Whether PERF_CAPABILITIES exists, from the boot CPU's features: the
     * CPUID bit itself may be levelled (masked) while Xen runs for a PV
     * vCPU, and this runs in any context.
     */
    if ( cpu_has_pdcm )
    {
        uint64_t cap;

        if ( !profile_pmu_hw_rdmsr_safe(MSR_IA32_PERF_CAPABILITIES, &cap) )
            c->full_width = cap & (1ULL << 13);
    }
    c->vendor = PMU_VENDOR_INTEL;
    return 0;
}

static int detect_amd(struct pmu_caps *c)
{
    c->family = boot_cpu_data.x86;
    if ( c->family < 0x10 )
    {
        c->why = "AMD family below 0x10";
        return -EOPNOTSUPP;
    }
    /*
     * The extended bank (PerfCtrExtCore) by family, as vpmu_amd.c tells
     * it: the CPUID bit may be levelled (masked) while Xen runs for a PV
     * vCPU, and Xen's featureset does not name it.
     */
    c->amd_ext = c->family == 0x15 || c->family >= 0x17;
    c->nr_gp = c->amd_ext ? 6 : 4;
    c->gp_width = 48;
    c->vendor = PMU_VENDOR_AMD;
    return 0;
}

int profile_pmu_detect(struct pmu_caps *c)
{
    memset(c, 0, sizeof(*c));
    if ( boot_cpu_data.x86_vendor & X86_VENDOR_INTEL )
        return detect_intel(c);
    if ( boot_cpu_data.x86_vendor & (X86_VENDOR_AMD | X86_VENDOR_HYGON) )
        return detect_amd(c);

    c->why = "neither an Intel nor an AMD CPU";
    return -EOPNOTSUPP;
}

static void intel_gp(const struct pmu_caps *c, unsigned int idx,
                     unsigned int code, struct pmu_counter *ctr)
{
    ctr->fixed = false;
    ctr->idx = idx;
    ctr->ctl_msr = MSR_P6_EVNTSEL(idx);
    ctr->ctr_msr = MSR_P6_PERFCTR(idx);
    ctr->wr_msr = c->full_width ? PMU_MSR_A_PERFCTR(idx) : ctr->ctr_msr;
    ctr->ctl = code | PMU_EVNTSEL_USR | PMU_EVNTSEL_OS | PMU_EVNTSEL_INT |
               PMU_EVNTSEL_EN;
    ctr->width = c->gp_width;
}

int profile_pmu_pick_counter(const struct pmu_caps *c, unsigned int event,
                             bool watchdog, struct pmu_counter *ctr)
{
    const struct event_map *e;
    unsigned int first = watchdog ? 1 : 0;

    if ( event >= ARRAY_SIZE(events) )
        return -EOPNOTSUPP;
    e = &events[event];
    memset(ctr, 0, sizeof(*ctr));

    if ( c->vendor == PMU_VENDOR_INTEL )
    {
        if ( e->intel_fixed && e->intel_fixed <= c->nr_fixed &&
             c->fixed_width >= 32 )
        {
            ctr->fixed = true;
            ctr->idx = e->intel_fixed - 1;
            ctr->ctr_msr = ctr->wr_msr = PMU_MSR_FIXED_CTR(ctr->idx);
            ctr->width = c->fixed_width;
        }
        else if ( e->intel_event && !(c->unavailable & (1u << e->intel_bit)) &&
                  first < c->nr_gp )
            intel_gp(c, first, e->intel_event, ctr);
        else
            return -EOPNOTSUPP;
        /* Legacy writes sign-extend bit 31. */
        ctr->max_period = c->full_width ? pmu_width_mask(ctr->width - 1)
                                        : 0x7fffffffULL;
        return 0;
    }

    if ( c->vendor == PMU_VENDOR_AMD && e->amd_event && first < c->nr_gp )
    {
        ctr->idx = first;
        ctr->ctl_msr = c->amd_ext ? PMU_MSR_F15H_EVNTSEL(first)
                                  : PMU_MSR_K7_EVNTSEL(first);
        ctr->ctr_msr = ctr->wr_msr = c->amd_ext ? PMU_MSR_F15H_PERFCTR(first)
                                                : PMU_MSR_K7_PERFCTR(first);
        ctr->ctl = (e->amd_event & 0xff) |
                   ((uint64_t)(e->amd_event & 0xf00) << 24) |
                   PMU_EVNTSEL_USR | PMU_EVNTSEL_OS | PMU_EVNTSEL_INT |
                   PMU_EVNTSEL_EN;
        ctr->width = c->gp_width;
        ctr->max_period = pmu_width_mask(ctr->width - 1);
        return 0;
    }

    return -EOPNOTSUPP;
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
