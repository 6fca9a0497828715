/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim-cpuid.c: CPUID of the simulated CPU model: vendor, family,
 * architectural perfmon (leaf 0xa), AMD's extended core counters.
 */
#include <assert.h>
#include <stdlib.h>

#include "emul.h"
#include "sim-msr.h"

/* ebx, edx, ecx of CPUID leaf 0. */
static void vendor(const char *s, uint32_t r[4])
{
    memcpy(&r[1], s, 4);
    memcpy(&r[3], s + 4, 4);
    memcpy(&r[2], s + 8, 4);
}

void sim_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    static const char *const names[] = {
        [SIM_INTEL] = "GenuineIntel",
        [SIM_AMD] = "AuthenticAMD",
        [SIM_HYGON] = "HygonGenuine",
        [SIM_CENTAUR] = "CentaurHauls",
    };
    const struct sim_model *model = sim_model();
    bool amd = model->vendor == SIM_AMD || model->vendor == SIM_HYGON;
    unsigned int fam = model->family;

    memset(r, 0, 4 * sizeof(*r));
    if ( leaf <= 0xffff && leaf > model->max_leaf )
        return;
    switch ( leaf )
    {
    case 0:
        r[0] = model->max_leaf;
        vendor(names[model->vendor], r);
        break;
    case 1:
        if ( amd )
            r[0] = (fam >= 0xf ? (fam - 0xf) << 20 | 0xf << 8 : fam << 8) |
                   0x10;
        else
            r[0] = 0x00050654;              /* family 6, model 0x55 */
        r[2] = (model->pdcm && !model->levelled ? 1u << 15 : 0) | 1u;
        break;
    case 0xa:
        if ( model->vendor != SIM_INTEL )
            break;
        r[0] = model->version | model->nr_gp << 8 | model->gp_width << 16 |
               model->ebx_len << 24;
        r[1] = model->unavailable;
        r[3] = model->nr_fixed | model->fixed_width << 5;
        break;
    case 0x80000000:
        r[0] = model->max_ext_leaf;
        break;
    case 0x80000001:
        if ( model->max_ext_leaf < 0x80000001 )
            break;
        r[2] = (amd && model->ext_core && !model->levelled ? 1u << 23 : 0) |
               1u;
        break;
    }
}
