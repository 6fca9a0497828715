/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim-snapshot.c: the values of every PMU MSR of a simulated pCPU
 * (and its LVTPC), raw, for tests that compare before and after.
 */
#include <assert.h>
#include <stdlib.h>

#include "emul.h"
#include "sim-msr.h"

unsigned int sim_snapshot(unsigned int cpu, struct sim_msr *out)
{
    const struct sim_model *model = sim_model();
    struct sim_cpu *c = sim_cpu(cpu);
    unsigned int n = 0, i, prev = sim_cur();
    uint32_t addrs[SIM_MAX_MSRS];

    if ( model->vendor == SIM_INTEL )
    {
        for ( i = 0; i < sim_nr_gp(); i++ )
        {
            addrs[n++] = MSR_EVNTSEL0 + i;
            addrs[n++] = MSR_PERFCTR0 + i;
        }
        for ( i = 0; i < sim_nr_fixed(); i++ )
            addrs[n++] = MSR_FIXED_CTR0 + i;
        if ( sim_has_global() )
        {
            addrs[n++] = MSR_FIXED_CTRL;
            addrs[n++] = MSR_GLOBAL_STATUS;
            addrs[n++] = MSR_GLOBAL_CTRL;
        }
        if ( model->pdcm && !model->no_perf_caps )
            addrs[n++] = MSR_PERF_CAPS;
    }
    else if ( model->vendor == SIM_AMD || model->vendor == SIM_HYGON )
    {
        for ( i = 0; i < 4; i++ )
        {
            addrs[n++] = SIM_K7_EVNTSEL0 + i;
            addrs[n++] = SIM_K7_PERFCTR0 + i;
        }
        for ( i = 0; model->ext_core && i < sim_nr_gp(); i++ )
        {
            addrs[n++] = MSR_F15H_CTL0 + 2 * i;
            addrs[n++] = MSR_F15H_CTL0 + 2 * i + 1;
        }
    }
    assert(n < SIM_MAX_MSRS);
    sim_set_cpu(cpu);
    for ( i = 0; i < n; i++ )
    {
        out[i].addr = addrs[i];
        if ( sim_rdmsr(addrs[i], &out[i].val) )
            abort();
    }
    sim_set_cpu(prev);
    out[n].addr = SIM_LVTPC_ADDR;
    out[n++].val = c->lvtpc;

    return n;
}
