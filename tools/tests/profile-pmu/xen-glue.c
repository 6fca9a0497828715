/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-glue.c: pmu-source.c and pmu-session.c (the copies the Makefile
 * generates) and access to their static state, which each test resets:
 * one process runs many simulated boots.
 */
#include "pmu-source.c"
#include "pmu-session.c"

#include "test.h"

void glue_reset(void)
{
    memset(&caps, 0, sizeof(caps));
    memset(&counter, 0, sizeof(counter));
    memset(per_cpu__pmu_state, 0, sizeof(per_cpu__pmu_state));
    nr_started = 0;
    memset(per_cpu__start_rc, 0, sizeof(per_cpu__start_rc));
    probing = false;
    probe_nmis = 0;
    probe_result = 1;
    nmi_reason_next = 0;
}

struct pmu_cpu *glue_state(unsigned int cpu)
{
    return &per_cpu(pmu_state, cpu);
}

const struct pmu_counter *glue_counter(void)
{
    return &counter;
}

const struct pmu_caps *glue_caps(void)
{
    return &caps;
}

int glue_probe_result(void)
{
    return probe_result;
}

unsigned int glue_nr_started(void)
{
    return nr_started;
}
