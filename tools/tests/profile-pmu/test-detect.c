/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-detect.c: profile_pmu_detect() on every model: usable or refused (with a
 * reason), and what it found.
 */
#include "test.h"

static const struct {
    const struct sim_model *m;
    int rc;
    enum pmu_vendor vendor;
    unsigned int version, nr_gp, gp_width, nr_fixed, fixed_width, family;
    bool full_width, amd_ext;
} detect[] = {
    { &m_intel_v2, 0, PMU_VENDOR_INTEL, 2, 4, 48, 3, 48, 0, false, false },
    { &m_intel_v3_fw, 0, PMU_VENDOR_INTEL, 3, 8, 48, 3, 48, 0, true, false },
    { &m_intel_v4, 0, PMU_VENDOR_INTEL, 4, 4, 48, 3, 48, 0, false, false },
    { &m_intel_v4_nocaps, 0, PMU_VENDOR_INTEL, 4, 4, 48, 3, 48, 0, false,
      false },
    { &m_intel_v4_nobrmiss, 0, PMU_VENDOR_INTEL, 4, 4, 48, 3, 48, 0, true,
      false },
    { &m_intel_short_ebx, 0, PMU_VENDOR_INTEL, 2, 4, 48, 3, 48, 0, false,
      false },
    { &m_intel_v1, -EOPNOTSUPP },
    { &m_intel_v0, -EOPNOTSUPP },
    { &m_intel_noleaf, -EOPNOTSUPP },
    { &m_intel_1gp, -EOPNOTSUPP },
    { &m_amd_10h, 0, PMU_VENDOR_AMD, 0, 4, 48, 0, 0, 0x10, false, false },
    { &m_amd_17h, 0, PMU_VENDOR_AMD, 0, 6, 48, 0, 0, 0x17, false, true },
    /* Levelled: what CPUID hides, the boot CPU's data and family tell. */
    { &m_amd_noext, 0, PMU_VENDOR_AMD, 0, 6, 48, 0, 0, 0x15, false, true },
    { &m_intel_levelled, 0, PMU_VENDOR_INTEL, 3, 8, 48, 3, 48, 0, true,
      false },
    { &m_hygon_18h, 0, PMU_VENDOR_AMD, 0, 6, 48, 0, 0, 0x18, false, true },
    { &m_amd_0fh, -EOPNOTSUPP },
    { &m_centaur, -EOPNOTSUPP },
};

void test_detect(void)
{
    struct pmu_caps c;
    unsigned int i;
    int rc;

    for ( i = 0; i < ARRAY_SIZE(detect); i++ )
    {
        const char *name = detect[i].m->name;

        test_setup(detect[i].m, 1, 3000000);
        memset(&c, 0xa5, sizeof(c));
        rc = profile_pmu_detect(&c);
        if ( detect[i].rc )
        {
            tap_ok(rc == detect[i].rc && c.why && *c.why &&
                   c.vendor == PMU_VENDOR_NONE,
                   "detect %s: refused (%d), why: %s", name, rc,
                   rc && c.why ? c.why : "-");
            continue;
        }
        tap_ok(!rc && !c.why && c.vendor == detect[i].vendor &&
               c.version == detect[i].version &&
               c.nr_gp == detect[i].nr_gp &&
               c.gp_width == detect[i].gp_width &&
               (c.vendor != PMU_VENDOR_INTEL ||
                (c.nr_fixed == detect[i].nr_fixed &&
                 c.fixed_width == detect[i].fixed_width)) &&
               c.full_width == detect[i].full_width &&
               c.amd_ext == detect[i].amd_ext &&
               (c.vendor != PMU_VENDOR_AMD || c.family == detect[i].family),
               "detect %s: v%u, %u GP x %u bits, %u fixed x %u, "
               "full-width %d, family %#x, ext %d", name, c.version,
               c.nr_gp, c.gp_width, c.nr_fixed, c.fixed_width,
               c.full_width, c.family, c.amd_ext);
    }

    /* Only the EBX bits within its length count: 5 of 7 here. */
    test_setup(&m_intel_short_ebx, 1, 3000000);
    profile_pmu_detect(&c);
    tap_ok((c.unavailable & 0x7f) == 0x60,
           "detect: EBX length 5 leaves events 5 and 6 unavailable (%#x)",
           c.unavailable);
    test_setup(&m_intel_v4_nobrmiss, 1, 3000000);
    profile_pmu_detect(&c);
    tap_ok((c.unavailable & 0x7f) == 0x40,
           "detect: EBX bit 6 is branch-misses (%#x)", c.unavailable);
}
